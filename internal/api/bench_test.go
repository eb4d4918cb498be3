package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// benchEngines runs fn on SQLite and on PostgreSQL (skipped unless RADAR_TEST_POSTGRES_URL is set).
func benchEngines(b *testing.B, fn func(b *testing.B, env *apitest.Env, key string)) {
	benchEnginesWith(b, apitest.Options{}, fn)
}

func benchEnginesWith(b *testing.B, o apitest.Options, fn func(b *testing.B, env *apitest.Env, key string)) {
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			env := apitest.StartWith(b, engine, o)
			fn(b, env, env.Key(b, env.OrgA))
		})
	}
}

// serve runs one request through the whole handler (middleware, authentication, rate limits, routing).
func serve(b *testing.B, env *apitest.Env, method, path, key string, body []byte, want int) {
	var req *http.Request
	if body != nil {
		req = httptest.NewRequest(method, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	env.Server.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
}

func BenchmarkCreate(b *testing.B) {
	benchEngines(b, func(b *testing.B, env *apitest.Env, key string) {
		i := 0
		for b.Loop() {
			body, _ := json.Marshal(apitest.CreateBody("Company " + strconv.Itoa(i)))
			i++
			serve(b, env, http.MethodPost, "/api/v1/tracker", key, body, http.StatusCreated)
		}
	})
}

func BenchmarkGetEntity(b *testing.B) {
	benchEngines(b, func(b *testing.B, env *apitest.Env, key string) {
		e := env.InsertEntity(b, env.OrgA, "Northwind", time.Now())
		env.SeedRun(b, env.OrgA, e.ID)
		for b.Loop() {
			serve(b, env, http.MethodGet, "/api/v1/tracker/"+e.ID, key, nil, http.StatusOK)
		}
	})
}

// BenchmarkListEntities reads a page that has not changed since the last read: it comes from the list cache.
// BenchmarkListEntitiesUncached computes the page every time, as after a change.
func BenchmarkListEntities(b *testing.B) { benchmarkList(b, 0) }

func BenchmarkListEntitiesUncached(b *testing.B) { benchmarkList(b, -1) }

func benchmarkList(b *testing.B, cacheBytes int) {
	o := apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) { cfg.ListCacheBytes = cacheBytes }}
	benchEnginesWith(b, o, func(b *testing.B, env *apitest.Env, key string) {
		now := time.Now()
		for i := range 100 {
			e := env.InsertEntity(b, env.OrgA, "Company "+strconv.Itoa(i), now.Add(time.Duration(i)*time.Millisecond))
			if i%2 == 0 {
				env.SeedRun(b, env.OrgA, e.ID)
			}
		}
		for b.Loop() {
			serve(b, env, http.MethodGet, "/api/v1/tracker?limit=25&view=compact", key, nil, http.StatusOK)
		}
	})
}
