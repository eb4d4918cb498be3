package crawl

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"radar/internal/fetch"
)

// ghRepo is the part of a GitHub repository a run reads.
type ghRepo struct {
	Name        string    `json:"name"`
	FullName    string    `json:"full_name"`
	HTMLURL     string    `json:"html_url"`
	Description string    `json:"description"`
	Fork        bool      `json:"fork"`
	CreatedAt   time.Time `json:"created_at"`
	PushedAt    time.Time `json:"pushed_at"`
}

// ghRelease is the part of a GitHub release a run reads.
type ghRelease struct {
	TagName     string    `json:"tag_name"`
	Name        string    `json:"name"`
	Body        string    `json:"body"`
	HTMLURL     string    `json:"html_url"`
	Draft       bool      `json:"draft"`
	CreatedAt   time.Time `json:"created_at"`
	PublishedAt time.Time `json:"published_at"`
}

// ghAccount is the part of a GitHub organisation or user an enrichment reads.
type ghAccount struct {
	Login           string `json:"login"`
	HTMLURL         string `json:"html_url"`
	TwitterUsername string `json:"twitter_username"`
}

// github lists the account's repositories, most recently pushed first, and the releases of the
// few most recent ones: an item per repository and per published release.
func (r *run) github(ctx context.Context, org string) sourceOutput {
	q := "?sort=pushed&direction=desc&per_page=" + strconv.Itoa(maxRepos)
	var repos []ghRepo
	err := r.githubGet(ctx, "/orgs/"+url.PathEscape(org)+"/repos"+q, &repos)
	if errors.Is(err, fetch.ErrStatus) && statusCode(err) == http.StatusNotFound {
		err = r.githubGet(ctx, "/users/"+url.PathEscape(org)+"/repos"+q, &repos)
	}
	if err != nil {
		return sourceOutput{errs: []error{err}}
	}
	out := sourceOutput{ok: true}
	repos = slices.DeleteFunc(repos, func(rp ghRepo) bool { return rp.Fork || rp.Name == "" })
	for _, rp := range repos {
		full := cmp.Or(rp.FullName, org+"/"+rp.Name)
		title := "GitHub repository " + full
		out.items = append(out.items, Item{
			Key:       "github:repo:" + strings.ToLower(full),
			Source:    SourceGitHub,
			Kind:      ItemArticle,
			URL:       rp.HTMLURL,
			Title:     title,
			Text:      truncate(rp.Description, maxItemText),
			Published: rp.CreatedAt.UTC(),
		})
	}

	slices.SortStableFunc(repos, func(a, b ghRepo) int { return b.PushedAt.Compare(a.PushedAt) })
	recent := repos[:min(len(repos), maxReleaseOf)]
	releases := make([][]ghRelease, len(recent))
	errs := make([]error, len(recent))
	var wg sync.WaitGroup
	for i, rp := range recent {
		wg.Go(func() {
			owner, name, ok := strings.Cut(cmp.Or(rp.FullName, org+"/"+rp.Name), "/")
			if !ok {
				owner, name = org, rp.Name
			}
			errs[i] = r.githubGet(ctx, "/repos/"+url.PathEscape(owner)+"/"+url.PathEscape(name)+"/releases?per_page=10", &releases[i])
		})
	}
	wg.Wait()
	for i, rp := range recent {
		if errs[i] != nil {
			out.errs = append(out.errs, errs[i])
			continue
		}
		full := cmp.Or(rp.FullName, org+"/"+rp.Name)
		for _, rel := range releases[i] {
			if rel.Draft || rel.TagName == "" {
				continue
			}
			title := full + " " + rel.TagName
			if rel.Name != "" && rel.Name != rel.TagName {
				title += ": " + rel.Name
			}
			published := rel.PublishedAt
			if published.IsZero() {
				published = rel.CreatedAt
			}
			out.items = append(out.items, Item{
				Key:       "github:release:" + strings.ToLower(full) + "@" + rel.TagName,
				Source:    SourceGitHub,
				Kind:      ItemArticle,
				URL:       rel.HTMLURL,
				Title:     title,
				Text:      truncate(collapse(rel.Body), maxItemText),
				Published: published.UTC(),
			})
		}
	}
	return out
}

// githubProfiles reads the organisation, or the user of that name, and returns its GitHub
// profile and the X account it names.
func (r *run) githubProfiles(ctx context.Context, org string) ([]Profile, sourceOutput) {
	var acct ghAccount
	path := "/orgs/" + url.PathEscape(org)
	err := r.githubGet(ctx, path, &acct)
	if errors.Is(err, fetch.ErrStatus) && statusCode(err) == http.StatusNotFound {
		path = "/users/" + url.PathEscape(org)
		err = r.githubGet(ctx, path, &acct)
	}
	if err != nil {
		return nil, sourceOutput{errs: []error{err}}
	}
	source := r.cfg.GitHubAPIURL + path
	var found []Profile
	if login := cmp.Or(acct.Login, org); githubOrg("https://github.com/"+login) != "" {
		found = append(found, Profile{Field: FieldCompanyGitHub, URL: "https://github.com/" + login, Source: source})
	}
	if h := strings.TrimPrefix(strings.TrimSpace(acct.TwitterUsername), "@"); xHandle.MatchString(h) {
		found = append(found, Profile{Field: FieldCompanyTwitter, URL: "https://x.com/" + h, Source: source})
	}
	return found, sourceOutput{ok: true}
}

// githubGet reads one GitHub API resource into v.
func (r *run) githubGet(ctx context.Context, path string, v any) error {
	h := http.Header{
		"Accept":               {"application/vnd.github+json"},
		"X-Github-Api-Version": {"2022-11-28"},
	}
	if r.cfg.GitHubToken != "" {
		h.Set("Authorization", "Bearer "+r.cfg.GitHubToken)
	}
	u := r.cfg.GitHubAPIURL + path
	resp, err := r.get(ctx, fetch.Request{URL: u, Header: h, IgnoreRobots: true})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return fmt.Errorf("crawl: %s: decode: %w", u, err)
	}
	return nil
}

// statusCode returns the HTTP status of a fetch.StatusError in err's chain, or 0.
func statusCode(err error) int {
	if se, ok := errors.AsType[*fetch.StatusError](err); ok {
		return se.Code
	}
	return 0
}
