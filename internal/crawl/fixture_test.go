package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"radar"
	"radar/internal/analysis"
	"radar/internal/fetch"
	"radar/internal/simweb"
)

type rssEntry struct{ title, link, description string }

// rssFeed renders an RSS 2.0 document, newest entry first, a day apart from 1 May 2026.
func rssFeed(title string, entries ...rssEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>%s</title><link>https://wire.example/</link><description>d</description>`, html.EscapeString(title))
	day := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for i, e := range entries {
		fmt.Fprintf(&b, `<item><title>%s</title><link>%s</link><guid>%s</guid><description>%s</description><pubDate>%s</pubDate></item>`,
			html.EscapeString(e.title), html.EscapeString(e.link), html.EscapeString(e.link), html.EscapeString(e.description),
			day.AddDate(0, 0, -i).Format(time.RFC1123Z))
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// hitLog counts the requests a fixture server receives, by path.
type hitLog struct {
	mu   sync.Mutex
	hits map[string]int
}

func (l *hitLog) add(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.hits == nil {
		l.hits = make(map[string]int)
	}
	l.hits[path]++
}

func (l *hitLog) count(path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hits[path]
}

// pages returns the paths requested other than robots.txt, sorted.
func (l *hitLog) pages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for p := range l.hits {
		if p != "/robots.txt" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// fixtureSite serves pages from a map of path to HTML body (or, for other types, "type\n\nbody"),
// logging every request; robots.txt is served when present in the map.
func fixtureSite(t *testing.T, pages map[string]string) (*httptest.Server, *hitLog) {
	t.Helper()
	log := &hitLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.URL.Path)
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ctype := "text/html; charset=utf-8"
		if r.URL.Path == "/robots.txt" {
			ctype = "text/plain"
		} else if head, rest, ok := strings.Cut(body, "\n\n"); ok && !strings.Contains(head, "<") {
			ctype, body = head, rest
		}
		if to, ok := strings.CutPrefix(body, "redirect "); ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

func TestRunRecordsSiteFailures(t *testing.T) {
	web, _ := startWeb(t)

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(slow.Close)
	redirecting, _ := fixtureSite(t, map[string]string{"/": "redirect " + simweb.RefusedURL + "/"})
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	t.Cleanup(broken.Close)
	pdf, _ := fixtureSite(t, map[string]string{"/": "application/pdf\n\n%PDF-1.7"})

	open := testFetcher(t, fetch.Config{Timeout: 300 * time.Millisecond})
	guarded := fetch.New(fetch.Config{})
	t.Cleanup(guarded.CloseIdleConnections)

	tests := map[string]struct {
		website string
		fetcher *fetch.Client
		want    error // besides ErrUnreachable; nil when only that
		timeout bool
	}{
		"slow site times out":            {slow.URL, open, nil, true},
		"redirect to a closed port":      {redirecting.URL, open, nil, false},
		"server error":                   {broken.URL, open, fetch.ErrStatus, false},
		"home page is not HTML":          {pdf.URL, open, errNotHTML, false},
		"private address refused":        {broken.URL, guarded, fetch.ErrPrivateAddress, false},
		"no website":                     {"", open, errNoWebsite, false},
		"website that is not a web page": {"mailto:hello@example.com", open, errNoWebsite, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			c := New(Config{Fetcher: tt.fetcher, NewsFeedURL: web.NewsFeedURL(), GitHubAPIURL: web.GitHubAPIURL()})
			tg := Target{CompanyName: "Tallowmere Robotics", Website: tt.website, GitHubURL: "https://github.com/tallowmere"}

			res := c.Run(context.Background(), tg, nil)
			if s, ok := sourceOf(res, SourceWebsite); !ok || s.OK || s.Err == "" {
				t.Errorf("got website source %+v, want a recorded failure", s)
			}
			if len(res.Pages) != 0 || len(res.Changes) != 0 {
				t.Errorf("got %d pages and %d changes, want none", len(res.Pages), len(res.Changes))
			}
			if tt.fetcher == open {
				for _, name := range []string{SourceNews, SourceGitHub} {
					if s, ok := sourceOf(res, name); !ok || !s.OK {
						t.Errorf("got %s source %+v, want OK despite the website", name, s)
					}
					if len(itemsFrom(res, name)) == 0 {
						t.Errorf("got no %s items, want the ones the source gave", name)
					}
				}
			}

			_, err := c.Enrich(context.Background(), tg)
			if !errors.Is(err, ErrUnreachable) {
				t.Fatalf("got Enrich error %v, want %v", err, ErrUnreachable)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("got Enrich error %v, want it to wrap %v", err, tt.want)
			}
			if got := fetch.IsTimeout(err); got != tt.timeout {
				t.Errorf("got IsTimeout %v for %v, want %v", got, err, tt.timeout)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	web, _ := startWeb(t)
	c := webCrawler(t, web)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := c.Run(ctx, targetOf(company(t, web, "corvimesh")), nil)
	for _, s := range res.Sources {
		if s.OK {
			t.Errorf("got source %+v after cancellation, want a failure", s)
		}
	}
	if len(res.Sources) != 3 {
		t.Errorf("got sources %+v, want website, news and github", res.Sources)
	}
}

func TestRunHonoursRobots(t *testing.T) {
	srv, log := fixtureSite(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /team\nDisallow: /feed.xml\n",
		"/":           `<nav><a href="/about">About</a> <a href="/team">Team</a></nav><link rel="alternate" type="application/rss+xml" href="/feed.xml">`,
		"/about":      `<h1>About us</h1>`,
		"/team":       `<h1>Team</h1>`,
		"/feed.xml":   "application/rss+xml\n\n" + rssFeed("x"),
	})
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{})})
	res := c.Run(context.Background(), Target{CompanyName: "Acme", Website: srv.URL}, nil)

	if got, want := log.pages(), []string{"/", "/about"}; !slices.Equal(got, want) {
		t.Errorf("got requests for %v, want %v", got, want)
	}
	if got, want := pagePaths(t, res.Pages), []string{"/", "/about"}; !slices.Equal(got, want) {
		t.Errorf("got pages %v, want %v", got, want)
	}
	if s, _ := sourceOf(res, SourceWebsite); !s.OK || s.Err != "" {
		t.Errorf("got website source %+v, want OK: a disallowed page is not a failure", s)
	}
	if s, _ := sourceOf(res, SourceFeed); s.OK || !strings.Contains(s.Err, fetch.ErrRobots.Error()) {
		t.Errorf("got feed source %+v, want a robots.txt refusal", s)
	}
}

func TestRunFollowsSiteLinks(t *testing.T) {
	other, otherLog := fixtureSite(t, map[string]string{
		"/news":    `<h1>Elsewhere</h1>`,
		"/landing": `<h1>Landed elsewhere</h1>`,
	})
	srv, log := fixtureSite(t, map[string]string{
		"/": `<html><head><title>Acme Widgets</title><meta name="description" content="Widgets for everyone."></head><body>
<header><nav><a href="/blog">Blog</a> <a href="/about-us">About</a> <a href="/press-kit.zip">Press kit</a>
<a href="` + other.URL + `/news">News</a> <a href="/moved">Company news</a> <a href="/jobs">Jobs</a> <a href="/pricing">Pricing</a></nav></header>
<main><h1>Acme Widgets</h1><p>We make widgets.</p><script>var tracking = "noise";</script><style>p{}</style></main>
<footer><a href="https://x.com/acmewidgets">X</a> <a href="https://twitter.com/intent/tweet?text=hi">Share</a></footer></body></html>`,
		"/blog": `<main><h1>Blog</h1><ul>
<li><a href="/blog/2026/05/widgets-2">Launching Widgets 2.0 today</a> <time datetime="2026-05-01">1 May</time></li>
<li><a href="/blog/2026/04/hiring">We are hiring in Leeds</a> <a href="/blog/2026/04/hiring">Read more</a></li>
<li><a href="/blog/page/2">Older posts</a></li></ul>
<p><a href="/rss">RSS</a></p></main>`,
		"/blog/page/2": `<h1>Older posts</h1>`,
		"/about-us":    `<h1>About</h1><p>Founded in Leeds.</p>`,
		"/jobs":        `<h1>Jobs</h1>`,
		"/moved":       "redirect " + other.URL + "/landing",
		"/rss": "application/rss+xml\n\n" + rssFeed("Acme",
			rssEntry{"Launching Widgets 2.0 today", "/blog/2026/05/widgets-2", "<p>Widgets <b>2.0</b> are here.</p>"},
			rssEntry{"We are hiring in Leeds", "/blog/2026/04/hiring", "Ten new roles."}),
	})
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{})})
	res := c.Run(context.Background(), Target{CompanyName: "Acme Widgets", Website: srv.URL}, nil)

	if got, want := pagePaths(t, res.Pages), []string{"/", "/about-us", "/blog", "/blog/page/2", "/jobs"}; !slices.Equal(got, want) {
		t.Errorf("got pages %v, want %v", got, want)
	}
	if n := log.count("/press-kit.zip"); n != 0 {
		t.Errorf("got %d requests for a zip file, want none", n)
	}
	if n := log.count("/pricing"); n != 0 {
		t.Errorf("got %d requests for an unrelated page, want none", n)
	}
	if n := otherLog.count("/news"); n != 0 {
		t.Errorf("got %d requests to another site's link, want none", n)
	}
	if s, _ := sourceOf(res, SourceWebsite); !s.OK || !strings.Contains(s.Err, errOffSite.Error()) {
		t.Errorf("got website source %+v, want OK with the off-site redirect noted", s)
	}

	home := res.Pages[0]
	if want := "Acme Widgets\nWidgets for everyone.\nAcme Widgets\nWe make widgets."; home.Text != want {
		t.Errorf("got home text %q, want %q", home.Text, want)
	}
	articles := itemsFrom(res, SourceWebsite)
	want := []Item{
		{Key: "website:" + srv.URL + "/blog/2026/05/widgets-2", Source: SourceWebsite, Kind: ItemArticle, URL: srv.URL + "/blog/2026/05/widgets-2",
			Title: "Launching Widgets 2.0 today", Text: "Widgets 2.0 are here.", Published: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)},
		{Key: "website:" + srv.URL + "/blog/2026/04/hiring", Source: SourceWebsite, Kind: ItemArticle, URL: srv.URL + "/blog/2026/04/hiring",
			Title: "We are hiring in Leeds", Text: "Ten new roles.", Published: time.Date(2026, 4, 30, 12, 0, 0, 0, time.UTC)},
	}
	if !slices.Equal(articles, want) {
		t.Errorf("got articles %+v, want %+v", articles, want)
	}
	if got := titles(itemsFrom(res, SourceFeed)); !slices.Equal(got, []string{"Launching Widgets 2.0 today", "We are hiring in Leeds"}) {
		t.Errorf("got feed items %q, want the two entries of the linked feed", got)
	}
	if got, want := res.Profiles, []Profile{{FieldCompanyTwitter, "https://x.com/acmewidgets", srv.URL + "/"}}; !slices.Equal(got, want) {
		t.Errorf("got profiles %+v, want %+v", got, want)
	}
}

