package leadfind

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A company's stage comes from the round an item names for it: pre-seed, seed and angel rounds are
// pre_seed_seed, Series A is series_a, Series B and later, growth rounds, a listing or an IPO are
// series_b_plus. When the item names an amount raised but no round, the amount decides: under $5M is
// pre_seed_seed, $5M up to $25M is series_a, $25M or more is series_b_plus, other currencies at rough
// dollar rates.

// Amount thresholds of the stages, in US dollars.
const (
	seriesAFrom     = 5_000_000
	seriesBPlusFrom = 25_000_000
	// minRound is the smallest amount read as money raised; smaller sums are prices and fees.
	minRound = 20_000
)

// amountPattern finds an amount of money in a prepared sentence (lowercase, tokens separated by spaces): a
// currency sign or code, the number, a magnitude, or the number followed by the currency's name or sign
// ("6 M€").
var amountPattern = regexp.MustCompile(`(?:^| )(?:((?:` + currencySigns + `|` + currencyCodes + `) ?)(\d+(?:[.,]\d+)*) ?(` + magnitudeWords + `)?|(\d+(?:[.,]\d+)*) ?(` + magnitudeWords + `)? ?(dollars|euros|pounds|dollar|euro|pound|francs|kronor|crowns|€|£|` + currencyCodes + `))(?: |$)`)

// currencySigns and currencyCodes are the currencies amountPattern reads, as regular expressions.
const (
	currencySigns = `us\$|a\$|c\$|s\$|nz\$|r\$|rd\$|mx\$|nt\$|hk\$|\$|€|£|¥|₹|₩|₦|₱|₫|₺|₪|฿|৳|rs|r|rp|rm|s/`
	currencyCodes = `usd|eur|gbp|chf|sek|nok|dkk|isk|jpy|inr|cad|aud|sgd|brl|ksh|kes|zar|ngn|pln|czk|huf|ron|uah|try|ils|` +
		`mxn|cop|clp|ars|pen|uyu|gtq|bob|crc|pyg|dop|xaf|xof|fcfa|cfa|sar|aed|qar|kwd|bhd|omr|egp|mad|tnd|dzd|etb|rwf|ugx|` +
		`tzs|ghs|zmw|mwk|krw|rmb|cny|yuan|twd|hkd|vnd|idr|php|thb|myr|pkr|lkr|npr|bdt|tk|ush|mga|ariary|` +
		`bgn|gel|rsd|amd|mdl|bam|mkd|zł|kč|ft|lei|leva|lari|hryvnias|hryvnia|drams|₴`
	magnitudeWords = `k|m|mn|mm|mln|mld|million|millions|b|bn|billion|thousand|crore|crores|lakh|lakhs|millones|millón|millon|milhões|milhoes|milhão|milhao|milliard|milliards|mil|mio|mrd`
)

// currencyWords are the currency codes and the letters of signs ("Rs") that a name could be mistaken for.
var currencyWords = wordSet(strings.ReplaceAll(currencyCodes+"|rs|rp|rm", "|", " "))

