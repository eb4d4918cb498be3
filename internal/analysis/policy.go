package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"radar"
)

// concept maps a way of phrasing an alert rule to the signal types it asks for. Keywords are phrases
// specific enough that an item containing one is about the concept even when classified otherwise.
type concept struct {
	re       *regexp.Regexp
	types    []string
	keywords []string
}

var concepts = []concept{
	{regexp.MustCompile(`\b(?:co-?founders?|cofounders?|founders?)\b.*\b(?:leav\w*|left|depart\w*|exit\w*|quit\w*|resign\w*|step\w* (?:down|back)|out|mov\w* on|part\w* ways|oust\w*|fired|retir\w*)\b|\b(?:leav\w*|left|depart\w*|exit\w*|quit\w*|resign\w*|step\w* (?:down|back)|oust\w*|retir\w*)\b.*\b(?:co-?founders?|cofounders?|founders?)\b|\bfounder (?:departures?|exits?|changes?)\b`),
		[]string{radar.TypeFounderDeparture}, []string{"founder departure", "founder steps down", "founder leaves"}},
	{regexp.MustCompile(`\b(?:new (?:company|companies|venture|ventures|startup|startups|start-ups?|business|fund)|stealth|start(?:s|ing)? (?:a |their |his |her )?(?:own |new )?(?:company|startup|venture|business)|spin-?(?:offs?|outs?)|found(?:s|ing)? (?:a |another )|side (?:project|venture)s?)\b`),
		[]string{radar.TypeNewVenture}, []string{"stealth startup", "new venture", "new startup"}},
	{regexp.MustCompile(`\b(?:rais\w*|fund(?:ing|raise|raising|ed|s)?|rounds?|invest(?:ments?|ors?|s|ed|ing)?|financ\w*|series [a-h]|pre-?seed|seed|valuation|capital|backing|money|vc|venture capital)\b`),
		[]string{radar.TypeFunding}, []string{"funding round", "seed round", "financing round"}},
	{regexp.MustCompile(`\b(?:acqui\w*|bought|buys?|buyouts?|merg\w*|exits?|sold|sells?|sale|takeovers?|taken over|ipo|go(?:es|ing)? public|m&a)\b`),
		[]string{radar.TypeAcquisition}, []string{"acquisition", "acquired by", "merger"}},
	{regexp.MustCompile(`\b(?:ceo|cto|cfo|coo|cmo|cpo|cro|ciso|chief|vp|vice president|president|head of|executives?|leadership|management|board|c-level|c-suite)\b`),
		[]string{radar.TypeExecutiveChange}, []string{"new ceo", "new cto", "new cfo", "appoints", "steps down as"}},
	{regexp.MustCompile(`\b(?:hir(?:e|es|ing)|headcount|recruit\w*|job (?:openings|postings|ads)|open (?:roles|positions)|team growth|grow\w* (?:the |their )?team|vacanc\w+|jobs)\b`),
		[]string{radar.TypeTeamGrowth}, []string{"hiring", "headcount", "open roles"}},
	{regexp.MustCompile(`\b(?:lay-?offs?|laid off|lay(?:s|ing)? off|redundanc\w+|job cuts|cuts|downsiz\w+|restructur\w+|clos(?:e|es|ed|ing|ures?) (?:of )?(?:an? |the |their |its |any )?(?:\w+ )?(?:offices?|sites?|stores?|plants?|hubs?)|(?:office|site|store) clos\w+|shut\w*|bankrupt\w*|insolven\w+|wind(?:s|ing)? down|contraction|hiring freeze|furlough\w*)\b`),
		[]string{radar.TypeContraction}, []string{"layoffs", "laid off", "redundancies", "office closure", "shuts down"}},
	{regexp.MustCompile(`\b(?:launch\w*|products?|releas\w*|features?|beta|unveil\w*|ships?|shipping|general availability|new versions?)\b`),
		[]string{radar.TypeProductLaunch}, []string{"launches", "unveils", "general availability"}},
	{regexp.MustCompile(`\b(?:partner\w*|integrat\w*|alliances?|collaborat\w*|joint ventures?|deals? with|customer deals?|contracts?)\b`),
		[]string{radar.TypePartnership}, []string{"partnership", "partners with", "teams up"}},
	{regexp.MustCompile(`\b(?:expan\w*|new markets?|enter\w* (?:new |the )?(?:\w+ )?markets?|new offices?|open\w* (?:an? |new )?(?:\w+ )?offices?|international\w*|abroad|relocat\w*|new countr\w+|new cit(?:y|ies)|new regions?)\b`),
		[]string{radar.TypeExpansion}, []string{"expands to", "expansion", "opens office"}},
	{regexp.MustCompile(`\b(?:lawsuits?|legal|litigation|su(?:e|ed|es|ing)|court|regulat\w*|fines?|fined|investigat\w*|probes?|compliance (?:issues|problems|violations)|gdpr|antitrust|patent\w*|settlements?)\b`),
		[]string{radar.TypeLegal}, []string{"lawsuit", "sued", "investigation", "regulator"}},
	{regexp.MustCompile(`\b(?:awards?|prizes?|rank\w*|lists?|recogni\w+|accolades?|\d+ under \d+)\b`),
		[]string{radar.TypeRecognition}, []string{"award", "ranked"}},
	{regexp.MustCompile(`\b(?:github|open[- ]sourc\w*|repositor\w+|repos?|stars)\b`),
		[]string{radar.TypeOpenSource}, []string{"open source", "open-sources", "github"}},
	{regexp.MustCompile(`\b(?:website|web site|homepage|home page|landing page|web ?pages?)\b`),
		[]string{radar.TypeWebsiteChange}, nil},
}

