package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"radar/internal/sqldb"
	"radar/internal/web"
)

// A signed-in user sent to /login?next=/%09/evil.example, or signing in with that next, stays on the site.
func TestSignInNeverRedirectsOffSite(t *testing.T) {
	s := startSite(t, sqldb.SQLite, web.Config{})
	for _, next := range []string{"/\t/evil.example", "//evil.example", "/%09/evil.example", "/\\evil.example", "https://evil.example"} {
		p := s.browser(t).post("/login", url.Values{"email": {s.OwnerA}, "password": {password}, "next": {next}})
		if p.Status != http.StatusSeeOther || p.Location != "/companies" {
			t.Errorf("sign in with next %q: %d to %q, want 303 to /companies", next, p.Status, p.Location)
		}
	}
	b := s.signedIn(t, s.OwnerA)
	for _, raw := range []string{"/%09/evil.example", "%2F%09%2Fevil.example", "/%5Cevil.example", "%2F%2Fevil.example"} {
		p := b.get("/login?next=" + raw)
		if p.Status != http.StatusSeeOther || p.Location != "/companies" {
			t.Errorf("GET /login?next=%s signed in: %d to %q, want 303 to /companies", raw, p.Status, p.Location)
		}
	}
}
