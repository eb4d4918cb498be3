package api_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"radar"
	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// cacheCounts counts the list cache's hits and misses per list.
type cacheCounts struct {
	mu   sync.Mutex
	hits map[string]int
	miss map[string]int
}

func (c *cacheCounts) observe(list string, hit bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit {
		c.hits[list]++
	} else {
		c.miss[list]++
	}
}

func (c *cacheCounts) get(list string) (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits[list], c.miss[list]
}

// Lists are served from the cache while nothing changed, and every change — through the API, by the engine,
// or through another replica — shows in the very next read.
func TestListPagesFollowEveryChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		counts := &cacheCounts{hits: map[string]int{}, miss: map[string]int{}}
		env := startWith(t, engine, apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) {
			cfg.OnListCache = counts.observe
		}})
		key := env.Key(t, env.OrgA)
		now := time.Now()
		a := env.InsertEntity(t, env.OrgA, "Northwind", now)
		b := env.InsertEntity(t, env.OrgA, "Kestrel", now.Add(time.Millisecond))
		run := env.SeedRun(t, env.OrgA, a.ID)

		get := func(path string) *apitest.Response {
			t.Helper()
			res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: key})
			wantStatus(t, res, http.StatusOK)
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(res.Body)) {
				t.Errorf("%s: Content-Length %q for a body of %d bytes", path, cl, len(res.Body))
			}
			return res
		}
		for _, l := range []struct{ name, path string }{
			{"tracker", "/api/v1/tracker?limit=10"}, {"signals", "/api/v1/signals"},
			{"alerts", "/api/v1/alerts"}, {"leads", "/api/v1/leads"},
		} {
			first, second := get(l.path), get(l.path)
			if !bytes.Equal(first.Body, second.Body) {
				t.Errorf("%s: a repeated read differs", l.name)
			}
			if hits, misses := counts.get(l.name); hits != 1 || misses != 1 {
				t.Errorf("%s: %d hits and %d misses after two reads, want 1 and 1", l.name, hits, misses)
			}
			if len(first.Items()) == 0 {
				t.Errorf("%s: empty list", l.name)
			}
		}

		// A change through the API.
		res := env.Serve(t, apitest.Request{Method: http.MethodPatch, Path: "/api/v1/tracker/" + b.ID, Key: key,
			Body: map[string]any{"companyName": "Kestrel Grip"}})
		wantStatus(t, res, http.StatusOK)
		if got := str(get("/api/v1/tracker?limit=10").Items()[0], "companyName"); got != "Kestrel Grip" {
			t.Errorf("after a rename, the list shows %q", got)
		}

		// A change by the engine: another run of Northwind, written straight to the store.
		before := len(get("/api/v1/signals").Items())
		env.SeedRun(t, env.OrgA, a.ID)
		if got := len(get("/api/v1/signals").Items()); got != before+1 {
			t.Errorf("after a run, %d signals listed, want %d", got, before+1)
		}

		// A change through another replica: its own cache, the same database.
		other := api.New(api.Config{Service: env.Service, Limiter: env.Limiter})
		read := func(h http.Handler, path string) *apitest.Response {
			t.Helper()
			req, err := env.NewRequest(apitest.Request{Method: http.MethodGet, Path: path, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return &apitest.Response{Status: rec.Code, Body: rec.Body.Bytes()}
		}
		if res := read(other, "/api/v1/leads"); !bytes.Contains(res.Body, []byte(`"status":"unreviewed"`)) {
			t.Fatalf("other replica's leads: %s", res.Body)
		}
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/leads/" + run.LeadID + "/decision", Key: key,
			Body: map[string]any{"accepted": false}})
		wantStatus(t, res, http.StatusOK)
		if res := read(other, "/api/v1/leads"); !bytes.Contains(res.Body, []byte(`"status":"rejected"`)) {
			t.Errorf("the other replica's leads do not show the decision: %s", res.Body)
		}

		// A delete.
		wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodDelete, Path: "/api/v1/tracker/" + a.ID, Key: key}), http.StatusNoContent)
		for _, it := range get("/api/v1/tracker?limit=10").Items() {
			if str(it, "id") == a.ID {
				t.Errorf("a deleted company is still listed")
			}
		}

		// A page of one organisation is never another's, and a key without the scope is refused even when the
		// page is cached.
		if items := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker?limit=10", Key: env.Key(t, env.OrgB)}).Items(); len(items) != 0 {
			t.Errorf("organisation B lists %d companies of A", len(items))
		}
		narrow := env.Key(t, env.OrgA, radar.ScopeTrackerRead)
		get("/api/v1/leads")
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/leads", Key: narrow}); res.Status != http.StatusForbidden {
			t.Errorf("leads without leads:read: %s", res)
		}
	})
}

// A list filtered by classification is computed every time: the classifier may resolve its terms differently
// from one call to the next.
func TestClassifiedListsAreNotCached(t *testing.T) {
	counts := &cacheCounts{hits: map[string]int{}, miss: map[string]int{}}
	env := startWith(t, sqldb.SQLite, apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) {
		cfg.OnListCache = counts.observe
	}})
	key := env.Key(t, env.OrgA)
	env.InsertEntity(t, env.OrgA, "Northwind", time.Now())
	for range 2 {
		wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker?classification=fintech", Key: key}), http.StatusOK)
	}
	if hits, misses := counts.get("tracker"); hits+misses != 0 {
		t.Errorf("classified list looked up in the cache (%d hits, %d misses)", hits, misses)
	}
}
