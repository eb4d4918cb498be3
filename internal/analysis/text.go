package analysis

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Placeholders that stand in for the tracked company and its founders in normalised text, so patterns can
// refer to them and a company name such as "Seed Health" cannot trigger a pattern by itself.
const (
	companyToken = "zzco"
	founderToken = "founder"
)

// normalise folds typographic quotes and dashes to ASCII, collapses white space and lowercases.
func normalise(s string) string { return fold(s, true) }

// fold folds typographic quotes and dashes to ASCII and collapses white space, lowercasing when lower is set.
func fold(s string, lower bool) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch r {
		case '\u2018', '\u2019', '\u201b', '\u2032', '`':
			r = '\''
		case '\u201c', '\u201d', '\u201e', '\u2033':
			r = '"'
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			r = '-'
		}
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		if lower {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// markCased returns s folded but with its case kept and the company replaced by its token, when that lines up
// byte for byte with the normalised sentence norm; else "".
func markCased(s string, aliases []string, norm string) string {
	c := fold(s, false)
	for _, a := range aliases {
		c, _ = replaceWordFold(c, a, companyToken)
	}
	if len(c) != len(norm) {
		return ""
	}
	return c
}

// isWordByte reports whether c continues a word for whole-word matching.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// indexWord returns the position of the first whole-word occurrence of word in s, or -1.
func indexWord(s, word string) int {
	if word == "" {
		return -1
	}
	for off := 0; off <= len(s)-len(word); {
		i := strings.Index(s[off:], word)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(word)
		if (i == 0 || !isWordByte(s[i-1]) || !isWordByte(word[0])) &&
			(end == len(s) || !isWordByte(s[end]) || !isWordByte(word[len(word)-1])) {
			return i
		}
		off = i + 1
	}
	return -1
}

// replaceWord replaces every whole-word occurrence of word in s with repl.
func replaceWord(s, word, repl string) string {
	if word == "" {
		return s
	}
	var b strings.Builder
	for {
		i := indexWord(s, word)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s = s[i+len(word):]
	}
}

// containsKeyword reports whether lowercased text holds keyword as whole words, allowing a plural "s" or
// "es" on either side ("layoff" finds "layoffs" and the other way round).
func containsKeyword(text, keyword string) bool {
	k := normalise(keyword)
	if k == "" {
		return false
	}
	forms := []string{k, k + "s", k + "es"}
	if strings.HasSuffix(k, "s") && len(k) > 3 {
		forms = append(forms, strings.TrimSuffix(k, "s"))
	}
	for _, f := range forms {
		if indexWord(text, f) >= 0 {
			return true
		}
	}
	return false
}

// legalSuffixes and descriptive suffixes are dropped from a company name to find shorter mentions of it:
// "Northwind Labs Inc." is also found as "Northwind Labs" and "Northwind".
var (
	legalSuffixRe      = regexp.MustCompile(`(?i)[\s,]+(inc|inc\.|incorporated|ltd|ltd\.|limited|llc|l\.l\.c\.|gmbh|corp|corp\.|corporation|co\.|plc|ag|sa|sas|bv|b\.v\.|oy|ab|srl|pty|pte)$`)
	descriptorSuffixRe = regexp.MustCompile(`(?i)\s+(ai|labs?|technologies|technology|tech|software|systems|robotics|health|bio|hq|app|io|\.io|\.ai|\.com|group|holdings)$`)
)

// companyAliases returns the lowercased ways an item may name the company, longest first.
func companyAliases(company string) []string {
	full := normalise(company)
	if full == "" {
		return nil
	}
	aliases := []string{full}
	short := strings.TrimSpace(legalSuffixRe.ReplaceAllString(strings.TrimSpace(company), ""))
	if n := normalise(short); n != "" && n != full {
		aliases = append(aliases, n)
	}
	shorter := strings.TrimSpace(descriptorSuffixRe.ReplaceAllString(short, ""))
	if n := normalise(shorter); len(n) >= 3 && n != normalise(short) && !isStopWord(n) {
		aliases = append(aliases, n)
	}
	// "Ferrolink Logistics" is also "Ferrolink", unless the first word is an everyday one ("Blue Bottle").
	if words := strings.Fields(normalise(short)); len(words) > 1 && DistinctiveNameWord(words[0]) && !slices.Contains(aliases, words[0]) {
		aliases = append(aliases, words[0])
	}
	return aliases
}

// DistinctiveNameWord reports whether the lowercased first word of a company's name names the company on its
// own ("Ferrolink" of "Ferrolink Logistics"): four letters or more, and not an everyday word ("Blue Bottle").
func DistinctiveNameWord(w string) bool {
	return len(w) >= 4 && !isStopWord(w) && !commonNameWords[w]
}

// commonNameWords start many company names and mean something else on their own.
var commonNameWords = wordSet(`blue green black white gold golden silver first open smart global united american
		national general digital data next future bright clear north south east west central new great little
		real true pure good best prime peak human social mobile cloud urban rural royal public private home
		free fresh happy simple modern planet world city metro grand`)

// founderRef is a founder as items may name them.
type founderRef struct {
	name    string // as given
	full    string // lowercased full name
	surname string // as given, capitalised; matched case-sensitively to avoid words like "Young" or "Long"
}

func founderRefs(founders []string) []founderRef {
	refs := make([]founderRef, 0, len(founders))
	for _, f := range founders {
		f = strings.Join(strings.Fields(f), " ")
		if f == "" {
			continue
		}
		ref := founderRef{name: f, full: normalise(f)}
		if parts := strings.Fields(f); len(parts) > 1 {
			last := parts[len(parts)-1]
			if r, _ := utf8.DecodeRuneInString(last); unicode.IsUpper(r) && utf8.RuneCountInString(last) > 2 {
				ref.surname = last
			}
		}
		refs = append(refs, ref)
	}
	return refs
}

// markFounders replaces mentions of founders in original-case text with the founder placeholder and returns
// the names of those mentioned.
func markFounders(s string, refs []founderRef) (string, []string) {
	var named []string
	for _, ref := range refs {
		var hit bool
		s, hit = replaceWordFold(s, ref.full, founderToken)
		if ref.surname != "" && indexWord(s, ref.surname) >= 0 {
			s = replaceWord(s, ref.surname, founderToken)
			hit = true
		}
		if hit {
			named = append(named, ref.name)
		}
	}
	return s, named
}

// replaceWordFold replaces whole-word occurrences of a lowercased word in s, ignoring case, and reports
// whether there were any.
func replaceWordFold(s, word, repl string) (string, bool) {
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		out := replaceWord(s, word, repl)
		return out, out != s
	}
	var b strings.Builder
	hit := false
	for {
		i := indexWord(lower, word)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s, lower = s[i+len(word):], lower[i+len(word):]
		hit = true
	}
	b.WriteString(s)
	return b.String(), hit
}

