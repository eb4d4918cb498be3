// Package leadfind finds founder leads around a tracked company in the news, feed and page items of a
// tracker run: people who leave it to found or join a company, their co-founders, and the founders of
// companies it partners with, invests in, acquires or spins out. It is deterministic: word patterns only,
// no network and no language model.
package leadfind

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Item is one news article, feed entry or page a tracker run saw.
type Item struct {
	URL       string
	Title     string
	Text      string
	Published time.Time
}

// Candidate is a founder lead: a person and the company, other than the tracked one, they founded, joined
// or lead.
type Candidate struct {
	PersonName     string
	PersonRole     string // "co-founder", "founder", "CEO and co-founder", ... when stated or implied
	CompanyName    string
	CompanyWebsite string // origin of a URL or domain for the company found in the item, else ""
	Summary        string // the sentence the lead was found in
	CompanySummary string // what the items say the company is or does, else Undescribed(CompanyName)
	Relation       string // one of the Rel constants
	Stage          string // one of the Stage constants
	Evidence       []string
	Key            string // NormalizeKey(PersonName, CompanyName)
}

// Relations of a lead to the tracked company.
const (
	RelDepartedToFound  = "departed_to_found"
	RelDepartedToJoin   = "departed_to_join"
	RelCofounderInNews  = "cofounder_in_news"
	RelPartnerFounder   = "partner_founder"
	RelPortfolioFounder = "portfolio_founder"
	RelAcquiredFounder  = "acquired_founder"
	RelSpinoutFounder   = "spinout_founder"
)

// relationRank orders relations by how directly they tie the person to the tracked company; when one
// lead is found several ways, the highest wins.
var relationRank = map[string]int{
	RelCofounderInNews:  1,
	RelPartnerFounder:   2,
	RelPortfolioFounder: 3,
	RelDepartedToJoin:   4,
	RelAcquiredFounder:  5,
	RelSpinoutFounder:   6,
	RelDepartedToFound:  7,
}

// companyRelationRank orders what a sentence says the tracked company does with another company.
var companyRelationRank = map[string]int{
	RelPartnerFounder:   1,
	RelPortfolioFounder: 2,
	RelAcquiredFounder:  3,
	RelSpinoutFounder:   4,
}

// Extract returns the leads found in items about the tracked company, in order of first mention; the
// same person and company appear once, with the evidence of every item merged.
func Extract(trackedCompany string, trackedFounders []string, items []Item) []Candidate {
	m := newMatcher(trackedCompany, trackedFounders)
	if len(m.names) == 0 {
		return nil
	}
	var out []Candidate
	index := make(map[string]int)
	for _, it := range items {
		for _, c := range m.item(it) {
			if i, ok := index[c.Key]; ok {
				merge(&out[i], c)
				continue
			}
			index[c.Key] = len(out)
			out = append(out, c)
		}
	}
	return out
}

// merge folds a second sighting of the same lead into dst.
func merge(dst *Candidate, src Candidate) {
	for _, u := range src.Evidence {
		if !slices.Contains(dst.Evidence, u) {
			dst.Evidence = append(dst.Evidence, u)
		}
	}
	dst.Stage = laterStage(dst.Stage, src.Stage)
	if relationRank[src.Relation] > relationRank[dst.Relation] {
		dst.Relation = src.Relation
		dst.Summary = src.Summary
	}
	if dst.PersonRole == "" || len(src.PersonRole) > len(dst.PersonRole) && strings.Contains(src.PersonRole, dst.PersonRole) {
		dst.PersonRole = src.PersonRole
	}
	if dst.CompanyWebsite == "" {
		dst.CompanyWebsite = src.CompanyWebsite
	}
	if dst.CompanySummary == Undescribed(dst.CompanyName) {
		dst.CompanySummary = src.CompanySummary
	}
}

// itemScan holds what one item says, shared by the steps that turn its links into leads.
type itemScan struct {
	m           *matcher
	sents       []*sentence
	topics      []string          // the company, other than the tracked one, each sentence may refer to as "the company"
	firstPerson bool              // the item is a post whose author says they are starting a company
	text        string            // the item's title and text
	labels      map[string]bool   // the names of the web sites the item mentions ("fieldgrid" for fieldgrid.example)
	hire        []bool            // the sentence reports a hire into the tracked company
	rels        map[string]string // normalised company name -> what the tracked company does with it
	newVenture  map[string]bool   // normalised company name -> founded by someone who left the tracked company
	lastNames   map[string]string // surnames, once computed
}

