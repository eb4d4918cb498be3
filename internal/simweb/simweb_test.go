package simweb_test

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"

	"radar/internal/simweb"
)

const step = time.Minute

// fakeClock is a clock that moves only when told to; start is its first reading.
type fakeClock struct {
	mu         sync.Mutex
	start, now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AdvanceTo moves the clock to the moment event e is published.
func (c *fakeClock) AdvanceTo(e simweb.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.start.Add(e.At)
}

func startWeb(t testing.TB) (*simweb.Web, *fakeClock) {
	t.Helper()
	start := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	clock := &fakeClock{start: start, now: start}
	w, err := simweb.Start(simweb.Options{Now: clock.Now, Step: step})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(w.Close)
	return w, clock
}

func company(t testing.TB, w *simweb.Web, slug string) simweb.Company {
	t.Helper()
	for _, c := range w.Companies() {
		if c.Slug == slug {
			return c
		}
	}
	t.Fatalf("no company %q", slug)
	return simweb.Company{}
}

// events returns the default timeline's events of a company: those visible from the start and those to come.
func events(slug string) (history, upcoming []simweb.Event) {
	for _, e := range simweb.Timeline(step) {
		switch {
		case e.Company != slug:
		case e.At <= 0:
			history = append(history, e)
		default:
			upcoming = append(upcoming, e)
		}
	}
	return history, upcoming
}

func get(t testing.TB, rawURL string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	maps.Copy(req.Header, header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", rawURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", rawURL, err)
	}
	return resp, string(body)
}

// links returns the href of every <a>, and the type and href of every <link rel="alternate">.
func links(t *testing.T, page string) (anchors []string, alternates map[string]string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parse HTML: %v", err)
	}
	alternates = make(map[string]string)
	attr := func(n *html.Node, name string) string {
		for _, a := range n.Attr {
			if a.Key == name {
				return a.Val
			}
		}
		return ""
	}
	for n := range doc.Descendants() {
		switch {
		case n.Type != html.ElementNode:
		case n.Data == "a":
			anchors = append(anchors, attr(n, "href"))
		case n.Data == "link" && attr(n, "rel") == "alternate":
			alternates[attr(n, "type")] = attr(n, "href")
		}
	}
	return anchors, alternates
}

func profiles(urls ...string) []string {
	return slices.DeleteFunc(urls, func(u string) bool { return u == "" })
}

func feedOf(c simweb.Company) (path, mediaType string) {
	if c.Atom {
		return "atom.xml", "application/atom+xml"
	}
	return "feed.xml", "application/rss+xml"
}

func TestCompaniesAndTimeline(t *testing.T) {
	companies := simweb.Companies()
	if len(companies) < 12 {
		t.Fatalf("got %d companies, want at least 12", len(companies))
	}
	slugs := make(map[string]bool)
	var partial, ready, atom int
	for _, c := range companies {
		if slugs[c.Slug] {
			t.Errorf("slug %q used twice", c.Slug)
		}
		slugs[c.Slug] = true
		history, upcoming := events(c.Slug)
		if len(history) == 0 || len(upcoming) < 3 {
			t.Errorf("%s: got %d past and %d upcoming events, want some history and at least 3 to come", c.Slug, len(history), len(upcoming))
		}
		complete := true
		for _, f := range c.Founders {
			complete = complete && f.LinkedIn != "" && f.X != "" && f.GitHub != ""
		}
		if complete {
			ready++
		} else {
			partial++
		}
		if c.Atom {
			atom++
		}
	}
	if ready == 0 || partial == 0 {
		t.Errorf("got %d companies with every founder profile and %d with some missing, want both", ready, partial)
	}
	if atom == 0 || atom == len(companies) {
		t.Errorf("got %d of %d companies with Atom feeds, want some but not all", atom, len(companies))
	}

	kinds := make(map[string]bool)
	var text strings.Builder
	for _, e := range simweb.Timeline(step) {
		if !slugs[e.Company] {
			t.Errorf("event %q names unknown company %q", e.Title, e.Company)
		}
		for _, c := range companies {
			if c.Slug != e.Company && strings.Contains(e.Title+e.Body, c.Name) {
				t.Errorf("%s event %q mentions %s, so a news search for %[3]s would find it", e.Company, e.Title, c.Name)
			}
		}
		kinds[e.Kind] = true
		text.WriteString(e.Title + " " + e.Body + "\n")
	}
	for _, kind := range []string{
		simweb.KindFunding, simweb.KindFounderDeparture, simweb.KindProductLaunch, simweb.KindPartnership,
		simweb.KindTeamGrowth, simweb.KindContraction, simweb.KindExecutiveChange, simweb.KindAcquisition,
		simweb.KindRecognition, simweb.KindLegal, simweb.KindExpansion, simweb.KindOpenSource, simweb.KindOther,
	} {
		if !kinds[kind] {
			t.Errorf("timeline has no %s event", kind)
		}
	}
	for _, want := range []string{"$", "€", "£", "denie", "leaves", "lays off", "founded by"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("timeline never mentions %q", want)
		}
	}
}

