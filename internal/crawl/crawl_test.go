package crawl

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"radar/internal/fetch"
	"radar/internal/simweb"
)

// fakeClock is a settable clock for the simulated web's timeline.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func startWeb(t testing.TB) (*simweb.Web, *fakeClock) {
	t.Helper()
	clk := &fakeClock{now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	web, err := simweb.Start(simweb.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	return web, clk
}

// testFetcher returns a fetcher that may reach loopback servers.
func testFetcher(t testing.TB, cfg fetch.Config) *fetch.Client {
	t.Helper()
	cfg.AllowPrivate = true
	f := fetch.New(cfg)
	t.Cleanup(f.CloseIdleConnections)
	return f
}

func webCrawler(t testing.TB, web *simweb.Web) *Crawler {
	t.Helper()
	return New(Config{Fetcher: testFetcher(t, fetch.Config{}), NewsFeedURL: web.NewsFeedURL(), GitHubAPIURL: web.GitHubAPIURL()})
}

func company(t testing.TB, web *simweb.Web, slug string) simweb.Company {
	t.Helper()
	for _, c := range web.Companies() {
		if c.Slug == slug {
			return c
		}
	}
	t.Fatalf("no simulated company %q", slug)
	return simweb.Company{}
}

func targetOf(c simweb.Company) Target {
	t := Target{CompanyName: c.Name, Website: c.Website, GitHubURL: c.GitHub}
	for _, f := range c.Founders {
		t.Founders = append(t.Founders, f.Name)
	}
	return t
}

// wantProfiles is every profile link a company's site publishes, by field.
func wantProfiles(c simweb.Company) map[string]string {
	want := make(map[string]string)
	set := func(field, u string) {
		if u != "" {
			want[field] = u
		}
	}
	set(FieldCompanyLinkedIn, c.LinkedIn)
	set(FieldCompanyTwitter, c.X)
	set(FieldCompanyGitHub, c.GitHub)
	for _, f := range c.Founders {
		set(FounderField(f.Name, KindLinkedIn), f.LinkedIn)
		set(FounderField(f.Name, KindTwitter), f.X)
		set(FounderField(f.Name, KindGitHub), f.GitHub)
	}
	return want
}

func profileMap(t *testing.T, ps []Profile) map[string]string {
	t.Helper()
	got := make(map[string]string)
	for _, p := range ps {
		if _, dup := got[p.Field]; dup {
			t.Errorf("field %s reported twice", p.Field)
		}
		got[p.Field] = p.URL
	}
	return got
}

func sourceOf(res Result, name string) (SourceResult, bool) {
	for _, s := range res.Sources {
		if s.Source == name {
			return s, true
		}
	}
	return SourceResult{}, false
}

func itemsFrom(res Result, source string) []Item {
	var out []Item
	for _, it := range res.Items {
		if it.Source == source {
			out = append(out, it)
		}
	}
	return out
}

func titles(items []Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Title)
	}
	slices.Sort(out)
	return out
}

func pagePaths(t *testing.T, pages []Snapshot) []string {
	t.Helper()
	var out []string
	for _, p := range pages {
		u, err := url.Parse(p.URL)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, u.Path)
	}
	slices.Sort(out)
	return out
}

// companyEvents returns the titles and bodies of a company's visible events.
func companyEvents(web *simweb.Web, slug string) []simweb.Event {
	var out []simweb.Event
	for _, e := range web.Events() {
		if e.Company == slug {
			out = append(out, e)
		}
	}
	return out
}

