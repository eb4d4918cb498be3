package mcp

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/sqldb/storetest"
)

func toolNames(t *testing.T, e *testEnv, key, path string) []string {
	t.Helper()
	res, err := e.connect(t, key, path).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("list tools at %s: %v", path, err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func TestToolsets(t *testing.T) {
	e := startEnv(t, "sqlite", envOptions{})
	key := e.key(t, e.org(t, "acme"), radar.Scopes...)
	if got := toolNames(t, e, key, Path); len(got) != len(specTable()) || slices.Contains(got, "mark_signals_seen") {
		t.Errorf("default tools = %v, want the specification's %d", got, len(specTable()))
	}
	got := toolNames(t, e, key, Path+"?toolsets=default,delivery")
	if len(got) != len(specTable())+2 || !slices.Contains(got, "mark_signals_seen") || !slices.Contains(got, "preview_rules") {
		t.Errorf("tools with the delivery toolset = %v", got)
	}
	ro := toolNames(t, e, key, Path+"/readonly?toolsets=delivery")
	if !slices.Contains(ro, "preview_rules") || slices.Contains(ro, "mark_signals_seen") {
		t.Errorf("read-only tools with the delivery toolset = %v, want preview_rules and not mark_signals_seen", ro)
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+Path+"?toolsets=everything",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown toolset: status %d, want 400", res.StatusCode)
	}

	// A server configured with the toolset offers it without the query.
	configured := startEnv(t, "sqlite", envOptions{toolsets: []string{"default", "delivery"}})
	key = configured.key(t, configured.org(t, "acme"), radar.Scopes...)
	if got := toolNames(t, configured, key, Path); !slices.Contains(got, "preview_rules") {
		t.Errorf("tools of a server configured with delivery = %v", got)
	}
	for _, name := range Toolsets {
		if name != "default" && len(toolset(name)) == 0 {
			t.Errorf("toolset %s has no tools", name)
		}
	}
}

func TestUnseenAndDeliveryTools(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		key := e.key(t, org, radar.Scopes...)
		cs := e.connect(t, key, Path+"?toolsets=delivery")
		id := str(ok(t, cs, "add_company", companyArgs("Northwind Labs", "northwind.example")).data()["id"])
		first, _, _ := e.seedRun(t, org.ID, id, "Northwind Labs", "Grace Hopper")
		e.seedQuietRun(t, org.ID, id, "Northwind Labs", time.Now().Add(-time.Hour))
		later, laterAlert := e.seedQuietRun(t, org.ID, id, "Northwind Labs", time.Now().Add(time.Second))

		if n := len(ok(t, cs, "list_signals", map[string]any{"unseen": true}).items()); n != 3 {
			t.Errorf("unseen before marking: %d signals, want 3", n)
		}
		r := ok(t, cs, "mark_signals_seen", map[string]any{"upTo": first})
		if str(r.data()["seenThrough"]) == "" {
			t.Errorf("mark_signals_seen = %s, want data.seenThrough", r.text)
		}
		sigs := ok(t, cs, "list_signals", map[string]any{"unseen": true}).items()
		if len(sigs) != 1 || str(sigs[0]["id"]) != later {
			t.Errorf("unseen signals = %v, want only %s", sigs, later)
		}
		alerts := ok(t, cs, "list_alerts", map[string]any{"unseen": true}).items()
		if len(alerts) != 1 || str(alerts[0]["id"]) != laterAlert {
			t.Errorf("unseen alerts = %v, want only %s", alerts, laterAlert)
		}
		fails(t, cs, "mark_signals_seen", map[string]any{}, radar.EValidation)
		fails(t, cs, "mark_signals_seen", map[string]any{"before": "yesterday"}, radar.EValidation)

		p := ok(t, cs, "preview_rules", map[string]any{"id": id, "thingsToTrack": "Any funding round.\nA founder leaving."}).data()
		evals, _ := p["evaluations"].([]any)
		if len(evals) != 2 {
			t.Fatalf("preview evaluations = %v, want 2", p["evaluations"])
		}
		if m := evals[0].(map[string]any); m["matched"] != false && m["matched"] != true {
			t.Errorf("evaluation without matched: %v", m)
		}
		fails(t, cs, "preview_rules", map[string]any{"id": "nope", "thingsToTrack": "x"}, radar.EValidation)
	})
}
