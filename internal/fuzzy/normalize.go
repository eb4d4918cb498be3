package fuzzy

import (
	"net"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

// maxKeyRunes bounds a normalised form so that a pathological query costs no more than a long company name.
const maxKeyRunes = 200

// isLegalSuffix reports whether w is a company-form word dropped from the end of a name, written as it looks
// after normalisation ("S.p.A." becomes "spa").
func isLegalSuffix(w string) bool {
	switch w {
	case "inc", "incorporated", "corp", "corporation", "co", "cos",
		"ltd", "limited", "llc", "llp", "lp", "plc", "pllc",
		"gmbh", "mbh", "ag", "kg", "kgaa", "ug", "ev",
		"sa", "sas", "sasu", "sarl", "sca", "sl", "slu", "srl", "spa", "sapa", "snc",
		"bv", "nv", "vof", "bvba", "sprl",
		"oy", "oyj", "ab", "as", "asa", "aps", "hf", "ehf",
		"se", "pty", "pte", "pvt", "private", "ltda", "lda", "sro",
		"kk", "gk", "yk", "kft", "zrt", "doo", "ood",
		"bhd", "sdn", "tbk", "pt", "cv", "sab":
		return true
	}
	return false
}

// spelledOut spells out letters that canonical decomposition leaves whole.
func spelledOut(r rune) (string, bool) {
	switch r {
	case 'ß':
		return "ss", true
	case 'æ':
		return "ae", true
	case 'œ':
		return "oe", true
	case 'ø':
		return "o", true
	case 'ł':
		return "l", true
	case 'đ', 'ð':
		return "d", true
	case 'þ':
		return "th", true
	case 'ı':
		return "i", true
	case 'ħ':
		return "h", true
	}
	return "", false
}

// words splits s into lower-case, accent-free words of letters and digits: apostrophes join ("O'Brien" is
// "obrien"), "&" is the word "and", and every other non-alphanumeric rune separates words.
func words(s string) []string {
	var (
		out []string
		cur strings.Builder
	)
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '\'' || r == '’' || r == 'ʼ' || r == '`' || r == '´':
		case r == '&':
			flush()
			out = append(out, "and")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			r = unicode.ToLower(r)
			if sp, ok := spelledOut(r); ok {
				cur.WriteString(sp)
			} else {
				cur.WriteRune(r)
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// stripLegalSuffixes drops trailing legal-form words, merging a trailing run of single letters first so that
// dotted forms such as "S.p.A." or "B.V." are recognised; it never drops the last remaining word.
func stripLegalSuffixes(ws []string) []string {
	start := len(ws)
	for start > 0 && utf8.RuneCountInString(ws[start-1]) == 1 {
		start--
	}
	if len(ws)-start >= 2 && start > 0 {
		merged := strings.Join(ws[start:], "")
		if isLegalSuffix(merged) {
			ws = append(ws[:start:start], merged)
		}
	}
	stripped := false
	for len(ws) > 1 && isLegalSuffix(ws[len(ws)-1]) {
		ws = ws[:len(ws)-1]
		stripped = true
	}
	if stripped && len(ws) > 1 && ws[len(ws)-1] == "and" {
		ws = ws[:len(ws)-1]
	}
	return ws
}

// nameKey is the normalised form of a company name: words without legal suffixes, joined without spaces, so
// that "Northwind Labs, Inc." and "northwindlabs" share one key.
func nameKey(name string) string {
	return truncate(strings.Join(stripLegalSuffixes(words(name)), ""))
}

// personKey is the normalised form of a founder name.
func personKey(name string) string {
	return truncate(strings.Join(words(name), ""))
}

// truncate cuts s to maxKeyRunes runes.
func truncate(s string) string {
	n := 0
	for i := range s {
		if n == maxKeyRunes {
			return s[:i]
		}
		n++
	}
	return s
}

// domainOf returns the registrable domain (eTLD+1, without "www.") of a website or domain-like text and its
// first label normalised like a name ("northwind" for "https://www.northwind.io/about"). ok is false when
// the text names no host of two or more labels whose last label is a public suffix or a word of letters
// (reserved names such as "northwind.example" are websites too).
func domainOf(s string) (domain, label string, ok bool) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return "", "", false
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", "", false
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		return "", "", false
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	if !icann && !strings.Contains(suffix, ".") && !isLetters(suffix) {
		return "", "", false
	}
	domain, err = publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return "", "", false
	}
	label = personKey(strings.TrimSuffix(domain, "."+suffix))
	if label == "" {
		return "", "", false
	}
	return domain, label, true
}

// isLetters reports whether s is a top-level label that is not on the public suffix list but may still
// name a website: two or more ASCII letters, such as the reserved "example" and "test" or a private TLD.
func isLetters(s string) bool {
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// trigram packs three runes into one comparable value.
type trigram uint64

// trigrams returns the distinct trigrams of s padded with two leading blanks and one trailing blank, in
// ascending order, appended to buf.
func trigrams(s string, buf []trigram) []trigram {
	buf = buf[:0]
	a, b := rune(' '), rune(' ')
	add := func(c rune) {
		buf = append(buf, trigram(uint64(a)<<42|uint64(b)<<21|uint64(c)))
		a, b = b, c
	}
	for _, r := range s {
		add(r)
	}
	add(' ')
	slices.Sort(buf)
	return slices.Compact(buf)
}

// dice is the Sørensen-Dice coefficient of two ascending trigram sets.
func dice(a, b []trigram) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	shared, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			shared++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}