func TestRunBounds(t *testing.T) {
	var entries []rssEntry
	for i := range 30 {
		entries = append(entries, rssEntry{fmt.Sprintf("Post %02d", i), fmt.Sprintf("/p/%d", i), "x"})
	}
	var home strings.Builder
	home.WriteString(`<link rel="alternate" type="application/rss+xml" href="/feed.xml"><nav>`)
	for i := range 20 {
		fmt.Fprintf(&home, `<a href="/news-%d">News %d</a>`, i, i)
	}
	home.WriteString(`</nav>`)

	var mu sync.Mutex
	inFlight, peak, pages := 0, 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
			return
		case r.URL.Path == "/feed.xml":
			w.Header().Set("Content-Type", "application/rss+xml")
			w.Write([]byte(rssFeed("Acme", entries...)))
			return
		}
		mu.Lock()
		inFlight++
		pages++
		peak = max(peak, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			w.Write([]byte(home.String()))
			return
		}
		w.Write([]byte(`<h1>News</h1>`))
	}))
	t.Cleanup(srv.Close)

	c := New(Config{Fetcher: testFetcher(t, fetch.Config{PerHostConcurrency: 10}), MaxPages: 5, MaxItems: 7, Concurrency: 2})
	res := c.Run(context.Background(), Target{CompanyName: "Acme", Website: srv.URL}, nil)

	if len(res.Pages) != 6 || pages != 6 {
		t.Errorf("got %d pages from %d requests, want 6 of each: the home page and MaxPages more", len(res.Pages), pages)
	}
	if peak > 2 {
		t.Errorf("got %d requests in flight at once, want at most Concurrency 2", peak)
	}
	feed := itemsFrom(res, SourceFeed)
	want := []string{"Post 00", "Post 01", "Post 02", "Post 03", "Post 04", "Post 05", "Post 06"}
	var got []string
	for _, it := range feed {
		got = append(got, it.Title)
	}
	if !slices.Equal(got, want) {
		t.Errorf("got feed items %q, want the newest MaxItems %q", got, want)
	}
}

