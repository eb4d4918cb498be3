package app_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"radar/internal/app"
	"radar/internal/config"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// RADAR_DEBUG_ADDR serves the profiles on a listener of its own, never on the API's address.
func TestDebugListenerServesProfiles(t *testing.T) {
	ctx := context.Background()
	start := func(debug string) *app.App {
		cfg := &config.Config{Addr: "127.0.0.1:0", DatabaseURL: storetest.URL(t, sqldb.SQLite), DebugAddr: debug}
		if err := cfg.Finish(); err != nil {
			t.Fatal(err)
		}
		a, err := app.Open(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(context.Background()) })
		return a
	}
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	a := start("127.0.0.1:0")
	if a.DebugAddr() == "" || a.DebugAddr() == a.Addr() {
		t.Fatalf("debug address %q, API address %q: want a listener of its own", a.DebugAddr(), a.Addr())
	}
	if code, body := get("http://" + a.DebugAddr() + "/debug/pprof/"); code != http.StatusOK || !strings.Contains(body, "Types of profiles available") {
		t.Errorf("GET /debug/pprof/ on the debug listener: %d %.200s", code, body)
	}
	if code, _ := get("http://" + a.DebugAddr() + "/debug/pprof/heap?debug=1"); code != http.StatusOK {
		t.Errorf("heap profile: %d", code)
	}
	if _, body := get("http://" + a.Addr() + "/debug/pprof/"); strings.Contains(body, "Types of profiles available") {
		t.Error("the API's address serves the profiles")
	}

	if off := start(""); off.DebugAddr() != "" {
		t.Errorf("debug address %q without RADAR_DEBUG_ADDR, want none", off.DebugAddr())
	}
}
