package radar

import (
	"net/url"
	"slices"
	"strings"
)

// IdentityKeys returns the normalised website and profile URLs that identify e's company: a create with any
// of them reuses e instead of tracking the company twice. Each key is given once, though a founder may share a
// profile with the company.
func IdentityKeys(e *Entity) []string {
	var keys []string
	add := func(prefix, raw string) {
		if k := NormalizeURLKey(raw); k != "" && !slices.Contains(keys, prefix+k) {
			keys = append(keys, prefix+k)
		}
	}
	add("site:", e.CompanyWebsite)
	for _, u := range []string{e.CompanyLinkedinURL, e.CompanyTwitterURL, e.CompanyGithubURL} {
		add("profile:", u)
	}
	for _, f := range e.Founders {
		for _, u := range []string{f.LinkedinURL, f.TwitterURL, f.GithubURL} {
			add("profile:", u)
		}
	}
	return keys
}

// NormalizeURLKey reduces a URL to host (with a port other than 80 or 443) and path, lower case, without
// scheme, "www.", query, fragment or trailing slash, with twitter.com spelled x.com; "" when raw is not a URL
// with a host.
func NormalizeURLKey(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	for _, p := range []string{"www.", "mobile.", "m."} {
		host = strings.TrimPrefix(host, p)
	}
	if host == "twitter.com" {
		host = "x.com"
	}
	if port := u.Port(); port != "" && port != "80" && port != "443" {
		host += ":" + port
	}
	path := strings.ToLower(strings.TrimRight(u.EscapedPath(), "/"))
	return host + path
}