// markCompany replaces mentions of the company in lowercased text with the company placeholder.
func markCompany(s string, aliases []string) string {
	for _, a := range aliases {
		s = replaceWord(s, a, companyToken)
	}
	return s
}

// splitSentences cuts text at sentence ends and line breaks, keeping abbreviations, initials and decimal
// numbers intact.
func splitSentences(text string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		if part := strings.TrimSpace(text[start:end]); part != "" {
			out = append(out, part)
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' || c == '\r' {
			emit(i)
			start = i + 1
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\n' && text[i+1] != '"' && text[i+1] != '\t' {
			continue
		}
		if c == '.' && isAbbreviation(text[start:i]) {
			continue
		}
		emit(i + 1)
		start = i + 1
	}
	emit(len(text))
	return out
}

var abbreviations = map[string]bool{
	"inc": true, "ltd": true, "co": true, "corp": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"st": true, "vs": true, "e.g": true, "i.e": true, "etc": true, "jr": true, "sr": true, "no": true,
	"u.s": true, "u.k": true, "approx": true, "est": true, "dept": true, "prof": true,
}

// isAbbreviation reports whether the text before a period ends in an abbreviation or a single initial.
func isAbbreviation(before string) bool {
	i := strings.LastIndexAny(before, " (\t\n")
	word := strings.ToLower(before[i+1:])
	if word == "" {
		return false
	}
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(before[i+1:])
		return unicode.IsUpper(r)
	}
	return abbreviations[word]
}

// nameTokenRe finds runs of two or three capitalised words that may be a person's name.
var nameTokenRe = regexp.MustCompile(`\b[A-Z][a-zA-Z'’-]*[a-z](?:\s+(?:[A-Z]\.\s+)?[A-Z][a-zA-Z'’-]*[a-z]){1,2}\b`)

