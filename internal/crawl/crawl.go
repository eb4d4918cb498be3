// Package crawl reads what one tracker run or one enrichment needs from the web for a company:
// the website's home page and the same-site pages that carry news, team or careers information,
// the feeds those pages announce, a news search and the GitHub organisation.
package crawl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"radar/internal/fetch"
)

// ErrUnreachable reports that Enrich could not read the company's home page; the error also wraps
// the fetch failure, so fetch.IsTimeout and the fetch sentinels still apply.
var ErrUnreachable = errors.New("crawl: website unreachable")

// Source names used in Item.Source and SourceResult.Source.
const (
	SourceWebsite = "website"
	SourceFeed    = "feed"
	SourceNews    = "news"
	SourceGitHub  = "github"
)

// Profile fields of the company; founder fields are FounderField(name, kind).
const (
	FieldCompanyLinkedIn = "companyLinkedinUrl"
	FieldCompanyTwitter  = "companyTwitterUrl"
	FieldCompanyGitHub   = "companyGithubUrl"
)

// Size caps of what a crawl keeps.
const (
	maxPageText   = 20 << 10 // Snapshot.Text
	maxResultText = 20 << 10 // Result.Text
	maxItemText   = 2000     // Item.Text
	maxPageLinks  = 40       // followable page links kept per Snapshot
	maxFeeds      = 3        // feeds read per run
	maxRepos      = 30       // repositories listed per run
	maxReleaseOf  = 3        // most recently pushed repositories whose releases are read
)

// Config tunes a Crawler; zero fields take the documented defaults.
type Config struct {
	Fetcher      *fetch.Client // default fetch.New(fetch.Config{})
	NewsFeedURL  string        // template with {query} (RADAR_NEWS_FEED_URL); empty = no news search
	GitHubAPIURL string        // default https://api.github.com (RADAR_GITHUB_API_URL)
	GitHubToken  string        // optional bearer token
	MaxPages     int           // same-site pages followed beyond the home page, default 8
	MaxItems     int           // items kept per source, default 50
	MaxArticles  int           // listed articles without a feed entry whose pages are read per run, default 6
	Concurrency  int           // fetches in flight per crawl, default 4
}

func (cfg Config) withDefaults() Config {
	if cfg.Fetcher == nil {
		cfg.Fetcher = fetch.New(fetch.Config{})
	}
	if cfg.GitHubAPIURL == "" {
		cfg.GitHubAPIURL = "https://api.github.com"
	}
	cfg.GitHubAPIURL = strings.TrimRight(cfg.GitHubAPIURL, "/")
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = 8
	}
	if cfg.MaxItems <= 0 {
		cfg.MaxItems = 50
	}
	if cfg.MaxArticles <= 0 {
		cfg.MaxArticles = 6
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	return cfg
}

// Crawler reads companies' web presence; it is safe for concurrent use.
type Crawler struct {
	cfg Config
}

// New returns a Crawler for cfg.
func New(cfg Config) *Crawler {
	return &Crawler{cfg: cfg.withDefaults()}
}

// Target is the company a crawl reads.
type Target struct {
	CompanyName string
	Website     string
	GitHubURL   string   // https://github.com/<org> when known
	Founders    []string // names, for attributing personal profiles found on team pages
}

// Snapshot is what a run remembers of a page for the next run; the caller stores it whole.
type Snapshot struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	Hash         string `json:"hash"` // SHA-256 of Text, hex
	Text         string `json:"text"` // title, description and visible text, one block a line, capped at 20 KB
	// Links and Profiles are what the page pointed at, so that a page answered with 304 Not
	// Modified is still followed and still yields its articles, feeds and profiles.
	Links    []Link    `json:"links,omitempty"`
	Profiles []Profile `json:"profiles,omitempty"`
}

// Link kinds.
const (
	LinkPage    = "page"    // a same-site page worth following
	LinkArticle = "article" // a same-site article listed on the page
	LinkFeed    = "feed"    // an RSS, Atom or JSON feed announced or linked by the page
)

// Link is a link a page shows that a crawl acts on.
type Link struct {
	URL       string    `json:"url"`
	Text      string    `json:"text,omitempty"`
	Kind      string    `json:"kind"`
	Published time.Time `json:"published,omitzero"` // an article's date, when the page shows one
}

// Item kinds: a piece of content, or the diff of a website page that changed since the previous run.
const (
	ItemArticle = "article" // a feed entry, a news result, a listed article, a repository or release
	ItemChange  = "change"  // Text is the page's diff, lines "Added: a; b" and "Removed: c"
)