func TestEnrichFindsSiteProfiles(t *testing.T) {
	web, _ := startWeb(t)
	c := webCrawler(t, web)
	for _, co := range web.Companies() {
		t.Run(co.Slug, func(t *testing.T) {
			tg := targetOf(co)
			tg.GitHubURL = ""
			res, err := c.Enrich(context.Background(), tg)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := profileMap(t, res.Profiles), wantProfiles(co); !maps.Equal(got, want) {
				t.Errorf("got profiles %v, want %v", got, want)
			}
			if got, want := pagePaths(t, res.Pages), []string{"/", "/about", "/team"}; !slices.Equal(got, want) {
				t.Errorf("got pages %v, want %v", got, want)
			}
			if !strings.Contains(res.Text, co.Summary) {
				t.Errorf("got text %q, want it to contain the summary %q", res.Text, co.Summary)
			}
		})
	}
}

func TestRunFreshCompany(t *testing.T) {
	web, _ := startWeb(t)
	c := webCrawler(t, web)
	co := company(t, web, "tallowmere")
	res := c.Run(context.Background(), targetOf(co), nil)

	for _, name := range []string{SourceWebsite, SourceFeed, SourceNews, SourceGitHub} {
		if s, ok := sourceOf(res, name); !ok || !s.OK || s.Err != "" {
			t.Errorf("got source %s %+v (present %v), want OK without error", name, s, ok)
		}
	}
	var eventTitles, namedTitles []string
	for _, e := range companyEvents(web, co.Slug) {
		eventTitles = append(eventTitles, e.Title)
		if strings.Contains(e.Title+e.Body, "Tallowmere") {
			namedTitles = append(namedTitles, e.Title)
		}
	}
	slices.Sort(eventTitles)
	slices.Sort(namedTitles)
	tests := map[string]struct {
		source string
		want   []string
	}{
		"feed entries":    {SourceFeed, eventTitles},
		"listed articles": {SourceWebsite, eventTitles},
		"news naming it":  {SourceNews, namedTitles},
		"repositories":    {SourceGitHub, []string{"GitHub repository tallowmere/pickplan", "GitHub repository tallowmere/tallowmere-ros"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			items := itemsFrom(res, tt.source)
			if got := titles(items); !slices.Equal(got, tt.want) {
				t.Errorf("got titles %q, want %q", got, tt.want)
			}
			for _, it := range items {
				if it.Key == "" || it.URL == "" || it.Published.IsZero() {
					t.Errorf("got item %+v, want a key, a URL and a date", it)
				}
			}
		})
	}
	for _, it := range itemsFrom(res, SourceWebsite) {
		if it.Text == "" {
			t.Errorf("got article %q without text, want the feed entry's text", it.Title)
		}
	}
	if len(res.Changes) != 0 {
		t.Errorf("got %d changes on a first run, want none", len(res.Changes))
	}
	if got, want := pagePaths(t, res.Pages), []string{"/", "/about", "/blog", "/careers", "/press", "/team"}; !slices.Equal(got, want) {
		t.Errorf("got pages %v, want %v", got, want)
	}
	if got, want := profileMap(t, res.Profiles), wantProfiles(co); !maps.Equal(got, want) {
		t.Errorf("got profiles %v, want %v", got, want)
	}
	if !strings.Contains(res.Text, co.Summary) {
		t.Errorf("got text %q, want the summary %q", res.Text, co.Summary)
	}
}

// statusLog records the status of every response a proxy relays, by path.
type statusLog struct {
	mu  sync.Mutex
	got map[string][]int
}

func (l *statusLog) record(path string, code int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got[path] = append(l.got[path], code)
}

// take returns the statuses recorded so far and forgets them.
func (l *statusLog) take() map[string][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.got
	l.got = make(map[string][]int)
	return out
}

// proxySite serves a simulated company's site through a reverse proxy that logs the statuses.
func proxySite(t testing.TB, website string) (string, *statusLog) {
	t.Helper()
	target, err := url.Parse(website)
	if err != nil {
		t.Fatal(err)
	}
	log := &statusLog{got: make(map[string][]int)}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		log.record(resp.Request.URL.Path, resp.StatusCode)
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL + "/", log
}