var (
	everythingRe = regexp.MustCompile(`\b(?:any ?thing|every ?thing|all (?:news|updates|changes|activity|signals|events)|any (?:news|updates?|changes?|activity|signals?|events?))\b`)
	departureRe  = regexp.MustCompile(`\b(?:leav\w*|left|depart\w*|exit\w*|quit\w*|resign\w*|step\w* (?:down|back)|oust\w*|fired|retir\w*|goes|gone|moves on)\b`)
	minSevRe     = []struct {
		re  *regexp.Regexp
		sev string
	}{
		{regexp.MustCompile(`\b(?:critical|urgent|emergenc\w+)\b`), SeverityCritical},
		{regexp.MustCompile(`\b(?:high[- ]severity|high[- ]priority|high[- ]impact|major|serious|significant|big|large|material)\b`), SeverityHigh},
		{regexp.MustCompile(`\b(?:medium[- ]severity|medium[- ]priority|moderate)\b`), SeverityMedium},
	}
	thresholdRe  = regexp.MustCompile(`(?:(more than|over|above|at least|greater than|exceeding|exceeds|bigger than|larger than|upwards of|>=?|≥|minimum(?: of)?|min\.?|less than|under|below|<=?|≤|up to|smaller than)\s*)?(` + moneyFrag + `|\b\d[\d.,]* ?(?:k|m|mm|mn|b|bn|million|billion)\b)(\s*\+|\s+(?:or|and) (?:more|above|higher|up)|\s+plus)?`)
	bulletRe     = regexp.MustCompile(`^(?:[-*•·‣▪–—>]+|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)](?:\s))\s*`)
	quotedRe     = regexp.MustCompile(`"([^"]{2,60})"|“([^”]{2,60})”`)
	wordTokenRe  = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}&+#.'’-]*`)
	rulePrefixRe = regexp.MustCompile(`(?i)^(?:(?:please )?(?:tell|notify|alert|ping|email|e-mail|let) (?:me|us)(?: know)?(?: (?:when|if|whenever|about|of|on))?|(?:i|we) want to (?:know|hear) (?:when|if|about)|(?:watch|look) (?:out )?for|track|flag)\b\s*`)
)

