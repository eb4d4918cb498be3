package tracker_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"radar"
	"radar/internal/analysis"
	"radar/internal/sqldb/storetest"
)

// labelledItem is an item of the analyser's evaluation set (internal/analysis/testdata/eval).
type labelledItem struct {
	ID      string `json:"id"`
	Hard    string `json:"hard"`
	Company struct {
		Name     string   `json:"name"`
		Founders []string `json:"founders"`
	} `json:"company"`
	Source string `json:"source"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Expect struct {
		Type string `json:"type"`
	} `json:"expect"`
}

// evalSample picks plain items of the evaluation set's training files, per type the first few in file
// order, for news that a company could publish on its own blog or feed, among those the analyser types
// right when handed the item alone (its accuracy is measured by the evaluation test in internal/analysis;
// here what counts is that the crawler and the run keep what the analyser needs).
func evalSample(t *testing.T, perType int) []labelledItem {
	t.Helper()
	var out []labelledItem
	count := map[string]int{}
	for _, it := range loadLabelled(t, "train-*.jsonl") {
		switch {
		case it.Hard != "" || it.Source == "change" || it.Source == "github" || strings.TrimSpace(it.Text) == "":
			continue
		case it.Expect.Type == radar.TypeWebsiteChange || it.Expect.Type == radar.TypeNoChange || it.Expect.Type == radar.TypeOther:
			continue
		case count[it.Expect.Type] >= perType || !typedAlone(t, it):
			continue
		}
		count[it.Expect.Type]++
		out = append(out, it)
	}
	if len(out) < 15 {
		t.Fatalf("%d items picked from the evaluation set, want at least 15", len(out))
	}
	return out
}

// typedAlone reports whether the built-in analyser gives an item its labelled type when it is the only
// item of a run, as the company's own post.
func typedAlone(t *testing.T, it labelledItem) bool {
	res, err := analysis.Builtin().Analyse(context.Background(), analysis.Input{CompanyName: it.Company.Name, Founders: it.Company.Founders,
		Items: []analysis.Item{{Source: "feed", Kind: analysis.ItemArticle, Title: it.Title, Text: it.Text}}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Type == it.Expect.Type
}

// companySite serves a company website that publishes one item: as a blog post listed on /blog, whose page
// holds the text, or as an entry of the feed the home page announces, which holds the text.
func companySite(t *testing.T, it labelledItem, asFeed bool) string {
	t.Helper()
	post := "/blog/2026/11/" + strings.ToLower(it.ID)
	var paras strings.Builder
	for _, p := range strings.Split(it.Text, "\n\n") {
		paras.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
	}
	pages := map[string]string{
		"/robots.txt": "User-agent: *\nAllow: /\n",
		"/": `<html><head><title>` + html.EscapeString(it.Company.Name) + `</title>` +
			`<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>` +
			`<body><nav><a href="/blog">Blog</a></nav><main><h1>` + html.EscapeString(it.Company.Name) + `</h1></main></body></html>`,
		"/blog":     `<html><body><main><h1>Blog</h1><ul></ul></main></body></html>`,
		"/feed.xml": `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog</title><link>/</link><description>d</description></channel></rss>`,
	}
	if asFeed {
		pages["/feed.xml"] = fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog</title><link>/</link><description>d</description>`+
			`<item><title>%s</title><link>%s</link><guid>%s</guid><description>%s</description><pubDate>Mon, 23 Nov 2026 09:00:00 +0000</pubDate></item></channel></rss>`,
			html.EscapeString(it.Title), post, post, html.EscapeString(strings.ReplaceAll(it.Text, "\n\n", " ")))
	} else {
		pages["/blog"] = `<html><body><main><h1>Blog</h1><ul><li><a href="` + post + `">` + html.EscapeString(it.Title) +
			`</a> <time datetime="2026-11-23">23 Nov</time></li></ul></main></body></html>`
		pages[post] = `<html><head><title>` + html.EscapeString(it.Title) + `</title></head><body>` +
			`<header><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav></header>` +
			`<article><h1>` + html.EscapeString(it.Title) + `</h1>` + paras.String() + `</article>` +
			`<footer>© 2026 ` + html.EscapeString(it.Company.Name) + `</footer></body></html>`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
		case strings.HasSuffix(r.URL.Path, ".xml"):
			w.Header().Set("Content-Type", "application/rss+xml")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRunTypesPublishedNews tracks companies whose websites publish labelled news, as blog posts and as
// feed entries, and checks that the first run's signal has the labelled type: the crawler hands the
// analyser the post's text, not only its link.
func TestRunTypesPublishedNews(t *testing.T) {
	t.Parallel()
	sample := evalSample(t, 2)
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, nil)
		v.start(v.config())
		type tracked struct {
			item labelledItem
			how  string
			id   string
		}
		var all []tracked
		for _, it := range sample {
			for _, asFeed := range []bool{false, true} {
				how := "blog post"
				if asFeed {
					how = "feed entry"
				}
				ent := v.trackSite(it.Company.Name, companySite(t, it, asFeed), it.Company.Founders)
				all = append(all, tracked{it, how, ent.ID})
			}
		}
		for _, tr := range all {
			t.Run(tr.item.ID+" as "+tr.how, func(t *testing.T) {
				s := v.runs(tr.id, 1)[0]
				if s.Type != tr.item.Expect.Type {
					t.Errorf("%q: signal type %s, want %s", tr.item.Title, s.Type, tr.item.Expect.Type)
				}
				if !hasEvidence(s, tr.item.Title) {
					t.Errorf("%q: evidence %+v, want the post", tr.item.Title, s.Evidence)
				}
			})
		}
	})
}
