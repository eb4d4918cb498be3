package crawl

import (
	"errors"
	"net"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
)

// errNoWebsite reports a target without a usable website address.
var errNoWebsite = errors.New("no usable website address")

// schemeLike matches the start of a URL with a scheme but no "//", such as "mailto:", as opposed
// to a host and port such as "example.com:8080".
var schemeLike = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[^0-9]`)

// websiteURL turns a company's website as a user typed it into an absolute http(s) URL.
func websiteURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errNoWebsite
	}
	if !strings.Contains(raw, "://") {
		if schemeLike.MatchString(raw) {
			return nil, errNoWebsite
		}
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.Join(errNoWebsite, err)
	}
	if s := strings.ToLower(u.Scheme); (s != "http" && s != "https") || u.Host == "" || u.User != nil {
		return nil, errNoWebsite
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

// siteKey is the host a same-site check compares: lower-cased, without "www." and without a
// default port, so that http://example.com and https://www.example.com are the same site.
func siteKey(u *url.URL) string {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	port := u.Port()
	if port == "" || (port == "80" && u.Scheme == "http") || (port == "443" && u.Scheme == "https") {
		return host
	}
	return net.JoinHostPort(host, port)
}

// resolve makes href absolute against base, keeping only http(s) links, without the fragment.
func resolve(base *url.URL, href string) (*url.URL, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return nil, false
	}
	ref, err := url.Parse(href)
	if err != nil {
		return nil, false
	}
	u := base.ResolveReference(ref)
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" || u.Host == "" {
		return nil, false
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u, true
}

// canonical is a URL's identity for "seen before": scheme and host lower-cased without "www." and
// default port, no fragment, no trailing slash, and no tracking parameters.
func canonical(u *url.URL) string {
	c := *u
	c.Host = siteKey(u)
	c.Fragment, c.RawFragment = "", ""
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		for k := range q {
			if lk := strings.ToLower(k); strings.HasPrefix(lk, "utm_") || lk == "fbclid" || lk == "gclid" || lk == "ref" {
				q.Del(k)
			}
		}
		c.RawQuery = q.Encode()
	}
	if len(c.Path) > 1 {
		c.Path = strings.TrimRight(c.Path, "/")
		c.RawPath = ""
	}
	if c.Path == "" {
		c.Path = "/"
	}
	return c.String()
}

// canonicalString is canonical for a URL string, or "" when it does not parse as an absolute URL.
func canonicalString(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	return canonical(u)
}

// segments returns the non-empty segments of u's path.
func segments(u *url.URL) []string {
	return strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
}

// binaryExtensions are file name endings of documents, media and archives that are never crawled.
var binaryExtensions = []string{
	".pdf", ".zip", ".gz", ".tgz", ".tar", ".rar", ".7z", ".bz2", ".xz",
	".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg", ".ico", ".bmp", ".tif", ".tiff", ".heic",
	".mp3", ".mp4", ".m4a", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".wav", ".ogg", ".flac",
	".dmg", ".exe", ".msi", ".pkg", ".deb", ".rpm", ".apk", ".iso", ".bin",
	".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".csv", ".epub",
	".woff", ".woff2", ".ttf", ".otf", ".eot", ".css", ".js", ".mjs", ".json", ".wasm",
}

// isBinaryPath reports whether u names a file type that is never an HTML page.
func isBinaryPath(u *url.URL) bool {
	ext := strings.ToLower(path.Ext(u.Path))
	return ext != "" && slices.Contains(binaryExtensions, ext)
}

// isFeedURL reports whether u looks like a feed address: /feed, /rss, /atom, or a .rss, .atom
// or .xml file other than a sitemap.
func isFeedURL(u *url.URL) bool {
	p := strings.ToLower(u.Path)
	if strings.Contains(p, "sitemap") {
		return false
	}
	switch path.Ext(p) {
	case ".rss", ".atom", ".xml":
		return true
	}
	for _, s := range segments(u) {
		switch strings.ToLower(s) {
		case "feed", "feeds", "rss", "atom", "feed.json":
			return true
		}
	}
	f := strings.ToLower(u.Query().Get("feed"))
	return f == "rss" || f == "rss2" || f == "atom"
}