// mention is one person of a link.
type mention struct {
	link    link
	sent    int
	tok     int
	name    string
	ctx     string
	role    string
	summary string
}

// item returns the leads one item yields, each person and company once.
func (m *matcher) item(it Item) []Candidate {
	sc := &itemScan{m: m, rels: make(map[string]string), newVenture: make(map[string]bool), text: it.Title + "\n" + it.Text}
	topic := ""
	sites := websites(it)
	for _, raw := range splitSentences(m.trackedHandles(nameHandles(it.Title+"\n"+it.Text, sites))) {
		s := m.prepare(raw)
		if rewritten, ok := nameTopic(raw, topic); ok {
			// The tracked company is named back only where the sentence says what it does with another
			// company ("It has also acquired Aerocampo"); its own rounds are not a lead's.
			if r := m.prepare(rewritten); topic != m.display || r.dealWith() {
				s = r
				s.raw = raw
			}
		}
		sc.sents = append(sc.sents, s)
		if topic == m.display {
			sc.topics = append(sc.topics, "")
		} else {
			sc.topics = append(sc.topics, topic)
		}
		if c := s.subjectCompany(); c != "" && (strings.Count(it.Title+"\n"+it.Text, c) > 1 || s.opensClause()) {
			topic = c
		} else if c := s.lastCompany(); c == "T" {
			// "It has also acquired Aerocampo": the tracked company, named as given so that it reads as itself.
			topic = m.display
		} else if c != "" {
			topic = c
		}
	}
	if !sc.mentionsTracked() {
		return nil
	}
	stages := newStageFacts()
	named := make(map[string]string)
	other := "" // the last company other than the tracked one the item named
	sc.firstPerson = sc.author(it) != "" && firstPersonFounding.MatchString(it.Text)
	var mentions []mention
	for i, s := range sc.sents {
		sc.hire = append(sc.hire, s.reportsHire())
		s.companyRelations(sc.rels)
		s.namedSites(named)
		for _, o := range s.stages(stages) {
			switch {
			case sc.topics[i] != "":
				stages.add(normalizeCompany(sc.topics[i]), o)
			case other != "" && (sc.firstPerson || strings.HasPrefix(s.str, "we")):
				stages.add(normalizeCompany(other), o)
			}
		}
		if c := s.lastCompany(); c != "" && c != "T" {
			other = c
		}
		for _, l := range findLinks(sc.sents, i) {
			mentions = append(mentions, sc.mentions(l)...)
		}
	}
	// A deal told under a company's full name holds for its short name ("acquire Sealane Power ... Sealane
	// was set up by").
	full := sc.fullNames()
	for short, long := range full {
		if rel, ok := sc.rels[normalizeCompany(long)]; ok && sc.rels[short] == "" {
			sc.rels[short] = rel
		}
	}
	for _, mn := range mentions {
		switch sc.relation(mn) {
		case RelDepartedToFound, RelDepartedToJoin, RelSpinoutFounder:
			sc.newVenture[sc.companyKey(mn.link)] = true
		}
	}
	slices.SortStableFunc(mentions, func(a, b mention) int {
		return cmp.Or(cmp.Compare(a.sent, b.sent), cmp.Compare(a.tok, b.tok))
	})
	var finds []found
	for _, mn := range mentions {
		if rel := sc.relation(mn); rel != "" {
			finds = append(finds, found{name: mn.name, role: mn.role, company: sc.sents[mn.link.sent].toks[mn.link.company].text,
				summary: mn.summary, relation: rel, sent: mn.sent, tok: mn.tok})
		}
	}
	sc.labels = make(map[string]bool, len(sites))
	for _, st := range sites {
		sc.labels[st.label] = true
	}
	finds = append(finds, sc.ventureLeads(it)...)
	finds = append(finds, sc.partners(finds)...)
	about := make(map[string]string)
	var out []Candidate
	index := make(map[string]int)
	surnames := sc.surnames()
	for _, f := range finds {
		if m.founders[normalizePerson(f.name)] && f.relation != RelDepartedToFound && f.relation != RelSpinoutFounder {
			continue
		}
		if _, ok := surnames[fold(f.company)]; ok {
			continue // "Rahman's co-founder is Tom Ashby": a person's name is no company
		}
		if long, ok := full[normalizeCompany(f.company)]; ok {
			f.company = long
		}
		if name, _, ok := strings.Cut(f.company, "."); ok && !strings.Contains(name, " ") && strings.Count(sc.text, name) > strings.Count(sc.text, f.company) {
			f.company = name // "Quire ... Quire.example will integrate": the company named by its address
		}
		f.name = sc.sents[f.sent].sharedSurname(f.tok, f.name)
		if sc.notPerson(f) {
			continue
		}
		key := normalizeCompany(f.company)
		if _, ok := about[key]; !ok {
			about[key] = sc.describe(key)
		}
		c := Candidate{
			PersonName:     f.name,
			PersonRole:     f.role,
			CompanyName:    f.company,
			CompanyWebsite: cmp.Or(named[key], websiteOf(f.company, m, sites)),
			Summary:        f.summary,
			CompanySummary: cmp.Or(about[key], Undescribed(f.company)),
			Relation:       f.relation,
			Stage:          stages.of(f.company),
			Key:            NormalizeKey(f.name, f.company),
		}
		if it.URL != "" {
			c.Evidence = []string{it.URL}
		}
		if i, ok := index[c.Key]; ok {
			if !f.venture {
				merge(&out[i], c)
			}
			continue
		}
		index[c.Key] = len(out)
		out = append(out, c)
	}
	return headlineOnly(out, it)
}

