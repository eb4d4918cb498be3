package crawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mmcdole/gofeed"

	"radar/internal/fetch"
)

// errNotFeed reports a linked feed address that serves an HTML page instead of a feed.
var errNotFeed = errors.New("an HTML page, not a feed")

// feeds reads the given feeds concurrently. Links that turn out to be HTML pages are passed
// over; the source is OK when some feed was read or none failed.
func (r *run) feeds(ctx context.Context, urls []string) sourceOutput {
	out := sourceOutput{tried: len(urls) > 0}
	if len(urls) == 0 {
		return out
	}
	items := make([][]Item, len(urls))
	errs := make([]error, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() { items[i], errs[i] = r.readFeed(ctx, u, SourceFeed, false) })
	}
	wg.Wait()
	read := 0
	for i := range urls {
		switch {
		case errors.Is(errs[i], errNotFeed):
		case errs[i] != nil:
			out.errs = append(out.errs, errs[i])
		default:
			read++
			out.items = append(out.items, items[i]...)
		}
	}
	out.ok = read > 0 || len(out.errs) == 0
	return out
}

// news queries the news-search feed for the company name and keeps the results that concern it
// (concernsTarget). A result whose entry is a headline and a line, as news-search feeds give, is judged by its
// article's text instead when the article is about the company (aboutCompany); the headline need not name it
// ("Tulsa electrolyser start-up awarded $12 million").
func (r *run) news(ctx context.Context) sourceOutput {
	u := strings.ReplaceAll(r.cfg.NewsFeedURL, "{query}", url.QueryEscape(strings.TrimSpace(r.target.CompanyName)))
	items, err := r.readFeed(ctx, u, SourceNews, true)
	if err != nil {
		return sourceOutput{errs: []error{err}}
	}
	items = newestFirst(items) // the articles read are the newest results
	r.readNewsArticles(ctx, items)
	var kept []Item
	for _, it := range items {
		if r.concernsTarget(it.Title + "\n" + it.Text) {
			kept = append(kept, it)
		}
	}
	return sourceOutput{ok: true, items: kept}
}

// briefWords is the number of words under which a news result's entry is too brief to judge it by.
const briefWords = 60

// readNewsArticles reads the pages of at most MaxArticles news results whose entries are brief, and puts each
// page's main text in place of its entry's when it says more and is about the company (aboutCompany). A page
// that cannot be read leaves its entry as it was: the result was read, so the source has not failed.
func (r *run) readNewsArticles(ctx context.Context, items []Item) {
	var pending []int
	for i, it := range items {
		if len(pending) == r.cfg.MaxArticles {
			break
		}
		if it.URL != "" && len(strings.Fields(it.Text)) < briefWords {
			pending = append(pending, i)
		}
	}
	texts := make([]string, len(pending))
	titles := make([]string, len(pending))
	var wg sync.WaitGroup
	for k, i := range pending {
		wg.Go(func() { texts[k], titles[k] = r.newsArticle(ctx, items[i].URL) })
	}
	wg.Wait()
	for k, i := range pending {
		if t := texts[k]; len(t) > len(items[i].Text) && r.aboutCompany(items[i], t, titles[k]) {
			items[i].Text = truncate(t, maxItemText)
		}
	}
}

// concernsTarget reports whether a text names the company, one of its founders (in full: a founder's post
// signed with their name) or its website's domain ("graniteowl.example/jobs").
func (r *run) concernsTarget(text string) bool {
	if r.names.mentions(text) {
		return true
	}
	folded := " " + fold(text) + " "
	for _, f := range r.target.Founders {
		if len(strings.Fields(f)) > 1 && mentionsPerson(folded, f) {
			return true
		}
	}
	return r.domain != "" && strings.Contains(strings.ToLower(text), r.domain)
}

// aboutCompany reports whether an article behind a news result, its text and its page title, is about the
// company: the text names the company, or the page is the result's (its title carries the result's headline)
// and the headline names the company (a post that says "we"). A consent or error page is neither.
func (r *run) aboutCompany(result Item, text, pageTitle string) bool {
	if r.names.mentions(text) {
		return true
	}
	headline := fold(result.Title)
	return headline != "" && r.concernsTarget(result.Title) && strings.Contains(fold(pageTitle+"\n"+text), headline)
}

// newsArticle returns the main text and the title of a news article page; "" when it cannot be read.
func (r *run) newsArticle(ctx context.Context, rawURL string) (text, title string) {
	resp, err := r.get(ctx, fetch.Request{URL: rawURL, Header: http.Header{"Accept": {acceptHTML}}})
	if err != nil || !isHTML(resp.ContentType, resp.Body) {
		return "", ""
	}
	final, err := url.Parse(resp.URL)
	if err != nil {
		return "", ""
	}
	doc, err := parseDocument(resp.Body, resp.ContentType, final)
	if err != nil {
		return "", ""
	}
	return articleText(doc), doc.title
}

// readFeed fetches and parses one RSS, Atom or JSON feed into items of the given source.
func (r *run) readFeed(ctx context.Context, feedURL, source string, api bool) ([]Item, error) {
	resp, err := r.get(ctx, fetch.Request{URL: feedURL, Header: http.Header{"Accept": {acceptFeed}}, IgnoreRobots: api})
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.ContentType); mt == "text/html" {
		return nil, fmt.Errorf("crawl: %s: %w", feedURL, errNotFeed)
	}
	feed, err := gofeed.NewParser().Parse(bytes.NewReader(resp.Body))
	if err != nil {
		return nil, fmt.Errorf("crawl: %s: parse feed: %w", feedURL, err)
	}
	base, err := url.Parse(resp.URL)
	if err != nil {
		return nil, fmt.Errorf("crawl: %s: %w", feedURL, err)
	}
	items := make([]Item, 0, len(feed.Items))
	for _, fi := range feed.Items {
		if fi == nil {
			continue
		}
		link := fi.Link
		if link == "" && len(fi.Links) > 0 {
			link = fi.Links[0]
		}
		if u, ok := resolve(base, link); ok {
			link = u.String()
		} else {
			link = ""
		}
		id := canonicalString(link)
		if g := strings.TrimSpace(fi.GUID); g != "" {
			id = g
		}
		title := collapse(fragmentText(fi.Title))
		if id == "" {
			id = title
		}
		if id == "" {
			continue
		}
		it := Item{
			Key:    source + ":" + id,
			Source: source,
			Kind:   ItemArticle,
			URL:    link,
			Title:  title,
			Text:   truncate(entryText(fi), maxItemText),
		}
		switch {
		case fi.PublishedParsed != nil:
			it.Published = fi.PublishedParsed.UTC()
		case fi.UpdatedParsed != nil:
			it.Published = fi.UpdatedParsed.UTC()
		}
		items = append(items, it)
	}
	return items, nil
}

// entryText returns the text of a feed entry: its full content when the feed gives one that says more than
// the description, which many feeds keep to a summary.
func entryText(fi *gofeed.Item) string {
	desc, content := fragmentText(fi.Description), fragmentText(fi.Content)
	if len(content) > len(desc) {
		return content
	}
	return desc
}
