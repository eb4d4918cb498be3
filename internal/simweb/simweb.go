// Package simweb serves a simulated web of fictional companies on loopback: a website per company,
// a news-search feed and a GitHub API fixture, whose content follows a timeline of news measured
// from a clock, so that `radar demo` and end-to-end tests have something that changes to track.
package simweb

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// RefusedAddr is a loopback address on which nothing listens, for tests of a server that cannot be reached,
// and RefusedURL a site there. A test server's port freed by Close can be taken by a server of a test running
// in parallel; port 1 needs a privilege test servers never use, so a connection to it is refused.
const (
	RefusedAddr = "127.0.0.1:1"
	RefusedURL  = "http://" + RefusedAddr
)

// ErrInvalidOptions is returned by Start when the companies or events are inconsistent.
var ErrInvalidOptions = errors.New("simweb: invalid options")

// Company is a fictional company with a website in the simulated web.
type Company struct {
	Name, Slug, Summary, Sector string
	// Founders lists the founders with the profile links their team page shows; an empty link is
	// one the site does not publish, so enrichment finds only part of the profiles.
	Founders []Founder
	// LinkedIn, X and GitHub are the company profiles shown in the site footer; empty ones are not shown.
	LinkedIn, X, GitHub string
	// Repos names the public repositories of the GitHub organisation; each open_source event
	// becomes a release of the first repository its title or body names, or else of the first one.
	Repos []string
	// Atom makes the site announce an Atom feed at /atom.xml instead of RSS 2.0 at /feed.xml.
	Atom bool
	// Website is the company's base URL, such as http://127.0.0.1:41234/, set by Start.
	Website string
}

// Founder is a founder of a Company with the profile links published on the company's team page.
type Founder struct{ Name, Role, LinkedIn, X, GitHub string }

// Event is a piece of company news that becomes visible at an offset from the start of the web.
// An event with a negative or zero offset is history: visible from the start and dated in the past.
type Event struct {
	At          time.Duration
	Company     string // the company's Slug
	Title, Body string
	Kind        string // one of the Kind constants
}

// Options configures Start; zero values select the defaults.
type Options struct {
	// Now is the clock the timeline is measured against; default time.Now.
	Now func() time.Time
	// Step spaces the events of the default timeline; default 20 seconds.
	Step time.Duration
	// Companies defaults to Companies().
	Companies []Company
	// Events defaults to Timeline(Step).
	Events []Event
}

// DefaultStep is the spacing of the default timeline, short enough that a demo keeps receiving news.
const DefaultStep = 20 * time.Second

// Web is a running simulated web; its methods are safe for concurrent use.
type Web struct {
	now       func() time.Time
	start     time.Time
	sites     []*site
	bySlug    map[string]*site
	byOrg     map[string]*site
	pages     *template.Template
	newsBase  string
	githubURL string
	servers   []*http.Server
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// site is one company with its events sorted by time; post IDs are positions in that order.
type site struct {
	company Company
	posts   []post
}

// post is an event placed on the clock.
type post struct {
	Event
	ID        int
	Published time.Time
}

//go:embed templates/*.html
var templateFS embed.FS

// Start listens on loopback for every company, the news search and the GitHub API fixture, and
// serves them until Close; the timeline's offsets count from the clock's reading at Start.
func Start(opts Options) (*Web, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Step <= 0 {
		opts.Step = DefaultStep
	}
	if opts.Companies == nil {
		opts.Companies = Companies()
	}
	if opts.Events == nil {
		opts.Events = Timeline(opts.Step)
	}
	pages, err := template.New("site").Funcs(template.FuncMap{"date": formatDate, "rfc3339": rfc3339}).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("simweb: parse templates: %w", err)
	}
	w := &Web{
		now:    opts.Now,
		start:  opts.Now().UTC(),
		bySlug: make(map[string]*site),
		byOrg:  make(map[string]*site),
		pages:  pages,
	}
	if err := w.place(opts.Companies, opts.Events); err != nil {
		return nil, err
	}

	listeners := make([]net.Listener, 0, len(w.sites)+2)
	for range len(w.sites) + 2 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range listeners {
				_ = l.Close()
			}
			return nil, fmt.Errorf("simweb: listen: %w", err)
		}
		listeners = append(listeners, ln)
	}
	base := func(ln net.Listener) string { return "http://" + ln.Addr().String() + "/" }
	for i, s := range w.sites {
		s.company.Website = base(listeners[i])
	}
	w.newsBase = base(listeners[len(w.sites)])
	w.githubURL = strings.TrimSuffix(base(listeners[len(w.sites)+1]), "/")

	handlers := make([]http.Handler, 0, len(listeners))
	for _, s := range w.sites {
		handlers = append(handlers, w.siteHandler(s))
	}
	handlers = append(handlers, w.newsHandler(), w.githubHandler())
	for i, ln := range listeners {
		srv := &http.Server{Handler: handlers[i], ReadHeaderTimeout: 10 * time.Second}
		w.servers = append(w.servers, srv)
		w.wg.Go(func() { _ = srv.Serve(ln) })
	}
	return w, nil
}