// headlineOnly drops the leads whose company only the headline names when the text gives the same person
// another company: headlines shorten ("launches cyber MGA" for the Ridgeback Underwriting of the text).
func headlineOnly(cs []Candidate, it Item) []Candidate {
	inText := func(c Candidate) bool { return strings.Contains(it.Text, c.CompanyName) }
	all := slices.Clone(cs)
	return slices.DeleteFunc(cs, func(c Candidate) bool {
		return !inText(c) && slices.ContainsFunc(all, func(o Candidate) bool {
			return o.PersonName == c.PersonName && o.CompanyName != c.CompanyName && inText(o)
		})
	})
}

// partners returns the people the item names as the co-founders of a person already found, who share that
// person's company: "Harrow's co-founder is former actuary Precious Dlamini", "Her co-founder, Imran Shah,
// left to ...", "Solberg's co-founders are Emil Haugen and Rashid Karimi".
func (sc *itemScan) partners(finds []found) []found {
	var out []found
	for si, s := range sc.sents {
		for i := 0; i+1 < len(s.toks); i++ {
			t := s.toks[i]
			var anchor *found
			role := i + 1
			switch {
			case i == 0 && si > 0 && isFounderRole(t.form) && s.toks[1].form == ":":
				// "Loamly — soil sensors for vineyards. Founders: Camille Aubert & Théo Marchand."
				if c := sc.sents[si-1].lastCompany(); c != "" && c != "T" {
					k := normalizeCompany(c)
					rel := cmp.Or(sc.rels[k], RelCofounderInNews)
					for _, p := range s.namedAfter(2) {
						out = append(out, found{name: s.sharedSurname(p, s.toks[p].text), role: "co-founder", company: c,
							summary: sc.sents[si-1].raw + " " + s.raw, relation: rel, sent: si, tok: p})
					}
				}
				continue
			case (t.form == "she" || t.form == "he") && i+3 < len(s.toks) && (s.toks[i+1].form == "is" || s.toks[i+1].form == "was") &&
				s.toks[i+2].form == "joined" && s.toks[i+3].form == "by":
				// "She is joined by Tomasz Zielinski": the person found last is joined in their company.
				for k := range finds {
					if f := &finds[k]; f.sent < si && (anchor == nil || f.sent > anchor.sent || f.sent == anchor.sent && f.tok > anchor.tok) {
						anchor = f
					}
				}
				role = i + 3
			case t.form == "her" || t.form == "his":
				// The person found last before this sentence, or earlier in it.
				for k := range finds {
					if f := &finds[k]; f.sent < si || f.sent == si && f.tok < i {
						if anchor == nil || f.sent > anchor.sent || f.sent == anchor.sent && f.tok > anchor.tok {
							anchor = f
						}
					}
				}
			case t.span >= 0 && s.toks[i+1].form == "'s":
				role = i + 2
				last := s.spans[t.span].words[len(s.spans[t.span].words)-1]
				for k := range finds {
					if f := &finds[k]; f.name == t.text || strings.HasSuffix(f.name, " "+last) {
						anchor = f
						break
					}
				}
			default:
				continue
			}
			if anchor == nil || role >= len(s.toks) || !isCofounderRole(s.toks[role].form) && s.toks[role].form != "by" {
				continue
			}
			rel := anchor.relation
			if rel == RelDepartedToFound || rel == RelDepartedToJoin {
				rel = RelCofounderInNews
			}
			company := anchor.company
			for j := 1; j < i; j++ {
				if c := s.toks[j]; c.span >= 0 && !s.spans[c.span].person && s.toks[j-1].form == "at" {
					company = c.text // "At Porter he is joined by ..."
				}
			}
			for _, p := range s.namedAfter(role + 1) {
				out = append(out, found{name: s.sharedSurname(p, s.toks[p].text), role: "co-founder", company: company,
					summary: s.raw, relation: rel, sent: si, tok: p})
			}
		}
	}
	return out
}

