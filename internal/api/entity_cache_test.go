package api_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// entityCacheCounts counts the reads of one company served from the cache and those computed.
type entityCacheCounts struct {
	mu         sync.Mutex
	hits, miss int
}

func (c *entityCacheCounts) observe(hit bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit {
		c.hits++
	} else {
		c.miss++
	}
}

func (c *entityCacheCounts) get() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.miss
}

// The read of one company is served from the cache while nothing changed, byte for byte as computed, and every
// kind of write shows in the very next read: through the API, by the enrichment and tracker workers, through
// another replica, or through another process on the same database.
func TestEntityReadsFollowEveryChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		counts := &entityCacheCounts{}
		var dbURL string
		env := startWith(t, engine, apitest.Options{
			Configure: func(_ *apitest.Env, cfg *api.Config) { cfg.OnEntityCache = counts.observe },
			DatabaseURL: func(u string) string {
				dbURL = u
				return u
			},
		})
		ctx := context.Background()
		key := env.Key(t, env.OrgA)
		e := env.InsertEntity(t, env.OrgA, "Northwind", time.Now())
		path := "/api/v1/tracker/" + e.ID

		get := func(path string) *apitest.Response {
			t.Helper()
			res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: key})
			wantStatus(t, res, http.StatusOK)
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(res.Body)) {
				t.Errorf("%s: Content-Length %q for a body of %d bytes", path, cl, len(res.Body))
			}
			return res
		}
		first, second := get(path), get(path)
		if !bytes.Equal(first.Body, second.Body) {
			t.Errorf("a repeated read differs:\n%s\n%s", first.Body, second.Body)
		}
		if hits, misses := counts.get(); hits != 1 || misses != 1 {
			t.Fatalf("%d hits and %d misses after two reads, want 1 and 1", hits, misses)
		}
		sameHeaders(t, first, second)
		compact := get(path + "?view=compact")
		if _, ok := compact.Data()["policy"]; ok {
			t.Errorf("the compact read shows the policy of the full one: %s", compact.Body)
		}
		if _, ok := get(path).Data()["policy"]; !ok {
			t.Errorf("the full read lost its policy after a compact one")
		}

		// step makes one write and checks that the next read shows it.
		step := func(name string, write func(), shows func(data map[string]any) bool) {
			t.Helper()
			get(path) // the read before the write is cached
			write()
			if res := get(path); !shows(res.Data()) {
				t.Errorf("after %s, the read shows %s", name, res.Body)
			}
		}
		patch := func(body map[string]any) func() {
			return func() {
				t.Helper()
				wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodPatch, Path: path, Key: key, Body: body}), http.StatusOK)
			}
		}
		step("a rename through the API", patch(map[string]any{"companyName": "Northwind Tunnels"}), func(d map[string]any) bool {
			return str(d, "companyName") == "Northwind Tunnels"
		})
		step("new alert rules", patch(map[string]any{"thingsToTrack": "Tell me when they hire a CFO."}), func(d map[string]any) bool {
			return str(d, "thingsToTrack") == "Tell me when they hire a CFO." && dig(d, "policy.version") == float64(2)
		})
		step("a digest setting", patch(map[string]any{"digest": "weekly"}), func(d map[string]any) bool {
			return str(d, "digest") == "weekly"
		})
		step("the start of an enrichment", func() {
			if _, _, err := env.DB.BeginEnrichment(ctx, env.OrgA.ID, e.ID); err != nil {
				t.Fatal(err)
			}
		}, func(d map[string]any) bool { return str(d, "enrichmentStatus") == radar.EnrichRunning })
		step("the end of an enrichment", func() {
			err := env.DB.FinishEnrichment(ctx, env.OrgA.ID, e.ID, radar.Enrichment{
				Status: radar.EnrichReady, CompanyGithubURL: "https://github.com/northwind",
			}, radar.NewTime(time.Now()))
			if err != nil {
				t.Fatal(err)
			}
		}, func(d map[string]any) bool {
			return str(d, "enrichmentStatus") == radar.EnrichReady && str(d, "companyGithubUrl") == "https://github.com/northwind"
		})
		step("a refresh", func() {
			wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodPost, Path: path + "/refresh", Key: key}), http.StatusAccepted)
		}, func(d map[string]any) bool { return str(d, "scrapeHealthReason") == radar.HealthRunning })
		var run apitest.Run
		step("a tracker run", func() { run = env.SeedRun(t, env.OrgA, e.ID) }, func(d map[string]any) bool {
			return str(d, "latestSignal.id") == run.SignalID
		})
		step("a run that read nothing", func() { run = env.SeedFailedRun(t, env.OrgA, e.ID) }, func(d map[string]any) bool {
			return str(d, "latestSignal.id") == run.SignalID
		})
		step("a run given up", func() {
			if err := env.DB.FailRun(ctx, radar.RunArgs{OrgID: env.OrgA.ID, EntityID: e.ID, RunID: uuid.NewString()},
				"site unreachable", radar.NewTime(time.Now())); err != nil {
				t.Fatal(err)
			}
		}, func(d map[string]any) bool { return str(d, "scrapeHealthReason") == "site unreachable" })
		step("a scheduled run claimed", func() {
			later := radar.NewTime(time.Now().Add(60 * 24 * time.Hour))
			n, err := env.DB.ClaimDueRuns(ctx, later, later, 10, func(orgID, entityID string) radar.JobArgs {
				return radar.RunArgs{OrgID: orgID, EntityID: entityID, RunID: uuid.NewString(), Trigger: radar.TriggerSchedule}
			})
			if err != nil || n == 0 {
				t.Fatalf("claim due runs: %d, %v", n, err)
			}
		}, func(d map[string]any) bool { return str(d, "scrapeHealthReason") == radar.HealthRunning })

		// A change through another replica: its own cache, the same database.
		other := api.New(api.Config{Service: env.Service, Limiter: env.Limiter})
		read := func(h http.Handler) *apitest.Response {
			t.Helper()
			req, err := env.NewRequest(apitest.Request{Method: http.MethodGet, Path: path, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return &apitest.Response{Status: rec.Code, Body: rec.Body.Bytes(), Header: rec.Header()}
		}
		read(other)
		patch(map[string]any{"companySummary": "Wind tunnels for drones."})()
		if res := read(other); !bytes.Contains(res.Body, []byte("Wind tunnels for drones.")) {
			t.Errorf("the other replica does not show the change: %s", res.Body)
		}
		if got, want := read(other).Body, get(path).Body; !bytes.Equal(got, want) {
			t.Errorf("replicas answer differently:\n%s\n%s", got, want)
		}

		// A change by another process on the same database (a worker or replica with its own connections).
		otherDB, err := sqldb.Open(ctx, dbURL, sqldb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer otherDB.Close()
		step("a write of another process", func() {
			cur, err := otherDB.Entity(ctx, env.OrgA.ID, e.ID)
			if err != nil {
				t.Fatal(err)
			}
			cur.CompanyName = "Northwind Labs"
			if err := otherDB.UpdateEntity(ctx, cur, nil, nil); err != nil {
				t.Fatal(err)
			}
		}, func(d map[string]any) bool { return str(d, "companyName") == "Northwind Labs" })

		// A read of one organisation is never another's, and a key without the scope is refused even when the
		// read is cached.
		get(path)
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: env.Key(t, env.OrgB)}); res.Status != http.StatusNotFound {
			t.Errorf("organisation B reads A's company: %s", res)
		}
		narrow := env.Key(t, env.OrgA, radar.ScopeLeadsRead)
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: narrow}); res.Status != http.StatusForbidden {
			t.Errorf("a read without tracker:read: %s", res)
		}

		// A revoked key is refused at once, though its reads were cached.
		revoked := env.Key(t, env.OrgA)
		wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: revoked}), http.StatusOK)
		env.Revoke(t, revoked)
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: revoked}); res.Status != http.StatusUnauthorized {
			t.Errorf("a revoked key reads: %s", res)
		}
		// So is a key revoked by another process, as by `radar keys revoke`.
		elsewhere := env.Key(t, env.OrgA)
		for range 2 {
			wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: elsewhere}), http.StatusOK)
		}
		if err := otherDB.RevokeAPIKey(ctx, env.OrgA.ID, apitest.KeyID(elsewhere), radar.NewTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: elsewhere}); res.Status != http.StatusUnauthorized {
			t.Errorf("a key revoked by another process reads: %s", res)
		}

		// A delete.
		wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodDelete, Path: path, Key: key}), http.StatusNoContent)
		if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: key}); res.Status != http.StatusNotFound {
			t.Errorf("a deleted company is read: %s", res)
		}
		if hits, _ := counts.get(); hits < 10 {
			t.Errorf("only %d reads were served from the cache", hits)
		}
	})
}