// Compile turns thingsToTrack into a policy: one rule per sentence, line, bullet or ";"-separated clause, in
// order, with ids r1, r2, ... A sentence that names a known topic becomes a typed rule; any other becomes a
// keyword rule on its significant words, so no sentence is ever dropped.
func Compile(thingsToTrack string) Policy {
	p := Policy{Rules: []Rule{}}
	for _, sentence := range splitRules(thingsToTrack) {
		r := compileSentence(sentence)
		r.ID = "r" + strconv.Itoa(len(p.Rules)+1)
		p.Rules = append(p.Rules, r)
	}
	return p
}

// splitRules cuts rule text at line breaks, ";" and sentence ends, and strips bullets and numbering.
func splitRules(text string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' || r == ';' }) {
		line = bulletRe.ReplaceAllString(strings.TrimSpace(line), "")
		for _, part := range splitSentences(line) {
			part = strings.TrimSpace(bulletRe.ReplaceAllString(part, ""))
			part = strings.TrimRight(part, " .!?,")
			if strings.IndexFunc(part, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				out = append(out, part)
			}
		}
	}
	return out
}

// keptSentences keeps the rules of sentences compiled before, at most maxKeptSentences of them (past that it starts
// over). A firm registers many companies with the same rules, its standing ones or a batch import's, and compiling a
// sentence runs some thirty regular expressions over it: a fifth of the CPU of a create.
var keptSentences struct {
	sync.Mutex
	rules map[string]Rule
}

const maxKeptSentences = 1024

// compileSentence compiles one sentence of rules, or copies the rule compiled from the same sentence before.
func compileSentence(sentence string) Rule {
	keptSentences.Lock()
	r, ok := keptSentences.rules[sentence]
	keptSentences.Unlock()
	if !ok {
		r = compileNewSentence(sentence)
		keptSentences.Lock()
		if keptSentences.rules == nil || len(keptSentences.rules) >= maxKeptSentences {
			keptSentences.rules = make(map[string]Rule)
		}
		keptSentences.rules[sentence] = r
		keptSentences.Unlock()
	}
	r.Types, r.Keywords, r.People = slices.Clone(r.Types), slices.Clone(r.Keywords), slices.Clone(r.People)
	return r
}

// compileNewSentence compiles one sentence of rules.
func compileNewSentence(sentence string) Rule {
	r := Rule{Sentence: sentence, Types: []string{}, Keywords: []string{}, People: []string{}}
	s := normalise(sentence)
	r.People = dedupe(detectNames(sentence, nil, false))
	if r.People == nil {
		r.People = []string{}
	}

	var matched []concept
	for _, c := range concepts {
		if c.re.MatchString(s) {
			matched = append(matched, c)
		}
	}
	has := func(t string) bool {
		return slices.ContainsFunc(matched, func(c concept) bool { return slices.Contains(c.types, t) })
	}
	drop := func(t string) {
		matched = slices.DeleteFunc(matched, func(c concept) bool { return slices.Contains(c.types, t) })
	}
	if has(radar.TypeExecutiveChange) {
		drop(radar.TypeTeamGrowth)
	}
	if has(radar.TypeNewVenture) {
		drop(radar.TypeProductLaunch)
	}
	var types, keywords []string
	for _, c := range matched {
		types = append(types, c.types...)
		keywords = append(keywords, c.keywords...)
	}
	if len(r.People) > 0 && departureRe.MatchString(s) {
		types = append(types, radar.TypeFounderDeparture, radar.TypeExecutiveChange)
	}
	significant := significantPhrases(sentence, r.People)
	if len(types) == 0 && len(significant) == 0 && (everythingRe.MatchString(s) || severityWord(s) != "") {
		for _, t := range Types() {
			if t != radar.TypeNoChange {
				types = append(types, t)
			}
		}
	}

	r.MinAmountUSD = minAmount(s)
	r.MinSeverity = severityWord(s)

	if len(types) == 0 {
		r.Kind = KindKeyword
		r.Keywords = significant
		if r.Keywords == nil {
			r.Keywords = []string{}
		}
		return r
	}
	r.Kind = KindTyped
	reachable := SeverityLow
	for _, t := range Types() {
		if slices.Contains(types, t) {
			r.Types = append(r.Types, t)
			if SeverityRank(maxSeverity[t]) > SeverityRank(reachable) {
				reachable = maxSeverity[t]
			}
		}
	}
	r.MinSeverity = capSeverity(r.MinSeverity, reachable)
	if r.MinSeverity == SeverityLow {
		r.MinSeverity = ""
	}
	for _, q := range quotedPhrases(sentence) {
		keywords = append(keywords, q)
	}
	r.Keywords = dedupe(keywords)
	if r.Keywords == nil {
		r.Keywords = []string{}
	}
	return r
}

