package api_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// When PostgreSQL goes away after start, API requests are answered 503 service_unavailable with Retry-After
// in the error envelope, not 500; when it is back, they succeed again without a restart. (SQLite is a file
// inside the process: it cannot go away this way.)
func TestDatabaseGoneIsServiceUnavailable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		if engine != sqldb.Postgres {
			t.Skip("an embedded SQLite database cannot become unreachable")
		}
		var px *apitest.Proxy
		env := apitest.StartWith(t, engine, apitest.Options{DatabaseURL: func(raw string) string {
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			px = apitest.NewProxy(t, u.Host)
			u.Host = px.Addr()
			return u.String()
		}})
		key := env.Key(t, env.OrgA)
		ent := env.InsertEntity(t, env.OrgA, "Northwind", time.Now())
		paths := []string{"/api/v1/tracker", "/api/v1/tracker/" + ent.ID, "/api/v1/signals"}
		for _, p := range paths {
			if res := env.Do(t, http.MethodGet, p, key, nil); res.Status != http.StatusOK {
				t.Fatalf("GET %s with the database up: %d %s", p, res.Status, res)
			}
		}

		px.Down()
		for range 2 {
			for _, p := range paths {
				res := env.Do(t, http.MethodGet, p, key, nil)
				if res.Status != http.StatusServiceUnavailable || res.Code() != radar.EUnavailable || res.Header.Get("Retry-After") == "" {
					t.Errorf("GET %s with the database down: %d %s, Retry-After %q; want 503 service_unavailable with Retry-After",
						p, res.Status, res, res.Header.Get("Retry-After"))
				}
			}
		}
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Contoso"))
		if res.Status != http.StatusServiceUnavailable || res.Code() != radar.EUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("POST /api/v1/tracker with the database down: %d %s; want 503 service_unavailable with Retry-After", res.Status, res)
		}

		px.Up()
		deadline := time.Now().Add(15 * time.Second)
		for _, p := range paths {
			for {
				res := env.Do(t, http.MethodGet, p, key, nil)
				if res.Status == http.StatusOK {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("GET %s 15 s after the database came back: %d %s", p, res.Status, res)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	})
}
