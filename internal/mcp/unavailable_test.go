package mcp

import (
	"context"
	"fmt"
	"net"
	"syscall"
	"testing"

	"radar"
	"radar/internal/sqldb/storetest"
)

// unreachable is a store whose database refuses connections when companies are listed.
type unreachable struct{ radar.Store }

func (unreachable) Entities(context.Context, radar.EntityFilter) ([]*radar.Entity, error) {
	return nil, fmt.Errorf("sqldb: list entities: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})
}

func TestDatabaseGoneIsServiceUnavailable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{store: func(s radar.Store) radar.Store { return unreachable{s} }})
		cs := e.connect(t, e.key(t, e.org(t, "acme"), radar.Scopes...), "/api/mcp")
		r := fails(t, cs, "list_companies", map[string]any{}, radar.EUnavailable)
		if d := r.errDetails(); d["retryAfterSeconds"] == nil {
			t.Errorf("details = %v, want retryAfterSeconds", d)
		}
	})
}
