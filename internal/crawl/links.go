package crawl

import (
	"net/url"
	"strings"
	"time"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// section is the kind of information a same-site page is expected to hold.
type section int

const (
	sectionNone section = iota
	sectionNews
	sectionAbout
	sectionCareers
)

// sectionWords maps words of paths and link texts to the section they suggest.
var sectionWords = map[string]section{
	"news": sectionNews, "newsroom": sectionNews, "blog": sectionNews, "blogs": sectionNews,
	"press": sectionNews, "media": sectionNews, "announcements": sectionNews, "updates": sectionNews,
	"insights": sectionNews, "stories": sectionNews, "journal": sectionNews, "posts": sectionNews,
	"about": sectionAbout, "company": sectionAbout, "team": sectionAbout, "people": sectionAbout,
	"leadership": sectionAbout, "founders": sectionAbout, "management": sectionAbout, "story": sectionAbout,
	"careers": sectionCareers, "career": sectionCareers, "jobs": sectionCareers, "hiring": sectionCareers,
	"join": sectionCareers, "vacancies": sectionCareers, "openings": sectionCareers,
}

// sectionScore ranks sections when the page budget is short: news first, careers last.
var sectionScore = map[section]int{sectionNews: 30, sectionAbout: 25, sectionCareers: 20}

// allSections follows every kind of page; aboutSections only those that show people and profiles.
func allSections(s section) bool   { return s != sectionNone }
func aboutSections(s section) bool { return s == sectionAbout }

// classifyPage returns the section a same-site link points to and how much it is worth fetching.
func classifyPage(u *url.URL, text string) (section, int) {
	segs := segments(u)
	pathSec := sectionNone
	for _, s := range segs {
		for _, w := range words(s) {
			if sec, ok := sectionWords[w]; ok && pathSec == sectionNone {
				pathSec = sec
			}
		}
	}
	textSec := sectionNone
	for _, w := range words(text) {
		if sec, ok := sectionWords[w]; ok {
			textSec = sec
			break
		}
	}
	sec := pathSec
	if sec == sectionNone {
		sec = textSec
	}
	if sec == sectionNone {
		return sectionNone, 0
	}
	score := sectionScore[sec]
	if pathSec != sectionNone {
		score += 10
	}
	if textSec == sec {
		score += 5
	}
	if len(segs) > 1 {
		score -= 3 * (len(segs) - 1)
	}
	if u.RawQuery != "" {
		score -= 5
	}
	return sec, max(score, 1)
}

// words splits s into lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// listingSegments are path segments under which a site lists its articles.
var listingSegments = map[string]bool{
	"blog": true, "blogs": true, "news": true, "newsroom": true, "press": true, "press-releases": true,
	"pressreleases": true, "posts": true, "post": true, "articles": true, "article": true, "stories": true,
	"updates": true, "insights": true, "announcements": true, "journal": true, "media": true,
}

// nonArticleSegments mark listing sub-pages: pagination, tags, categories, authors and archives.
var nonArticleSegments = map[string]bool{
	"page": true, "tag": true, "tags": true, "category": true, "categories": true, "author": true,
	"authors": true, "archive": true, "archives": true, "feed": true, "rss": true, "topics": true,
}

// genericLinkTexts are link texts that do not name an article.
var genericLinkTexts = map[string]bool{
	"read more": true, "continue reading": true, "more": true, "learn more": true, "read article": true,
	"read the post": true, "read post": true, "read": true, "details": true, "view": true, "see more": true,
}

// isArticlePath reports whether a same-site link's path looks like one article of a blog, news or
// press listing: below a listing segment, or dated like /2024/05/…, and not a listing sub-page.
func isArticlePath(u *url.URL) bool {
	segs := segments(u)
	if len(segs) < 2 || listingSegments[strings.ToLower(segs[len(segs)-1])] {
		return false
	}
	listed := false
	for _, s := range segs {
		ls := strings.ToLower(s)
		if nonArticleSegments[ls] {
			return false
		}
		if listingSegments[ls] {
			listed = true
		}
	}
	dated := len(segs) >= 3 && isYear(segs[0]) && isDigits(segs[1])
	return listed || dated
}

// isTitle reports whether a link text can serve as an article's title.
func isTitle(text string) bool {
	return len([]rune(text)) >= 8 && !genericLinkTexts[strings.ToLower(strings.TrimRight(text, ".…→» "))]
}

func isYear(s string) bool { return len(s) == 4 && isDigits(s) && (s[0] == '1' || s[0] == '2') }

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// pageLinks classifies the links of a page on site: pages worth following, listed articles and feeds.
func pageLinks(d *document, site string) []Link {
	var out []Link
	seen := make(map[string]int)
	add := func(l Link) {
		key := l.Kind + " " + canonicalString(l.URL)
		if i, ok := seen[key]; ok {
			if l.Kind == LinkArticle && len(l.Text) > len(out[i].Text) {
				out[i].Text = l.Text
			}
			if out[i].Published.IsZero() {
				out[i].Published = l.Published
			}
			return
		}
		seen[key] = len(out)
		out = append(out, l)
	}
	for _, f := range d.feeds {
		add(Link{URL: f, Kind: LinkFeed})
	}
	pages := 0
	for _, a := range d.anchors {
		if siteKey(a.url) != site {
			continue
		}
		switch {
		case isFeedURL(a.url):
			add(Link{URL: a.url.String(), Kind: LinkFeed})
		case isBinaryPath(a.url):
		case isArticlePath(a.url):
			if !a.chrome && isTitle(a.text) {
				add(Link{URL: a.url.String(), Text: a.text, Kind: LinkArticle, Published: d.nearbyTime(a.node)})
			}
		default:
			if sec, _ := classifyPage(a.url, a.text); sec != sectionNone && pages < maxPageLinks {
				pages++
				add(Link{URL: a.url.String(), Text: a.text, Kind: LinkPage})
			}
		}
	}
	return out
}

// nearbyTime returns the date of a <time datetime> in the list item or card around an article
// link, or the zero time. The search stops at an element that also holds links elsewhere, so a
// date is never borrowed from a neighbouring article.
func (d *document) nearbyTime(n *html.Node) time.Time {
	href := attr(n, "href")
	p := n.Parent
	for range 3 {
		if p == nil || p.Type != html.ElementNode || p.DataAtom == atom.Body || p.DataAtom == atom.Main || len(d.textOf(p)) > 600 {
			return time.Time{}
		}
		var found time.Time
		for c := range p.Descendants() {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.A && attr(c, "href") != href {
				return time.Time{}
			}
			if c.DataAtom == atom.Time && found.IsZero() {
				if t, ok := parseDate(firstNonEmpty(attr(c, "datetime"), textContent(c))); ok {
					found = t
				}
			}
		}
		if !found.IsZero() {
			return found
		}
		p = p.Parent
	}
	return time.Time{}
}

// parseDate reads the date formats found in <time datetime> attributes.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02", "2 January 2006", "January 2, 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