// isFounderRole reports whether a prepared token is the role founder or co-founder, one or several.
func isFounderRole(form string) bool {
	switch form {
	case rolePrefix + "founder", rolePrefix + "founders":
		return true
	}
	return isCofounderRole(form)
}

// isCofounderRole reports whether a prepared token is the role co-founder or co-founders.
func isCofounderRole(form string) bool {
	switch strings.TrimPrefix(form, rolePrefix) {
	case "co-founder", "co-founders", "cofounder", "cofounders":
		return strings.HasPrefix(form, rolePrefix)
	}
	return false
}

// namedAfter returns the people named from token i on as a list ("is former actuary Precious Dlamini",
// "are her former PhD student Emil Haugen and ex-Nvidia engineer Rashid Karimi"): each may follow a few
// words describing them, and the list ends at the first word that neither joins nor describes.
func (s *sentence) namedAfter(i int) []int {
	var out []int
	for i < len(s.toks) {
		switch s.toks[i].form {
		case "is", "are", "was", "were", ",", ":":
			i++
			continue
		}
		break
	}
	described := 0
	for ; i < len(s.toks); i++ {
		t := s.toks[i]
		switch {
		case t.span >= 0 && (s.spans[t.span].person || s.givenName(i)):
			out = append(out, i)
			described = 0
			if i+1 >= len(s.toks) {
				return out
			}
			switch s.toks[i+1].form {
			case "and", "&", ",":
				i++
			default:
				return out
			}
		case described < 5 && t.form != "T" && (t.span >= 0 || strings.HasPrefix(t.form, rolePrefix) || memberStarts[t.form] ||
			t.form == "her" || t.form == "his" || t.form == "their" || isLowerWord(t.text) && !verbLike(t.form)):
			described++
		default:
			return out
		}
	}
	return out
}

// givenName reports whether the name at token i is a given name that shares the last name of the person it
// is joined to, as "Jack" in "Jack and Elena Dawson".
func (s *sentence) givenName(i int) bool {
	t := s.toks[i]
	if i+2 >= len(s.toks) || t.span < 0 || len(s.spans[t.span].words) != 1 {
		return false
	}
	if f := s.toks[i+1].form; f != "and" && f != "&" {
		return false
	}
	next := s.toks[i+2]
	return next.span >= 0 && s.spans[next.span].person && len(s.spans[next.span].words) == 2
}

// sharedSurname completes name, the name at token i of s, when it is a given name that shares the last name
// of the person it is joined to ("Jack Dawson" for "Jack and Elena Dawson"); else it returns name.
func (s *sentence) sharedSurname(i int, name string) string {
	if i >= len(s.toks) || s.toks[i].text != name || !s.givenName(i) {
		return name
	}
	return name + " " + s.spans[s.toks[i+2].span].words[1]
}