// A company tracked from a lead is read as it is, and the lead's later decision does not hide it.
func TestEntityReadAfterLeadTrack(t *testing.T) {
	env := start(t, sqldb.SQLite)
	key := env.Key(t, env.OrgA)
	src := env.InsertEntity(t, env.OrgA, "Northwind", time.Now())
	run := env.SeedRun(t, env.OrgA, src.ID)
	res := env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/leads/" + run.LeadID + "/track", Key: key,
		Body: map[string]any{"thingsToTrack": "funding", "alertEmails": []string{"a@fund.example"}}})
	if res.Status != http.StatusCreated {
		t.Fatalf("track lead: %s", res)
	}
	id := str(res.Data(), "id")
	got := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker/" + id, Key: key})
	wantStatus(t, got, http.StatusOK)
	if str(got.Data(), "companyName") != str(res.Data(), "companyName") {
		t.Errorf("tracked lead reads %s", got.Body)
	}
	wantStatus(t, env.Serve(t, apitest.Request{Method: http.MethodPatch, Path: "/api/v1/tracker/" + id, Key: key,
		Body: map[string]any{"companyName": "Kestrel Grip"}}), http.StatusOK)
	if got := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker/" + id, Key: key}); str(got.Data(), "companyName") != "Kestrel Grip" {
		t.Errorf("after a rename, the tracked lead reads %s", got.Body)
	}
}

