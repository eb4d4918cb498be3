package crawl

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"radar/internal/analysis"
)

// profileKind is the kind of profile a link points to.
type profileKind int

const (
	linkedinCompany profileKind = iota + 1
	linkedinPerson
	xProfile
	githubProfile
)

var (
	xHandle      = regexp.MustCompile(`^[A-Za-z0-9_]{1,15}$`)
	githubHandle = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
)

// reservedX are first path segments of x.com and twitter.com that are not accounts.
var reservedX = map[string]bool{
	"intent": true, "share": true, "home": true, "i": true, "search": true, "hashtag": true, "explore": true,
	"settings": true, "login": true, "logout": true, "signup": true, "tos": true, "privacy": true,
	"messages": true, "notifications": true, "compose": true, "about": true, "en": true, "download": true,
}

// reservedGitHub are first path segments of github.com that are not accounts.
var reservedGitHub = map[string]bool{
	"about": true, "features": true, "pricing": true, "login": true, "join": true, "signup": true,
	"sponsors": true, "marketplace": true, "topics": true, "collections": true, "explore": true,
	"settings": true, "site": true, "security": true, "enterprise": true, "team": true, "readme": true,
	"customer-stories": true, "apps": true, "search": true, "notifications": true, "new": true,
	"organizations": true, "trending": true, "events": true, "contact": true, "pulls": true,
	"issues": true, "codespaces": true, "resources": true, "solutions": true, "home": true, "logout": true,
}

// classifyProfile recognises a link to a LinkedIn, X/Twitter or GitHub profile and returns its
// canonical URL; share and intent links, posts and repositories are not profiles.
func classifyProfile(u *url.URL) (profileKind, string, bool) {
	host := strings.ToLower(u.Hostname())
	segs := segments(u)
	switch {
	case host == "linkedin.com" || strings.HasSuffix(host, ".linkedin.com"):
		if len(segs) < 2 {
			return 0, "", false
		}
		slug := segs[1]
		switch strings.ToLower(segs[0]) {
		case "company":
			return linkedinCompany, "https://www.linkedin.com/company/" + slug, true
		case "in":
			return linkedinPerson, "https://www.linkedin.com/in/" + slug, true
		}
	case host == "x.com" || host == "twitter.com" || host == "www.x.com" || host == "www.twitter.com" ||
		host == "mobile.twitter.com" || host == "mobile.x.com":
		if len(segs) != 1 || !xHandle.MatchString(segs[0]) || reservedX[strings.ToLower(segs[0])] {
			return 0, "", false
		}
		domain := "x.com"
		if strings.HasSuffix(host, "twitter.com") {
			domain = "twitter.com"
		}
		return xProfile, "https://" + domain + "/" + segs[0], true
	case host == "github.com" || host == "www.github.com":
		if len(segs) == 2 && strings.EqualFold(segs[0], "orgs") {
			segs = segs[1:]
		}
		if len(segs) != 1 || !githubHandle.MatchString(segs[0]) || reservedGitHub[strings.ToLower(segs[0])] {
			return 0, "", false
		}
		return githubProfile, "https://github.com/" + segs[0], true
	}
	return 0, "", false
}

// githubOrg returns the account name of a https://github.com/NAME profile URL, or "".
func githubOrg(profile string) string {
	u, err := url.Parse(strings.TrimSpace(profile))
	if err != nil {
		return ""
	}
	if !strings.Contains(profile, "://") {
		if u, err = url.Parse("https://" + strings.TrimSpace(profile)); err != nil {
			return ""
		}
	}
	kind, canon, ok := classifyProfile(u)
	if !ok || kind != githubProfile {
		return ""
	}
	return strings.TrimPrefix(canon, "https://github.com/")
}

// maxCardText bounds how much text an element may hold and still count as one person's card.
const maxCardText = 1500

// pageProfiles returns the profile links of a page: personal links inside a founder's card are
// the founder's; company links are those in the page's header or footer, marked rel="me", or
// whose handle carries the company's name.
func (r *run) pageProfiles(d *document, source string) []Profile {
	var out []Profile
	for _, a := range d.anchors {
		kind, link, ok := classifyProfile(a.url)
		if !ok {
			continue
		}
		if kind != linkedinCompany && !a.chrome {
			if name := r.cardFounder(d, a.node); name != "" {
				out = append(out, Profile{Field: FounderField(name, founderKind(kind)), URL: link, Source: source})
				continue
			}
		}
		if kind == linkedinPerson {
			continue
		}
		if a.chrome || hasToken(a.rel, "me") || r.names.handleMatches(link) {
			out = append(out, Profile{Field: companyField(kind), URL: link, Source: source})
		}
	}
	return out
}

func founderKind(k profileKind) string {
	switch k {
	case xProfile:
		return KindTwitter
	case githubProfile:
		return KindGitHub
	}
	return KindLinkedIn
}

func companyField(k profileKind) string {
	switch k {
	case xProfile:
		return FieldCompanyTwitter
	case githubProfile:
		return FieldCompanyGitHub
	}
	return FieldCompanyLinkedIn
}

