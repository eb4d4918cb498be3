package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// With the database out of reach a signed-in user gets a 503 page with Retry-After that says to try again,
// and the pages work again once the database is back.
func TestDatabaseGonePageIsUnavailable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		if engine != sqldb.Postgres {
			t.Skip("an embedded SQLite database cannot become unreachable")
		}
		var px *apitest.Proxy
		s := startSiteWith(t, engine, web.Config{}, apitest.Options{DatabaseURL: func(raw string) string {
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			px = apitest.NewProxy(t, u.Host)
			u.Host = px.Addr()
			return u.String()
		}})
		b := s.signedIn(t, s.OwnerA)
		if p := b.get("/companies"); p.Status != http.StatusOK {
			t.Fatalf("companies with the database up: %d", p.Status)
		}

		px.Down()
		p := b.get("/companies")
		if p.Status != http.StatusServiceUnavailable || p.Header.Get("Retry-After") == "" || !strings.Contains(p.Body, "Try again in a few seconds") {
			t.Errorf("companies with the database down: %d, Retry-After %q, body:\n%s", p.Status, p.Header.Get("Retry-After"), text(p.Body))
		}

		px.Up()
		deadline := time.Now().Add(15 * time.Second)
		for {
			if p := b.get("/companies"); p.Status == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the companies page did not recover within 15 s of the database coming back")
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
