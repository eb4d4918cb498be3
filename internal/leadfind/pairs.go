package leadfind

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// The patterns decide alone only where they are sure. Every person and company an item names near each
// other is also a pair the pair model (pairmodel.txt) weighs: the words around and between them, what the
// sentence says of the tracked company, and whether a pattern tied the two. A pair the patterns tied is
// kept unless the model finds it unlikely; a pair they did not tie is taken when the model finds it likely
// enough and the item ties its company to the tracked one, or when the model is surer still
// (pairThresholds, judgeWith).

// pair is a person and a company one item names near each other.
type pair struct {
	person, company string // the company by the longest name the item gives it
	written         string // the company as the pair's sentence writes it ("Halden" for Halden Microsystems)
	sent            int    // the person's sentence
	ptok            int    // the person's token in their sentence
	ctok            int    // the company's token in the person's sentence, or -1 when it stands elsewhere
	csent           int    // the company's sentence
	rule            int    // index of the lead the patterns found for this pair in their output, or -1
	vetoed          bool   // the sentence says the company was sold, invests, or seats the person on a board
	tied            bool   // the item ties the company to the tracked one: a deal the patterns read, or a sentence naming both
	features        []string
}

// pairWindow is how many tokens apart a person and a company of one sentence may stand to make a pair.
const pairWindow = 30

// nearOrder are the sentences, before and after a person's, whose companies pair with them, nearest first.
var nearOrder = []int{-1, 1, -2, 2}

// isPersonAt reports whether token i is a name that reads as a person's.
func (s *sentence) isPersonAt(i int) bool {
	t := s.toks[i]
	return t.span >= 0 && s.spans[t.span].person
}

// isCompanyAt reports whether token i is a name that may be a company's: not a place or the tracked
// company, and not a person's unless it is shaped like one without a known given name ("Lipa Ledger",
// "Mbegu Bora") or the words around it treat it as a company ("Marta Ruiz, a Bilbao start-up").
func (s *sentence) isCompanyAt(i int) bool {
	t := s.toks[i]
	if t.span < 0 {
		return false
	}
	sp := &s.spans[t.span]
	return !sp.place && (!sp.person || !firstNames[strings.ToLower(sp.words[0])] || s.companyContext(i))
}

// pairs returns the pairs of an item: each person with each company of their sentence within pairWindow
// tokens, the companies of the sentences of nearOrder, and the company their sentence may refer to as "the
// company"; rules are the leads the patterns found, each made a pair of its own where no sentence pairs its
// person and company.
func (sc *itemScan) pairs(rules []Candidate) []pair {
	var out []pair
	index := make(map[string]int)
	add := func(p pair) {
		key := NormalizeKey(p.person, p.company)
		if _, ok := index[key]; ok {
			return
		}
		if normalizeCompany(p.company) == sc.m.normName || sameCompany(normalizeCompany(p.person), normalizeCompany(p.company)) {
			return
		}
		p.rule = -1
		p.written = p.company
		if long, ok := sc.full[normalizeCompany(p.company)]; ok {
			// "Halden, co-founded by Ruben Castillo" after "Halden Microsystems": one company, the pair of the
			// first sentence that pairs them.
			p.company = long
			key = NormalizeKey(p.person, long)
			if _, ok := index[key]; ok {
				return
			}
		}
		index[key] = len(out)
		out = append(out, p)
	}
	for si, s := range sc.sents {
		for i := range s.toks {
			if !s.isPersonAt(i) {
				continue
			}
			for j := max(0, i-pairWindow); j < min(len(s.toks), i+pairWindow+1); j++ {
				if j != i && s.isCompanyAt(j) {
					add(pair{person: s.toks[i].text, company: s.toks[j].text, sent: si, ptok: i, ctok: j, csent: si})
				}
			}
			// The nearest sentence naming the company makes the pair, the one before first.
			for _, d := range nearOrder {
				sj := si + d
				if sj < 0 || sj >= len(sc.sents) {
					continue
				}
				o := sc.sents[sj]
				for j := range o.toks {
					if o.isCompanyAt(j) {
						add(pair{person: s.toks[i].text, company: o.toks[j].text, sent: si, ptok: i, ctok: -1, csent: sj})
					}
				}
			}
			if topic := sc.topics[si]; topic != "" {
				add(pair{person: s.toks[i].text, company: topic, sent: si, ptok: i, ctok: -1, csent: -1})
			}
		}
	}
	for ri, c := range rules {
		i, ok := index[c.Key]
		if !ok {
			i = len(out)
			index[c.Key] = i
			out = append(out, pair{person: c.PersonName, company: c.CompanyName, written: c.CompanyName, sent: -1, ptok: -1, ctok: -1, csent: -1})
		}
		out[i].rule = ri
	}
	sc.item = sc.itemContext()
	companies := make(map[string]*companyFacts)
	for i := range out {
		p := &out[i]
		key := normalizeCompany(p.written)
		c, ok := companies[key]
		if !ok {
			c = sc.companyFacts(p.written, key, rules)
			companies[key] = c
		}
		p.tied = c.tied
		if p.sent >= 0 {
			s := sc.sents[p.sent]
			p.vetoed = sc.acquirers[normalizeCompany(p.company)] || p.ctok >= 0 && (s.soldAfter(p.ctok) || s.investorAt(p.ctok) || s.followedByBoard(p.ctok+1) || s.trackedLaunch(p.ctok)) ||
				s.roundLeader(p.ptok) || s.trackedBoard() || s.beforeTracked()
		}
		p.features = crossed(sc.pairFeatures(p, c, rules))
	}
	return out
}