func TestHomePage(t *testing.T) {
	w, _ := startWeb(t)
	for _, c := range w.Companies() {
		t.Run(c.Slug, func(t *testing.T) {
			resp, body := get(t, c.Website, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("got status %d, want 200", resp.StatusCode)
			}
			if got := resp.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
				t.Errorf("got Content-Type %q, want text/html; charset=utf-8", got)
			}
			anchors, alternates := links(t, body)
			for _, want := range append([]string{"/about", "/team", "/blog", "/careers", "/press"}, profiles(c.LinkedIn, c.X, c.GitHub)...) {
				if !slices.Contains(anchors, want) {
					t.Errorf("home page has no link to %s; links: %v", want, anchors)
				}
			}
			path, mediaType := feedOf(c)
			if got, want := alternates[mediaType], c.Website+path; got != want {
				t.Errorf("got alternate %s link %q, want %q", mediaType, got, want)
			}
			if !strings.Contains(body, `type="`+mediaType+`"`) {
				t.Errorf("home page does not announce its feed with a literal type=%q", mediaType)
			}
		})
	}
}

func TestTeamPage(t *testing.T) {
	w, _ := startWeb(t)
	for _, c := range w.Companies() {
		t.Run(c.Slug, func(t *testing.T) {
			resp, body := get(t, c.Website+"team", nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("got status %d, want 200", resp.StatusCode)
			}
			anchors, _ := links(t, body)
			var got []string
			for _, a := range anchors {
				if u, err := url.Parse(a); err == nil && u.IsAbs() && !slices.Contains([]string{c.LinkedIn, c.X, c.GitHub}, a) && !strings.HasPrefix(a, c.Website) {
					got = append(got, a)
				}
			}
			var want []string
			for _, f := range c.Founders {
				if !strings.Contains(body, f.Name) {
					t.Errorf("team page does not name %s", f.Name)
				}
				want = append(want, profiles(f.LinkedIn, f.X, f.GitHub)...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got founder profile links %v, want %v", got, want)
			}
		})
	}
}

func TestFeedGrowsWithTheClock(t *testing.T) {
	for name, slug := range map[string]string{"rss": "tallowmere", "atom": "quillfern"} {
		t.Run(name, func(t *testing.T) {
			w, clock := startWeb(t)
			c := company(t, w, slug)
			path, mediaType := feedOf(c)
			history, upcoming := events(slug)
			read := func() *gofeed.Feed {
				resp, body := get(t, c.Website+path, nil)
				if got := resp.Header.Get("Content-Type"); got != mediaType+"; charset=utf-8" {
					t.Errorf("got Content-Type %q, want %s; charset=utf-8", got, mediaType)
				}
				feed, err := gofeed.NewParser().ParseString(body)
				if err != nil {
					t.Fatalf("parse feed: %v", err)
				}
				if got := feed.FeedType; got != name {
					t.Errorf("got feed type %q, want %q", got, name)
				}
				return feed
			}

			if got := len(read().Items); got != len(history) {
				t.Errorf("before: got %d items, want %d", got, len(history))
			}
			clock.AdvanceTo(upcoming[1])
			after := read()
			if got, want := len(after.Items), len(history)+2; got != want {
				t.Errorf("after: got %d items, want %d", got, want)
			}
			if got, want := after.Items[0].Title, upcoming[1].Title; got != want {
				t.Errorf("got newest item %q, want %q", got, want)
			}
		})
	}
}

func TestEventsFollowTheClock(t *testing.T) {
	w, clock := startWeb(t)
	timeline := simweb.Timeline(step)
	last := timeline[len(timeline)-1]
	var history int
	for _, e := range timeline {
		if e.At <= 0 {
			history++
		}
	}
	if got := len(w.Events()); got != history {
		t.Errorf("at start: got %d visible events, want %d", got, history)
	}
	clock.AdvanceTo(last)
	got := w.Events()
	if len(got) != len(timeline) || got[len(got)-1] != last {
		t.Errorf("at the end: got %d visible events ending %q, want %d ending %q", len(got), got[len(got)-1].Title, len(timeline), last.Title)
	}
}

func TestConditionalGet(t *testing.T) {
	w, clock := startWeb(t)
	c := company(t, w, "tallowmere")
	_, upcoming := events(c.Slug)
	tests := map[string]struct {
		path        string
		wantChanged bool
	}{
		"home":    {"", true},
		"feed":    {"feed.xml", true},
		"careers": {"careers", true},
		"robots":  {"robots.txt", false},
		"article": {"blog/1", false},
	}
	first := make(map[string]*http.Response)
	for name, tc := range tests {
		resp, _ := get(t, c.Website+tc.path, nil)
		if resp.Header.Get("ETag") == "" || resp.Header.Get("Last-Modified") == "" {
			t.Fatalf("%s: got ETag %q and Last-Modified %q, want both", name, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"))
		}
		first[name] = resp
	}
	check := func(t *testing.T, path string, header http.Header, want int) {
		t.Helper()
		if resp, _ := get(t, c.Website+path, header); resp.StatusCode != want {
			t.Errorf("got status %d, want %d", resp.StatusCode, want)
		}
	}
	for name, tc := range tests {
		t.Run(name+"/unchanged", func(t *testing.T) {
			check(t, tc.path, http.Header{"If-None-Match": {first[name].Header.Get("ETag")}}, http.StatusNotModified)
			check(t, tc.path, http.Header{"If-Modified-Since": {first[name].Header.Get("Last-Modified")}}, http.StatusNotModified)
		})
	}
	clock.AdvanceTo(upcoming[0])
	for name, tc := range tests {
		t.Run(name+"/after news", func(t *testing.T) {
			want := http.StatusNotModified
			if tc.wantChanged {
				want = http.StatusOK
			}
			check(t, tc.path, http.Header{"If-None-Match": {first[name].Header.Get("ETag")}}, want)
			check(t, tc.path, http.Header{"If-Modified-Since": {first[name].Header.Get("Last-Modified")}}, want)
		})
	}
}

func TestArticlesAppearWhenPublished(t *testing.T) {
	w, clock := startWeb(t)
	c := company(t, w, "brackenvolt")
	history, upcoming := events(c.Slug)
	next := c.Website + "blog/" + strconv.Itoa(len(history)+1)

	if resp, _ := get(t, next, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("before publication: got status %d, want 404", resp.StatusCode)
	}
	_, blog := get(t, c.Website+"blog", nil)
	if strings.Contains(blog, upcoming[0].Title) {
		t.Errorf("blog lists %q before it is published", upcoming[0].Title)
	}
	clock.AdvanceTo(upcoming[0])
	resp, article := get(t, next, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(article, upcoming[0].Title) {
		t.Errorf("after publication: got status %d, want 200 with title %q", resp.StatusCode, upcoming[0].Title)
	}
	for _, path := range []string{"blog", "press"} {
		_, page := get(t, c.Website+path, nil)
		anchors, _ := links(t, page)
		if !slices.Contains(anchors, "/blog/"+strconv.Itoa(len(history)+1)) {
			t.Errorf("/%s does not link the new article; links: %v", path, anchors)
		}
	}
}

func TestCareersFollowTeamNews(t *testing.T) {
	tests := map[string]struct {
		slug         string
		before, want string
	}{
		"team growth opens roles":  {"tallowmere", "We have 4 open roles", "We have 7 open roles"},
		"contraction closes roles": {"thimbleway", "We have 7 open roles", "We have 3 open roles"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			w, clock := startWeb(t)
			c := company(t, w, tc.slug)
			_, upcoming := events(tc.slug)
			if _, body := get(t, c.Website+"careers", nil); !strings.Contains(body, tc.before) {
				t.Errorf("before: careers page does not say %q", tc.before)
			}
			clock.AdvanceTo(upcoming[0])
			if _, body := get(t, c.Website+"careers", nil); !strings.Contains(body, tc.want) {
				t.Errorf("after: careers page does not say %q", tc.want)
			}
		})
	}
}

func TestNewsSearch(t *testing.T) {
	w, clock := startWeb(t)
	search := func(t *testing.T, query string) *gofeed.Feed {
		t.Helper()
		resp, body := get(t, strings.ReplaceAll(w.NewsFeedURL(), "{query}", url.QueryEscape(query)), nil)
		if got := resp.Header.Get("Content-Type"); got != "application/rss+xml; charset=utf-8" {
			t.Errorf("got Content-Type %q, want application/rss+xml; charset=utf-8", got)
		}
		feed, err := gofeed.NewParser().ParseString(body)
		if err != nil {
			t.Fatalf("parse feed: %v", err)
		}
		return feed
	}
	check := func(t *testing.T, c simweb.Company, want []simweb.Event) {
		t.Helper()
		feed := search(t, c.Name)
		var got []string
		for _, item := range feed.Items {
			got = append(got, item.Title)
			if !strings.Contains(item.Link, "/news/"+c.Slug+"/") {
				t.Errorf("item %q links to %s, not to %s news", item.Title, item.Link, c.Slug)
			}
		}
		var titles []string
		for _, e := range want {
			titles = append(titles, e.Title)
		}
		slices.Reverse(titles)
		if !slices.Equal(got, titles) {
			t.Errorf("got items %q, want %q", got, titles)
		}
	}
	for _, c := range w.Companies() {
		t.Run(c.Slug+"/at start", func(t *testing.T) {
			history, _ := events(c.Slug)
			check(t, c, history)
		})
	}

	c := company(t, w, "fennick-vale")
	history, upcoming := events(c.Slug)
	clock.AdvanceTo(upcoming[0])
	t.Run("later", func(t *testing.T) {
		check(t, c, append(history, upcoming[0]))
		feed := search(t, c.Name)
		resp, article := get(t, feed.Items[0].Link, nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(article, "Fennick &amp; Vale") {
			t.Errorf("got article status %d, want 200 naming the company", resp.StatusCode)
		}
	})
	t.Run("no match", func(t *testing.T) {
		if got := len(search(t, "Nonexistent Widgets").Items); got != 0 {
			t.Errorf("got %d items, want 0", got)
		}
	})
}

func TestGitHubFixture(t *testing.T) {
	w, clock := startWeb(t)
	api := w.GitHubAPIURL()
	decode := func(t *testing.T, path string, v any) *http.Response {
		t.Helper()
		resp, body := get(t, api+path, nil)
		if resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal([]byte(body), v); err != nil {
				t.Fatalf("decode %s: %v", path, err)
			}
		}
		return resp
	}
	type release struct {
		TagName string `json:"tag_name"`
		Name    string `json:"name"`
	}

	var org struct {
		Login       string `json:"login"`
		PublicRepos int    `json:"public_repos"`
	}
	if resp := decode(t, "/orgs/glassmoth", &org); resp.StatusCode != http.StatusOK || org.Login != "glassmoth" || org.PublicRepos != 3 {
		t.Errorf("GET /orgs/glassmoth: got %d %+v, want 200 glassmoth with 3 repos", resp.StatusCode, org)
	}

	var repos []struct {
		Name     string `json:"name"`
		FullName string `json:"full_name"`
	}
	decode(t, "/orgs/glassmoth/repos", &repos)
	var names []string
	for _, r := range repos {
		names = append(names, r.FullName)
	}
	if want := []string{"glassmoth/moth-agent", "glassmoth/moth-collector", "glassmoth/lampwick"}; !slices.Equal(names, want) {
		t.Errorf("got repos %v, want %v", names, want)
	}

	resp := decode(t, "/orgs/glassmoth/repos?per_page=2", &repos)
	if len(repos) != 2 || !strings.Contains(resp.Header.Get("Link"), `rel="next"`) {
		t.Errorf("per_page=2: got %d repos and Link %q, want 2 and a next link", len(repos), resp.Header.Get("Link"))
	}

	var releases []release
	decode(t, "/repos/glassmoth/moth-agent/releases", &releases)
	if len(releases) != 1 {
		t.Errorf("before: got %d releases, want 1", len(releases))
	}
	_, upcoming := events("glassmoth")
	clock.AdvanceTo(upcoming[0])
	decode(t, "/repos/glassmoth/moth-agent/releases", &releases)
	if len(releases) != 2 || releases[0].Name != upcoming[0].Title || releases[0].TagName != "v1.0.0" {
		t.Errorf("after: got releases %+v, want 2 with %q tagged v1.0.0 first", releases, upcoming[0].Title)
	}

	for _, path := range []string{"/orgs/no-such-org/repos", "/repos/glassmoth/no-such-repo/releases", "/users/glassmoth"} {
		if resp, body := get(t, api+path, nil); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, `"Not Found"`) {
			t.Errorf("GET %s: got %d %s, want 404 Not Found", path, resp.StatusCode, body)
		}
	}
}

func TestRobotsTxt(t *testing.T) {
	w, _ := startWeb(t)
	c := company(t, w, "corvimesh")
	resp, body := get(t, c.Website+"robots.txt", nil)
	if got := resp.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("got Content-Type %q, want text/plain; charset=utf-8", got)
	}
	if want := "User-agent: *\nDisallow: /private/\nAllow: /\n"; body != want {
		t.Errorf("got robots.txt %q, want %q", body, want)
	}
}

