package simweb

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The part of the GitHub REST API the fixture answers, with the fields Radar reads and a few more
// that real clients expect.
type (
	ghAccount struct {
		Login   string `json:"login"`
		ID      int64  `json:"id"`
		Type    string `json:"type"`
		URL     string `json:"url"`
		HTMLURL string `json:"html_url"`
	}
	ghOrg struct {
		ghAccount
		ReposURL    string `json:"repos_url"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Blog        string `json:"blog"`
		PublicRepos int    `json:"public_repos"`
		Followers   int    `json:"followers"`
		CreatedAt   string `json:"created_at"`
		UpdatedAt   string `json:"updated_at"`
	}
	ghRepo struct {
		ID              int64     `json:"id"`
		Name            string    `json:"name"`
		FullName        string    `json:"full_name"`
		Owner           ghAccount `json:"owner"`
		Private         bool      `json:"private"`
		HTMLURL         string    `json:"html_url"`
		Description     string    `json:"description"`
		Fork            bool      `json:"fork"`
		URL             string    `json:"url"`
		ReleasesURL     string    `json:"releases_url"`
		Homepage        string    `json:"homepage"`
		StargazersCount int       `json:"stargazers_count"`
		ForksCount      int       `json:"forks_count"`
		Archived        bool      `json:"archived"`
		DefaultBranch   string    `json:"default_branch"`
		CreatedAt       string    `json:"created_at"`
		UpdatedAt       string    `json:"updated_at"`
		PushedAt        string    `json:"pushed_at"`
	}
	ghRelease struct {
		ID              int64     `json:"id"`
		TagName         string    `json:"tag_name"`
		TargetCommitish string    `json:"target_commitish"`
		Name            string    `json:"name"`
		Body            string    `json:"body"`
		Draft           bool      `json:"draft"`
		Prerelease      bool      `json:"prerelease"`
		URL             string    `json:"url"`
		HTMLURL         string    `json:"html_url"`
		Author          ghAccount `json:"author"`
		CreatedAt       string    `json:"created_at"`
		PublishedAt     string    `json:"published_at"`
	}
	ghError struct {
		Message          string `json:"message"`
		DocumentationURL string `json:"documentation_url"`
		Status           string `json:"status"`
	}
)

// GitHub API paging defaults and limits.
const (
	ghDefaultPerPage = 30
	ghMaxPerPage     = 100
)

// githubHandler serves the GitHub API fixture: the organisations of the companies with a GitHub
// profile, their repositories, and a release for each visible open_source event.
func (w *Web) githubHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /orgs/{org}", func(rw http.ResponseWriter, r *http.Request) {
		s, ok := w.byOrg[strings.ToLower(r.PathValue("org"))]
		if !ok {
			ghNotFound(rw)
			return
		}
		org, releases := githubOrg(s.company.GitHub), w.releasePosts(s)
		w.writeJSON(rw, r, releases, ghOrg{
			ghAccount:   ghAccount{Login: org, ID: ghID(org), Type: "Organization", URL: w.githubURL + "/orgs/" + org, HTMLURL: s.company.GitHub},
			ReposURL:    w.githubURL + "/orgs/" + org + "/repos",
			Name:        s.company.Name,
			Description: s.company.Summary,
			Blog:        s.company.Website,
			PublicRepos: len(s.company.Repos),
			Followers:   20 + 15*len(releases),
			CreatedAt:   rfc3339(w.start.AddDate(-4, 0, 0)),
			UpdatedAt:   rfc3339(w.lastModified(releases)),
		})
	})
	mux.HandleFunc("GET /orgs/{org}/repos", func(rw http.ResponseWriter, r *http.Request) {
		s, ok := w.byOrg[strings.ToLower(r.PathValue("org"))]
		if !ok {
			ghNotFound(rw)
			return
		}
		releases := w.releasePosts(s)
		repos := make([]ghRepo, 0, len(s.company.Repos))
		for i := range s.company.Repos {
			repos = append(repos, w.repo(s, i))
		}
		w.writeJSON(rw, r, releases, paginate(rw, r, w.githubURL, repos))
	})
	mux.HandleFunc("GET /repos/{owner}/{repo}", func(rw http.ResponseWriter, r *http.Request) {
		s, i, ok := w.findRepo(r)
		if !ok {
			ghNotFound(rw)
			return
		}
		w.writeJSON(rw, r, w.repoReleases(s, i), w.repo(s, i))
	})
	mux.HandleFunc("GET /repos/{owner}/{repo}/releases", func(rw http.ResponseWriter, r *http.Request) {
		s, i, ok := w.findRepo(r)
		if !ok {
			ghNotFound(rw)
			return
		}
		org, name := githubOrg(s.company.GitHub), s.company.Repos[i]
		releases := w.repoReleases(s, i)
		api := w.githubURL + "/repos/" + org + "/" + name
		out := make([]ghRelease, 0, len(releases))
		for n, p := range releases {
			tag := releaseTag(p, n)
			id := ghID(org + "/" + name + "@" + tag)
			out = append(out, ghRelease{
				ID:              id,
				TagName:         tag,
				TargetCommitish: "main",
				Name:            p.Title,
				Body:            p.Body,
				URL:             api + "/releases/" + strconv.FormatInt(id, 10),
				HTMLURL:         "https://github.com/" + org + "/" + name + "/releases/tag/" + tag,
				Author:          ghAccount{Login: org + "-bot", ID: ghID(org + "-bot"), Type: "Bot", URL: w.githubURL + "/users/" + org + "-bot", HTMLURL: "https://github.com/" + org + "-bot"},
				CreatedAt:       rfc3339(p.Published),
				PublishedAt:     rfc3339(p.Published),
			})
		}
		slices.Reverse(out)
		w.writeJSON(rw, r, releases, paginate(rw, r, w.githubURL, out))
	})
	mux.HandleFunc("/", func(rw http.ResponseWriter, _ *http.Request) { ghNotFound(rw) })
	return mux
}

// repo describes repository i of a company's organisation.
func (w *Web) repo(s *site, i int) ghRepo {
	org, name := githubOrg(s.company.GitHub), s.company.Repos[i]
	api := w.githubURL + "/repos/" + org + "/" + name
	own := w.repoReleases(s, i)
	stars, pushed := 40+90*len(own), w.start.AddDate(0, 0, -3*(i+1))
	if len(own) > 0 {
		pushed = own[len(own)-1].Published
	}
	return ghRepo{
		ID:              ghID(org + "/" + name),
		Name:            name,
		FullName:        org + "/" + name,
		Owner:           ghAccount{Login: org, ID: ghID(org), Type: "Organization", URL: w.githubURL + "/orgs/" + org, HTMLURL: s.company.GitHub},
		HTMLURL:         "https://github.com/" + org + "/" + name,
		Description:     s.company.Name + ": " + name,
		URL:             api,
		ReleasesURL:     api + "/releases{/id}",
		Homepage:        s.company.Website,
		StargazersCount: stars,
		ForksCount:      stars / 12,
		DefaultBranch:   "main",
		CreatedAt:       rfc3339(w.start.AddDate(-3, i, 0)),
		UpdatedAt:       rfc3339(pushed),
		PushedAt:        rfc3339(pushed),
	}
}

// versionPattern finds a version number such as 1.0 or 0.9.2 in a release announcement.
var versionPattern = regexp.MustCompile(`\b(\d+)\.(\d+)(?:\.(\d+))?\b`)

// releaseTag is the tag of the n-th release (from zero) of a repository: the version its
// announcement names, or else v0.(n+1).0.
func releaseTag(p post, n int) string {
	m := versionPattern.FindStringSubmatch(p.Title)
	if m == nil {
		return fmt.Sprintf("v0.%d.0", n+1)
	}
	return "v" + m[1] + "." + m[2] + "." + cmp.Or(m[3], "0")
}

// releaseRepo is the index of the repository an open_source post is released from: the first
// one the post names, or else the first.
func releaseRepo(c Company, p post) int {
	text := strings.ToLower(p.Title + "\n" + p.Body)
	for i, name := range c.Repos {
		if strings.Contains(text, strings.ToLower(name)) {
			return i
		}
	}
	return 0
}

// findRepo looks up the repository named by the owner and repo path values.
func (w *Web) findRepo(r *http.Request) (*site, int, bool) {
	s, ok := w.byOrg[strings.ToLower(r.PathValue("owner"))]
	if !ok {
		return nil, 0, false
	}
	i := slices.IndexFunc(s.company.Repos, func(name string) bool { return strings.EqualFold(name, r.PathValue("repo")) })
	return s, i, i >= 0
}

// releasePosts returns the visible open_source posts of a company, oldest first.
func (w *Web) releasePosts(s *site) []post {
	var out []post
	for _, p := range w.visible(s) {
		if p.Kind == KindOpenSource {
			out = append(out, p)
		}
	}
	return out
}

// repoReleases returns the visible open_source posts released from repository i, oldest first.
func (w *Web) repoReleases(s *site, i int) []post {
	var out []post
	for _, p := range w.releasePosts(s) {
		if releaseRepo(s.company, p) == i {
			out = append(out, p)
		}
	}
	return out
}

// writeJSON answers with v as JSON, last modified at the newest of the posts it depends on.
func (w *Web) writeJSON(rw http.ResponseWriter, r *http.Request, posts []post, v any) {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(rw, "internal error", http.StatusInternalServerError)
		return
	}
	serve(rw, r, "application/json; charset=utf-8", w.lastModified(posts), append(body, '\n'))
}

// paginate returns the page of items that the per_page and page parameters ask for, and sets a
// Link header pointing at the next page when there is one, as the GitHub API does.
func paginate[T any](rw http.ResponseWriter, r *http.Request, base string, items []T) []T {
	perPage, err := strconv.Atoi(r.URL.Query().Get("per_page"))
	if err != nil || perPage < 1 {
		perPage = ghDefaultPerPage
	}
	perPage = min(perPage, ghMaxPerPage)
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	from := min((page-1)*perPage, len(items))
	to := min(from+perPage, len(items))
	if to < len(items) {
		q := r.URL.Query()
		q.Set("per_page", strconv.Itoa(perPage))
		q.Set("page", strconv.Itoa(page+1))
		rw.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, base, r.URL.Path, q.Encode()))
	}
	return items[from:to]
}

// ghNotFound answers like the GitHub API does for an unknown organisation or repository.
func ghNotFound(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "application/json; charset=utf-8")
	rw.WriteHeader(http.StatusNotFound)
	_ = json.NewEncoder(rw).Encode(ghError{Message: "Not Found", DocumentationURL: "https://docs.github.com/rest", Status: "404"})
}

// ghID derives a stable numeric id from a name.
func ghID(name string) int64 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(strings.ToLower(name)))
	return int64(h.Sum32())
}
