package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// The web forms and filters pass the same text check as the API: a NUL or another control character is
// shown as a problem of its field, never a server error, on both engines (PostgreSQL cannot store a NUL).
func TestFormsRefuseControlText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		b := s.signedIn(t, s.OwnerA)
		form := url.Values{
			"companyName": {"Glass\x00moth"}, "companyWebsite": {"https://glassmoth.example"},
			"founders[0].name": {"Ines\x1bMarchetti"}, "thingsToTrack": {"Funding rounds.\r\nFounders leaving."},
			"alertEmails": {"ada@fund.example"}, "cadenceDays": {"7"}, "emailAlertsEnabled": {"true"},
		}
		p := b.post("/companies", form)
		if p.Status != http.StatusBadRequest {
			t.Fatalf("create with a NUL: status %d, want 400", p.Status)
		}
		for name, want := range map[string]string{"companyName": "NUL", "founders[0].name": "001B"} {
			if got := fieldError(p.Body, name); !strings.Contains(got, want) {
				t.Errorf("error beside %s = %q, want one containing %q", name, got, want)
			}
		}
		if got := fieldError(p.Body, "thingsToTrack"); got != "" {
			t.Errorf("line breaks typed in the rules textarea refused: %q", got)
		}

		for _, path := range []string{"/signals?q=a%00", "/signals?company=%00", "/companies?sector=%00", "/leads?source=%00", "/companies?q=%00"} {
			if p := b.get(path); p.Status >= 500 {
				t.Errorf("GET %s: status %d, want no server error", path, p.Status)
			}
		}
		contains(t, b.get("/signals?q=a%00"), "q: must not contain a NUL character")

		p = s.browser(t).post("/login", url.Values{"email": {"owner\x00@a.example"}, "password": {password}})
		if p.Status != http.StatusBadRequest {
			t.Errorf("sign-in with a NUL in the address: status %d, want 400", p.Status)
		}
		p = b.post("/keys", url.Values{"name": {"ci\x00"}, "scopes": {"tracker:read"}, "expiry": {"90d"}})
		if p.Status != http.StatusBadRequest || !strings.Contains(fieldError(p.Body, "name"), "NUL") {
			t.Errorf("key named with a NUL: status %d, error %q; want 400 naming the NUL", p.Status, fieldError(p.Body, "name"))
		}
	})
}