func TestRunGitHub(t *testing.T) {
	var mu sync.Mutex
	var headers []http.Header
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		var v any
		switch r.URL.Path {
		case "/users/acme/repos":
			if r.URL.Query().Get("sort") != "pushed" {
				http.Error(w, `{"message":"want sort"}`, http.StatusBadRequest)
				return
			}
			v = []map[string]any{
				{"name": "widget", "full_name": "acme/widget", "html_url": "https://github.com/acme/widget", "description": "Widgets",
					"created_at": "2025-01-01T00:00:00Z", "pushed_at": "2026-05-01T00:00:00Z"},
				{"name": "fork-of-x", "full_name": "acme/fork-of-x", "fork": true, "created_at": "2026-01-01T00:00:00Z", "pushed_at": "2026-01-01T00:00:00Z"},
			}
		case "/repos/acme/widget/releases":
			v = []map[string]any{
				{"tag_name": "v2.0.0", "name": "Widgets 2", "body": "Faster\nwidgets.", "html_url": "https://github.com/acme/widget/releases/tag/v2.0.0", "published_at": "2026-05-01T00:00:00Z"},
				{"tag_name": "v2.1.0", "name": "draft", "draft": true},
			}
		default:
			w.WriteHeader(http.StatusNotFound)
			v = map[string]string{"message": "Not Found"}
		}
		json.NewEncoder(w).Encode(v)
	}))
	t.Cleanup(api.Close)

	c := New(Config{Fetcher: testFetcher(t, fetch.Config{}), GitHubAPIURL: api.URL + "/", GitHubToken: "tok"})
	res := c.Run(context.Background(), Target{CompanyName: "Acme", GitHubURL: "https://github.com/acme"}, nil)

	want := []Item{
		{Key: "github:release:acme/widget@v2.0.0", Source: SourceGitHub, Kind: ItemArticle, URL: "https://github.com/acme/widget/releases/tag/v2.0.0",
			Title: "acme/widget v2.0.0: Widgets 2", Text: "Faster widgets.", Published: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)},
		{Key: "github:repo:acme/widget", Source: SourceGitHub, Kind: ItemArticle, URL: "https://github.com/acme/widget",
			Title: "GitHub repository acme/widget", Text: "Widgets", Published: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	if got := itemsFrom(res, SourceGitHub); !slices.Equal(got, want) {
		t.Errorf("got items %+v, want %+v", got, want)
	}
	if s, _ := sourceOf(res, SourceGitHub); !s.OK || s.Err != "" {
		t.Errorf("got github source %+v, want OK", s)
	}
	for _, h := range headers {
		if h.Get("Authorization") != "Bearer tok" || h.Get("Accept") != "application/vnd.github+json" {
			t.Errorf("got Authorization %q Accept %q, want the token and the GitHub media type", h.Get("Authorization"), h.Get("Accept"))
		}
	}
}