// dollarRates are rough US dollar values of one unit of a currency.
var dollarRates = map[string]float64{
	"$": 1, "us$": 1, "usd": 1, "dollars": 1, "dollar": 1,
	"a$": 0.65, "aud": 0.65, "c$": 0.73, "cad": 0.73, "s$": 0.75, "sgd": 0.75, "nz$": 0.6,
	"€": 1.1, "eur": 1.1, "euros": 1.1, "euro": 1.1,
	"£": 1.27, "gbp": 1.27, "pounds": 1.27, "pound": 1.27,
	"chf": 1.1, "francs": 1.1,
	"sek": 0.095, "kronor": 0.095, "nok": 0.09, "dkk": 0.15, "crowns": 0.1, "isk": 0.0072,
	"¥": 0.007, "jpy": 0.007, "₹": 0.012, "inr": 0.012, "rs": 0.012,
	"r$": 0.18, "brl": 0.18, "pln": 0.25, "r": 0.055, "zar": 0.055, "ksh": 0.0077, "kes": 0.0077, "ngn": 0.00065, "₦": 0.00065,
	"czk": 0.043, "huf": 0.0027, "ron": 0.22, "uah": 0.024, "try": 0.03, "₺": 0.03, "ils": 0.27, "₪": 0.27,
	"mx$": 0.055, "mxn": 0.055, "cop": 0.00025, "clp": 0.0011, "ars": 0.001, "pen": 0.27, "s/": 0.27, "uyu": 0.025,
	"gtq": 0.13, "bob": 0.145, "crc": 0.002, "pyg": 0.00013, "dop": 0.017, "rd$": 0.017,
	"xaf": 0.0017, "xof": 0.0017, "fcfa": 0.0017, "cfa": 0.0017, "sar": 0.27, "aed": 0.27, "qar": 0.27, "kwd": 3.25,
	"bhd": 2.65, "omr": 2.6, "egp": 0.02, "mad": 0.1, "tnd": 0.32, "dzd": 0.0074, "etb": 0.0085, "rwf": 0.00075,
	"ugx": 0.00027, "tzs": 0.0004, "ghs": 0.065, "zmw": 0.04, "mwk": 0.0006,
	"₩": 0.00073, "krw": 0.00073, "rmb": 0.14, "cny": 0.14, "yuan": 0.14, "nt$": 0.031, "twd": 0.031, "hk$": 0.128,
	"hkd": 0.128, "₫": 0.00004, "vnd": 0.00004, "rp": 0.000063, "idr": 0.000063, "₱": 0.018, "php": 0.018, "฿": 0.028,
	"thb": 0.028, "rm": 0.22, "myr": 0.22, "pkr": 0.0036, "lkr": 0.0033, "npr": 0.0075, "৳": 0.0085, "bdt": 0.0085,
	"tk": 0.0085, "ush": 0.00027, "mga": 0.00022, "ariary": 0.00022,
	"zł": 0.25, "kč": 0.043, "ft": 0.0027, "lei": 0.22, "bgn": 0.55, "leva": 0.55, "gel": 0.37, "lari": 0.37,
	"₴": 0.024, "hryvnias": 0.024, "hryvnia": 0.024, "rsd": 0.0093, "amd": 0.0026, "drams": 0.0026, "mdl": 0.056,
	"bam": 0.56, "mkd": 0.018,
}

// magnitudes multiply the number of an amount.
var magnitudes = map[string]float64{
	"": 1, "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "mm": 1e6, "million": 1e6, "millions": 1e6,
	"mln": 1e6, "mld": 1e9, "b": 1e9, "bn": 1e9, "billion": 1e9, "crore": 1e7, "crores": 1e7, "lakh": 1e5, "lakhs": 1e5,
	"millones": 1e6, "millón": 1e6, "millon": 1e6, "milhões": 1e6, "milhoes": 1e6, "milhão": 1e6, "milhao": 1e6, "milliard": 1e9, "milliards": 1e9, "mil": 1e3, "mio": 1e6, "mrd": 1e9,
}

// dotGroups reports whether num groups its thousands with dots and has no decimals: "500.000", "1.200.000".
func dotGroups(num string) bool {
	parts := strings.Split(num, ".")
	if len(parts) < 2 || strings.Contains(num, ",") {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return false
		}
	}
	return true
}

// dotGrouping reads a number that groups thousands with dots and may have a decimal comma: "6.000,5" is 6000.5.
var dotGrouping = strings.NewReplacer(".", "", ",", ".")

// groupsWithDots are the magnitudes of languages that group thousands with dots: "COP 6.000 millones".
var groupsWithDots = wordSet(`millones millón millon milhões milhoes milhão milhao mil`)

// fundingWords mark a sentence that reports money raised.
var fundingWords = wordSet(`raise raises raised raising round rounds funding financing invest invests invested investing
investment investments backing backed close closes closed closing secure secures secured securing land lands landed
bag bags bagged seed pre-seed preseed capital led fund funds funded investor investors`)