func TestRunAgainAfterNews(t *testing.T) {
	web, clk := startWeb(t)
	c := webCrawler(t, web)
	co := company(t, web, "tallowmere")
	tg := targetOf(co)
	var log *statusLog
	tg.Website, log = proxySite(t, co.Website)

	first := c.Run(context.Background(), tg, nil)
	before := len(companyEvents(web, co.Slug))
	prev := make(map[string]Snapshot)
	for _, p := range first.Pages {
		prev[p.URL] = p
	}
	seen := make(map[string]bool)
	for _, it := range first.Items {
		seen[it.Key] = true
	}
	log.take()

	// Tallowmere's fourth item of news, an open-source release, comes 43 steps in.
	clk.Advance(43 * simweb.DefaultStep)
	second := c.Run(context.Background(), tg, prev)
	statuses := log.take()

	var newTitles []string
	for _, e := range companyEvents(web, co.Slug)[before:] {
		newTitles = append(newTitles, e.Title)
	}
	slices.Sort(newTitles)
	if len(newTitles) != 4 {
		t.Fatalf("got %d new events, want 4", len(newTitles))
	}
	fresh := make(map[string][]Item)
	for _, it := range second.Items {
		if !seen[it.Key] {
			fresh[it.Source] = append(fresh[it.Source], it)
		}
	}
	tests := map[string]struct {
		source string
		want   []string
	}{
		"feed":     {SourceFeed, newTitles},
		"articles": {SourceWebsite, newTitles},
		"news":     {SourceNews, newTitles}, // each links to its post on the company's site, which names it
		"github":   {SourceGitHub, []string{"tallowmere/pickplan v0.1.0: The Pickplan scheduler is now open source"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := titles(fresh[tt.source]); !slices.Equal(got, tt.want) {
				t.Errorf("got new titles %q, want %q", got, tt.want)
			}
		})
	}

	changed := make(map[string]Item)
	for _, ch := range second.Changes {
		u, _ := url.Parse(ch.URL)
		changed[u.Path] = ch
		if ch.Source != SourceWebsite || ch.Key == "" || ch.Text == "" {
			t.Errorf("got change %+v, want a website item with a key and a summary", ch)
		}
	}
	if got, want := slices.Sorted(maps.Keys(changed)), []string{"/", "/blog", "/careers", "/press"}; !slices.Equal(got, want) {
		t.Errorf("got changes on %v, want %v", got, want)
	}
	if got := changed["/careers"].Text; !strings.Contains(got, "Added: We have 7 open roles.") {
		t.Errorf("got careers summary %q, want it to report the 7 open roles", got)
	}
	if got := changed["/blog"].Text; !strings.Contains(got, "The Pickplan scheduler is now open source") {
		t.Errorf("got blog summary %q, want the new post's title", got)
	}

	for _, path := range []string{"/about", "/team"} {
		if got := statuses[path]; !slices.Equal(got, []int{http.StatusNotModified}) {
			t.Errorf("got statuses %v for %s, want one 304", got, path)
		}
	}
	for _, p := range second.Pages {
		u, _ := url.Parse(p.URL)
		if u.Path == "/about" || u.Path == "/team" {
			if !reflect.DeepEqual(p, prev[p.URL]) {
				t.Errorf("got snapshot %+v for unchanged %s, want the previous one %+v", p, u.Path, prev[p.URL])
			}
		}
	}
}

func TestRunUnchangedSiteReusesSnapshots(t *testing.T) {
	web, _ := startWeb(t)
	c := webCrawler(t, web)
	co := company(t, web, "glassmoth")
	tg := targetOf(co)
	var log *statusLog
	tg.Website, log = proxySite(t, co.Website)

	first := c.Run(context.Background(), tg, nil)
	prev := make(map[string]Snapshot)
	for _, p := range first.Pages {
		prev[p.URL] = p
	}
	log.take()
	second := c.Run(context.Background(), tg, prev)

	for path, codes := range log.take() {
		if path == "/robots.txt" {
			continue
		}
		if !slices.Equal(codes, []int{http.StatusNotModified}) {
			t.Errorf("got statuses %v for %s, want one 304", codes, path)
		}
	}
	if !reflect.DeepEqual(second.Pages, first.Pages) {
		t.Errorf("got pages %+v, want the previous snapshots %+v", second.Pages, first.Pages)
	}
	if !reflect.DeepEqual(second.Items, first.Items) {
		t.Errorf("got items %+v, want the same as before %+v", second.Items, first.Items)
	}
	if !reflect.DeepEqual(second.Profiles, first.Profiles) {
		t.Errorf("got profiles %+v, want %+v", second.Profiles, first.Profiles)
	}
	if len(second.Changes) != 0 {
		t.Errorf("got changes %+v, want none", second.Changes)
	}
}

