package api_test

import (
	"net/http"
	"strings"
	"testing"

	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// publicOnly starts a server as production runs it: without RADAR_FETCH_ALLOW_PRIVATE.
func publicOnly() apitest.Options { return apitest.Options{PublicWebsitesOnly: true} }

// unfetchable are websites a guarded fetcher can never fetch, with what the refusal must say.
var unfetchable = map[string]struct{ url, reason string }{
	"another port":             {"https://northwind.example:8443/", "port 8443"},
	"loopback":                 {"http://127.0.0.1/", "127.0.0.1 is a loopback, private or reserved address"},
	"loopback on another port": {"http://127.0.0.1:6379/", "port 6379"},
	"loopback in decimal":      {"http://2130706433/", "loopback, private or reserved"},
	"private":                  {"https://10.1.2.3/", "loopback, private or reserved"},
	"cloud metadata":           {"http://169.254.169.254/latest/meta-data/", "loopback, private or reserved"},
	"ipv6 loopback":            {"http://[::1]/", "loopback, private or reserved"},
	"ipv4-mapped private":      {"http://[::ffff:192.168.0.1]/", "loopback, private or reserved"},
	"localhost":                {"http://localhost/", "localhost is this machine"},
	"localhost upper case":     {"https://LOCALHOST./", "this machine"},
	"a name under localhost":   {"http://admin.localhost/", "this machine"},
	"unspecified":              {"http://0.0.0.0/", "loopback, private or reserved"},
}

// A website the fetcher can never reach (another port than 80 and 443, a loopback or private address,
// localhost) is refused where it is submitted, naming the reason, unless private fetching is on.
func TestUnfetchableWebsitesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := startWith(t, engine, publicOnly())
		key := env.Key(t, env.OrgA)
		id := create(t, env, key, "Northwind")
		lead := env.SeedRun(t, env.OrgA, id).LeadID
		for name, c := range unfetchable {
			t.Run("create "+name, func(t *testing.T) {
				body := apitest.CreateBody("Southwind")
				body["companyWebsite"] = c.url
				wantFieldError(t, env.Do(t, http.MethodPost, "/api/v1/tracker", key, body), "companyWebsite", c.reason)
			})
			t.Run("enrich "+name, func(t *testing.T) {
				res := env.Do(t, http.MethodPost, "/api/v1/tracker/enrich", key, map[string]any{"companyName": "S", "companyWebsite": c.url})
				wantFieldError(t, res, "companyWebsite", c.reason)
			})
			t.Run("track "+name, func(t *testing.T) {
				res := env.Do(t, http.MethodPost, "/api/v1/leads/"+lead+"/track", key, map[string]any{
					"thingsToTrack": "funding", "alertEmails": []any{"a@fund.example"}, "companyWebsite": c.url})
				wantFieldError(t, res, "companyWebsite", c.reason)
			})
		}
		for _, ok := range []string{"http://southwind.example:80/", "https://eastwind.example:443/x", "https://8.8.8.8/"} {
			body := apitest.CreateBody(strings.TrimPrefix(ok, "http"))
			body["companyWebsite"] = ok
			wantStatus(t, env.Do(t, http.MethodPost, "/api/v1/tracker", key, body), http.StatusCreated)
		}
	})
}

// With private fetching on (tests, the demo), local websites are accepted.
func TestPrivateWebsitesAcceptedWhenAllowed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		body := apitest.CreateBody("Localwind")
		body["companyWebsite"] = "http://127.0.0.1:8080/"
		wantStatus(t, env.Do(t, http.MethodPost, "/api/v1/tracker", key, body), http.StatusCreated)
	})
}