// notRaised are words next to an amount that say it is not money raised: a valuation, revenue, a price.
var notRaised = wordSet(`valuation valued worth revenue revenues arr sales turnover price priced cost costs contract
contracts grant grants order orders salary fine fined penalty loss losses profit budget`)

// amountOf returns the amount, in US dollars, of one match of amountPattern in s, or 0 when it is no sum
// raised.
func amountOf(s string, m []int) float64 {
	cur, num, mag := "", "", ""
	if m[4] >= 0 {
		cur, num = strings.TrimSpace(s[m[2]:m[3]]), s[m[4]:m[5]]
		if m[6] >= 0 {
			mag = s[m[6]:m[7]]
		}
	} else {
		num, cur = s[m[8]:m[9]], s[m[12]:m[13]]
		if m[10] >= 0 {
			mag = s[m[10]:m[11]]
		}
		if mag == "" && cur != "dollars" && cur != "euros" && cur != "pounds" && cur != "€" && cur != "£" {
			return 0
		}
	}
	if groupsWithDots[mag] && strings.Contains(num, ".") || mag == "" && dotGroups(num) {
		// "COP 6.000 millones", "500.000"; not "COP 40,000 millones", grouped the English way
		num = dotGrouping.Replace(num)
	}
	n, ok := parseNumber(num)
	if !ok {
		return 0
	}
	usd := n * magnitudes[mag] * dollarRates[cur]
	if usd < minRound {
		return 0
	}
	return usd
}

// parseNumber reads "2.5", "500,000" or "2,5" (a decimal comma).
func parseNumber(num string) (float64, bool) {
	parts := strings.Split(num, ",")
	if len(parts) > 1 {
		grouped := true
		for _, p := range parts[1:] {
			if len(p) < 3 || len(p) > 3 && p[3] != '.' {
				grouped = false
			}
		}
		if grouped {
			num = strings.Join(parts, "")
		} else if len(parts) == 2 {
			num = parts[0] + "." + parts[1]
		}
	}
	n, err := strconv.ParseFloat(num, 64)
	return n, err == nil
}

// stageOfAmount maps an amount raised, in US dollars, to a stage.
func stageOfAmount(usd float64) string {
	switch {
	case usd <= 0:
		return StageUnknown
	case usd < seriesAFrom:
		return StagePreSeedSeed
	case usd < seriesBPlusFrom:
		return StageSeriesA
	default:
		return StageSeriesBPlus
	}
}

// stageFacts collect what an item says about each company's funding, by normalised company name: the
// most advanced round named and the largest amount raised.
type stageFacts struct {
	rounds  map[string]string
	amounts map[string]float64
	angels  map[string]bool // angel investors named, which count as a round only when no amount is given
}

func newStageFacts() stageFacts {
	return stageFacts{rounds: make(map[string]string), amounts: make(map[string]float64), angels: make(map[string]bool)}
}

// of returns a company's stage: from the rounds named, else from the amount, else from angel investors,
// else unknown.
func (f stageFacts) of(company string) string {
	k := normalizeCompany(company)
	round, amount, angels := StageUnknown, 0.0, false
	for name, r := range f.rounds {
		if sameCompany(name, k) {
			round = laterStage(round, r)
		}
	}
	for name, a := range f.amounts {
		if sameCompany(name, k) {
			amount = max(amount, a)
		}
	}
	for name := range f.angels {
		angels = angels || sameCompany(name, k)
	}
	switch {
	case round != StageUnknown:
		return round
	case amount > 0:
		return stageOfAmount(amount)
	case angels:
		return StagePreSeedSeed
	}
	return StageUnknown
}

// addRound records a round named for company k.
func (f stageFacts) addRound(k, stage string) {
	f.rounds[k] = laterStage(cmp.Or(f.rounds[k], StageUnknown), stage)
}

// addAmount records an amount raised by company k.
func (f stageFacts) addAmount(k string, usd float64) {
	f.amounts[k] = max(f.amounts[k], usd)
}

// looseRound is a round of sentence sent that no company owns by the words around it.
type looseRound struct {
	sent int
	mn   stageMention
}

