package leadfind

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// nicknamePattern finds a nickname quoted inside a person's name: Enrique "Iking" Dantes, Gilbert 'Bert' Abrenica.
var nicknamePattern = regexp.MustCompile(`(\p{Lu}[\p{L}.'’-]*) (?:"|“|')\p{Lu}[\p{L}'’-]*(?:"|”|') (\p{Lu})`)

// dropNicknames writes names without the nicknames quoted inside them, as a person's name is given in full.
func dropNicknames(text string) string {
	if !strings.ContainsAny(text, "\"“'") {
		return text
	}
	return nicknamePattern.ReplaceAllString(text, "$1 $2")
}

// splitSentences cuts text into sentences at line breaks and at sentence-ending punctuation, leaving
// initials ("J. Doe"), honorifics and decimals intact.
func splitSentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(line) {
				r, size := utf8.DecodeRuneInString(line[j:])
				if !strings.ContainsRune(`"')]’”`, r) {
					break
				}
				j += size
			}
			if j < len(line) && line[j] != ' ' && line[j] != '\t' {
				continue
			}
			if c == '.' && !endsSentence(line[start:i], line[j:]) {
				continue
			}
			out = appendSentence(out, line[start:j])
			start = j
		}
		out = appendSentence(out, line[start:])
	}
	return out
}

// maxSentence bounds the length of a sentence in bytes; longer runs of text without a full stop, such as
// lists or navigation text of a page, are cut at spaces so the work per sentence stays small.
const maxSentence = 600

