package leadfind

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// legalSuffixes are company-form words dropped when comparing company names.
var legalSuffixes = map[string]bool{
	"inc": true, "incorporated": true, "ltd": true, "limited": true, "llc": true, "llp": true, "lp": true,
	"gmbh": true, "ag": true, "ug": true, "kg": true, "corp": true, "corporation": true, "co": true,
	"plc": true, "sa": true, "sas": true, "sarl": true, "srl": true, "spa": true, "bv": true, "nv": true,
	"oy": true, "oyj": true, "ab": true, "as": true, "asa": true, "aps": true, "pty": true, "pte": true,
	"kk": true, "se": true, "sl": true, "oü": true, "ehf": true, "hf": true, "uab": true, "sia": true, "kft": true,
	"zrt": true, "doo": true, "sro": true,
}

// foldedSuffixes are legalSuffixes as fold writes them ("OÜ" as "ou"), for names compared folded; the
// unfolded set stays for reading names as written, where "Ou" is also a family name.
var foldedSuffixes = func() map[string]bool {
	m := make(map[string]bool, len(legalSuffixes))
	for w := range legalSuffixes {
		m[fold(w)] = true
	}
	return m
}()

// personAffixes are honorifics and generational suffixes dropped when comparing person names.
var personAffixes = map[string]bool{
	"dr": true, "mr": true, "mrs": true, "ms": true, "prof": true, "sir": true, "dame": true,
	"jr": true, "sr": true, "ii": true, "iii": true, "iv": true, "phd": true, "captain": true, "capt": true, "ibu": true, "bu": true, "pak": true, "bapak": true,
}

// NormalizeKey returns the dedupe key of a lead: the normalised person name and the normalised company
// name joined by "|", so that spelling variants of the same person and company compare equal.
func NormalizeKey(person, company string) string {
	return normalizePerson(person) + "|" + normalizeCompany(company)
}

// fold lowercases s, strips accents and turns every run of non-alphanumeric characters other than
// apostrophes into one space; apostrophes are removed so "O'Neil" and "ONeil" agree.
func fold(s string) string {
	plain := s
	if !isASCII(s) {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if out, _, err := transform.String(t, s); err == nil {
			plain = out
		}
	}
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(plain) {
		switch {
		case r == '\'' || r == '’' || r == '‘':
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

// isASCII reports whether s has only ASCII characters and so needs no accent folding.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// normalizePerson folds a person's name and drops honorifics and suffixes such as "Dr" and "Jr".
func normalizePerson(name string) string {
	words := strings.Fields(fold(name))
	out := words[:0]
	for _, w := range words {
		if !personAffixes[w] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// normalizeCompany folds a company name and drops a leading "the" and trailing legal forms (Inc, GmbH).
func normalizeCompany(name string) string {
	words := strings.Fields(fold(name))
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	for len(words) > 1 {
		if foldedSuffixes[words[len(words)-1]] {
			words = words[:len(words)-1]
			continue
		}
		// A suffix written with periods folds to single letters: "S.r.l.", "S.A.", "B.V.".
		n := 0
		for k := 1; k < len(words) && len(words[len(words)-k]) == 1; k++ {
			if k >= 2 && foldedSuffixes[strings.Join(words[len(words)-k:], "")] {
				n = k
				break
			}
		}
		if n == 0 {
			break
		}
		words = words[:len(words)-n]
	}
	return strings.Join(words, " ")
}

// Stages of a company's funding, from least to most advanced.
const (
	StageUnknown     = "unknown"
	StagePreSeedSeed = "pre_seed_seed"
	StageSeriesA     = "series_a"
	StageSeriesBPlus = "series_b_plus"
)

var stageRank = map[string]int{StageUnknown: 0, StagePreSeedSeed: 1, StageSeriesA: 2, StageSeriesBPlus: 3}

// laterStage returns the more advanced of two stages.
func laterStage(a, b string) string {
	if stageRank[b] > stageRank[a] {
		return b
	}
	return a
}

var stagePattern = regexp.MustCompile(`(?i)\b(?:pre[- ]?seed|seed|angels?|(?:series|s[ée]rie)[ -]+([a-k])(?:-?\d)?|growth[- ](?:round|stage|equity|funding|capital|investment)|late[- ]stage|ipo|initial public offering|(?:goes|went|going|gone) public|(?:took|take|takes|taken|taking) (?:the company|it) public|(?:stock[- ]market|stock[- ]exchange|public|direct) listing|listed on (?:the|nasdaq|nyse))\b`)

// StageOf maps funding text to a stage: the most advanced round it names (pre-seed, seed and angel rounds
// are pre_seed_seed, Series A is series_a, Series B and later, growth rounds, listings and IPOs are
// series_b_plus), else the largest amount it says was raised (under $5M pre_seed_seed, under $25M series_a,
// more series_b_plus), else unknown.
func StageOf(text string) string {
	facts := newStageFacts()
	for _, raw := range splitSentences(text) {
		s := (&matcher{}).prepare(raw)
		for _, mn := range s.stageMentions() {
			facts.add("", mn)
		}
	}
	return facts.of("")
}

// stageOfMention maps one funding mention found by stagePattern, with its series letter if any, to a stage.
func stageOfMention(mention, seriesLetter string) string {
	switch {
	case seriesLetter == "a":
		return StageSeriesA
	case seriesLetter != "":
		return StageSeriesBPlus
	case strings.Contains(mention, "seed") || strings.HasPrefix(mention, "angel"):
		return StagePreSeedSeed
	default:
		return StageSeriesBPlus
	}
}
