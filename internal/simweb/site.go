package simweb

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Open roles on a careers page: a base count that each team_growth event raises and each
// contraction event lowers, so the page reads differently after such news.
const (
	baseOpenRoles        = 4
	rolesPerGrowth       = 3
	rolesPerContraction  = 4
	robotsTxt            = "User-agent: *\nDisallow: /private/\nAllow: /\n"
	contentTypeHTML      = "text/html; charset=utf-8"
	contentTypePlainText = "text/plain; charset=utf-8"
)

// rolePool names the roles a careers page lists, in order, as many as are open.
func rolePool() []string {
	return []string{
		"Senior Backend Engineer", "Product Designer", "Account Executive", "Data Scientist",
		"Site Reliability Engineer", "Customer Success Manager", "Frontend Engineer", "Head of Finance",
		"Technical Recruiter", "Solutions Engineer", "Security Engineer", "Product Marketing Manager",
		"Embedded Software Engineer", "People Partner", "Technical Writer", "Engineering Manager",
	}
}

// sitePage is what the company site templates render.
type sitePage struct {
	Title    string
	Company  Company
	FeedURL  string
	Posts    []post // newest first
	Post     post
	Roles    []string
	Upcoming []post
	modified time.Time // Last-Modified; the newest visible post unless the page says otherwise
}

// siteHandler serves one company's website. Every page is rendered from the posts visible at
// the time of the request; fill completes a page's data and reports whether the page exists.
func (w *Web) siteHandler(s *site) http.Handler {
	mux := http.NewServeMux()
	page := func(name string, fill func(r *http.Request, p *sitePage, posts []post) bool) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			posts := w.visible(s)
			p := &sitePage{
				Title:    s.company.Name,
				Company:  s.company,
				FeedURL:  s.company.Website + feedPath(s.company),
				modified: w.lastModified(posts),
			}
			if !fill(r, p, posts) {
				http.NotFound(rw, r)
				return
			}
			var buf bytes.Buffer
			if err := w.pages.ExecuteTemplate(&buf, name, p); err != nil {
				http.Error(rw, "internal error", http.StatusInternalServerError)
				return
			}
			serve(rw, r, contentTypeHTML, p.modified, buf.Bytes())
		}
	}
	newest := func(posts []post) []post {
		out := slices.Clone(posts)
		slices.Reverse(out)
		return out
	}

	mux.HandleFunc("GET /{$}", page("home", func(_ *http.Request, p *sitePage, posts []post) bool {
		p.Posts = newest(posts)[:min(3, len(posts))]
		p.Roles = openRoles(posts)
		return true
	}))
	mux.HandleFunc("GET /about", page("about", func(_ *http.Request, p *sitePage, _ []post) bool {
		p.Title = "About " + s.company.Name
		return true
	}))
	mux.HandleFunc("GET /team", page("team", func(_ *http.Request, p *sitePage, _ []post) bool {
		p.Title = "Team - " + s.company.Name
		return true
	}))
	mux.HandleFunc("GET /blog", page("blog", func(_ *http.Request, p *sitePage, posts []post) bool {
		p.Title = "Blog - " + s.company.Name
		p.Posts = newest(posts)
		return true
	}))
	mux.HandleFunc("GET /press", page("press", func(_ *http.Request, p *sitePage, posts []post) bool {
		p.Title = "Press - " + s.company.Name
		p.Posts = newest(posts)
		return true
	}))
	mux.HandleFunc("GET /blog/{id}", page("article", func(r *http.Request, p *sitePage, posts []post) bool {
		id, err := strconv.Atoi(r.PathValue("id"))
		if err != nil || id < 1 || id > len(posts) {
			return false
		}
		p.Post = posts[id-1]
		p.Title = p.Post.Title + " - " + s.company.Name
		p.modified = p.Post.Published
		return true
	}))
	mux.HandleFunc("GET /careers", page("careers", func(_ *http.Request, p *sitePage, posts []post) bool {
		p.Title = "Careers - " + s.company.Name
		p.Roles = openRoles(posts)
		return true
	}))
	// /private/ is what robots.txt disallows: it previews the news still to come, so a crawler
	// that ignores robots.txt gives itself away by reporting news before it is published.
	mux.HandleFunc("GET /private/", page("private", func(_ *http.Request, p *sitePage, posts []post) bool {
		p.Title = "Internal - " + s.company.Name
		p.Upcoming = s.posts[len(posts):]
		return true
	}))
	mux.HandleFunc("GET /robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		serve(rw, r, contentTypePlainText, w.start, []byte(robotsTxt))
	})
	mux.HandleFunc("GET /"+feedPath(s.company), func(rw http.ResponseWriter, r *http.Request) {
		posts := w.visible(s)
		body, err := w.companyFeed(s.company, posts)
		if err != nil {
			http.Error(rw, "internal error", http.StatusInternalServerError)
			return
		}
		serve(rw, r, feedType(s.company)+"; charset=utf-8", w.lastModified(posts), body)
	})
	return mux
}

// openRoles lists the roles a careers page shows after the given news.
func openRoles(posts []post) []string {
	n := baseOpenRoles
	for _, p := range posts {
		switch p.Kind {
		case KindTeamGrowth:
			n += rolesPerGrowth
		case KindContraction:
			n = max(0, n-rolesPerContraction)
		}
	}
	pool := rolePool()
	return pool[:min(n, len(pool))]
}

// feedPath is where a company publishes its feed, relative to its website.
func feedPath(c Company) string {
	if c.Atom {
		return "atom.xml"
	}
	return "feed.xml"
}

// feedType is the media type a company's feed is announced with.
func feedType(c Company) string {
	if c.Atom {
		return "application/atom+xml"
	}
	return "application/rss+xml"
}

// postURL is the address of a post on its company's blog.
func postURL(c Company, p post) string { return c.Website + "blog/" + strconv.Itoa(p.ID) }

// rfc3339 formats a time the way feeds and the GitHub API write it.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
