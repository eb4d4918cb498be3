package web_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"radar"
	"radar/internal/apitest"
	"radar/internal/crawl"
	"radar/internal/fetch"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
	"radar/internal/tracker"
	"radar/internal/web"
)

// chromium is Debian's Chromium, which the browser tests drive.
const chromium = "/usr/bin/chromium"

const day = 24 * time.Hour

// browserNews is the news of the simulated web in the browser tests: history that the first run finds.
var browserNews = []simweb.Event{
	{At: -30 * day, Company: "ledgerwyn", Kind: simweb.KindFunding, Title: "Ledgerwyn raises $20M Series A",
		Body: "Ledgerwyn has raised a $20M Series A led by Harbourline Capital to bring its cash forecasting to more banks."},
	{At: -5 * day, Company: "ledgerwyn", Kind: simweb.KindFounderDeparture, Title: "Co-founder Tom Ellery leaves Ledgerwyn to start Brightledger",
		Body: "Tom Ellery, co-founder and CTO of Ledgerwyn, is leaving to found Brightledger, a start-up building audit tools for small accountancies. Brightledger is raising a pre-seed round."},
}

// liveSite is a site whose tracker engine crawls a simulated web.
type liveSite struct {
	*site
	web *simweb.Web
}

// engineEnricher serves draft enrichment with an engine made after the site it serves.
type engineEnricher struct{ eng *tracker.Engine }

func (e *engineEnricher) EnrichDraft(ctx context.Context, in radar.EntityInput) (radar.EntityInput, []radar.Found, error) {
	return e.eng.EnrichDraft(ctx, in)
}

func startLiveSite(t *testing.T) *liveSite {
	t.Helper()
	enricher := &engineEnricher{}
	s := startSite(t, storetest.Engines()[0], web.Config{}, enricher)
	sw, err := simweb.Start(simweb.Options{Events: browserNews})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sw.Close)
	eng, err := tracker.New(tracker.Config{
		Store: s.DB,
		Crawler: crawl.New(crawl.Config{
			Fetcher:     fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second}),
			NewsFeedURL: sw.NewsFeedURL(), GitHubAPIURL: sw.GitHubAPIURL(),
		}),
		BaseURL: s.URL, PollInterval: 50 * time.Millisecond, RetryDelay: func(int) time.Duration { return 100 * time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	enricher.eng = eng
	if err := eng.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		eng.Stop(ctx)
	})
	return &liveSite{site: s, web: sw}
}

func (l *liveSite) company(t *testing.T, slug string) simweb.Company {
	t.Helper()
	for _, c := range l.web.Companies() {
		if c.Slug == slug {
			return c
		}
	}
	t.Fatalf("no simulated company %q", slug)
	return simweb.Company{}
}