// mentionsTracked reports whether the item names the tracked company or one of its founders.
func (sc *itemScan) mentionsTracked() bool {
	for _, s := range sc.sents {
		for _, t := range s.toks {
			if t.form == "T" || t.span >= 0 && sc.m.founders[normalizePerson(t.text)] {
				return true
			}
		}
	}
	return false
}

// companyKey returns the normalised name of the company of l.
func (sc *itemScan) companyKey(l link) string {
	return normalizeCompany(sc.sents[l.sent].toks[l.company].text)
}

// mentions expands a link into its people, each with the words that tell how they relate to the tracked
// company.
func (sc *itemScan) mentions(l link) []mention {
	s := sc.sents[l.sent]
	company := normalizeCompany(s.toks[l.company].text)
	if company == sc.m.normName || sc.m.founders[normalizePerson(s.toks[l.company].text)] {
		return nil
	}
	if l.kind == kindJoin && s.spans[s.toks[l.company].span].person {
		return nil
	}
	var out []mention
	add := func(sent, tok int, ctx, role string) {
		name := sc.sents[sent].toks[tok].text
		if normalizePerson(name) == company {
			return
		}
		out = append(out, mention{link: l, sent: sent, tok: tok, name: name, ctx: ctx, role: role, summary: s.raw})
	}
	if len(l.people) == 1 && l.people[0] == pronoun {
		sent, tok, ok := sc.antecedent(l)
		if !ok {
			return nil
		}
		ctx := sc.sents[sent].pre(tok) + " " + sc.sents[sent].post(tok) + " " + l.ctx
		add(sent, tok, ctx, defaultRole(l, 1+len(l.with)))
		if first := s.toks[0].form; len(out) > 0 && (first == "she" || first == "he") {
			if _, rest, ok := strings.Cut(s.raw, " "); ok {
				out[0].summary = out[0].name + " " + rest
			}
		}
	} else {
		first := s.pre(l.people[0])
		for i, p := range l.people {
			pre := s.pre(p)
			switch {
			case i > 0 && strings.TrimSpace(pre) == "" && pluralDescription(first):
				pre = first
			case i > 0 && strings.Contains(pre, rolePrefix) && slices.Contains(strings.Fields(first), "T") &&
				!slices.ContainsFunc(strings.Fields(pre), isPlaceholder) && !slices.Contains(strings.Fields(pre), "T"):
				// "Northwind's former head of sales Jade Thompson and former operations manager Marek Kowal":
				// the company owning the first person's role owns the next person's role.
				pre = "T " + pre
			}
			if i < len(l.people)-1 {
				pre += " " + s.post(p)
			}
			add(l.sent, p, pre+" "+l.ctx, defaultRole(l, len(l.people)+len(l.with)))
		}
	}
	for i, p := range l.with {
		role := "co-founder"
		if l.kind != kindFound {
			role = ""
		}
		add(l.sent, p, l.withCtx[i], role)
	}
	return out
}

// defaultRole is the role of a person of l: the stated one, else founder or co-founder for a founding.
func defaultRole(l link, founders int) string {
	switch {
	case l.role == "founder" && founders > 1:
		return "co-founder"
	case l.role != "":
		return l.role
	case l.kind != kindFound:
		return ""
	case founders > 1 || l.cofound:
		return "co-founder"
	default:
		return "founder"
	}
}

// pluralDescription reports whether words before the first of several names describe all of them, as
// in "former Northwind engineers Jane Doe and John Roe".
func pluralDescription(words string) bool {
	for w := range strings.FieldsSeq(words) {
		switch word(w) {
		case "both", "two", "three", "engineers", "founders", "co-founders", "cofounders", "alumni", "veterans",
			"executives", "execs", "employees", "colleagues", "staffers", "researchers", "scientists", "operators",
			"entrepreneurs":
			return true
		}
	}
	return false
}

// antecedent finds the person "she" or "he" in a link refers to: the first person named earlier in the
// same sentence, else in one of the two sentences before.
func (sc *itemScan) antecedent(l link) (sent, tok int, ok bool) {
	s := sc.sents[l.sent]
	for i := 0; i < l.company; i++ {
		if t := s.toks[i]; t.span >= 0 && s.spans[t.span].person && !slices.Contains(l.with, i) {
			return l.sent, i, true
		}
	}
	for si := l.sent - 1; si >= 0 && si >= l.sent-2; si-- {
		for i, t := range sc.sents[si].toks {
			if t.span >= 0 && sc.sents[si].spans[t.span].person {
				return si, i, true
			}
		}
	}
	return 0, 0, false
}

