package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"radar"
	"radar/internal/sqldb"
)

func TestUnavailable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := map[string]struct {
		err  error
		want bool
	}{
		"nil":                         {nil, false},
		"refused connection, wrapped": {fmt.Errorf("sqldb: list: %w", refused), true},
		"connection reset":            {fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		"connection cut mid-answer":   {fmt.Errorf("sqldb: get: %w", io.ErrUnexpectedEOF), true},
		"admin shutdown":              {&pgconn.PgError{Code: "57P01"}, true},
		"starting up":                 {&pgconn.PgError{Code: "57P03"}, true},
		"connection failure class":    {&pgconn.PgError{Code: "08006"}, true},
		"syntax error":                {&pgconn.PgError{Code: "42601"}, false},
		"unique violation":            {fmt.Errorf("insert: %w", &pgconn.PgError{Code: "23505"}), false},
		"a client error":              {radar.ErrNotFound, false},
		"the caller went away":        {context.Canceled, false},
		"anything else":               {errors.New("boom"), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := sqldb.Unavailable(tc.err); got != tc.want {
				t.Errorf("Unavailable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