// sameHeaders checks that two answers to the same read carry the same headers, but for those of the request
// itself (its id, its rate count).
func sameHeaders(t *testing.T, a, b *apitest.Response) {
	t.Helper()
	strip := func(h http.Header) http.Header {
		h = h.Clone()
		for _, k := range []string{"X-Request-Id", "Ratelimit", "Date"} {
			h.Del(k)
		}
		return h
	}
	if ha, hb := strip(a.Header), strip(b.Header); !reflect.DeepEqual(ha, hb) {
		t.Errorf("the answers differ in headers:\n%v\n%v", ha, hb)
	}
	if a.Header.Get("X-Request-Id") == "" || b.Header.Get("Ratelimit") == "" {
		t.Errorf("an answer lacks its request id or rate count: %v", b.Header)
	}
}

// A cached read is answered as the first was, whatever the client accepts, and a CSV export of the list is
// never answered with a cached JSON page.
func TestCachedReadsAnswerAsTheFirst(t *testing.T) {
	counts := &cacheCounts{hits: map[string]int{}, miss: map[string]int{}}
	env := startWith(t, sqldb.SQLite, apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) {
		cfg.OnListCache = counts.observe
	}})
	key := env.Key(t, env.OrgA)
	e := env.InsertEntity(t, env.OrgA, "Northwind", time.Now())
	for _, path := range []string{"/api/v1/tracker?limit=10", "/api/v1/tracker/" + e.ID, "/api/v1/tracker/" + e.ID + "?view=compact"} {
		var first *apitest.Response
		for _, accept := range []string{"", "application/json", "*/*", "application/json, text/plain", "application/*"} {
			req := apitest.Request{Method: http.MethodGet, Path: path, Key: key}
			if accept != "" {
				req.Header = http.Header{"Accept": {accept}}
			}
			res := env.Serve(t, req)
			wantStatus(t, res, http.StatusOK)
			if first == nil {
				first = res
				continue
			}
			if !bytes.Equal(res.Body, first.Body) {
				t.Errorf("%s with Accept %q: body differs", path, accept)
			}
			sameHeaders(t, first, res)
		}
	}
	if hits, _ := counts.get("tracker"); hits == 0 {
		t.Errorf("no list read was served from the cache")
	}
	res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker?limit=10", Key: key, Header: http.Header{"Accept": {"text/csv"}}})
	wantStatus(t, res, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || bytes.HasPrefix(res.Body, []byte("{")) {
		t.Errorf("CSV export answered %s: %s", ct, res.Body)
	}
}
