package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"

	"radar"
	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/digest"
	"radar/internal/service"
	"radar/internal/tracker"
	"radar/internal/web"
)

// password is the password of every test user.
const password = "correct horse battery"

// site is a Radar server with the web UI mounted, two organisations and a user in each.
type site struct {
	*apitest.Env
	// OwnerA and MemberA belong to OrgA, OwnerB to OrgB.
	OwnerA, MemberA, OwnerB string
}

// startSite serves the API and the web UI on a fresh database of engine; enricher, when given, serves draft
// enrichment.
func startSite(t testing.TB, engine string, cfg web.Config, enricher ...service.DraftEnricher) *site {
	t.Helper()
	opts := apitest.Options{}
	if len(enricher) > 0 {
		opts.Enricher = enricher[0]
	}
	return startSiteWith(t, engine, cfg, opts)
}

// startSiteWith is startSite with the API test server's options, e.g. PublicWebsitesOnly.
func startSiteWith(t testing.TB, engine string, cfg web.Config, opts apitest.Options) *site {
	t.Helper()
	opts.Compile = tracker.Compile
	opts.Configure = func(env *apitest.Env, c *api.Config) {
		cfg.Service, cfg.Outbox, cfg.Clock = env.Service, env.DB, env.Clock.Now
		if cfg.BaseURL == "" {
			cfg.BaseURL = apitest.BaseURL
		}
		if cfg.Digests == nil {
			d, err := digest.New(digest.Config{Store: env.DB, Secret: []byte(apitest.Secret), BaseURL: cfg.BaseURL, Clock: env.Clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Digests = d
		}
		c.Web = web.NewHandler(cfg)
	}
	env := apitest.StartWith(t, engine, opts)
	s := &site{Env: env, OwnerA: "owner@a.example", MemberA: "member@a.example", OwnerB: "owner@b.example"}
	for _, u := range []struct {
		org         *radar.Org
		email, role string
	}{{env.OrgA, s.OwnerA, "owner"}, {env.OrgA, s.MemberA, "member"}, {env.OrgB, s.OwnerB, "owner"}} {
		err := env.DB.CreateUser(context.Background(), &radar.User{
			ID: uuid.NewString(), OrgID: u.org.ID, Email: u.email, PasswordHash: passwordHash(), Role: u.role, CreatedAt: radar.NewTime(time.Now()),
		})
		if err != nil {
			t.Fatalf("create user %s: %v", u.email, err)
		}
	}
	return s
}

// passwordHash is an argon2id hash of password in the format of service.HashPassword, with small memory and
// time costs so that the many sign-ins of the tests stay quick; verification reads the costs from the hash.
var passwordHash = sync.OnceValue(func() string {
	salt := []byte("radar-test-salt!")
	key := argon2.IDKey([]byte(password), salt, 1, 1024, 1, 32)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=1024,t=1,p=1$%s$%s", argon2.Version, enc.EncodeToString(salt), enc.EncodeToString(key))
})

// principal acts as a web user of org would.
func principal(org *radar.Org) *radar.Principal {
	return &radar.Principal{OrgID: org.ID, OrgSlug: org.Slug, OrgName: org.Name, KeyID: "test", Scopes: radar.Scopes}
}

// track creates a company of org through the service.
func (s *site) track(t testing.TB, org *radar.Org, name string) *radar.Entity {
	t.Helper()
	slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	yes := true
	res, err := s.Service.CreateEntity(context.Background(), principal(org), radar.CreateInput{Confirmed: &yes, EntityInput: radar.EntityInput{
		CompanyName: name, CompanyWebsite: "https://" + slug + ".example", CompanySummary: name + " builds things.",
		Founders:      []radar.FounderInput{{Name: "Ada " + name}},
		ThingsToTrack: "Tell me when they raise money. Tell me when a founder leaves.", AlertEmails: []string{"alerts@fund.example"},
	}}, "")
	if err != nil {
		t.Fatalf("track %s: %v", name, err)
	}
	return res.Entity
}

// enrich finishes the enrichment of an entity as the engine would.
func (s *site) enrich(t testing.TB, org *radar.Org, id string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := s.DB.BeginEnrichment(ctx, org.ID, id); err != nil {
		t.Fatal(err)
	}
	err := s.DB.FinishEnrichment(ctx, org.ID, id, radar.Enrichment{
		Status: radar.EnrichReady, CompanyLinkedinURL: "https://www.linkedin.com/company/" + id[:8], Sectors: []string{"Financial Services > Fintech"},
	}, radar.NewTime(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
}

// keep writes a run whose alert e-mail was kept in the outbox.
func (s *site) keep(t testing.TB, org *radar.Org, ent *radar.Entity, subject string) {
	t.Helper()
	now := radar.NewTime(time.Now())
	sig := &radar.Signal{ID: uuid.NewString(), CompanyName: ent.CompanyName, Type: radar.TypeProductLaunch, Severity: "medium",
		Recommendation: "review", Summary: "Launched a product.", Evidence: []radar.Evidence{}, Analyser: "builtin", CreatedAt: now}
	alert := &radar.Alert{ID: uuid.NewString(), CompanyName: ent.CompanyName, Outcome: radar.OutcomeDisabled,
		Reason: "a rule matched; kept in the outbox: no mail server is configured", Recipients: ent.AlertEmails, Subject: subject, CreatedAt: now}
	msg := &radar.OutboxMessage{ID: uuid.NewString(), To: ent.AlertEmails, Subject: subject, Text: "Body of " + subject,
		HTML: "<p>" + subject + "</p>", Status: radar.OutboxKept, CreatedAt: now}
	_, err := s.DB.FinishRun(context.Background(), &radar.RunReport{OrgID: org.ID, EntityID: ent.ID, RunID: uuid.NewString(),
		Signal: sig, Alert: alert, Outbox: msg, HealthReason: "ok", FinishedAt: now})
	if err != nil {
		t.Fatal(err)
	}
}

// browser is a web client with a cookie jar that does not follow redirects, so that tests see them.
type browser struct {
	t    testing.TB
	base string
	c    *http.Client
}

func (s *site) browser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: s.URL, c: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       30 * time.Second,
	}}
}

// page is a response as the browser saw it.
type page struct {
	Status   int
	Location string
	Body     string
	Header   http.Header
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return page{Status: res.StatusCode, Location: res.Header.Get("Location"), Body: string(body), Header: res.Header}
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.base+path, nil)
	return b.do(req)
}