// notNameWords are capitalised words that start sentences, name places, organisations or things, and so
// never take part in a person's name.
var notNameWords = wordSet(`the a an and or but if when whenever any all our their this that these those
		tell let notify alert please new old san los las santa hong silicon north south east west central united
		european american british german french asian global international national series round seed
		inc ltd llc gmbh corp corporation company capital ventures venture partners partner fund funds labs lab
		group holdings bank university college institute foundation association council ai technologies
		technology tech software systems robotics health bio street avenue road city valley bay area
		monday tuesday wednesday thursday friday saturday sunday january february march april may june july
		august september october november december today yesterday tomorrow chief officer executive ceo cto
		cfo coo vp vice president director head founder cofounder co-founder board chair chairman
		award awards prize forbes fortune techcrunch reuters bloomberg press release news blog report
		announces announced raises raised launches launched acquires acquired joins appoints names hires
		secures closes unveils introduces expands opens partners wins says said about careers team jobs
		privacy policy terms contact home pricing product products platform app apps cloud data api sdk
		read more learn sign log in up get started github linkedin twitter facebook youtube instagram
		google microsoft amazon apple meta nvidia openai stripe salesforce oracle ibm intel europe asia africa
		america australia london berlin paris york francisco angeles boston munich amsterdam dublin madrid
		stockholm copenhagen zurich singapore tokyo toronto austin seattle chicago texas california
		kingdom states germany france spain italy india china japan canada brazil netherlands sweden ireland
		we you he she they it its his her is are was were will has have had be to of in on at for by with
		from as not no`)

// personCueRe finds words that show a capitalised phrase nearby is a person: roles, speech, appointments.
var personCueRe = regexp.MustCompile(`(?i)\b(?:ceo|cto|cfo|coo|cmo|cpo|cro|chief|vp|vice|president|head|director|co-?founders?|cofounders?|founders?|partner|investor|engineer|manager|officer|executive|chair\w*|board|who|joins|joined|said|says|told|writes|wrote|appoint\w*|names|named|hires|hired|welcome\w*|promot\w*|as|mr|ms|mrs|dr|her|his|she|he|former|ex|led by|according to|leaves|left|steps|stepped|resigns|departs|if|when|whether)\b`)

// detectNames returns person-like names in original-case text: runs of capitalised words, which in item text
// must stand close to a word such as "CEO", "founder", "said" or "appoints" (needCue). Title-case headlines
// are skipped because every word is capitalised there.
func detectNames(s string, company []string, needCue bool) []string {
	if isTitleCase(s) {
		return nil
	}
	var names []string
	for _, loc := range nameTokenRe.FindAllStringIndex(s, -1) {
		before := s[max(0, loc[0]-40):loc[0]]
		after := s[loc[1]:min(len(s), loc[1]+40)]
		if needCue && !personCueRe.MatchString(before) && !personCueRe.MatchString(after) {
			continue
		}
		words := strings.Fields(s[loc[0]:loc[1]])
		for len(words) > 0 && notNameWords[strings.ToLower(strings.TrimSuffix(words[0], "'s"))] {
			words = words[1:]
		}
		if len(words) < 2 {
			continue
		}
		ok := true
		for _, w := range words {
			lw := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
			if notNameWords[lw] || lw == companyToken || lw == founderToken {
				ok = false
				break
			}
			for _, a := range company {
				if indexWord(a, lw) >= 0 {
					ok = false
				}
			}
		}
		if ok {
			names = append(names, strings.Join(words, " "))
		}
	}
	return names
}

// isTitleCase reports whether most longer words of s are capitalised, as in many headlines.
func isTitleCase(s string) bool {
	total, upper := 0, 0
	for _, w := range strings.Fields(s) {
		if utf8.RuneCountInString(w) < 4 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		total++
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return total >= 3 && float64(upper) >= 0.7*float64(total)
}

// stopWords are words that carry no topic of their own in an alert rule.
var stopWords = wordSet(`a an the and or but if when whenever while as at by for from in into of on
		onto to with without about above after again against all also am any anyone anything are around be
		been before being below between both can could did do does doing done each either else ever every
		everything few further get gets getting got had has have having he her here hers him his how i i'd
		i'm i've it it's its itself just like me more most my no nor not now only other our ours out over
		own please same she should so some something such than that that's their theirs them then there
		these they they're this those through too under until up us very want wanted was we we'd we're
		were what when where which who whom why will would you your yours etc e.g i.e eg ie via per
		tell notify alert alerts alerted let know knowing inform informed flag flagged watch watching
		track tracking keep eye eyes see show report reports mention mentions mentioned mentioning
		news update updates change changes changed happen happens happening happened related regarding
		concerning especially talk talks talking say says said someone somebody anybody company companies
		company's firm startup business they'll is isn't aren't new latest recent any thing things
		interested care important notable news item items story stories article articles post posts
		may might must need needs shall page pages only major big serious significant critical urgent
		important large material high severity priority moderate medium low`)

// wordSet builds a lookup set from white-space separated words.
func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

func isStopWord(w string) bool {
	return stopWords[strings.ToLower(w)]
}

// truncate shortens s to at most n runes, ending with an ellipsis when cut.
func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := string(r[:n-1])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-") + "…"
}