func TestPrivatePagesHoldEmbargoedNews(t *testing.T) {
	w, _ := startWeb(t)
	c := company(t, w, "orbweave")
	_, upcoming := events(c.Slug)
	if _, body := get(t, c.Website+"private/roadmap", nil); !strings.Contains(body, upcoming[0].Title) {
		t.Errorf("private page does not preview %q", upcoming[0].Title)
	}
}

func TestCloseStopsListeners(t *testing.T) {
	w, err := simweb.Start(simweb.Options{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	addrs := []string{w.Companies()[0].Website, strings.ReplaceAll(w.NewsFeedURL(), "{query}", "x"), w.GitHubAPIURL() + "/orgs/x"}
	for _, a := range addrs {
		resp, err := http.Get(a)
		if err != nil {
			t.Fatalf("before Close: GET %s: %v", a, err)
		}
		resp.Body.Close()
	}
	w.Close()
	w.Close()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, a := range addrs {
		if resp, err := client.Get(a); err == nil {
			resp.Body.Close()
			t.Errorf("after Close: GET %s answered %d, want a connection error", a, resp.StatusCode)
		}
	}
}

func TestStartRejectsInconsistentOptions(t *testing.T) {
	one := []simweb.Company{{Name: "Acme Widgets", Slug: "acme"}}
	tests := map[string]simweb.Options{
		"unknown company": {Companies: one, Events: []simweb.Event{{Company: "nobody", Title: "x"}}},
		"duplicate slug":  {Companies: append(one, one...), Events: []simweb.Event{}},
		"missing slug":    {Companies: []simweb.Company{{Name: "No Slug"}}, Events: []simweb.Event{}},
	}
	for name, opts := range tests {
		t.Run(name, func(t *testing.T) {
			w, err := simweb.Start(opts)
			if err == nil {
				w.Close()
			}
			if !errors.Is(err, simweb.ErrInvalidOptions) {
				t.Errorf("got error %v, want ErrInvalidOptions", err)
			}
		})
	}
}

func BenchmarkHomePage(b *testing.B) {
	w, _ := startWeb(b)
	c := w.Companies()[0]
	for b.Loop() {
		get(b, c.Website, nil)
	}
}

func BenchmarkNewsSearch(b *testing.B) {
	w, _ := startWeb(b)
	u := strings.ReplaceAll(w.NewsFeedURL(), "{query}", url.QueryEscape("Glassmoth Labs"))
	for b.Loop() {
		get(b, u, nil)
	}
}