// relation decides how the person of a mention relates to the tracked company, or "" when the mention
// is not a lead.
func (sc *itemScan) relation(mn mention) string {
	l := mn.link
	company := sc.companyKey(l)
	words := strings.Fields(mn.ctx)
	founder := sc.m.founders[normalizePerson(mn.name)]
	atTracked := slices.Contains(words, "T") || founder
	departed := hasDeparture(words, founder) || hasDeparture(strings.Fields(mn.link.tail), founder)
	crel := sc.rels[company]
	if sc.sents[l.sent].beforeTracked() {
		return "" // "before Glasswing he started Tavla": a venture from before the tracked company
	}
	switch {
	case crel == RelSpinoutFounder && l.kind != kindJoin:
		return RelSpinoutFounder
	case crel == RelAcquiredFounder && l.kind == kindFound && !departed:
		return RelAcquiredFounder
	case sc.hire[l.sent]:
		return ""
	case departed && l.kind == kindFound:
		return RelDepartedToFound
	case departed:
		return RelDepartedToJoin
	case atTracked:
		if l.kind == kindFound && l.explicit && l.fresh {
			return RelDepartedToFound
		}
		return ""
	case (crel == RelPortfolioFounder || crel == RelPartnerFounder) && l.kind == kindFound:
		return crel
	case l.kind == kindFound && l.strong && sc.newVenture[company]:
		return RelCofounderInNews
	}
	return ""
}

// hasDeparture reports whether words say that someone left the tracked company ("T"); a founder of the
// tracked company needs no mention of it ("Tom Hale has left to start ...").
func hasDeparture(words []string, founder bool) bool {
	for i, w := range words {
		w = word(w)
		switch {
		case w == "spent":
			if trackedNear(words, i, 0, 10) {
				return true
			}
		case departureVerbs[w]:
			if founder || trackedNear(words, i, 6, 6) {
				return true
			}
		case departureBefore[w]:
			if trackedNear(words, i, 0, 4) || i > 0 && words[i-1] == "T" || i > 1 && words[i-1] == "'s" && words[i-2] == "T" {
				return true
			}
		case departureNext[w]:
			if trackedNear(words, i, 3, 3) {
				return true
			}
		case w == "until" && trackedNear(words, i, 3, 0):
			return true
		case departureWeak[w]:
			for j := i + 1; j < len(words)-1 && j <= i+6; j++ {
				switch words[j] {
				case "at", "with", "from", "of":
					if words[j+1] == "T" {
						return true
					}
				}
			}
		}
	}
	return false
}

// trackedNear reports whether "T" stands within before words before or after words after words[i], with no
// other name in between.
func trackedNear(words []string, i, before, after int) bool {
	for j := i - 1; j >= 0 && j >= i-before; j-- {
		if words[j] == "T" {
			return true
		}
		if isPlaceholder(words[j]) {
			break
		}
	}
	for j := i + 1; j < len(words) && j <= i+after; j++ {
		if words[j] == "T" {
			return true
		}
		if isPlaceholder(words[j]) {
			break
		}
	}
	return false
}

// isPlaceholder reports whether a token form stands for a run of capitalised words ("N3").
func isPlaceholder(form string) bool {
	return len(form) > 1 && form[0] == 'N' && form[1] >= '0' && form[1] <= '9'
}

// trackedHandles writes the tracked company's name for the handles that spell it, with at most a short
// suffix ("@ravenwoodsec" for Ravenwood Security), so that a post naming it by handle names it.
func (m *matcher) trackedHandles(text string) string {
	if !strings.Contains(text, "@") {
		return text
	}
	return handlePattern.ReplaceAllStringFunc(text, func(h string) string {
		handle := strings.ToLower(h[1:])
		for _, name := range m.names {
			joined := strings.Join(name, "")
			if len(joined) >= 5 && strings.HasPrefix(handle, joined) && len(handle)-len(joined) <= 4 {
				return m.display
			}
		}
		return h
	})
}