// crossFeatures are the features whose pairs the model also reads together: what the patterns found, the
// deal, and what the item says against a tie.
var crossFeatures = wordSet(`rule:cofounder_in_news rule:departed_to_found rule:acquired_founder rule:partner_founder
rule:portfolio_founder rule:spinout_founder norule venture c:denied c:rumour c:rival c:customer c:disclaimed c:meeting
c:item:denied c:item:rumour p:founder p:ruled c:ruled post topic s:tracked c:title p:title c:site c:personshape`)

// crossed appends to fs every pair of its crossFeatures, joined by "&".
func crossed(fs []string) []string {
	var keys []string
	for _, f := range fs {
		if crossFeatures[f] || strings.HasPrefix(f, "deal:") {
			keys = append(keys, f)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	for i, a := range keys {
		for _, b := range keys[i+1:] {
			if tieFeature(a) && tieFeature(b) {
				fs = append(fs, "x:"+a+"&"+b) // the tie part reads it too
			} else {
				fs = append(fs, "xf:"+a+"&"+b)
			}
		}
	}
	return fs
}

// companyFacts is what an item says of one company, the same for every pair it is in.
type companyFacts struct {
	tied     bool     // the item ties it to the tracked company
	ruled    bool     // the patterns found a lead of it
	features []string // the pair model's features of the company
}

// companyFacts reads what the item says of the company named name (normalised: key).
func (sc *itemScan) companyFacts(name, key string, rules []Candidate) *companyFacts {
	c := &companyFacts{}
	long := key
	if l, ok := sc.full[key]; ok {
		long = normalizeCompany(l)
	}
	if rel := cmp.Or(sc.rels[key], sc.rels[long]); rel != "" {
		c.features = append(c.features, "deal:"+rel)
		c.tied = true
	}
	if sc.newVenture[key] || sc.newVenture[long] {
		c.features = append(c.features, "venture")
		c.tied = true
	}
	for _, r := range rules {
		if sameCompany(normalizeCompany(r.CompanyName), key) {
			c.ruled = true
			c.tied = true
			break
		}
	}
	c.tied = c.tied || sc.tiedVenture(key, nil)
	c.features = append(c.features, sc.companyContext(name)...)
	c.features = append(c.features, sc.item...)
	if sc.named[key] != "" || websiteOf(name, sc.m, sc.sites) != "" {
		c.features = append(c.features, "c:site")
	}
	if strings.Contains(sc.title, name) {
		c.features = append(c.features, "c:title")
	}
	c.features = append(c.features, "c:count:"+countBucket(strings.Count(sc.text, name)))
	words := strings.Fields(name)
	c.features = append(c.features, "c:words:"+strconv.Itoa(min(len(words), 3)))
	if len(words) == 1 {
		c.features = append(c.features, "c:one:"+strings.ToLower(words[0]))
	}
	if last := strings.ToLower(words[len(words)-1]); companyWords[last] || legalSuffixes[last] {
		c.features = append(c.features, "c:suffix")
	}
	if looksLikePerson(words) {
		c.features = append(c.features, "c:personshape")
	}
	// Where the item first names the company: "in Khartoum" names a place, "Khartoum-based" a company's
	// home.
	if si, i, ok := sc.firstMention(name); ok {
		c.features = appendContext(c.features, sc.sents[si], i, "cm")
	}
	return c
}

// pairFeatures returns what the model reads of a pair whose company is c.
func (sc *itemScan) pairFeatures(p *pair, c *companyFacts, rules []Candidate) []string {
	fs := append([]string{"bias"}, c.features...)
	pkey := normalizePerson(p.person)
	if p.rule >= 0 {
		fs = append(fs, "rule", "rule:"+rules[p.rule].Relation)
	} else {
		fs = append(fs, "norule")
		if c.ruled {
			fs = append(fs, "c:ruled")
		}
		for _, r := range rules {
			if normalizePerson(r.PersonName) == pkey {
				fs = append(fs, "p:ruled")
				break
			}
		}
	}
	tie := ""
	if c.tied {
		tie = "tie"
	}
	if sc.m.founders[pkey] {
		rel := "none"
		if p.rule >= 0 {
			rel = rules[p.rule].Relation
		}
		fs = append(fs, "p:founder", "p:founder:"+rel)
	}
	if strings.Contains(sc.title, p.person) {
		fs = append(fs, "p:title")
	}
	fs = append(fs, "p:count:"+countBucket(strings.Count(sc.text, p.person)))
	pw := strings.Fields(p.person)
	if firstNames[strings.ToLower(pw[0])] {
		fs = append(fs, "p:given")
	}
	fs = append(fs, "p:words:"+strconv.Itoa(min(len(pw), 4)))
	if sc.firstPerson {
		fs = append(fs, "post")
	}
	if p.sent < 0 {
		if si, i, ok := sc.firstMention(p.person); ok {
			fs = appendContext(fs, sc.sents[si], i, "pm")
		}
		return append(fs, "far")
	}
	s := sc.sents[p.sent]
	cue := "cue" + strconv.Itoa(s.founderCue(p.ptok))
	if s.roleNear(p.ptok) != "" {
		fs = append(fs, "p:role:"+tie)
	}
	where := "other"
	switch p.written {
	case sc.companyBefore(p.sent, p.ptok):
		where = "before"
	case sc.companyAfter(p.sent, p.ptok):
		where = "after"
	}
	fs = append(fs, "c:"+where, "fx:"+cue+"&"+tie+"&"+where)
	if s.hasTracked() {
		fs = append(fs, "s:tracked")
	} else if p.sent > 0 && sc.sents[p.sent-1].hasTracked() {
		fs = append(fs, "s:trackedbefore")
	}
	for k := range s.toks {
		if k != p.ptok && k != p.ctok && s.toks[k].span < 0 {
			fs = append(fs, "sw:"+s.pairForm(k))
		}
	}
	switch {
	case p.ctok >= 0:
		return sc.sameSentence(fs, p)
	case p.csent < 0:
		fs = append(fs, "topic")
		return appendContext(fs, s, p.ptok, "t:p")
	}
	kind := "n" + strconv.Itoa(p.csent-p.sent)
	fs = append(fs, kind)
	fs = appendContext(fs, s, p.ptok, kind+":p")
	o := sc.sents[p.csent]
	for j := range o.toks {
		if o.toks[j].text == p.written {
			fs = appendContext(fs, o, j, kind+":c")
			if j == 0 {
				fs = append(fs, kind+":c:subject")
			}
			break
		}
	}
	return fs
}

// sameSentence adds the features of a pair named in one sentence: the words between them and around each.
func (sc *itemScan) sameSentence(fs []string, p *pair) []string {
	s := sc.sents[p.sent]
	a, b := p.ptok, p.ctok
	order := "pc"
	if b < a {
		a, b = b, a
		order = "cp"
	}
	fs = append(fs, "order:"+order, "dist:"+order+":"+distBucket(b-a))
	nearest := true
	for k := max(0, p.ptok-(b-a)+1); k < min(len(s.toks), p.ptok+(b-a)); k++ {
		if k != p.ctok && s.isCompanyAt(k) {
			nearest = false
		}
	}
	if nearest {
		fs = append(fs, "nearest")
	}
	var prev string
	for k := a + 1; k < b; k++ {
		w := s.pairForm(k)
		fs = append(fs, "btw:"+w)
		if k == a+1 {
			fs = append(fs, "btw1:"+order+":"+w)
		}
		if k == b-1 {
			fs = append(fs, "btwN:"+order+":"+w)
		}
		if prev != "" {
			fs = append(fs, "btw2:"+prev+"_"+w)
		}
		prev = w
	}
	fs = appendContext(fs, s, p.ptok, "s:p")
	return appendContext(fs, s, p.ctok, "s:c")
}

// companyContext returns what the sentences naming company say of it that unties it from the tracked
// company: a rival, a customer, a panel, a denial.
func (sc *itemScan) companyContext(company string) []string {
	var out []string
	for _, s := range sc.sents {
		if !strings.Contains(s.raw, company) {
			continue
		}
		if s.hasWord(rivalWords) {
			out = append(out, "c:rival")
		}
		if s.hasWord(customerWords) {
			out = append(out, "c:customer")
		}
		if s.hasWord(meetingWords) {
			out = append(out, "c:meeting")
		}
		if s.disclaimsTie() {
			out = append(out, "c:disclaimed")
		}
		if s.deniesDeal() {
			out = append(out, "c:denied")
		}
		if s.hasWord(rumourWords) {
			out = append(out, "c:rumour")
		}
	}
	return out
}

// itemContext returns what the item says of the tracked company's deals as a whole: that it denies one, or
// that one is a rumour.
func (sc *itemScan) itemContext() []string {
	var out []string
	denied, rumour := false, false
	for _, s := range sc.sents {
		if !s.hasTracked() {
			continue
		}
		denied = denied || s.deniesDeal()
		rumour = rumour || s.hasWord(rumourWords)
	}
	if denied {
		out = append(out, "c:item:denied")
	}
	if rumour {
		out = append(out, "c:item:rumour")
	}
	return out
}

// denyVerbs and dealNouns read a denial: "denies it is buying", "no partnership with", "nothing to do with".
var (
	denyVerbs = wordSet(`deny denies denied denying denial dismissed dismisses rejects rejected`)
	dealNouns = wordSet(`deal deals partnership partnerships agreement agreements plans plan relationship relationships
talks ties tie link links connection involvement stake investment affiliation contract`)
)

// deniesDeal reports whether the sentence denies a deal: a verb of denial, "no" or "not" before a deal word
// ("no partnership", "not in talks"), or "nothing to do with".
func (s *sentence) deniesDeal() bool {
	for i, t := range s.toks {
		if t.span >= 0 {
			continue
		}
		switch {
		case denyVerbs[t.form]:
			return true
		case t.form == "nothing" && i+2 < len(s.toks) && s.toks[i+1].form == "to" && s.toks[i+2].form == "do":
			return true
		case t.form == "no" || t.form == "not" || t.form == "never":
			for k := i + 1; k < min(len(s.toks), i+4); k++ {
				if dealNouns[s.toks[k].form] {
					return true
				}
			}
		}
	}
	return false
}

// rumourWords mark a deal told as a rumour.
var rumourWords = wordSet(`reportedly rumour rumours rumor rumors rumoured rumored speculation speculated familiar
eyeing considering exploring mulling unconfirmed`)

// launchVerbs, before a name, say it is a product: "T launched Atlas".
var launchVerbs = wordSet(`launch launches launched launching unveil unveils unveiled release releases released introduce
introduces introduced ship ships shipped debut debuts debuted`)

// trackedLaunch reports whether the name at token i is a product the tracked company launches: "Northwind
// launched Atlas, a new analytics product".
func (s *sentence) trackedLaunch(i int) bool {
	for j := i - 1; j >= 1 && j >= i-3; j-- {
		if launchVerbs[s.toks[j].form] {
			return s.toks[j-1].form == "T" || j >= 2 && s.toks[j-2].form == "T"
		}
	}
	return false
}

// trackedBoard reports whether the sentence tells of the tracked company's board: "joins Northwind's board".
func (s *sentence) trackedBoard() bool {
	for j, t := range s.toks {
		if t.form == "T" && s.followedByBoard(j+1) {
			return true
		}
	}
	return false
}

// firstMention returns the sentence and token where the item first writes name as one name.
func (sc *itemScan) firstMention(name string) (si, i int, ok bool) {
	for si, s := range sc.sents {
		for i, t := range s.toks {
			if t.span >= 0 && t.text == name {
				return si, i, true
			}
		}
	}
	return 0, 0, false
}

// companyBefore returns the last company named before the person at token i of sentence si, looking back
// over two sentences at most, or "".
func (sc *itemScan) companyBefore(si, i int) string {
	for sj := si; sj >= 0 && sj >= si-2; sj-- {
		s := sc.sents[sj]
		from := len(s.toks) - 1
		if sj == si {
			from = i - 1
		}
		for k := from; k >= 0; k-- {
			if s.isCompanyAt(k) {
				return s.toks[k].text
			}
		}
	}
	return ""
}

// companyAfter returns the first company named after the person at token i of sentence si, or "".
func (sc *itemScan) companyAfter(si, i int) string {
	s := sc.sents[si]
	for k := i + 1; k < len(s.toks); k++ {
		if s.isCompanyAt(k) {
			return s.toks[k].text
		}
	}
	return ""
}

// appendContext adds the two words before and after token i, marked with who stands there, and the pairs
// of words before and after.
func appendContext(fs []string, s *sentence, i int, who string) []string {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		fs = append(fs, who+":pre"+strconv.Itoa(i-k)+":"+s.pairForm(k))
	}
	if i >= 2 {
		fs = append(fs, who+":pre:"+s.pairForm(i-2)+"_"+s.pairForm(i-1))
	}
	for k := i + 1; k < len(s.toks) && k <= i+2; k++ {
		fs = append(fs, who+":post"+strconv.Itoa(k-i)+":"+s.pairForm(k))
	}
	if i+2 < len(s.toks) {
		fs = append(fs, who+":post:"+s.pairForm(i+1)+"_"+s.pairForm(i+2))
	}
	return fs
}

// pairForm returns the word at token i as the pair model reads it: names as P (a person), C (another
// name) or T (the tracked company), other words lowercased.
func (s *sentence) pairForm(i int) string {
	switch {
	case s.toks[i].form == "T":
		return "T"
	case s.isPersonAt(i):
		return "P"
	case s.toks[i].span >= 0:
		return "C"
	}
	return strings.TrimPrefix(s.toks[i].form, rolePrefix)
}

func countBucket(n int) string {
	switch {
	case n <= 1:
		return "1"
	case n == 2:
		return "2"
	}
	return "3+"
}

func distBucket(n int) string {
	switch {
	case n <= 2:
		return strconv.Itoa(n)
	case n <= 4:
		return "3-4"
	case n <= 8:
		return "5-8"
	case n <= 15:
		return "9-15"
	}
	return "16+"
}
