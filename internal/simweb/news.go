package simweb

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// wireName is the name of the simulated news service.
const wireName = "Loopback Wire"

// maxSearchResults bounds a news-search feed, like real search feeds do.
const maxSearchResults = 50

// newsHandler serves the news search: GET /search?q=TERMS is an RSS 2.0 feed of the visible news
// that contains every term, newest first, and GET /news/{slug}/{id} is one article.
func (w *Web) newsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /search", func(rw http.ResponseWriter, r *http.Request) {
		query := r.URL.Query().Get("q")
		base := w.newsBase
		type hit struct {
			site *site
			post post
		}
		var hits []hit
		for _, s := range w.sites {
			for _, p := range w.visible(s) {
				if matches(query, s.company.Name, p.Title, p.Body) {
					hits = append(hits, hit{s, p})
				}
			}
		}
		slices.SortStableFunc(hits, func(a, b hit) int { return b.post.Published.Compare(a.post.Published) })
		hits = hits[:min(len(hits), maxSearchResults)]

		items := make([]rssItem, 0, len(hits))
		updated := w.start
		for _, h := range hits {
			items = append(items, rssPostItem(base+"news/"+h.site.company.Slug+"/"+strconv.Itoa(h.post.ID), h.post))
			if h.post.Published.After(updated) {
				updated = h.post.Published
			}
		}
		body, err := marshalXML(newRSS(wireName+": "+query, base, "News matching "+strconv.Quote(query), updated, items))
		if err != nil {
			http.Error(rw, "internal error", http.StatusInternalServerError)
			return
		}
		serve(rw, r, "application/rss+xml; charset=utf-8", updated, body)
	})
	mux.HandleFunc("GET /news/{slug}/{id}", func(rw http.ResponseWriter, r *http.Request) {
		s, ok := w.bySlug[r.PathValue("slug")]
		id, err := strconv.Atoi(r.PathValue("id"))
		if !ok || err != nil {
			http.NotFound(rw, r)
			return
		}
		posts := w.visible(s)
		if id < 1 || id > len(posts) {
			http.NotFound(rw, r)
			return
		}
		p := posts[id-1]
		var buf bytes.Buffer
		data := struct {
			Wire, Source string
			Company      Company
			Post         post
		}{wireName, postURL(s.company, p), s.company, p}
		if err := w.pages.ExecuteTemplate(&buf, "wire", data); err != nil {
			http.Error(rw, "internal error", http.StatusInternalServerError)
			return
		}
		serve(rw, r, contentTypeHTML, p.Published, buf.Bytes())
	})
	return mux
}

// matches reports whether every word of query occurs in the texts, ignoring case.
func matches(query string, texts ...string) bool {
	haystack := strings.ToLower(strings.Join(texts, "\n"))
	for _, term := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(haystack, term) {
			return false
		}
	}
	return true
}