// dealWith reports whether the sentence names a deal of the tracked company with another company: a word of
// relationCues.
func (s *sentence) dealWith() bool {
	for _, t := range s.toks {
		if t.span < 0 && relationCues[t.form] != "" {
			return true
		}
	}
	return false
}

// companyRelations records, for each company named next to the tracked company, what the sentence says
// the tracked company does with it: partner, invest, acquire or spin out.
func (s *sentence) companyRelations(rels map[string]string) {
	var tracked []int
	for i, t := range s.toks {
		if t.form == "T" {
			tracked = append(tracked, i)
		}
	}
	if len(tracked) == 0 {
		return
	}
	nearest, nearestDist := -1, len(s.toks)
	for i := range s.toks {
		if !s.isCompanyLike(i) || s.toks[i].form == "T" {
			continue
		}
		for _, t := range tracked {
			if d := max(t-i, i-t); d < nearestDist {
				nearest, nearestDist = i, d
			}
		}
	}
	for i, t := range s.toks {
		if t.span < 0 {
			continue
		}
		rel := s.cueFor(i, tracked)
		if rel == "" && i == nearest {
			for j := range s.toks {
				if rel = s.cueAt(j, i); rel != "" {
					break
				}
			}
		}
		if rel == "" || rel == RelPartnerFounder && s.hasWord(rivalWords) {
			continue
		}
		k := normalizeCompany(t.text)
		if companyRelationRank[rel] > companyRelationRank[rels[k]] {
			rels[k] = rel
		}
	}
}

// cueFor returns the relation word nearest to token i on the way to a mention of the tracked company,
// also reading the two words after the tracked company ("a Northwind spinout").
func (s *sentence) cueFor(i int, tracked []int) string {
	best, bestDist := "", len(s.toks)+1
	consider := func(j int) {
		if j < 0 || j >= len(s.toks) {
			return
		}
		d := max(j-i, i-j)
		if rel := s.cueAt(j, i); rel != "" && d < bestDist {
			best, bestDist = rel, d
		}
	}
	for _, t := range tracked {
		if t < i {
			for j := i - 1; j > t; j-- {
				consider(j)
			}
			continue
		}
		for j := i + 1; j < t; j++ {
			consider(j)
		}
		consider(t + 1)
		consider(t + 2)
	}
	return best
}

// cueAt returns the relation the word at token j gives the company at token i, or "". Partnerships go
// both ways; the other relations need the tracked company as the one acting: "Northwind acquires Quill",
// "Quill was acquired by Northwind", "a Northwind spinout", but not "Northwind was acquired by Google" or
// "Google invests in Northwind".
func (s *sentence) cueAt(j, i int) string {
	rel := relationCues[word(s.toks[j].form)]
	if rel == "" || rel == RelPartnerFounder {
		return rel
	}
	if agent, ok := s.agentAfter(j); ok {
		if s.toks[agent].form == "T" {
			return rel
		}
		return ""
	}
	if j > 0 && s.toks[j-1].form == "T" || j > 1 && s.toks[j-1].form == "'s" && s.toks[j-2].form == "T" {
		return rel
	}
	head := s.heads()
	for k := j - 1; k >= 0; k-- {
		if s.toks[k].form == "T" {
			return rel
		}
		if h := head[k]; h >= 0 && s.toks[h].form == "T" {
			continue
		}
		if k == i || s.isCompanyLike(k) {
			return ""
		}
	}
	return ""
}

// heads returns the sentence's appositiveHeads, computed once.
func (s *sentence) heads() []int {
	if s.head == nil {
		s.head = s.appositiveHeads()
	}
	return s.head
}