// post submits a form; header adds request headers such as Origin.
func (b *browser) post(path string, form url.Values, header ...string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.do(req)
}

// follow posts a form and loads the page it redirects to.
func (b *browser) follow(path string, form url.Values) page {
	b.t.Helper()
	p := b.post(path, form)
	if p.Status != http.StatusSeeOther {
		b.t.Fatalf("POST %s: status %d, want 303; body:\n%s", path, p.Status, text(p.Body))
	}
	return b.get(p.Location)
}

// login signs in through the sign-in form.
func (b *browser) login(email string) {
	b.t.Helper()
	p := b.post("/login", url.Values{"email": {email}, "password": {password}})
	if p.Status != http.StatusSeeOther {
		b.t.Fatalf("sign in as %s: status %d; body:\n%s", email, p.Status, text(p.Body))
	}
}

// signedIn returns a browser signed in as email.
func (s *site) signedIn(t testing.TB, email string) *browser {
	b := s.browser(t)
	b.login(email)
	return b
}

var (
	tags   = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]*>`)
	spaces = regexp.MustCompile(`\s+`)
)

// text is the visible text of a page, entities left as they are, for messages and checks.
func text(html string) string {
	s := tags.ReplaceAllString(html, " ")
	for _, r := range [][2]string{{"&amp;", "&"}, {"&#39;", "'"}, {"&#34;", `"`}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", `"`}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// contains fails unless the page's visible text contains every one of want.
func contains(t *testing.T, p page, want ...string) {
	t.Helper()
	txt := text(p.Body)
	for _, w := range want {
		if !strings.Contains(txt, w) {
			t.Errorf("page does not show %q; it shows:\n%s", w, txt)
		}
	}
}

// lacks fails when the page's visible text contains any of these.
func lacks(t *testing.T, p page, unwanted ...string) {
	t.Helper()
	txt := text(p.Body)
	for _, w := range unwanted {
		if strings.Contains(txt, w) {
			t.Errorf("page shows %q; it should not:\n%s", w, txt)
		}
	}
}

// fieldError returns the message shown beside the input named name, or "".
func fieldError(html, name string) string {
	re := regexp.MustCompile(`<p class="field-error" id="e-` + regexp.QuoteMeta(name) + `">([^<]*)</p>`)
	m := re.FindStringSubmatch(html)
	if m == nil {
		return ""
	}
	return text(m[1])
}

// inputValue returns the value of the input named name, or "" when there is none.
func inputValue(html, name string) string {
	re := regexp.MustCompile(`name="` + regexp.QuoteMeta(name) + `"[^>]*value="([^"]*)"`)
	if m := re.FindStringSubmatch(html); m != nil {
		return text(m[1])
	}
	re = regexp.MustCompile(`(?s)name="` + regexp.QuoteMeta(name) + `"[^>]*>([^<]*)</textarea>`)
	if m := re.FindStringSubmatch(html); m != nil {
		return text(m[1])
	}
	return ""
}

// freshWindow moves the site's clock to a second into the next fixed window of the sign-in limits, so that a
// test counting attempts does not straddle two windows.
func (s *site) freshWindow(window time.Duration) {
	now := s.Clock.Now()
	s.Clock.Advance(now.Truncate(window).Add(window + time.Second).Sub(now))
}
