package crawl

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"radar/internal/fetch"
)

var (
	// errOffSite reports a page that redirected to another site.
	errOffSite = errors.New("redirected off the site")
	// errNotHTML reports a page whose content type is not HTML.
	errNotHTML = errors.New("not an HTML page")
	// errUnexpected304 reports a 304 answer to a request that carried no validators.
	errUnexpected304 = errors.New("not modified without a previous copy")
)

// crawledPage is one page fetched in a run.
type crawledPage struct {
	snap        Snapshot
	final       string    // the address the page was served from, after redirects
	prev        *Snapshot // the previous run's snapshot of the page, if any
	notModified bool
	section     section
	home        bool
}

// siteCrawl is what a crawl of the company website gave.
type siteCrawl struct {
	pages    []crawledPage // home first, then in the order they were chosen
	err      error         // the home page failed
	failures []error       // other pages failed
}

// crawlSite fetches the home page and then, while the page budget lasts, the best-scoring
// same-site links of the sections follow accepts, found on the pages fetched so far.
func (r *run) crawlSite(ctx context.Context, prev map[string]Snapshot, follow func(section) bool) siteCrawl {
	var sc siteCrawl
	home, err := websiteURL(r.target.Website)
	if err != nil {
		sc.err = err
		return sc
	}
	site := siteKey(home)
	first, err := r.fetchPage(ctx, home.String(), prev, site)
	if err != nil {
		sc.err = err
		return sc
	}
	first.home = true
	sc.pages = append(sc.pages, first)

	type candidate struct {
		url, text string
		sec       section
		score     int
		order     int
	}
	visited := map[string]bool{canonical(home): true, canonicalString(first.final): true}
	cands := make(map[string]*candidate)
	order := 0
	addLinks := func(p crawledPage) {
		for _, l := range p.snap.Links {
			if l.Kind != LinkPage {
				continue
			}
			u, err := url.Parse(l.URL)
			if err != nil || siteKey(u) != site {
				continue
			}
			key := canonical(u)
			if visited[key] {
				continue
			}
			sec, score := classifyPage(u, l.Text)
			if !follow(sec) {
				continue
			}
			if c, ok := cands[key]; ok {
				c.score = max(c.score, score)
				continue
			}
			order++
			cands[key] = &candidate{url: l.URL, text: l.Text, sec: sec, score: score, order: order}
		}
	}
	addLinks(first)

	budget := r.cfg.MaxPages
	for budget > 0 && len(cands) > 0 && ctx.Err() == nil {
		batch := make([]*candidate, 0, len(cands))
		for _, c := range cands {
			batch = append(batch, c)
		}
		slices.SortFunc(batch, func(a, b *candidate) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.order, b.order))
		})
		batch = batch[:min(budget, len(batch))]
		budget -= len(batch)
		for _, c := range batch {
			key := canonicalString(c.url)
			visited[key] = true
			delete(cands, key)
		}

		results := make([]crawledPage, len(batch))
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			wg.Go(func() { results[i], errs[i] = r.fetchPage(ctx, c.url, prev, site) })
		}
		wg.Wait()
		for i, c := range batch {
			if errs[i] != nil {
				if !errors.Is(errs[i], fetch.ErrRobots) {
					sc.failures = append(sc.failures, errs[i])
				}
				continue
			}
			p := results[i]
			p.section = c.sec
			if key := canonicalString(p.final); key != canonicalString(c.url) {
				if visited[key] {
					continue // redirected to a page already read
				}
				visited[key] = true
				delete(cands, key)
			}
			sc.pages = append(sc.pages, p)
			addLinks(p)
		}
	}
	return sc
}

// fetchPage fetches one page of site, conditionally when prev has a copy of it.
func (r *run) fetchPage(ctx context.Context, rawURL string, prev map[string]Snapshot, site string) (crawledPage, error) {
	return r.fetchPageAs(ctx, rawURL, prev, site, false)
}