func TestRunNewsQueryAndFilter(t *testing.T) {
	var gotQuery string
	feed := rssFeed("Search results",
		rssEntry{"Fennick & Vale raises €14M Series A", "https://wire.example/1", "Funding for the fermentation start-up."},
		rssEntry{"Cheesemakers turn to Fennick and Vale", "https://wire.example/2", "Casein without cows."},
		rssEntry{"Storms hit the Vale of Glamorgan", "https://wire.example/3", "Fennick Road was closed."},
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write([]byte(feed))
	}))
	t.Cleanup(srv.Close)
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{}), NewsFeedURL: srv.URL + "/search?q={query}&hl=en"})

	res := c.Run(context.Background(), Target{CompanyName: "Fennick & Vale"}, nil)
	if want := "q=Fennick+%26+Vale&hl=en"; gotQuery != want {
		t.Errorf("got query %q, want %q", gotQuery, want)
	}
	want := []string{"Cheesemakers turn to Fennick and Vale", "Fennick & Vale raises €14M Series A"}
	if got := titles(itemsFrom(res, SourceNews)); !slices.Equal(got, want) {
		t.Errorf("got news %q, want %q", got, want)
	}
	if s, ok := sourceOf(res, SourceNews); !ok || !s.OK {
		t.Errorf("got news source %+v, want OK", s)
	}
	if s, ok := sourceOf(res, SourceWebsite); !ok || s.OK || s.Err == "" {
		t.Errorf("got website source %+v for a company without a website, want a failure", s)
	}
}

func BenchmarkRun(b *testing.B) {
	web, _ := startWeb(b)
	c := webCrawler(b, web)
	tg := targetOf(company(b, web, "tallowmere"))
	first := c.Run(context.Background(), tg, nil)
	prev := make(map[string]Snapshot)
	for _, p := range first.Pages {
		prev[p.URL] = p
	}
	b.Run("fresh", func(b *testing.B) {
		for b.Loop() {
			c.Run(context.Background(), tg, nil)
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			c.Run(context.Background(), tg, prev)
		}
	})
}