// cardFounder returns the founder whose name the smallest element around n mentions, when
// that element names exactly one founder and is small enough to be a card rather than a page.
func (r *run) cardFounder(d *document, n *html.Node) string {
	if len(r.target.Founders) == 0 {
		return ""
	}
	for p := n.Parent; p != nil && p.Type == html.ElementNode; p = p.Parent {
		switch p.DataAtom {
		case atom.Body, atom.Html, atom.Main:
			return ""
		}
		text := d.textOf(p)
		if len(text) > maxCardText {
			return ""
		}
		folded := " " + fold(text) + " "
		var found []string
		for _, name := range r.target.Founders {
			if mentionsPerson(folded, name) {
				found = append(found, name)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0]
		default:
			return ""
		}
	}
	return ""
}

// mentionsPerson reports whether folded text (padded with spaces) names the person: the whole
// name, or its first and last words.
func mentionsPerson(folded, name string) bool {
	f := fold(name)
	if f == "" {
		return false
	}
	if strings.Contains(folded, " "+f+" ") {
		return true
	}
	ws := strings.Fields(f)
	return len(ws) > 1 && strings.Contains(folded, " "+ws[0]+" ") && strings.Contains(folded, " "+ws[len(ws)-1]+" ")
}

// mergeProfiles keeps the first profile found for each field, in page order.
func mergeProfiles(pages []crawledPage) []Profile {
	var out []Profile
	seen := make(map[string]bool)
	for _, p := range pages {
		for _, pr := range p.snap.Profiles {
			if seen[pr.Field] {
				continue
			}
			seen[pr.Field] = true
			out = append(out, pr)
		}
	}
	return out
}

// profileURL returns the URL found for field, or "".
func profileURL(ps []Profile, field string) string {
	for _, p := range ps {
		if p.Field == field {
			return p.URL
		}
	}
	return ""
}

// unfoldable spells the lower-case letters that have no decomposition into a base letter and an accent.
var unfoldable = strings.NewReplacer("ø", "o", "æ", "ae", "œ", "oe", "ß", "ss", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ı", "i")

// fold lower-cases s, strips accents, spells "&" as "and" and turns every run of other
// characters that are not letters or digits into one space.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	if plain, _, err := transform.String(t, s); err == nil {
		s = plain
	}
	s = unfoldable.Replace(strings.ToLower(s))
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
		case r == '&':
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("and")
			space = true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// genericNameWords are words that end company names without distinguishing them: legal forms
// and descriptions of the business.
var genericNameWords = map[string]bool{
	"inc": true, "incorporated": true, "ltd": true, "limited": true, "llc": true, "llp": true, "gmbh": true,
	"ag": true, "sa": true, "sas": true, "bv": true, "nv": true, "plc": true, "co": true, "corp": true,
	"corporation": true, "company": true, "labs": true, "lab": true, "technologies": true, "technology": true,
	"tech": true, "software": true, "systems": true, "solutions": true, "group": true, "holdings": true,
	"health": true, "healthcare": true, "robotics": true, "data": true, "space": true, "learning": true,
	"mobility": true, "agritech": true, "ai": true, "io": true, "hq": true, "studio": true, "studios": true,
	"energy": true, "bio": true, "biotech": true, "therapeutics": true, "analytics": true, "security": true,
	"networks": true, "capital": true, "ventures": true, "digital": true, "app": true, "apps": true,
}

// nameMatcher tells whether a text or a handle refers to the company.
type nameMatcher struct {
	full, core string // folded whole name, and the name without trailing generic words
	first      string // the name's first word when it names the company alone ("Tessaro" of "Tessaro Insurance"), else ""
	compact    string // core without spaces, for handles
}

func newNameMatcher(name string) nameMatcher {
	full := fold(name)
	ws := strings.Fields(full)
	for len(ws) > 1 && genericNameWords[ws[len(ws)-1]] {
		ws = ws[:len(ws)-1]
	}
	core := strings.Join(ws, " ")
	if len(core) < 4 {
		core = full
	}
	m := nameMatcher{full: full, core: core, compact: strings.ReplaceAll(core, " ", "")}
	if all := strings.Fields(full); len(all) > 1 && all[1] != "and" && analysis.DistinctiveNameWord(all[0]) { // not "Fennick & Vale"
		m.first = all[0]
	}
	return m
}

// mentions reports whether text names the company, as a whole word or words.
func (m nameMatcher) mentions(text string) bool {
	if m.full == "" {
		return false
	}
	t := " " + fold(text) + " "
	for _, n := range []string{m.full, m.core, m.first} {
		// fold drops apostrophes: "Tessaro's" is "tessaros".
		if n != "" && (strings.Contains(t, " "+n+" ") || strings.Contains(t, " "+n+"s ")) {
			return true
		}
	}
	return false
}

// handleMatches reports whether a profile URL's handle carries the company's name.
func (m nameMatcher) handleMatches(profile string) bool {
	if len(m.compact) < 4 {
		return false
	}
	i := strings.LastIndexByte(profile, '/')
	handle := strings.ReplaceAll(fold(profile[i+1:]), " ", "")
	return strings.Contains(handle, m.compact)
}