// looseStage returns the stage of a lead's company from the rounds no company owns: a round of a sentence
// that names the lead's person or company and no other company, nor the tracked one as its subject
// ("Hakeem Williams and Lauren Petrov-Hayes built it on a $1.5M pre-seed"), or that names no one and follows
// such a sentence ("They just closed $8M").
func (sc *itemScan) looseStage(c Candidate) string {
	f := newStageFacts()
	key := normalizeCompany(c.CompanyName)
	for _, r := range sc.loose {
		switch sc.sents[r.sent].namesLead(c, key) {
		case namesLead:
		case namesNone:
			if r.sent == 0 || sc.sents[r.sent-1].namesLead(c, key) != namesLead {
				continue
			}
		default:
			continue
		}
		f.add(key, r.mn)
	}
	return f.of(key)
}

// What a sentence names: a lead's person or company and no other company, nobody, or another company (the
// tracked one only as its subject).
const (
	namesLead = iota
	namesNone
	namesOther
)

// namesLead reports what the sentence names against the lead c, whose company's normalised name is key.
func (s *sentence) namesLead(c Candidate, key string) int {
	lead, other := false, false
	for i, t := range s.toks {
		switch {
		case t.form == "T":
			// "T is being sued by ... before the company's $40 million Series B": the tracked company's.
			other = other || i == 0
		case t.span < 0:
		case t.text == c.PersonName || sameCompany(normalizeCompany(t.text), key):
			lead = true
		case s.isCompanyLike(i) && !s.isPersonAt(i) && !s.describesNext(i) && !isDemonym(t.text) && !notCompanies[strings.ToLower(t.text)]:
			other = true // not "US$" nor "the Guatemalan mobile-wallet company"
		}
	}
	switch {
	case other:
		return namesOther
	case lead:
		return namesLead
	}
	return namesNone
}

// stageMention is a round or an amount found in a sentence.
type stageMention struct {
	at     int // token index
	round  string
	usd    float64
	angels bool // angel investors rather than a round
}

// stageMentions lists the rounds and amounts raised that a sentence names.
func (s *sentence) stageMentions() []stageMention {
	var out []stageMention
	if s.contains(stageWords) {
		for _, f := range stagePattern.FindAllStringSubmatchIndex(s.str, -1) {
			letter := ""
			if f[2] >= 0 {
				letter = strings.ToLower(s.str[f[2]:f[3]])
			}
			mention := strings.ToLower(s.str[f[0]:f[1]])
			at := s.tokenAt(f[0])
			if strings.HasPrefix(mention, "angel") {
				if s.toks[at].span >= 0 {
					continue
				}
				if at+1 < len(s.toks) && strings.HasPrefix(word(s.toks[at+1].form), "investor") {
					out = append(out, stageMention{at: at, angels: true})
					continue
				}
			}
			out = append(out, stageMention{at: at, round: stageOfMention(mention, letter)})
		}
	}
	if !strings.ContainsAny(s.raw, "0123456789") || !s.hasWord(fundingWords) {
		return out
	}
	text, starts := s.lowerText()
	tokenAt := func(off int) int {
		i, found := slices.BinarySearch(starts, off)
		if !found {
			i--
		}
		return i
	}
	for _, f := range amountPattern.FindAllStringSubmatchIndex(text, -1) {
		at := f[0]
		if text[at] == ' ' {
			at++
		}
		i := tokenAt(at)
		if usd := amountOf(text, f); usd > 0 && s.raised(i, tokenAt(f[1]-1)) {
			out = append(out, stageMention{at: i, usd: usd})
		}
	}
	return out
}

// lowerText returns the sentence's tokens as written, lowercased and joined by spaces, with the offset of
// each token: amounts are read there, as "US$25" or "EUR" would be names in the prepared form.
func (s *sentence) lowerText() (string, []int) {
	var b strings.Builder
	starts := make([]int, len(s.toks))
	for i, t := range s.toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		starts[i] = b.Len()
		b.WriteString(strings.ToLower(t.text))
	}
	return b.String(), starts
}