// severityWord returns the least severity a sentence asks for ("major", "critical"), or "".
func severityWord(s string) string {
	for _, m := range minSevRe {
		if m.re.MatchString(s) {
			return m.sev
		}
	}
	return ""
}

// maxSeverity is the highest severity each type can reach, so a rule never asks for more than its types
// can give ("big partnerships" asks for the most a partnership can be).
var maxSeverity = map[string]string{
	radar.TypeFunding: SeverityHigh, radar.TypeAcquisition: SeverityCritical, radar.TypeExecutiveChange: SeverityHigh,
	radar.TypeFounderDeparture: SeverityHigh, radar.TypeNewVenture: SeverityHigh, radar.TypeTeamGrowth: SeverityMedium,
	radar.TypeContraction: SeverityCritical, radar.TypeProductLaunch: SeverityMedium, radar.TypePartnership: SeverityMedium,
	radar.TypeExpansion: SeverityMedium, radar.TypeLegal: SeverityHigh, radar.TypeRecognition: SeverityLow,
	radar.TypeOpenSource: SeverityLow, radar.TypeWebsiteChange: SeverityLow, radar.TypeOther: SeverityLow,
}

// minAmount reads a money threshold: the first amount in the sentence that is not an upper bound.
func minAmount(s string) float64 {
	for _, m := range thresholdRe.FindAllStringSubmatch(s, -1) {
		switch m[1] {
		case "less than", "under", "below", "<", "<=", "≤", "up to", "smaller than":
			continue
		}
		spans := findMoney(m[2], true)
		if len(spans) == 0 {
			continue
		}
		return spans[0].money.USD
	}
	return 0
}

// quotedPhrases returns phrases the rule quotes, which are always looked for literally.
func quotedPhrases(sentence string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(sentence, -1) {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" {
				out = append(out, g)
			}
		}
	}
	return out
}

// significantPhrases returns the words of a sentence worth looking for, in their original spelling: quoted
// phrases as they are, runs of adjacent non-stop words joined when a number or acronym needs its neighbour
// ("SOC 2", "ISO 27001"), and each other word on its own. Names already taken as people are left out.
func significantPhrases(sentence string, people []string) []string {
	out := quotedPhrases(sentence)
	rest := quotedRe.ReplaceAllString(sentence, " ")
	rest = rulePrefixRe.ReplaceAllString(strings.TrimSpace(rest), "")
	for _, p := range people {
		rest = strings.ReplaceAll(rest, p, " | ")
	}
	for _, loc := range wordTokenRe.FindAllStringIndex(rest, -1) {
		w := strings.TrimRight(rest[loc[0]:loc[1]], ".'’-")
		switch {
		case w == "" || isStopWord(w):
			continue
		case needsNeighbour(w) && loc[0] > 0 && rest[loc[0]-1] == ' ' && len(out) > 0 && strings.HasSuffix(rest[:loc[0]-1], lastWord(out[len(out)-1])):
			out[len(out)-1] += " " + w
		case utf8.RuneCountInString(w) > 1:
			out = append(out, w)
		}
	}
	return dedupe(out)
}

func lastWord(phrase string) string {
	f := strings.Fields(phrase)
	return f[len(f)-1]
}

// needsNeighbour reports whether a token means little alone: a number or a single character.
func needsNeighbour(w string) bool {
	if utf8.RuneCountInString(w) < 2 {
		return true
	}
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