// place checks the companies and events and puts each event on its company's timeline.
func (w *Web) place(companies []Company, events []Event) error {
	for _, c := range companies {
		if c.Slug == "" || c.Name == "" {
			return fmt.Errorf("company %q needs a name and a slug: %w", c.Name, ErrInvalidOptions)
		}
		if _, dup := w.bySlug[c.Slug]; dup {
			return fmt.Errorf("company slug %q used twice: %w", c.Slug, ErrInvalidOptions)
		}
		c.Founders = slices.Clone(c.Founders)
		c.Repos = slices.Clone(c.Repos)
		c.Website = ""
		s := &site{company: c}
		w.sites = append(w.sites, s)
		w.bySlug[c.Slug] = s
		if org := githubOrg(c.GitHub); org != "" {
			w.byOrg[strings.ToLower(org)] = s
		}
	}
	for _, e := range events {
		s, ok := w.bySlug[e.Company]
		if !ok {
			return fmt.Errorf("event %q names unknown company %q: %w", e.Title, e.Company, ErrInvalidOptions)
		}
		s.posts = append(s.posts, post{Event: e, Published: w.start.Add(e.At)})
	}
	for _, s := range w.sites {
		slices.SortStableFunc(s.posts, func(a, b post) int { return a.Published.Compare(b.Published) })
		for i := range s.posts {
			s.posts[i].ID = i + 1
		}
	}
	return nil
}

// Companies returns the companies with Website filled in.
func (w *Web) Companies() []Company {
	out := make([]Company, len(w.sites))
	for i, s := range w.sites {
		c := s.company
		c.Founders = slices.Clone(c.Founders)
		c.Repos = slices.Clone(c.Repos)
		out[i] = c
	}
	return out
}

// NewsFeedURL returns the news-search template for RADAR_NEWS_FEED_URL; {query} stands for the
// URL-escaped search terms, and the feed is RSS 2.0 of the visible news matching all of them.
func (w *Web) NewsFeedURL() string { return w.newsBase + "search?q={query}" }

// GitHubAPIURL returns the base URL of the GitHub API fixture for RADAR_GITHUB_API_URL.
func (w *Web) GitHubAPIURL() string { return w.githubURL }

// Events returns the events visible now, oldest first.
func (w *Web) Events() []Event {
	var out []Event
	for _, s := range w.sites {
		for _, p := range w.visible(s) {
			out = append(out, p.Event)
		}
	}
	slices.SortStableFunc(out, func(a, b Event) int { return cmp.Compare(a.At, b.At) })
	return out
}

// Close stops every listener and waits for the servers to finish.
func (w *Web) Close() {
	w.closeOnce.Do(func() {
		for _, srv := range w.servers {
			_ = srv.Close()
		}
		w.wg.Wait()
	})
}

// visible returns the posts published at or before the web's current time, oldest first.
func (w *Web) visible(s *site) []post {
	now := w.now()
	i, _ := slices.BinarySearchFunc(s.posts, now, func(p post, t time.Time) int {
		if p.Published.After(t) {
			return 1
		}
		return -1
	})
	return s.posts[:i]
}

// lastModified is the time of the newest visible post, or the start of the web when there is none.
func (w *Web) lastModified(posts []post) time.Time {
	if len(posts) == 0 {
		return w.start
	}
	return posts[len(posts)-1].Published
}

// serve writes body with a strong ETag and Last-Modified, answering conditional requests with 304.
func serve(rw http.ResponseWriter, r *http.Request, contentType string, modified time.Time, body []byte) {
	sum := sha256.Sum256(body)
	rw.Header().Set("Content-Type", contentType)
	rw.Header().Set("ETag", `"`+hex.EncodeToString(sum[:12])+`"`)
	rw.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(rw, r, "", modified, bytes.NewReader(body))
}

// githubOrg returns the organisation or user name of a https://github.com/NAME profile URL.
func githubOrg(profile string) string {
	rest, ok := strings.CutPrefix(profile, "https://github.com/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

func formatDate(t time.Time) string { return t.UTC().Format("2 January 2006") }