// raised reports whether the amount in tokens [from, to] is money raised: no word around it says it is a
// valuation, revenue or a price, and it is not what something was bought for.
func (s *sentence) raised(from, to int) bool {
	for j := max(0, from-3); j <= min(len(s.toks)-1, to+3); j++ {
		if notRaised[s.toks[j].form] {
			return false
		}
	}
	if from > 0 && s.toks[from-1].form == "for" {
		for _, t := range s.toks {
			if relationCues[t.form] == RelAcquiredFounder {
				return false
			}
		}
	}
	return true
}

// stages attributes the rounds and amounts a sentence names to the companies they are about. A mention
// with no company in its sentence is returned, for the caller to attribute to the company the item was
// last talking about; so is one a founder's post (ownVoice) tells as "we" raising it. A round the tracked
// company raises is no one's here.
func (s *sentence) stages(facts stageFacts, ownVoice bool) (orphans []stageMention) {
	mentions := s.stageMentions()
	if len(mentions) == 0 {
		return nil
	}
	head := s.appositiveHeads()
	raises := s.trackedRaises()
	for _, mn := range mentions {
		owner := s.stageOwner(mn.at, head)
		switch {
		case raises && (owner < 0 || owner > mn.at):
			// "T, which sells scores, has raised Rs 120 crore", "T has raised a Series B round led by Greenline
			// and acquired Varsha Labs": the tracked company's own round.
			continue
		case owner < 0 || ownVoice && owner > mn.at && strings.HasPrefix(s.str, "we"):
			// "We've raised a $3M seed round led by Peachtree Ventures", in a founder's post: the writer's.
			orphans = append(orphans, mn)
			continue
		case s.toks[owner].span < 0:
			continue
		}
		facts.add(normalizeCompany(s.toks[owner].text), mn)
		if subject := s.foundedSubject(owner); subject != "" {
			// "Pandan Finance was co-founded by Darren Lee and Shalini Menon and raised a S$40 million Series
			// B": the founders' round is the company's.
			facts.add(normalizeCompany(subject), mn)
		}
	}
	return orphans
}

// foundedSubject returns the company that opens the sentence when the name at token i is among the people
// the sentence says founded it ("Pandan Finance was co-founded by Darren Lee and ..."), or "".
func (s *sentence) foundedSubject(i int) string {
	subject := s.subjectCompany()
	if subject == "" || s.toks[i].span < 0 || s.toks[i].text == subject {
		return ""
	}
	for k := i - 1; k >= 1; k-- {
		if s.toks[k].form != "by" {
			continue
		}
		// "founded by", "founded in 2019 by"
		for j := k - 1; j >= 1 && j >= k-3; j-- {
			if passiveStarts[s.toks[j].form] {
				return subject
			}
		}
	}
	return ""
}

// add records a mention for company k.
func (f stageFacts) add(k string, mn stageMention) {
	switch {
	case mn.angels:
		f.angels[k] = true
	case mn.round != "":
		f.addRound(k, mn.round)
	default:
		f.addAmount(k, mn.usd)
	}
}

// lastCompany returns the last company the sentence names, as written, "T" for the tracked company, or ""
// when it names none; people (but not a name shaped like a person's without a known given name, "Photonix
// Nord"), names that describe a noun ("a Lisbon start-up"), places and investors ("Acme Ventures", "led by
// Acme") are skipped.
func (s *sentence) lastCompany() string {
	for i := len(s.toks) - 1; i >= 0; i-- {
		t := s.toks[i]
		if t.form == "T" && !s.modifierAt(i) {
			return "T"
		}
		if t.span < 0 || !s.isCompanyAt(i) || s.investorAt(i) || s.placeAt(i) || s.modifierAt(i) || s.adjectiveAt(i) || placeBefore(s, i) || s.notCompanyAt(i) {
			continue
		}
		return t.text
	}
	return ""
}