// TestRunReadsBriefNewsArticles serves a news search whose results are a headline and a line each, as news
// searches give: the run judges a result by its article's text when the article names the company, and keeps
// the line when the article cannot be read or is about something else.
func TestRunReadsBriefNewsArticles(t *testing.T) {
	article := `<html><body><nav><a href="/">Wire</a></nav><article><h1>Fennick & Vale cuts a fifth of its staff</h1>
<p>Fennick & Vale, the fermentation start-up, laid off 40 of its 200 employees on Tuesday and closed its pilot plant in Ghent.</p>
<p>Chief executive Marta Fennick said the company would focus on its dairy customers.</p></article>
<aside>Most read: storms hit the coast</aside></body></html>`
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/search":
			w.Header().Set("Content-Type", "application/rss+xml")
			w.Write([]byte(rssFeed("Search results",
				rssEntry{"Fennick & Vale cuts a fifth of its staff", srvURL + "/story/cuts", "Fennick & Vale - Wire"},
				rssEntry{"Fennick & Vale at the food fair", srvURL + "/story/fair", "Fennick & Vale - Wire"},
				rssEntry{"Fennick & Vale in the news", srvURL + "/story/gone", "Fennick & Vale - Wire"})))
		case "/story/cuts":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(article))
		case "/story/fair":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<article><p>A consent form with nothing about the company on it, long enough to say more than the line.</p></article>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	srvURL = srv.URL
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{}), NewsFeedURL: srv.URL + "/search?q={query}"})

	res := c.Run(context.Background(), Target{CompanyName: "Fennick & Vale"}, nil)
	texts := map[string]string{}
	for _, it := range itemsFrom(res, SourceNews) {
		texts[it.Title] = it.Text
	}
	want := "Fennick & Vale cuts a fifth of its staff\n" +
		"Fennick & Vale, the fermentation start-up, laid off 40 of its 200 employees on Tuesday and closed its pilot plant in Ghent.\n" +
		"Chief executive Marta Fennick said the company would focus on its dairy customers."
	if got := texts["Fennick & Vale cuts a fifth of its staff"]; got != want {
		t.Errorf("got text %q for a result whose article names the company, want the article's main text %q", got, want)
	}
	for _, title := range []string{"Fennick & Vale at the food fair", "Fennick & Vale in the news"} {
		if got := texts[title]; got != "Fennick & Vale - Wire" {
			t.Errorf("%s: got text %q, want the result's own line", title, got)
		}
	}
	if s, ok := sourceOf(res, SourceNews); !ok || !s.OK {
		t.Errorf("got news source %+v, want OK although one article could not be read", s)
	}
}

// TestRunPrefersFullFeedContent reads a feed whose entries carry a one-line description and the whole post in
// content:encoded: the item's text is the whole post.
func TestRunPrefersFullFeedContent(t *testing.T) {
	feed := `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Blog</title><link>/</link><description>d</description>
<item><title>Spring news</title><link>/blog/spring</link><guid>/blog/spring</guid><description>A few words.</description>
<content:encoded><![CDATA[<p>Northwind has acquired Ferrol Routing, a two-person start-up in Porto.</p><p>Its founders join our platform team.</p>]]></content:encoded></item>
</channel></rss>`
	srv, _ := fixtureSite(t, map[string]string{
		"/":         `<head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><main><p>Freight, simplified.</p></main>`,
		"/feed.xml": "application/rss+xml\n\n" + feed,
	})
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{})})
	res := c.Run(context.Background(), Target{CompanyName: "Northwind", Website: srv.URL}, nil)
	items := itemsFrom(res, SourceFeed)
	if len(items) != 1 {
		t.Fatalf("got feed items %+v, want one", items)
	}
	if want := "Northwind has acquired Ferrol Routing, a two-person start-up in Porto. Its founders join our platform team."; items[0].Text != want {
		t.Errorf("got text %q, want the entry's content %q", items[0].Text, want)
	}
}

// TestRunKeepsNewsOfTheFoundersAndTheDomain keeps news-search results that name no company but a founder in
// full or the company's domain, and drops one that names neither.
func TestRunKeepsNewsOfTheFoundersAndTheDomain(t *testing.T) {
	feed := rssFeed("Search results",
		rssEntry{"Marta Okafor on X", "", "Today we filed suit against a scraper reselling our model cards. The complaint is public."},
		rssEntry{"We're hiring", "", "Two SREs wanted, remote in the EU: gowl.example/jobs"},
		rssEntry{"Marta Lindqvist on X", "", "A week of sailing, no laptop."},
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write([]byte(feed))
	}))
	t.Cleanup(srv.Close)
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{}), NewsFeedURL: srv.URL + "/search?q={query}"})
	res := c.Run(context.Background(), Target{CompanyName: "Granite Owl", Website: "https://www.gowl.example", Founders: []string{"Marta Okafor"}}, nil)
	want := []string{"Marta Okafor on X", "We're hiring"}
	if got := titles(itemsFrom(res, SourceNews)); !slices.Equal(got, want) {
		t.Errorf("got news %q, want %q", got, want)
	}
}