// appendSentence appends s with its whitespace collapsed, in pieces of at most maxSentence bytes.
func appendSentence(out []string, s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	for len(s) > maxSentence {
		cut := strings.LastIndexByte(s[:maxSentence], ' ')
		if cut <= 0 {
			cut = maxSentence
			for !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		out = append(out, s[:cut])
		s = strings.TrimSpace(s[cut:])
	}
	if s == "" {
		return out
	}
	return append(out, s)
}

// endsSentence reports whether a period after before, followed by after, ends a sentence.
func endsSentence(before, after string) bool {
	word := before[strings.LastIndexAny(before, " \t")+1:]
	if word == "" {
		return true
	}
	if utf8.RuneCountInString(word) == 1 && isUpperStart(word) {
		// "a Series A. Brightloom's founders": a round's letter, unlike an initial, ends the sentence.
		rest := strings.TrimRight(before[:len(before)-len(word)], " \t")
		return strings.HasSuffix(strings.ToLower(rest), "series")
	}
	if strings.Contains(word, ".") {
		_, domain := siteOf(word)
		return domain && (strings.TrimSpace(after) == "" || isUpperStart(strings.TrimLeft(after, ` "'“‘(`)))
	}
	lower := strings.ToLower(word)
	if !abbreviations[lower] {
		return true
	}
	if !legalSuffixes[lower] {
		return false
	}
	next := strings.Fields(after)
	if len(next) == 0 {
		return false
	}
	w := strings.Trim(next[0], `"'“‘`)
	return isUpperStart(w) && stopWords[strings.ToLower(w)] // "Acme Inc. The company", not "Acme Co. in 2019"
}

// isUpperStart reports whether s begins with an upper-case letter.
func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// rawToken is one word or punctuation mark of a sentence as written.
type rawToken struct {
	text   string
	punct  bool
	hyphen bool // written joined to the word before by a hyphen ("Bath-based", "ex-Northwind")
}

// punctuation rewrites dashes as commas and drops double quotes; strings.Replacer is safe to share.
var punctuation = strings.NewReplacer("—", " , ", "–", " , ", " - ", " , ", "“", " ", "”", " ", `"`, " ", "’", "'", "‘", "'")

// tokenize splits a sentence into words and the punctuation the patterns read; quotes are dropped,
// dashes become commas, possessives and "ex-"/"-backed" compounds are split off.
func tokenize(sentence string) []rawToken {
	s := punctuation.Replace(sentence)
	var out []rawToken
	for _, chunk := range strings.Fields(s) {
		out = appendChunk(out, chunk)
	}
	return out
}

// appendChunk appends the tokens of one whitespace-separated chunk, peeling off brackets and punctuation.
func appendChunk(out []rawToken, chunk string) []rawToken {
	for chunk != "" {
		c := chunk[0]
		if c == '(' || c == '[' || c == '{' {
			out = append(out, rawToken{text: "(", punct: true})
		} else if c != '\'' {
			break
		}
		chunk = chunk[1:]
	}
	var tail []rawToken
trim:
	for chunk != "" {
		last := chunk[len(chunk)-1]
		switch {
		case last == ')' || last == ']' || last == '}':
			tail = append(tail, rawToken{text: ")", punct: true})
		case last == ',' || last == ';' || last == ':':
			tail = append(tail, rawToken{text: string(last), punct: true})
		case last == '\'' && len(tail) == 0 && len(chunk) > 2 && chunk[len(chunk)-2] == 's' && isUpperStart(chunk):
			// "Enerjik Labs' Nilüfer Şen": the possessive of a name ending in s.
			tail = append(tail, rawToken{text: "'s", punct: true})
		case last == '!' || last == '?' || last == '\'':
		case last == '.' && !keepsPeriod(chunk):
		default:
			break trim
		}
		chunk = chunk[:len(chunk)-1]
	}
	if chunk != "" {
		out = appendWord(out, chunk)
	}
	for i := len(tail) - 1; i >= 0; i-- {
		out = append(out, tail[i])
	}
	return out
}

// describedBy reports whether the part of a compound after its hyphen is a participle describing the name
// before it: "Fermenta-monitored beans", "Solar-powered".
func describedBy(suffix string) bool {
	return len(suffix) >= 5 && strings.HasSuffix(suffix, "ed") && isLetters(suffix)
}

// keepsPeriod reports whether the final period of w belongs to it, as in initials and abbreviations.
func keepsPeriod(w string) bool {
	body := w[:len(w)-1]
	if abbreviations[strings.ToLower(body)] {
		return true
	}
	for part := range strings.SplitSeq(body, ".") {
		if utf8.RuneCountInString(part) != 1 {
			return false
		}
	}
	return true
}

// appendWord appends a word, splitting off a possessive, an "ex-" prefix, a "-backed" style suffix or
// slash-separated parts ("CEO/co-founder").
func appendWord(out []rawToken, w string) []rawToken {
	if strings.Contains(w, "://") || strings.Contains(w, "@") {
		return append(out, rawToken{text: w})
	}
	if strings.HasSuffix(w, "'s") && len(w) > 2 {
		return append(appendWord(out, w[:len(w)-2]), rawToken{text: "'s", punct: true})
	}
	lower := strings.ToLower(w)
	if lower == "w/" {
		return append(out, rawToken{text: w})
	}
	for _, prefix := range []string{"ex-", "post-"} {
		if n := len(prefix); strings.HasPrefix(lower, prefix) && len(w) > n && isUpperStart(w[n:]) {
			out = appendWord(append(out, rawToken{text: w[:n-1]}), w[n:])
			out[len(out)-1].hyphen = true
			return out
		}
	}
	if i := strings.LastIndexByte(w, '-'); i > 0 && isUpperStart(w) && (compoundSuffixes[lower[i+1:]] || describedBy(w[i+1:])) {
		return append(appendWord(out, w[:i]), rawToken{text: w[i+1:], hyphen: true})
	}
	if strings.Contains(w, "/") && !strings.Contains(w, ".") {
		for i, part := range strings.Split(w, "/") {
			if i > 0 {
				out = append(out, rawToken{text: "/", punct: true})
			}
			if part != "" {
				out = append(out, rawToken{text: part})
			}
		}
		return out
	}
	return append(out, rawToken{text: w})
}

// matcher recognises mentions of the tracked company and its founders.
type matcher struct {
	names    [][]string // folded words of each accepted spelling of the tracked company
	normName string
	founders map[string]bool
	// display and founderNames are the tracked company's name and founders as given.
	display      string
	founderNames []string
	capital      bool // the name is written with a capital, so a lowercase word ("linear") is not a mention
	// ownVoice is set while reading an item the tracked company wrote itself, where "we", "us" and "our"
	// are the company.
	ownVoice bool
}

// ownItem reports whether the tracked company wrote the item: it is on the company's own site, whose host
// names the company as a handle would ("pinewood.example" for Pinewood Analytics), in a repository of its
// account on a code host, or a post of the company's account ("Brightpath Freight on LinkedIn").
func (m *matcher) ownItem(it Item) bool {
	if author, _, ok := strings.Cut(it.Title, " on "); ok && normalizeCompany(author) == m.normName {
		return true
	}
	u, err := url.Parse(it.URL)
	if err != nil || u.Hostname() == "" {
		return false
	}
	label, _, _ := strings.Cut(strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."), ".")
	if label == "github" || label == "gitlab" || label == "codeberg" {
		// A code host names the company by the account the repository belongs to: github.com/voltaic-grid/gridsim.
		label, _, _ = strings.Cut(strings.TrimPrefix(strings.ToLower(u.Path), "/"), "/")
	}
	label = strings.ReplaceAll(label, "-", "")
	for _, name := range m.names {
		joined := strings.Join(name, "")
		if len(joined) >= 5 && (label == joined || strings.HasPrefix(label, joined) && len(label)-len(joined) <= 4) {
			return true
		}
	}
	return false
}

// ownWords are the words with which a company's own posts name it.
var ownWords = wordSet(`we us our ours we're we've we'll we'd`)

// newMatcher accepts the tracked company by its full name and, when that ends in a generic word such as
// "Labs", by the name without it.
func newMatcher(company string, founders []string) *matcher {
	m := &matcher{normName: normalizeCompany(company), founders: make(map[string]bool), founderNames: founders,
		display: strings.TrimSpace(company), capital: isUpperStart(strings.TrimSpace(company))}
	full := strings.Fields(m.normName)
	if len(full) > 0 {
		m.names = append(m.names, full)
	}
	// Without its company words, longest first: "Helvetia Grid" and "Helvetia" for Helvetia Grid Systems.
	core := full
	for len(core) > 1 && companyWords[core[len(core)-1]] {
		core = core[:len(core)-1]
		if len(strings.Join(core, "")) >= 4 {
			m.names = append(m.names, core)
		}
	}
	if len(full) > 1 && len(core) > 1 && len(full[0]) >= 5 && !stopWords[full[0]] {
		m.names = append(m.names, full[:1])
	}
	if last := full[len(full)-1]; len(full) > 2 && companyWords[last] && !companyWords[full[0]] && !stopWords[full[0]] {
		m.names = append(m.names, []string{full[0], last}) // "Kiln Studio" for Kiln Ceramics Studio
	}
	for _, f := range founders {
		if n := normalizePerson(f); n != "" {
			m.founders[n] = true
		}
	}
	return m
}

// trackedAt returns how many tokens from i spell the tracked company, with any legal suffix, or 0.
func (m *matcher) trackedAt(toks []rawToken, i int) int {
	for _, name := range m.names {
		if m.capital && !isUpperStart(toks[i].text) {
			continue
		}
		if len(name) > 1 && !toks[i].punct && strings.ContainsAny(toks[i].text, ".-") && fold(toks[i].text) == strings.Join(name, " ") {
			return 1 // "Tindahan.ai" written as one word
		}
		if i+len(name) > len(toks) {
			continue
		}
		ok, n := true, 0
		for _, w := range name {
			for i+n < len(toks) && n > 0 && toks[i+n].text == "&" {
				n++
			}
			if i+n >= len(toks) || toks[i+n].punct || fold(toks[i+n].text) != w {
				ok = false
				break
			}
			n++
		}
		if !ok {
			continue
		}
		for i+n < len(toks) && !toks[i+n].punct && isUpperStart(toks[i+n].text) && foldedSuffixes[fold(toks[i+n].text)] {
			n++
		}
		if next := i + n; next < len(toks) && isNameWord(toks[next].text) && !deptWords[strings.ToLower(toks[next].text)] &&
			!productNouns[strings.ToLower(toks[next].text)] {
			continue // "Northwind Capital" is another company; "the Northwind API" is the company's
		}
		return n
	}
	return 0
}

// isNameWord reports whether w, written this way, can be part of a name.
func isNameWord(w string) bool {
	if !isUpperStart(w) {
		return false
	}
	lower := strings.ToLower(strings.TrimSuffix(w, "."))
	return !stopWords[lower] && !roleWords[lower] && utf8.RuneCountInString(lower) > 1 || isInitial(w)
}

// isInitial reports whether w is an initial such as "J." or "J.R.".
func isInitial(w string) bool {
	if len(w) < 2 || !strings.HasSuffix(w, ".") {
		return false
	}
	for part := range strings.SplitSeq(strings.TrimSuffix(w, "."), ".") {
		if utf8.RuneCountInString(part) != 1 || !isUpperStart(part) {
			return false
		}
	}
	return true
}

// rolePrefix marks the form of a role word, so that one short expression matches every role.
const rolePrefix = "~"

// word returns a token form without its role mark.
func word(form string) string {
	return strings.TrimPrefix(form, rolePrefix)
}

// token is one unit of a sentence as the patterns see it: a lowercase word, a punctuation mark, "T" for
// the tracked company or "N<i>" for a run of capitalised words.
type token struct {
	form   string
	text   string
	span   int
	hyphen bool // written joined to the token before by a hyphen
}

// span is a run of capitalised words that may name a person or a company.
type span struct {
	key        string // normalizeCompany(text), once asked for
	pkey       string // normalizePerson(text), once asked for
	text       string
	words      []string
	person     bool
	place      bool // a country, region or city (places)
	companyish bool
	expanded   bool // a short name written out in full from elsewhere in the item
}

// sentence is one sentence of an item prepared for the patterns.
type sentence struct {
	head   []int // appositiveHeads, once computed
	left   int8  // 0 not known, 1 no, 2 yes: the sentence says someone left
	raw    string
	toks   []token
	spans  []span
	str    string
	starts []int
}

// prepare tokenises a sentence, replaces mentions of the tracked company with "T" and runs of capitalised
// words with placeholders, and builds the text the patterns read.
func (m *matcher) prepare(raw string) *sentence {
	rt := tokenize(raw)
	tracked := make([]int, len(rt))
	for i := 0; i < len(rt); {
		n := m.trackedAt(rt, i)
		if n == 0 {
			i++
			continue
		}
		tracked[i] = n
		for k := i + 1; k < i+n; k++ {
			tracked[k] = -1
		}
		i += n
	}
	cls, role := classify(rt, tracked)
	s := &sentence{raw: raw}
	for i := 0; i < len(rt); {
		if n := tracked[i]; n > 0 {
			var parts []string
			for _, t := range rt[i : i+n] {
				parts = append(parts, t.text)
			}
			s.toks = append(s.toks, token{form: "T", text: strings.Join(parts, " "), span: -1, hyphen: rt[i].hyphen})
			i += n
			continue
		}
		if m.ownVoice && !rt[i].punct && ownWords[strings.ToLower(rt[i].text)] {
			s.toks = append(s.toks, token{form: "T", text: rt[i].text, span: -1})
			i++
			continue
		}
		if cls[i] != nameWord && !(cls[i] == initialWord && startsName(cls, tracked, i)) {
			form := strings.ToLower(rt[i].text)
			if !rt[i].punct {
				form = strings.TrimSuffix(form, ".")
			}
			if role[i] {
				form = rolePrefix + form
			}
			s.toks = append(s.toks, token{form: form, text: rt[i].text, span: -1, hyphen: rt[i].hyphen})
			i++
			continue
		}
		j := i + 1
		for j < len(rt) && tracked[j] == 0 {
			if cls[j] == nameWord || cls[j] == initialWord {
				j++
				continue
			}
			if j == i+1 && ampersandName(rt, cls, tracked, i) {
				// "Pixel & Pine", "Scoop & Churn": one name, where neither side is a person's.
				j += 2
				continue
			}
			if cls[j] == particleWord {
				// "van der Berg", "Ó Briain": particles join the name that follows them.
				k := j
				for k < len(rt) && cls[k] == particleWord && tracked[k] == 0 {
					k++
				}
				if k < len(rt) && cls[k] == nameWord && tracked[k] == 0 {
					j = k + 1
					continue
				}
			}
			break
		}
		j = i + repeatedName(rt[i:j], i > 0 && strings.EqualFold(rt[i-1].text, "about"))
		var ws []string
		for _, t := range rt[i:j] {
			ws = append(ws, t.text)
		}
		s.toks = append(s.toks, token{form: "N" + strconv.Itoa(len(s.spans)), text: strings.Join(ws, " "), span: len(s.spans), hyphen: rt[i].hyphen})
		s.spans = append(s.spans, newSpan(ws))
		i = j
	}
	var b strings.Builder
	for i, t := range s.toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		s.starts = append(s.starts, b.Len())
		b.WriteString(t.form)
	}
	s.str = b.String()
	return s
}

// singleNames marks as people the names of one word that the item gives as a founder's: a tracked founder
// known by one name ("Sutrisno"), a name right after a founder's title ("co-founder Nadya"), or one listed
// with a person's full name next to such a title ("their co-founders Dimas Prasetyo and Yohana"). Many people
// in Indonesia go by one name; elsewhere a word alone is mostly a company, or a person named again by a part of
// the full name the item gives, which stays as it is.
func (m *matcher) singleNames(sents []*sentence) {
	parts := make(map[string]bool)
	for _, f := range m.founderNames {
		if words := strings.Fields(f); len(words) > 1 {
			for _, w := range words {
				parts[strings.ToLower(w)] = true
			}
		}
	}
	for _, s := range sents {
		for _, sp := range s.spans {
			if sp.person && len(sp.words) > 1 {
				for _, w := range sp.words {
					parts[strings.ToLower(w)] = true
				}
			}
		}
	}
	for _, s := range sents {
		for i, t := range s.toks {
			if t.span < 0 {
				continue
			}
			sp := &s.spans[t.span]
			if len(sp.words) != 1 || sp.person || sp.place || sp.companyish || !oneName(sp.text) {
				continue
			}
			if m.founders[normalizePerson(sp.text)] || !parts[strings.ToLower(sp.text)] && (s.founderTitleBefore(i) || s.listedWithPerson(i)) {
				sp.person = true
			}
		}
	}
}

// oneName reports whether w is shaped like a given name: a capital, then three or more lowercase letters.
func oneName(w string) bool {
	n := 0
	for i, r := range w {
		switch {
		case i == 0 && !unicode.IsUpper(r), i > 0 && !unicode.IsLower(r):
			return false
		}
		n++
	}
	return n >= 4 && !stopWords[strings.ToLower(w)]
}

// founderTitleBefore reports whether a founder's title, written in lowercase as in running text rather than a
// heading's capitals, stands right before token i: "co-founder Nadya".
func (s *sentence) founderTitleBefore(i int) bool {
	return i > 0 && founderTitles[s.toks[i-1].form] && !isUpperStart(s.toks[i-1].text)
}

// founderTitles are the forms of a founder's title, as prepare marks them.
var founderTitles = wordSet(rolePrefix + "founder " + rolePrefix + "co-founder " + rolePrefix + "cofounder " +
	rolePrefix + "founders " + rolePrefix + "co-founders " + rolePrefix + "cofounders")

// listedWithPerson reports whether the name at token i and a person's full name are joined by "and" right
// after a founder's title: "co-founders Dimas Prasetyo and Yohana".
func (s *sentence) listedWithPerson(i int) bool {
	switch {
	case i >= 3 && s.toks[i-1].form == "and" && s.isPersonSpan(i-2):
		return s.founderTitleBefore(i - 2)
	case i+2 < len(s.toks) && s.toks[i+1].form == "and" && s.isPersonSpan(i+2):
		return s.founderTitleBefore(i)
	}
	return false
}

// endsInDigit reports whether w ends with a digit, as the number before a magnitude does.
func endsInDigit(w string) bool {
	return w != "" && w[len(w)-1] >= '0' && w[len(w)-1] <= '9'
}

// isPersonSpan reports whether token i is a name of two words or more shaped like a person's.
func (s *sentence) isPersonSpan(i int) bool {
	t := s.toks[i]
	return t.span >= 0 && s.spans[t.span].person && len(s.spans[t.span].words) > 1
}

// repeatedName returns how many words of a run of capitalised words make its first name: the whole run,
// or where the run starts to say its first words again, as a heading run into its text does ("About
// Floodline Labs Floodline Labs builds ..."). A word said twice is a name of its own ("Tuk Tuk Studio",
// "Haru Haru") unless the run follows "About" (about: "About Hjemly Hjemly was founded ...").
func repeatedName(run []rawToken, about bool) int {
	from := 2
	if about {
		from = 1
	}
	for k := from; 2*k <= len(run); k++ {
		same := true
		for m := range k {
			if run[m].text != run[k+m].text {
				same = false
				break
			}
		}
		if same {
			return k
		}
	}
	return len(run)
}

// ampersandName reports whether the one-word name at token i goes on with "&" and one more word, or a
// name ending in a company word, that together name one company, as "Pixel & Pine" or "Scoop & Churn
// Creamery" do, but not "Grace & Maeve Gallagher" or "Alice Hart & Ben Ainsworth".
func ampersandName(rt []rawToken, cls []wordClass, tracked []int, i int) bool {
	j := i + 1
	if j+1 >= len(rt) || rt[j].text != "&" || cls[j+1] != nameWord || tracked[j+1] != 0 || cls[i] != nameWord {
		return false
	}
	k := j + 2
	for k < len(rt) && cls[k] == nameWord && tracked[k] == 0 {
		k++
	}
	last := strings.ToLower(strings.TrimSuffix(rt[k-1].text, "."))
	if companyWords[last] || legalSuffixes[last] || last == "sons" || last == "daughters" {
		return true // "Rose & Co", "Smith & Sons", "Scoop & Churn Creamery"
	}
	if firstNames[fold(strings.ToLower(rt[i].text))] || firstNames[fold(strings.ToLower(rt[j+1].text))] {
		return false
	}
	return k == j+2
}

// startsName reports whether the initials from token i lead into a name, as in "J. R. Smith".
func startsName(cls []wordClass, tracked []int, i int) bool {
	for i < len(cls) && cls[i] == initialWord && tracked[i] == 0 {
		i++
	}
	return i < len(cls) && cls[i] == nameWord && tracked[i] == 0
}

// tokenAt returns the index of the token starting at or containing byte offset off of s.str.
func (s *sentence) tokenAt(off int) int {
	lo, hi := 0, len(s.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

type wordClass int

const (
	plainWord wordClass = iota
	nameWord
	initialWord
	particleWord
)

// compoundRole reports whether a hyphenated word joins role words, as in "founder-CEO" or
// "co-founder-CTO".
func compoundRole(lower string) bool {
	parts := strings.Split(strings.ReplaceAll(lower, "co-", "co"), "-")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !roleWords[p] {
			return false
		}
	}
	return true
}

// classify decides for each token whether it can be part of a name, and which tokens are role words:
// the words of roleWords and department words next to a role ("VP Product", "Head of AI", "Chief
// Technology Officer"). tracked marks the tokens that spell the tracked company.
func classify(rt []rawToken, tracked []int) ([]wordClass, []bool) {
	cls := make([]wordClass, len(rt))
	role := make([]bool, len(rt))
	for i, t := range rt {
		lower := strings.ToLower(t.text)
		role[i] = roleWords[lower] || compoundRole(lower)
		switch {
		case t.punct || tracked[i] != 0:
		case isInitial(t.text):
			cls[i] = initialWord
		case particles[lower] && !isUpperStart(t.text):
			cls[i] = particleWord
		case i > 0 && cls[i-1] == nameWord && utf8.RuneCountInString(t.text) == 1 && isUpperStart(t.text) && t.text != "A" && t.text != "I" &&
			i+1 < len(rt) && isNameWord(rt[i+1].text):
			cls[i] = particleWord // "Tadhg Ó Briain"
		case isNameWord(t.text) || isMixedCase(t.text) || i > 0 && cls[i-1] == nameWord && particleCompound(t.text):
			cls[i] = nameWord
		case i > 0 && givenNames[lower] && isUpperStart(t.text) && i+1 < len(rt) && isNameWord(rt[i+1].text) && !isUpperStart(rt[i-1].text):
			cls[i] = nameWord
		}
		if cls[i] == nameWord && currencyWords[strings.TrimSuffix(lower, ".")] && i+1 < len(rt) && rt[i+1].text != "" && rt[i+1].text[0] >= '0' && rt[i+1].text[0] <= '9' {
			cls[i] = plainWord // "NPR 20 crore", "Rs. 30 crore": a currency, read with its amount
		}
		if cls[i] == nameWord && magnitudes[strings.TrimSuffix(lower, ".")] > 1 && i > 0 && endsInDigit(rt[i-1].text) {
			cls[i] = plainWord // "CHF 3 Mio": a magnitude, read with its amount
		}
	}
	isRole := func(i int) bool { return i >= 0 && i < len(rt) && role[i] }
	for changed := true; changed; {
		changed = false
		for i, t := range rt {
			if role[i] || tracked[i] != 0 || !deptWords[strings.ToLower(t.text)] {
				continue
			}
			joiner := i > 0 && (strings.EqualFold(rt[i-1].text, "of") || rt[i-1].text == "&" || strings.EqualFold(rt[i-1].text, "and"))
			afterName := i > 0 && tracked[i-1] == 0 && cls[i-1] == nameWord
			headOf := strings.EqualFold(t.text, "head") && i+1 < len(rt) && strings.EqualFold(rt[i+1].text, "of")
			// "engineering lead": "lead" after a department is a role.
			deptLead := strings.EqualFold(t.text, "lead") && i > 0 && !afterName && deptWords[strings.ToLower(rt[i-1].text)]
			if isRole(i-1) || joiner && isRole(i-2) || !afterName && isRole(i+1) || headOf || deptLead {
				role[i] = true
				cls[i] = plainWord
				changed = true
			}
		}
	}
	// "Head of Merchant Operations at ...": the capitalised words after "Head of" name a department.
	for i := 2; i < len(rt); i++ {
		if !strings.EqualFold(rt[i-1].text, "of") || !strings.EqualFold(rt[i-2].text, "head") {
			continue
		}
		for k := i; k < len(rt) && tracked[k] == 0 && cls[k] == nameWord && !rt[k].punct; k++ {
			if k+1 < len(rt) && rt[k+1].text == "'s" {
				break // "Head of Acme's design team"
			}
			cls[k], role[k] = plainWord, true
		}
	}
	if !titleCase(rt) {
		nameNext := func(i int) bool { return i+1 < len(rt) && cls[i+1] == nameWord && tracked[i+1] == 0 }
		for i := 1; i < len(rt); i++ {
			lower := strings.ToLower(rt[i].text)
			if cls[i] != plainWord || rt[i].punct || tracked[i] != 0 || !isUpperStart(rt[i].text) || !stopWords[lower] ||
				honorifics[lower] || nameVerbs[lower] || pronouns[lower] || strings.ContainsAny(lower, "'’") {
				continue
			}
			switch {
			case len(lower) == 2 && rt[i].text != strings.ToUpper(rt[i].text) && nameNext(i) && !joinWords[lower] && rt[i-1].text != ":":
				// "Do Hyun-woo", "Do Thi Lan Anh": a surname that is also a word, before a given name.
				cls[i] = nameWord
			case cls[i-1] == nameWord && tracked[i-1] == 0 && (!joinWords[lower] || nameTails[lower] || nameNext(i)):
				// "Dengta News", "Pennine Growth Partners", "Hawala Next", "Luong The Vinh": a capitalised
				// word after a name in running text goes on with it.
				cls[i] = nameWord
			}
		}
	}
	if len(rt) > 2 && cls[0] == nameWord && cls[1] == nameWord && cls[2] == nameWord {
		lower := strings.ToLower(rt[0].text)
		if len(lower) > 4 && (strings.HasSuffix(lower, "ly") || strings.HasSuffix(lower, "ing")) {
			cls[0] = plainWord
		}
	}
	return cls, role
}

// nameTails are the words of joinWords that end a name when written with a capital after it in running
// text: "Hamza Said". honorifics and nameVerbs never go on with a name: "CEO Dr. Katrin Wolf", "About
// Sagaflik Founded in 2019".
var (
	nameTails = wordSet(`an said`)
	// pronouns never go on with a name: "With Dr. Hubert Malinowski I'm founding".
	pronouns   = wordSet(`i we he she it they you`)
	honorifics = wordSet(`mr mrs ms dr prof sir dame`)
	nameVerbs  = wordSet(`launches launch launched starts started founds founded co-founds co-founded cofounded builds built unveils unveiled debuts debuted creates created joins joined leaves left raises raised acquires acquired buys bought`)
)

// particleCompound reports whether w is a surname joined to a lowercase particle, as "al-Farsi",
// "el-Sayed" or "d'Souza" are.
func particleCompound(w string) bool {
	for _, p := range []string{"al-", "el-", "ad-", "as-", "ash-", "at-", "bin-", "ben-", "abu-", "d'", "d’", "l'", "l’"} {
		if rest, ok := strings.CutPrefix(w, p); ok {
			return isUpperStart(rest) && utf8.RuneCountInString(rest) > 1
		}
	}
	return false
}

// isMixedCase reports whether w is a brand written with an inner capital, such as "iRobot".
func isMixedCase(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsLower(r) || strings.ContainsAny(w, "-'") || len(w) < 3 {
		return false
	}
	return strings.IndexFunc(w[size:], unicode.IsUpper) >= 0
}

// newSpan describes a run of capitalised words.
func newSpan(words []string) span {
	sp := span{text: strings.Join(words, " "), words: words}
	last := strings.ToLower(strings.TrimSuffix(words[len(words)-1], "."))
	sp.companyish = companyWords[last] || legalSuffixes[last]
	sp.place = places[strings.ToLower(sp.text)] || len(words) > 1 && (placeHeads[strings.ToLower(words[0])] || placeTails[strings.ToLower(words[len(words)-1])] ||
		directions[strings.ToLower(words[0])] && places[strings.ToLower(strings.Join(words[1:], " "))]) // "East Java"
	sp.person = !sp.place && looksLikePerson(words)
	return sp
}

// placeHeads begin the names of lakes, mountains, gulfs, towns and storms, placeTails end those of towns and
// regions: "Lake Kivu", "Mount Kenya", "Ciudad del Este", "Cyclone Gita", "Hsinchu County", "Culver City",
// "Homa Bay"; a direction before a place names part of it: "East Java", "Northern Thailand".
var (
	placeHeads = wordSet(`lake mount mt gulf isle ciudad colonia cyclone typhoon hurricane`)
	placeTails = wordSet(`county province prefecture governorate municipality district city village parkway greenway avenue boulevard
bay coast peninsula highlands`)
	directions = wordSet(`north south east west northern southern eastern western central upper lower greater`)
)

// looksLikePerson reports whether words can be a person's name: two to four parts of which at most three
// are full words, ending in a full word, with no company word, acronym or digit.
func looksLikePerson(words []string) bool {
	if len(words) > 2 && generational[strings.ToLower(strings.TrimSuffix(words[len(words)-1], "."))] {
		words = words[:len(words)-1] // "Reginald Banks Jr.", "Michael O'Brien III"
	}
	if len(words) == 0 {
		return false
	}
	full, total := 0, 0
	for i, w := range words {
		lower := strings.ToLower(w)
		switch {
		case particles[lower] && !isUpperStart(w):
			continue
		case isInitial(w) || i == 0 && w == "Ma.": // "Ma. Theresa Lim": Maria, shortened
			if i == len(words)-1 {
				return false
			}
			total++
			continue
		}
		if companyWords[lower] || legalSuffixes[strings.TrimSuffix(lower, ".")] || !isUpperStart(w) && !particleCompound(w) || describingCompound(w) {
			return false
		}
		letters, upper := 0, 0
		for _, r := range w {
			switch {
			case unicode.IsDigit(r) || r == '.' || r == '&':
				return false
			case unicode.IsLetter(r):
				letters++
				if unicode.IsUpper(r) {
					upper++
				}
			}
		}
		if letters > 1 && upper == letters {
			return false
		}
		full++
		total++
	}
	if last := strings.ToLower(words[len(words)-1]); companySuffix(last) {
		return false
	}
	// Four full words make a name that starts with a given name or has a Vietnamese middle name: "Ana María
	// Zuluaga Henao", "Nguyen Thi Kim Oanh".
	four := full == 4 && total == 4 && (firstNames[strings.ToLower(fold(words[0]))] || firstNames[strings.ToLower(fold(words[1]))] ||
		vietMiddle[strings.ToLower(fold(words[1]))])
	return full >= 1 && (full <= 3 || four) && total >= 2 && total <= 4
}

// generational are the suffixes that may end a person's name.
var generational = wordSet(`jr sr ii iii iv`)

// vietMiddle are the middle names that mark a Vietnamese person's name.
var vietMiddle = wordSet(`thi van`)

// companySuffix reports whether a word ends the way names of companies end ("Microsystems", "Genomics",
// "Dataworks").
func companySuffix(w string) bool {
	for _, suffix := range []string{"systems", "works", "ware", "tech", "soft", "labs", "logic", "metrics", "onics", "omics", "ytics", "ostics", "matics", "ology", "ologies"} {
		if strings.HasSuffix(w, suffix) {
			return true
		}
	}
	return false
}

// describingCompound reports whether w is a capitalised compound with a describing word after the hyphen,
// such as "Pix-native" or "Travel-tech", which is no part of a person's name (unlike "Hyun-woo").
func describingCompound(w string) bool {
	i := strings.LastIndexByte(w, '-')
	if i < 0 || len(w)-i-1 < 4 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w[i+1:])
	after := w[i+1:]
	return unicode.IsLower(r) && (!nameSyllable.MatchString(after) && !closedSyllable.MatchString(after) || after == "free" || after == "long")
}

// koreanGiven reports whether w is a hyphenated given name of romanised syllables, as "Hyun-woo" or "Ji-eun".
func koreanGiven(w string) bool {
	i := strings.IndexByte(w, '-')
	if i <= 0 || strings.Count(w, "-") != 1 {
		return false
	}
	after := strings.ToLower(w[i+1:])
	return nameSyllable.MatchString(after) || closedSyllable.MatchString(after)
}

// closedSyllable matches a Korean given name's syllable that closes on k or l, as in "Gi-seok", "Ha-neul" or
// "Chang-cheol" (the vowels Korean romanisation writes, which English words after a hyphen do not end in), or
// a Wade-Giles one closing on h, as in "Shih-chieh" or "Hsieh".
var closedSyllable = regexp.MustCompile(`^(?:(?:ch|kk|tt|pp|ss|jj|[bdghjkmnprstw])?(?:y?eo|eu|ae|oe|ui|y?[aeiou])[kl]|(?:ch|hs|sh)(?:ie|i)h)$`)

// nameSyllable matches one romanised syllable of a given name written after a hyphen, as in "Seung-hoon",
// "Tae-yang", "Yu-ting" or "Jae-hyun": a few consonants, one run of vowels and at most a closing n, ng or m.
// English words after a hyphen ("-native", "-tech", "-based", "-led") are longer or end otherwise; "-free"
// and "-long" are the two that look like syllables.
var nameSyllable = regexp.MustCompile(`^(?:[bcdfghjklmnpqrstwxyz]{0,3}[aeiouy]{1,3}(?:n|ng|m)?)$`)

// givenNames are given names that are also common words ("Can Öztürk"); written with a capital in the
// middle of a sentence and followed by a name, they start a person's name.
var givenNames = wordSet(`can will may june april august grace hope joy`)

// nameKey returns the normalised company name of the token at i.
func (s *sentence) nameKey(i int) string {
	if t := s.toks[i]; t.span >= 0 {
		return s.spans[t.span].companyKey()
	}
	return normalizeCompany(s.toks[i].text)
}

// joinWords are capitalised words that stand between two names without being part of either, as in
// "Cobaltine And Lithos" in a headline.
var joinWords = wordSet(`a an the and or of for in on at by to with from via vs as is are was were has have had will says said`)

// titleCase reports whether a sentence is written as a headline: most of its words that make no name
// capitalised, or, when it has none, most of its words.
func titleCase(rt []rawToken) bool {
	words, upper, stops, upperStops := 0, 0, 0, 0
	for i, t := range rt {
		if t.punct {
			continue
		}
		words++
		up := isUpperStart(t.text)
		if up {
			upper++
		}
		if i > 0 && stopWords[strings.ToLower(t.text)] {
			stops++
			if up {
				upperStops++
			}
		}
	}
	if stops > 0 {
		// The words no name is made of tell: "Liu co-founded Riverbank Press with former reporter Chou Wan-ting"
		// has many names, but its verbs and prepositions are written small.
		return upperStops*2 > stops
	}
	return words > 0 && upper*2 > words
}

// companyKey returns the span's text normalised as a company name.
func (sp *span) companyKey() string {
	if sp.key == "" {
		sp.key = normalizeCompany(sp.text)
	}
	return sp.key
}

// personKey returns the span's text normalised as a person's name.
func (sp *span) personKey() string {
	if sp.pkey == "" {
		sp.pkey = normalizePerson(sp.text)
	}
	return sp.pkey
}