// fetchPageAs fetches one page of site, conditionally when prev has a copy of it. For an article the
// snapshot keeps the main text only (see articleText) and no links or profiles.
func (r *run) fetchPageAs(ctx context.Context, rawURL string, prev map[string]Snapshot, site string, article bool) (crawledPage, error) {
	var page crawledPage
	old, hasOld := prev[rawURL]
	if hasOld {
		page.prev = &old
	}
	req := fetch.Request{URL: rawURL, Header: http.Header{"Accept": {acceptHTML}}}
	if hasOld {
		req.ETag, req.LastModified = old.ETag, old.LastModified
	}
	resp, err := r.get(ctx, req)
	if err != nil {
		return page, err
	}
	final, err := url.Parse(resp.URL)
	if err != nil {
		return page, fmt.Errorf("crawl: %s: %w", resp.URL, err)
	}
	if siteKey(final) != site {
		return page, fmt.Errorf("crawl: %s: %w: %s", rawURL, errOffSite, resp.URL)
	}
	page.final = resp.URL
	if resp.NotModified {
		if !hasOld {
			return page, fmt.Errorf("crawl: %s: %w", rawURL, errUnexpected304)
		}
		page.notModified = true
		page.snap = old
		page.snap.URL = rawURL
		page.snap.ETag, page.snap.LastModified = resp.ETag, resp.LastModified
		return page, nil
	}
	if !isHTML(resp.ContentType, resp.Body) {
		return page, fmt.Errorf("crawl: %s: %w: %s", rawURL, errNotHTML, resp.ContentType)
	}
	doc, err := parseDocument(resp.Body, resp.ContentType, final)
	if err != nil {
		return page, fmt.Errorf("crawl: %s: %w", rawURL, err)
	}
	if article {
		text := articleText(doc)
		page.snap = Snapshot{URL: rawURL, ETag: resp.ETag, LastModified: resp.LastModified, Hash: textHash(text), Text: text}
		return page, nil
	}
	page.snap = Snapshot{
		URL:          rawURL,
		ETag:         resp.ETag,
		LastModified: resp.LastModified,
		Hash:         textHash(doc.text),
		Text:         doc.text,
		Links:        pageLinks(doc, site),
		Profiles:     r.pageProfiles(doc, rawURL),
	}
	return page, nil
}