// artifacts is the folder the screenshots go to: $RADAR_ARTIFACTS, or a temporary folder.
func artifacts(t *testing.T) string {
	if dir := os.Getenv("RADAR_ARTIFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// chrome is a headless Chromium tab.
type chrome struct {
	t    *testing.T
	ctx  context.Context
	base string
	dir  string
}

func startChrome(t *testing.T, base string) *chrome {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("browser tests need Chromium at %s: %v", chromium, err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return &chrome{t: t, ctx: ctx, base: base, dir: artifacts(t)}
}

func (c *chrome) do(steps ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	if err := chromedp.Do(c.ctx, steps...); err != nil {
		c.t.Fatalf("browser: %v", err)
	}
}

// open loads a page of the site.
func (c *chrome) open(path string) {
	c.t.Helper()
	c.do(chromedp.Navigate(c.base + path))
}

// submit clicks a button or link and waits for the page it leads to.
func (c *chrome) submit(sel string) {
	c.t.Helper()
	if _, err := chromedp.RunResponse(c.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		c.t.Fatalf("click %s: %v", sel, err)
	}
}

// text is the visible text of the element sel.
func (c *chrome) text(sel string) string {
	c.t.Helper()
	s, err := chromedp.Run(c.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		c.t.Fatalf("read %s: %v", sel, err)
	}
	return s
}

func (c *chrome) shows(want ...string) {
	c.t.Helper()
	txt := c.text("body")
	for _, w := range want {
		if !strings.Contains(txt, w) {
			c.t.Errorf("the page does not show %q; it shows:\n%s", w, txt)
		}
	}
}

// fill replaces the value of the input named name.
func (c *chrome) fill(name, value string) {
	c.t.Helper()
	css := `[name="` + name + `"]`
	if _, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`(e => { e.value = ""; return true })(document.querySelector('`+css+`'))`)); err != nil {
		c.t.Fatalf("clear %s: %v", name, err)
	}
	c.do(chromedp.SendKeys(chromedp.CSS(css), value))
}

// until reloads nothing itself: it waits for the page (which updates itself) to show want in sel.
func (c *chrome) until(what, sel, want string, limit time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(limit)
	var last string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(c.ctx, 2*time.Second)
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			last = s
			if strings.Contains(s, want) {
				return
			}
		} else if c.ctx.Err() != nil {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	c.t.Fatalf("%s: %s did not show %q within %s; last seen %q", what, sel, want, limit, last)
}

// shot saves a PNG of the whole page under name.
func (c *chrome) shot(name string) {
	c.t.Helper()
	png, err := chromedp.Run(c.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		c.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, name+".png"), png, 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromium); errors.Is(err, os.ErrNotExist) {
		t.Skipf("browser tests need Chromium at %s", chromium)
	}
	l := startLiveSite(t)
	ledger := l.company(t, "ledgerwyn")
	key := l.Key(t, l.OrgA)
	c := startChrome(t, l.URL)

	if !t.Run("sign in", func(t *testing.T) {
		c.t = t
		c.open("/companies")
		c.shows("Sign in to Radar")
		c.shot("login")
		c.fill("email", l.OwnerA)
		c.fill("password", password)
		c.submit(`button[type="submit"]`)
		c.shows("Companies", "No companies yet", "ORG-A")
	}) {
		return
	}

	var companyPath string
	t.Run("add a company with a mistake, then fix it", func(t *testing.T) {
		c.t = t
		c.submit(`a.button.primary[href="/companies/new"]`)
		c.fill("companyName", ledger.Name)
		c.fill("companyWebsite", strings.TrimPrefix(ledger.Website, "http://"))
		c.fill("founders[0].name", ledger.Founders[0].Name)
		c.fill("thingsToTrack", "Tell me when they raise money.")
		c.fill("alertEmails", "partners@fund.example")
		c.submit(`form.stack button.primary`)
		if got := c.text(`[id="e-companyWebsite"]`); got != "must be an absolute http or https URL" {
			t.Errorf("error beside the website = %q", got)
		}
		c.shows("Please fix 1 problem")
		c.shot("company-form-errors")
		c.fill("companyWebsite", ledger.Website)
		c.submit(`form.stack button.primary`)
		c.shows("Radar is now tracking Ledgerwyn.")
		loc, err := chromedp.Run(c.ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		companyPath = strings.TrimPrefix(loc, l.URL)
	})

	t.Run("watch enrichment and the first signal", func(t *testing.T) {
		c.t = t
		if companyPath == "" {
			t.Skip("no company was added")
		}
		c.until("enrichment", `[data-field="enrichment"]`, "Profiles found", 40*time.Second)
		c.until("the first signal", "main", "Series A", 40*time.Second)
		c.shows("https://www.linkedin.com/company/ledgerwyn", "Compiled policy", "Last run", "ok")
		c.shot("company")
		c.submit(`ol.timeline a.plain`)
		c.shows("Evidence", "Ledgerwyn raises $20M Series A")
		c.shot("signal")
		c.open(companyPath + "/edit")
		c.shot("company-edit")
		c.open("/signals")
		c.shows("Ledgerwyn", "funding")
		c.shot("signals")
		c.open("/alerts")
		c.shows("Ledgerwyn")
		c.shot("alerts")
	})

	t.Run("accept a lead and see it accepted through the API", func(t *testing.T) {
		c.t = t
		c.open("/leads")
		c.until("the lead", "main", "Tom Ellery", 40*time.Second)
		c.shot("leads")
		href, err := chromedp.Run(c.ctx, chromedp.AttributeValue(chromedp.CSS(`article.lead h3 a`), "href"))
		if err != nil || !href.Exists {
			t.Fatalf("lead link: %v", err)
		}
		id := strings.TrimPrefix(href.Value, "/leads/")
		c.submit(`form[action="/leads/` + id + `/accept"] button`)
		c.shows("Accepted Tom Ellery.")
		res := l.Do(t, http.MethodGet, "/api/v1/leads/"+id, key, nil)
		if got := res.Data()["decision"].(map[string]any)["status"]; got != radar.DecisionAccepted {
			t.Errorf("API decision = %v, want accepted", got)
		}
	})

	t.Run("create and revoke a key", func(t *testing.T) {
		c.t = t
		c.open("/keys")
		c.fill("name", "Research agent")
		c.submit(`form[action="/keys"] button.primary`)
		secret := c.text("#new-key")
		if res := l.Do(t, http.MethodGet, "/api/v1/tracker", secret, nil); res.Status != http.StatusOK {
			t.Fatalf("the new key: %d", res.Status)
		}
		c.shot("keys")
		c.submit(`a[href="/keys/` + apitest.KeyID(secret) + `/revoke"]`)
		c.shows("Revoke the key Research agent?")
		c.submit(`button.danger`)
		c.shows("Revoked the key Research agent.")
		if res := l.Do(t, http.MethodGet, "/api/v1/tracker", secret, nil); res.Status != http.StatusUnauthorized {
			t.Errorf("the revoked key: %d, want 401", res.Status)
		}
	})

	t.Run("pages fit a phone", func(t *testing.T) {
		c.t = t
		c.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		c.open("/companies")
		c.shot("companies-phone")
		wide, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool]("document.documentElement.scrollWidth > window.innerWidth + 1"))
		if err != nil {
			t.Fatal(err)
		}
		if wide {
			t.Errorf("the companies page is wider than a phone screen")
		}
		c.do(chromedp.EmulateViewport(1280, 900))
		c.open("/companies")
		c.shot("companies")
		c.open("/outbox")
		c.shot("outbox")
	})
}