// agentAfter finds the one acting in a passive phrase after the cue at token j: the name after "by" or
// "from" ("backed by Acme", "investment from Acme", "acquisition of Quill by Acme"), or after "of" in
// "portfolio company of Acme".
func (s *sentence) agentAfter(j int) (int, bool) {
	k := j + 1
	if relationCues[word(s.toks[j].form)] == RelSpinoutFounder {
		if k < len(s.toks) && (s.toks[k].form == "out" || s.toks[k].form == "off") {
			k++
		}
		if k+1 < len(s.toks) && (s.toks[k].form == "of" || s.toks[k].form == "from") && s.isCompanyLike(k+1) {
			return k + 1, true
		}
		return 0, false
	}
	company := k < len(s.toks) && (s.toks[k].form == "company" || s.toks[k].form == "companies")
	if company {
		k++
	}
	if k+1 < len(s.toks) && s.toks[k].form == "of" && !company {
		k += 2
	}
	if k+1 >= len(s.toks) {
		return 0, false
	}
	switch s.toks[k].form {
	case "by", "from", "of":
		if s.isCompanyLike(k + 1) {
			return k + 1, true
		}
	}
	return 0, false
}

// stageWords are the words a funding stage is named with.
var stageWords = words("pre-?seed.* preseed.* seed.* angels? angel-.* series.* growth.* late.* ipo initial public listing listed")

// isCompanyLike reports whether token i can own a funding round: the tracked company or a name that is
// not a person's.
func (s *sentence) isCompanyLike(i int) bool {
	t := s.toks[i]
	return t.form == "T" || t.span >= 0 && (!s.spans[t.span].person || s.companyContext(i)) && !strings.ContainsAny(t.text, "$€£")
}

// appositiveHeads returns, for each token, the index of the name whose comma-enclosed description it is
// part of ("Aurora, founded by Jane Doe, raises ..."), or -1.
func (s *sentence) appositiveHeads() []int {
	head := make([]int, len(s.toks))
	for i := range head {
		head[i] = -1
	}
	for i := 1; i < len(s.toks); i++ {
		open := s.toks[i].form
		prev := s.toks[i-1]
		if open != "," && open != "(" || prev.span < 0 && prev.form != "T" {
			continue
		}
		closer := ","
		if open == "(" {
			closer = ")"
		}
		j := i + 1
		for j < len(s.toks) && s.toks[j].form != closer {
			j++
		}
		if j == len(s.toks) && i+1 < len(s.toks) {
			switch s.toks[i+1].form {
			case "and", "but", "while", "as", "so":
				continue
			}
		}
		if i+1 < len(s.toks) && open == "," {
			switch s.toks[i+1].form {
			case "has", "have", "had", "is", "was", "will", "raised", "raises", "closed", "closes", "announced", "said", "says":
				continue
			}
		}
		for k := i; k < j && k < len(s.toks); k++ {
			head[k] = i - 1
		}
		if j < len(s.toks) {
			head[j] = i - 1
		}
		if j < len(s.toks) && !s.isCompanyLike(j-1) {
			i = j
		} else {
			i = j - 1
		}
	}
	return head
}

// stageOwner returns the token of the company a funding mention at token at is about, or -1.
func (s *sentence) stageOwner(at int, head []int) int {
	if h := head[at]; h >= 0 {
		if s.isCompanyLike(h) {
			return h
		}
		for d := 1; d < len(s.toks); d++ {
			for _, j := range []int{at - d, at + d} {
				if j >= 0 && j < len(s.toks) && head[j] == h && s.isCompanyLike(j) {
					return j
				}
			}
		}
		return -1
	}
	for j := at + 1; j < len(s.toks) && j <= at+4; j++ {
		switch s.toks[j].form {
		case "of", "in", "for", "into":
			if j+1 < len(s.toks) && s.isCompanyLike(j+1) && !s.notOwner(j+1) {
				return j + 1
			}
		}
	}
	for j := at - 1; j >= 0; j-- {
		if head[j] < 0 && s.isCompanyLike(j) && !s.notOwner(j) && !placeBefore(s, j) {
			return j
		}
	}
	for j := at + 1; j < len(s.toks); j++ {
		if head[j] < 0 && s.isCompanyLike(j) && !s.notOwner(j) && !placeBefore(s, j) {
			return j
		}
	}
	return -1
}

// notOwner reports whether the name at token j cannot own a funding round: an investor, a place, a month,
// or a name describing the word after it ("former RAAF engineers").
func (s *sentence) notOwner(j int) bool {
	if s.toks[j].form == "T" {
		return false
	}
	return s.investorAt(j) || s.placeAt(j) || s.describesNoun(j) || s.beforeRole(j) || s.adjectiveAt(j) || s.notCompanyAt(j)
}