// Item is one thing seen: a feed entry, a news result, a listed article, a repository or release, or a
// changed page.
type Item struct {
	Key       string // stable identity across runs, for telling new items from ones seen before
	Source    string // SourceWebsite, SourceFeed, SourceNews or SourceGitHub
	Kind      string // ItemArticle or ItemChange
	URL       string
	Title     string
	Text      string
	Published time.Time // zero when unknown
}

// SourceResult is how one source fared. OK means the source answered; Err may still describe
// parts that failed (a subpage, one feed, one repository's releases). Reason words the first failure
// plainly, for people (see reason); Err keeps the detail, for logs.
type SourceResult struct {
	Source string
	OK     bool
	Err    string
	Reason string
}

// Profile is a social or professional profile link found for the company or a founder.
type Profile struct {
	Field  string `json:"field"`  // FieldCompanyLinkedIn etc., or FounderField(name, kind)
	URL    string `json:"url"`    // canonical profile URL
	Source string `json:"source"` // the page or API resource it was found on
}

// Founder profile kinds for FounderField.
const (
	KindLinkedIn = "linkedinUrl"
	KindTwitter  = "twitterUrl"
	KindGitHub   = "githubUrl"
)

// FounderField names a founder's profile field, such as "founder:Ines Marchetti:linkedinUrl".
func FounderField(name, kind string) string { return "founder:" + name + ":" + kind }

// Result is what a run or an enrichment read.
type Result struct {
	Items    []Item         // every item seen this time; the caller filters out the ones seen before
	Pages    []Snapshot     // every page fetched; pages answered with 304 carry the previous snapshot
	Changes  []Item         // pages whose text changed since the previous run, with a summary in Text
	Profiles []Profile      // one per field: the first found, home page first
	Text     string         // home and about text, capped, for sector classification
	Sources  []SourceResult // one per source attempted, in the order website, feed, news, github
}

// run is the state of one Run or Enrich call.
type run struct {
	cfg    Config
	target Target
	names  nameMatcher
	domain string // the website's host without "www." when it has a dot ("granite-owl.example"), else ""
	sem    chan struct{}
}

func (c *Crawler) newRun(t Target) *run {
	r := &run{
		cfg:    c.cfg,
		target: t,
		names:  newNameMatcher(t.CompanyName),
		sem:    make(chan struct{}, c.cfg.Concurrency),
	}
	if u, err := websiteURL(t.Website); err == nil && strings.Contains(siteKey(u), ".") {
		r.domain = siteKey(u)
	}
	return r
}

// get fetches through the configured client, holding one of the run's concurrency slots.
func (r *run) get(ctx context.Context, req fetch.Request) (*fetch.Response, error) {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("crawl: %s: %w", req.URL, ctx.Err())
	}
	defer func() { <-r.sem }()
	return r.cfg.Fetcher.Get(ctx, req)
}

// Run crawls t; prev holds the previous run's snapshots by their URL (nil on the first run).
// Failures are recorded in Result.Sources; a run returns whatever the other sources gave.
func (c *Crawler) Run(ctx context.Context, t Target, prev map[string]Snapshot) Result {
	r := c.newRun(t)
	var (
		wg              sync.WaitGroup
		news, hub       sourceOutput
		newsRan, hubRan bool
	)
	if r.cfg.NewsFeedURL != "" && strings.TrimSpace(t.CompanyName) != "" {
		newsRan = true
		wg.Go(func() { news = r.news(ctx) })
	}
	org := githubOrg(t.GitHubURL)
	if org != "" {
		hubRan = true
		wg.Go(func() { hub = r.github(ctx, org) })
	}

	site := r.crawlSite(ctx, prev, allSections)
	profiles := mergeProfiles(site.pages)
	if org == "" {
		if found := githubOrg(profileURL(profiles, FieldCompanyGitHub)); found != "" {
			hubRan = true
			wg.Go(func() { hub = r.github(ctx, found) })
		}
	}
	feeds := r.feeds(ctx, site.feedURLs())
	wg.Wait()

	articles := capItems(site.articles(feeds.byURL()), r.cfg.MaxItems)
	var articlePages []crawledPage
	if site.err == nil {
		var failures []error
		articlePages, failures = r.readArticles(ctx, articles, prev)
		site.failures = append(site.failures, failures...)
	}

	var res Result
	res.Sources = append(res.Sources, site.source())
	res.Items = append(res.Items, articles...)
	if feeds.tried {
		res.Sources = append(res.Sources, feeds.source(SourceFeed))
		res.Items = append(res.Items, capItems(feeds.items, r.cfg.MaxItems)...)
	}
	if newsRan {
		res.Sources = append(res.Sources, news.source(SourceNews))
		res.Items = append(res.Items, capItems(news.items, r.cfg.MaxItems)...)
	}
	if hubRan {
		res.Sources = append(res.Sources, hub.source(SourceGitHub))
		res.Items = append(res.Items, capItems(hub.items, r.cfg.MaxItems)...)
	}
	res.Items = dedupeItems(res.Items)
	res.Pages = site.snapshots()
	for _, p := range articlePages {
		res.Pages = append(res.Pages, p.snap)
	}
	res.Changes = site.changes()
	res.Profiles = profiles
	res.Text = site.text()
	return res
}