func TestRunReadsListedArticles(t *testing.T) {
	srv, log := fixtureSite(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /news/private-note\n",
		"/":           `<nav><a href="/news">News</a></nav><main><p>Freight, simplified.</p></main>`,
		"/news": `<main><h1>News</h1><ul>
<li><a href="/news/a-big-day">A big day for us</a> <time datetime="2026-05-03">3 May</time></li>
<li><a href="/news/private-note">A note to the team</a> <time datetime="2026-05-02">2 May</time></li>
<li><a href="/news/spring-update">Our spring update</a> <time datetime="2026-05-01">1 May</time></li>
<li><a href="/news/winter-update">Our winter update</a> <time datetime="2026-01-01">1 Jan</time></li></ul></main>`,
		"/news/a-big-day": `<html><head><title>A big day for us</title></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<article><h1>A big day for us</h1><p>Northwind and Maersk today announced a strategic partnership to run Northwind's booking platform across Maersk's European trucking network.</p>
<p>The agreement covers 14 countries.</p></article>
<aside>Subscribe to our newsletter</aside><footer>© 2026 Northwind</footer></body></html>`,
		"/news/private-note":   `<article><p>Internal only.</p></article>`,
		"/news/spring-update":  `<main><p>We shipped faster route planning.</p></main>`,
		"/news/winter-update":  `<main><p>Season's greetings.</p></main>`,
		"/news/unlinked-draft": `<main><p>Never listed.</p></main>`,
	})
	c := New(Config{Fetcher: testFetcher(t, fetch.Config{}), MaxArticles: 3})
	res := c.Run(context.Background(), Target{CompanyName: "Northwind", Website: srv.URL}, nil)

	texts := map[string]string{}
	for _, it := range itemsFrom(res, SourceWebsite) {
		u, _ := url.Parse(it.URL)
		texts[u.Path] = it.Text
		if it.Kind != ItemArticle {
			t.Errorf("got kind %q for %s, want %q", it.Kind, it.URL, ItemArticle)
		}
	}
	want := "Northwind and Maersk today announced a strategic partnership to run Northwind's booking platform across Maersk's European trucking network.\nThe agreement covers 14 countries."
	if got := texts["/news/a-big-day"]; got != want {
		t.Errorf("got article text %q, want the article's main text %q", got, want)
	}
	if n := log.count("/news/private-note"); n != 0 {
		t.Errorf("got %d requests for an article robots.txt disallows, want none", n)
	}
	// Three articles at most, newest first: the disallowed one takes its turn, so the spring update is read
	// and the winter one is not.
	if got := texts["/news/spring-update"]; got != "We shipped faster route planning." {
		t.Errorf("got spring text %q, want its main text", got)
	}
	if n := log.count("/news/winter-update"); n != 0 || texts["/news/winter-update"] != "" {
		t.Errorf("got %d requests and text %q for the fourth article, want none: three per run", n, texts["/news/winter-update"])
	}
	if s, _ := sourceOf(res, SourceWebsite); !s.OK || s.Err != "" {
		t.Errorf("got website source %+v, want OK", s)
	}

	// The body, not the vague link text, decides what the article is.
	var it Item
	for _, x := range itemsFrom(res, SourceWebsite) {
		if strings.HasSuffix(x.URL, "/news/a-big-day") {
			it = x
		}
	}
	f := analysis.Classify(analysis.Item{Source: it.Source, Kind: it.Kind, URL: it.URL, Title: it.Title, Text: it.Text}, "Northwind", nil)
	if f.Type != radar.TypePartnership {
		t.Errorf("got finding %s for the article, want %s", f.Type, radar.TypePartnership)
	}

	// The article pages are remembered and asked for conditionally on the next run.
	prev := map[string]Snapshot{}
	for _, p := range res.Pages {
		prev[p.URL] = p
	}
	if _, ok := prev[srv.URL+"/news/a-big-day"]; !ok {
		t.Errorf("got pages %v, want the article read among them", pagePaths(t, res.Pages))
	}
	again := c.Run(context.Background(), Target{CompanyName: "Northwind", Website: srv.URL}, prev)
	for _, it := range itemsFrom(again, SourceWebsite) {
		if strings.HasSuffix(it.URL, "/news/a-big-day") && it.Text != want {
			t.Errorf("got text %q on the second run, want %q", it.Text, want)
		}
	}
}