// articleText is an article page's main text: its <article>, else its <main>, else all its visible text,
// without the page's title line.
func articleText(doc *document) string {
	text := doc.main
	if text == "" {
		text = doc.text
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && doc.title != "" && lines[0] == doc.title {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// textHash is the hex SHA-256 of a page's visible text.
func textHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// source reports how the website fared: OK when the home page was read.
func (sc siteCrawl) source() SourceResult {
	if sc.err != nil {
		return SourceResult{Source: SourceWebsite, Err: sc.err.Error(), Reason: reason(sc.err)}
	}
	r := SourceResult{Source: SourceWebsite, OK: true, Err: joinErrs(sc.failures)}
	if len(sc.failures) > 0 {
		r.Reason = reason(sc.failures[0])
	}
	return r
}

// snapshots returns the snapshots of the pages read.
func (sc siteCrawl) snapshots() []Snapshot {
	out := make([]Snapshot, len(sc.pages))
	for i, p := range sc.pages {
		out[i] = p.snap
	}
	return out
}

// feedURLs returns the feeds the pages announce or link to, announced ones first, at most maxFeeds.
func (sc siteCrawl) feedURLs() []string {
	var out []string
	seen := make(map[string]bool)
	for _, p := range sc.pages {
		for _, l := range p.snap.Links {
			if l.Kind != LinkFeed {
				continue
			}
			key := canonicalString(l.URL)
			if key == "" || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, l.URL)
		}
	}
	return out[:min(len(out), maxFeeds)]
}

// articles returns an item for each article listed on the pages, with the text and date of the
// feed entry for the same address when there is one.
func (sc siteCrawl) articles(feedItems map[string]Item) []Item {
	var out []Item
	for _, p := range sc.pages {
		for _, l := range p.snap.Links {
			if l.Kind != LinkArticle {
				continue
			}
			key := canonicalString(l.URL)
			if key == "" {
				continue
			}
			it := Item{Key: SourceWebsite + ":" + key, Source: SourceWebsite, Kind: ItemArticle, URL: l.URL, Title: l.Text, Published: l.Published}
			if f, ok := feedItems[key]; ok {
				it.Text = f.Text
				if it.Published.IsZero() {
					it.Published = f.Published
				}
			}
			out = append(out, it)
		}
	}
	return out
}

// readArticles reads the pages of listed articles that no feed entry describes, newest first and at most
// MaxArticles, and sets each item's text to the page's main text, so that an article is judged by what it
// says rather than by its link. Pages must stay on the site and robots.txt is obeyed (a refused page is
// passed over); a page read in the previous run is asked for conditionally. It returns the article pages
// read, to be remembered for the next run, and the failures.
func (r *run) readArticles(ctx context.Context, items []Item, prev map[string]Snapshot) ([]crawledPage, []error) {
	home, err := websiteURL(r.target.Website)
	if err != nil {
		return nil, nil
	}
	site := siteKey(home)
	var pending []int
	for i, it := range items {
		if len(pending) == r.cfg.MaxArticles {
			break
		}
		if strings.TrimSpace(it.Text) == "" {
			pending = append(pending, i)
		}
	}
	pages := make([]crawledPage, len(pending))
	errs := make([]error, len(pending))
	var wg sync.WaitGroup
	for k, i := range pending {
		wg.Go(func() { pages[k], errs[k] = r.fetchArticle(ctx, items[i].URL, prev, site) })
	}
	wg.Wait()
	var read []crawledPage
	var failures []error
	for k, i := range pending {
		if errs[k] != nil {
			if !errors.Is(errs[k], fetch.ErrRobots) {
				failures = append(failures, errs[k])
			}
			continue
		}
		items[i].Text = truncate(pages[k].snap.Text, maxItemText)
		read = append(read, pages[k])
	}
	return read, failures
}

// fetchArticle fetches one article page of site; its snapshot's text is the article's main text.
func (r *run) fetchArticle(ctx context.Context, rawURL string, prev map[string]Snapshot, site string) (crawledPage, error) {
	return r.fetchPageAs(ctx, rawURL, prev, site, true)
}

// changes returns a website-change item for every page read again whose text differs from the
// previous run's copy.
func (sc siteCrawl) changes() []Item {
	var out []Item
	for _, p := range sc.pages {
		if p.prev == nil || p.notModified || p.prev.Hash == p.snap.Hash {
			continue
		}
		summary := diffSummary(p.prev.Text, p.snap.Text)
		if summary == "" {
			continue
		}
		out = append(out, Item{
			Key:    "change:" + canonicalString(p.snap.URL) + "@" + p.snap.Hash[:16],
			Source: SourceWebsite,
			Kind:   ItemChange,
			URL:    p.snap.URL,
			Title:  "Website change on " + pageLabel(p),
			Text:   summary,
		})
	}
	return out
}

// pageLabel names a page for a change title: "the home page" or its path.
func pageLabel(p crawledPage) string {
	if p.home {
		return "the home page"
	}
	u, err := url.Parse(p.snap.URL)
	if err != nil || u.Path == "" {
		return p.snap.URL
	}
	return u.Path
}

// text returns the home page's text followed by the first about page's, capped.
func (sc siteCrawl) text() string {
	var parts []string
	about := false
	for _, p := range sc.pages {
		if p.home || (!about && p.section == sectionAbout) {
			parts = append(parts, p.snap.Text)
			about = about || p.section == sectionAbout
		}
	}
	return truncate(strings.Join(parts, "\n\n"), maxResultText)
}