// modifierAt reports whether the name at token i describes a noun that follows, as in "a Lisbon start-up"
// or "former Northwind engineer".
func (s *sentence) modifierAt(i int) bool {
	for j := i + 1; j < len(s.toks) && j <= i+2; j++ {
		f := s.toks[j].form
		if nounWordSet[f] || strings.HasPrefix(f, rolePrefix) || f == "alum" || f == "alumni" || f == "veteran" {
			return true
		}
		if s.toks[j].span >= 0 || f == "," || f == "'s" {
			return false
		}
	}
	return false
}

// placeAt reports whether the name at token i is a place, as in "Porto-based" or "based in Porto".
func (s *sentence) placeAt(i int) bool {
	if i+1 < len(s.toks) && (s.toks[i+1].form == "based" || s.toks[i+1].form == "headquartered") {
		return true
	}
	return i > 1 && s.toks[i-1].form == "in" && (s.toks[i-2].form == "based" || s.toks[i-2].form == "headquartered")
}

// topicPattern matches a sentence that opens by referring back to a company or its founders: "The company",
// "The Porto-based start-up", "It", "The pair".
var topicPattern = regexp.MustCompile(`^(?:(?:The|This|That) (?:[\w'-]+ ){0,3}?(?:company|start-up|startup|firm|business|venture|spinout|spin-out|spinoff|spin-off|outfit|maker|developer|provider|platform|retailer|brand|lender|insurer|publisher|studio|manufacturer|producer|operator)|The (?:pair|duo|trio|founders|co-founders)|It|Its)\b`)

// nameTopic rewrites a sentence that opens by referring back to a company with the company's name, so
// that "The start-up has raised a seed round" after a sentence about Fieldgrid reads as Fieldgrid's.
func nameTopic(raw, topic string) (string, bool) {
	if topic == "" {
		return "", false
	}
	loc := topicPattern.FindStringIndex(raw)
	if loc == nil {
		return "", false
	}
	rest := raw[loc[1]:]
	if (strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’")) && strings.HasPrefix(raw, "It") {
		return "", false
	}
	name := topic
	if raw[:loc[1]] == "Its" {
		name += "'s"
	}
	return name + rest, true
}

// investorAt reports whether the name at token i reads as an investor.
func (s *sentence) investorAt(i int) bool {
	if s.toks[i].span < 0 {
		return false
	}
	words := s.spans[s.toks[i].span].words
	switch strings.ToLower(words[len(words)-1]) {
	case "ventures", "capital", "partners", "fund", "investments", "vc":
		return true
	}
	if i > 0 {
		switch s.toks[i-1].form {
		case "from", rolePrefix + "investor", rolePrefix + "investors", "backer", "backers", "lender":
			return true // "from Acme", "existing investor Inovo"
		}
	}
	if i > 1 && s.toks[i-1].form == "by" {
		switch s.toks[i-2].form {
		case "led", "co-led", "backed", "funded":
			return true
		}
	}
	return false
}

// hasWord reports whether a token of s, other than a name, is one of set, a role word too ("investors").
func (s *sentence) hasWord(set map[string]bool) bool {
	for _, t := range s.toks {
		if t.span < 0 && set[word(t.form)] {
			return true
		}
	}
	return false
}

// subjectCompany returns the company that opens the sentence as written, or "".
func (s *sentence) subjectCompany() string {
	if len(s.toks) > 1 && s.isCompanyAt(0) && !s.adjectiveAt(0) && !s.modifierAt(0) &&
		!s.notCompanyAt(0) && !s.placeAt(0) {
		return s.toks[0].text
	}
	return ""
}

// opensClause reports whether the name opening the sentence is its subject: a verb or an aside describing
// it follows ("Fieldgrid has raised", "Fieldgrid, the start-up behind ...").
func (s *sentence) opensClause() bool {
	if len(s.toks) < 3 {
		return false
	}
	next := s.toks[1].form
	if next == "," {
		switch s.toks[2].form {
		case "a", "an", "the", "which", "founded", "co-founded":
			return true
		}
		return false
	}
	switch next {
	case "has", "have", "had", "is", "was", "will", "raised", "raises", "closed", "makes", "builds", "sells", "said", "says":
		return true
	}
	return false
}