// Enrich looks for profile links only: on the home page, the about and team pages, and in the
// GitHub organisation. It returns an error wrapping ErrUnreachable when the home page cannot be read.
func (c *Crawler) Enrich(ctx context.Context, t Target) (Result, error) {
	r := c.newRun(t)
	site := r.crawlSite(ctx, nil, aboutSections)
	res := Result{
		Sources:  []SourceResult{site.source()},
		Pages:    site.snapshots(),
		Profiles: mergeProfiles(site.pages),
		Text:     site.text(),
	}
	if org := cmp.Or(githubOrg(t.GitHubURL), githubOrg(profileURL(res.Profiles, FieldCompanyGitHub))); org != "" {
		found, out := r.githubProfiles(ctx, org)
		res.Sources = append(res.Sources, out.source(SourceGitHub))
		for _, p := range found {
			if profileURL(res.Profiles, p.Field) == "" {
				res.Profiles = append(res.Profiles, p)
			}
		}
	}
	if site.err != nil {
		return res, fmt.Errorf("%w: %w", ErrUnreachable, site.err)
	}
	return res, nil
}

// sourceOutput is what one source gave: its items and its failures.
type sourceOutput struct {
	tried bool // for feeds: whether any feed was found to read
	items []Item
	ok    bool
	errs  []error
}

func (o sourceOutput) source(name string) SourceResult {
	r := SourceResult{Source: name, OK: o.ok, Err: joinErrs(o.errs)}
	if len(o.errs) > 0 {
		r.Reason = reason(o.errs[0])
	}
	return r
}

// reason words a failure of a source plainly: the crawl's own failures here, fetch failures by fetch.Reason.
func reason(err error) string {
	switch {
	case errors.Is(err, errOffSite):
		return "redirected to another site"
	case errors.Is(err, errNotHTML):
		return "not an HTML page"
	case errors.Is(err, errNotFeed):
		return "an HTML page, not a feed"
	}
	return fetch.Reason(err)
}

// byURL maps the canonical link of each item to the item.
func (o sourceOutput) byURL() map[string]Item {
	m := make(map[string]Item, len(o.items))
	for _, it := range o.items {
		if k := canonicalString(it.URL); k != "" {
			if _, ok := m[k]; !ok {
				m[k] = it
			}
		}
	}
	return m
}

// joinErrs words up to three errors on one line.
func joinErrs(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	var parts []string
	for _, err := range errs[:min(3, len(errs))] {
		parts = append(parts, err.Error())
	}
	s := strings.Join(parts, "; ")
	if len(errs) > 3 {
		s += fmt.Sprintf("; and %d more", len(errs)-3)
	}
	return s
}

// capItems keeps the newest n items, undated ones last, in a stable order.
func capItems(items []Item, n int) []Item {
	items = newestFirst(items)
	return items[:min(n, len(items))]
}

// newestFirst drops repeated items and orders the rest newest first, undated ones last, in a stable order.
func newestFirst(items []Item) []Item {
	items = dedupeItems(items)
	slices.SortStableFunc(items, func(a, b Item) int {
		switch {
		case a.Published.IsZero() && b.Published.IsZero():
			return 0
		case a.Published.IsZero():
			return 1
		case b.Published.IsZero():
			return -1
		}
		return b.Published.Compare(a.Published)
	})
	return items
}

// dedupeItems drops items whose key was already seen, keeping the first.
func dedupeItems(items []Item) []Item {
	seen := make(map[string]bool, len(items))
	out := items[:0:0]
	for _, it := range items {
		if seen[it.Key] {
			continue
		}
		seen[it.Key] = true
		out = append(out, it)
	}
	return out
}

// truncate cuts s to at most n bytes at a rune boundary, preferring a line or word boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	s = s[:cut]
	if i := strings.LastIndexAny(s, "\n "); i > n*3/4 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Accept headers for pages and feeds.
const (
	acceptHTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
	acceptFeed = "application/rss+xml,application/atom+xml,application/feed+json;q=0.9,application/xml;q=0.8,text/xml;q=0.8,*/*;q=0.5"
)

// firstNonEmpty returns the first argument that is not blank.
func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
