package tracker_test

import (
	"context"
	"flag"
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
	"radar/internal/crawl"
	"radar/internal/evalset"
	"radar/internal/fetch"
	"radar/internal/sqldb/storetest"
)

var e2eEval = flag.String("e2e.eval", "", "run the evaluation files matching this pattern (under internal/analysis/testdata/eval) through whole tracker runs and print the signal-type accuracy")

// newsWeb is a web of news about many companies: a news search whose results are a headline and a line, as
// news searches give, each linking to its article page; and for each company a website with a home page and,
// for an item the company published itself, a blog listing it.
type newsWeb struct {
	*httptest.Server
	mu     sync.Mutex
	byID   map[string]labelledItem // by lowercased id, the item
	byName map[string]string       // by company name, the lowercased id of the company's one item
}

func startNewsWeb(t testing.TB) *newsWeb {
	w := &newsWeb{byID: map[string]labelledItem{}, byName: map[string]string{}}
	w.Server = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.Close)
	return w
}

// add publishes an item and returns the website of its company.
func (w *newsWeb) add(it labelledItem) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := strings.ToLower(it.ID)
	w.byID[id], w.byName[it.Company.Name] = it, id
	return w.URL + "/co/" + url.PathEscape(id) + "/"
}

func (w *newsWeb) serve(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case r.URL.Path == "/robots.txt":
		rw.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(rw, "User-agent: *\nAllow: /\n")
	case r.URL.Path == "/search":
		rw.Header().Set("Content-Type", "application/rss+xml")
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>News search</title><link>/</link><description>d</description>`)
		if it, ok := w.byID[w.byName[r.URL.Query().Get("q")]]; ok && it.Source == "news" {
			link := w.URL + "/news/" + strings.ToLower(it.ID)
			fmt.Fprintf(&b, `<item><title>%s</title><link>%s</link><guid>%s</guid><description>%s</description><pubDate>Mon, 23 Nov 2026 09:00:00 +0000</pubDate></item>`,
				html.EscapeString(it.Title), link, link, html.EscapeString(html.EscapeString(it.Title)+" - Newswire"))
		}
		b.WriteString(`</channel></rss>`)
		fmt.Fprint(rw, b.String())
	case strings.HasPrefix(r.URL.Path, "/news/"):
		it, ok := w.byID[strings.TrimPrefix(r.URL.Path, "/news/")]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, articlePage(it, "Newswire"))
	case strings.HasPrefix(r.URL.Path, "/co/"):
		// The company's site: a home page, and for an item of the company's own (a post, not a news report) a
		// blog listing it and the post's page.
		id, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/co/"), "/")
		var own *labelledItem
		if it, ok := w.byID[id]; ok && it.Source != "news" {
			own = &it
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case rest == "":
			nav := ""
			if own != nil {
				nav = `<nav><a href="blog">Blog</a></nav>`
			}
			fmt.Fprintf(rw, `<html><head><title>Home</title></head><body>%s<main><h1>Welcome</h1><p>We build software.</p></main></body></html>`, nav)
		case own != nil && rest == "blog":
			fmt.Fprintf(rw, `<html><body><main><h1>Blog</h1><ul><li><a href="blog/2026/11/%s">%s</a> <time datetime="2026-11-23">23 Nov</time></li></ul></main></body></html>`,
				id, html.EscapeString(own.Title))
		case own != nil && rest == "blog/2026/11/"+id:
			fmt.Fprint(rw, articlePage(*own, "Blog"))
		default:
			http.NotFound(rw, r)
		}
	default:
		http.NotFound(rw, r)
	}
}

// articlePage renders an item as an article page of a site called site.
func articlePage(it labelledItem, site string) string {
	var paras strings.Builder
	for _, p := range strings.Split(it.Text, "\n\n") {
		paras.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
	}
	return fmt.Sprintf(`<html><head><title>%s</title></head><body><header><nav><a href="/">%s</a></nav></header>`+
		`<article><h1>%s</h1>%s</article><aside><h2>Most read</h2><a href="/news/other">Rates held steady</a></aside>`+
		`<footer>© 2026 %s</footer></body></html>`, html.EscapeString(it.Title), site, html.EscapeString(it.Title), paras.String(), site)
}

// loadLabelled reads the items of the evaluation files matching pattern.
func loadLabelled(t testing.TB, pattern string) []labelledItem {
	t.Helper()
	items, err := evalset.Load[labelledItem]("../analysis/testdata/eval", pattern)
	if err != nil || len(items) == 0 {
		t.Fatalf("no evaluation items in files matching %q (%v)", pattern, err)
	}
	return items
}

// e2eResult is what whole tracker runs made of a set of news items.
type e2eResult struct {
	n, right int
	wrong    map[[2]string]int // expected, got
}

// runNewsThroughTracker tracks one company per item, publishes the item as a news-search result, waits for
// each company's first run and compares its signal's type with the item's label.
func runNewsThroughTracker(t *testing.T, engine string, items []labelledItem) e2eResult {
	v := newEnv(t, engine, nil)
	web := startNewsWeb(t)
	cfg := v.config()
	cfg.Crawler = crawl.New(crawl.Config{Fetcher: fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second}), NewsFeedURL: web.URL + "/search?q={query}"})
	cfg.MaxWorkers = 8
	v.start(cfg)
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = v.trackSite(it.Company.Name, web.add(it), it.Company.Founders).ID
	}
	res := e2eResult{wrong: map[[2]string]int{}}
	for i, it := range items {
		var s *radar.Signal
		eventuallyWithin(t, 5*time.Minute, "the first run of "+it.ID, func() bool {
			sigs := v.signals(ids[i])
			if len(sigs) > 0 {
				s = sigs[0]
			}
			return s != nil
		})
		res.n++
		if s.Type == it.Expect.Type {
			res.right++
		} else {
			res.wrong[[2]string{it.Expect.Type, s.Type}]++
		}
	}
	return res
}

// TestNewsSearchResultsAreJudgedByTheirArticles publishes labelled news as news-search results that are only a
// headline and a line, and checks that each company's first run types it as labelled: the run reads the
// article behind the result, and keeps a result whose headline does not name the company when its article does.
func TestNewsSearchResultsAreJudgedByTheirArticles(t *testing.T) {
	t.Parallel()
	// "Dundee start-up walks away with £50,000" (recognition), "Tulsa electrolyser start-up awarded $12 million
	// state grant" (funding): neither headline names the company, and neither says enough alone.
	want := map[string]bool{"tr-11147": true, "tr-11179": true}
	var items []labelledItem
	for _, it := range loadLabelled(t, "train-*.jsonl") {
		if want[it.ID] {
			items = append(items, it)
		}
	}
	if len(items) != len(want) {
		t.Fatalf("found %d of the %d items", len(items), len(want))
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		res := runNewsThroughTracker(t, engine, items)
		if res.right != res.n {
			t.Errorf("%d of %d runs typed as labelled; wrong (expected, got): %v", res.right, res.n, res.wrong)
		}
	})
}

// TestEndToEndEval, with -e2e.eval PATTERN, runs the items (not page diffs or GitHub items) of the evaluation
// files matching PATTERN through whole tracker runs on SQLite, a news report as a news-search result whose
// article the run must read, the company's own post on its blog (one item per company name), and prints the signal-type accuracy beside the
// analyser's own on the same items. Only totals are printed.
func TestEndToEndEval(t *testing.T) {
	if *e2eEval == "" {
		t.Skip("run with -e2e.eval 'heldout*.jsonl'")
	}
	var items []labelledItem
	names := map[string]bool{} // the news search finds a company by its name: one item a name
	for _, it := range loadLabelled(t, *e2eEval) {
		if it.Source != "change" && it.Source != "github" && !names[it.Company.Name] {
			names[it.Company.Name] = true
			items = append(items, it)
		}
	}
	alone := 0
	for _, it := range items {
		r, err := analysis.Builtin().Analyse(context.Background(), analysis.Input{CompanyName: it.Company.Name, Founders: it.Company.Founders,
			Items: []analysis.Item{{Source: it.Source, Kind: analysis.ItemArticle, Title: it.Title, Text: it.Text}}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Type == it.Expect.Type {
			alone++
		}
	}
	res := runNewsThroughTracker(t, "sqlite", items)
	type cell struct {
		k [2]string
		n int
	}
	var cells []cell
	for k, n := range res.wrong {
		cells = append(cells, cell{k, n})
	}
	slices.SortFunc(cells, func(a, b cell) int { return b.n - a.n })
	var b strings.Builder
	for _, c := range cells[:min(len(cells), 12)] {
		fmt.Fprintf(&b, "\n  %s -> %s: %d", c.k[0], c.k[1], c.n)
	}
	t.Logf("%s: %d items through whole runs, signal type right on %d (%.3f); the analyser handed each item alone: %d (%.3f); commonest errors of the runs:%s",
		*e2eEval, res.n, res.right, float64(res.right)/float64(res.n), alone, float64(alone)/float64(len(items)), b.String())
}
