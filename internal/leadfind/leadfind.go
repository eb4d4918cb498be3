// Package leadfind finds founder leads around a tracked company in the news, feed and page items of a
// tracker run: people who leave it to found or join a company, their co-founders, and the founders of
// companies it partners with, invests in, acquires or spins out. It is deterministic, with no network and no
// language model: word patterns read the ties they are sure of, and a logistic regression over every person
// and company an item names near each other (pairs.go, pairmodel.go), trained on the evaluation set's
// training files, weighs those and the rest.
package leadfind

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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
	title       string            // the item's title
	labels      map[string]bool   // the names of the web sites the item mentions ("fieldgrid" for fieldgrid.example)
	hire        []bool            // the sentence reports a hire into the tracked company
	rels        map[string]string // normalised company name -> what the tracked company does with it
	newVenture  map[string]bool   // normalised company name -> founded by someone who left the tracked company
	lastNames   map[string]string // surnames, once computed
	expanded    map[string]bool   // the full names written for people named by a last or given name alone
	url         string            // the item's address
	ownPage     bool              // the item is a changed page of the tracked company's own site
	sites       []site            // the web sites the item links or names
	named       map[string]string // normalised company name -> the address the item gives right after it
	stages      stageFacts        // what the item says of each company's rounds
	ownRounds   stageFacts        // the rounds a founder's post tells in the first person, under the key ""
	author      string            // the post's author (author), or ""
	loose       []looseRound      // the rounds no company of the item owns by the words around them
	full        map[string]string // normalised company name -> the longer name the item also gives it (fullNames)
	acquirers   map[string]bool   // normalised names of the companies that acquire the tracked one
	item        []string          // the pair model's features of the item as a whole (itemContext)
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
	sc, rules := m.scan(it)
	if sc == nil {
		return nil
	}
	return sc.judge(rules)
}

// scan reads one item and returns what it says with the leads the patterns find in it; sc is nil when the
// item can hold no lead.
func (m *matcher) scan(it Item) (sc *itemScan, rules []Candidate) {
	sc = &itemScan{m: m, rels: make(map[string]string), newVenture: make(map[string]bool), text: it.Title + "\n" + it.Text, title: it.Title, url: it.URL}
	topic := ""
	sites := websites(it)
	m.ownVoice = m.ownItem(it)
	defer func() { m.ownVoice = false }()
	raws := nameLaterVenture(quotedOwners(dropAsides(dropDatelines(splitSentences(nameHandles(m.trackedHandles(dropNicknames(it.Title+"\n"+it.Text)), sites, m.founderNames))))))
	prepared := make([]*sentence, len(raws))
	for i, raw := range raws {
		prepared[i] = m.prepare(raw)
	}
	m.singleNames(prepared)
	short := shortNames(prepared, m.founders)
	sc.expanded = make(map[string]bool)
	for si, raw := range raws {
		s := prepared[si]
		sc.expand(s, si, short)
		if rewritten, ok := nameTopic(raw, topic); ok {
			// The tracked company is named back only where the sentence says what it does with another
			// company ("It has also acquired Aerocampo"); its own rounds are not a lead's.
			if r := m.prepare(rewritten); topic != m.display || r.dealWith() {
				sc.expand(r, si, short)
				s = r
				s.raw = raw
			}
		}
		if rewritten, ok := m.participleSubject(raw, topic); ok {
			r := m.prepare(rewritten)
			sc.expand(r, si, short)
			s = r
			s.raw = raw
		}
		sc.sents = append(sc.sents, s)
		if topic == m.display {
			sc.topics = append(sc.topics, "")
		} else {
			sc.topics = append(sc.topics, topic)
		}
		if c := s.subjectCompany(); c != "" && (strings.Count(sc.text, c) > 1 || s.opensClause()) {
			topic = c
		} else if c := s.lastCompany(); c == "T" || len(s.toks) > 1 && s.toks[0].form == "T" && s.toks[1].form != "'s" && !s.dealWith() {
			// The tracked company named last, or as the subject of a sentence that tells of no deal with
			// another ("Meadowlark Foods has achieved B Corp certification. The snack maker cited ..."), named
			// as given so that "It has also acquired Aerocampo" reads as itself.
			topic = m.display
		} else if c != "" {
			topic = c
		}
	}
	// A changed page of the tracked company's own site need not name it; there, only companies it gives an
	// address for are read, as a portfolio page lists them ("Loamly — soil sensors. Founders: ...
	// loamly.example"), not the company's own team ("Removed: Kenta Sato — Co-founder & Head Chef").
	ownPage := false
	if !sc.mentionsTracked() {
		if !strings.HasPrefix(sc.text, "Website change on") {
			return nil, nil
		}
		ownPage = true
	}
	stages := newStageFacts()
	named := make(map[string]string)
	other := "" // the last company other than the tracked one the item named
	sc.author = sc.authorOf(it)
	sc.firstPerson = sc.author != "" && firstPersonFounding.MatchString(sc.text)
	if sc.firstPerson {
		sc.ownRounds = newStageFacts()
	}
	var mentions []mention
	listRel, listLeft := "", 0 // a deal with several companies the next sentences list, and for how many more
	listHeads := false         // the list is a page's, under a heading: each entry opens a line with its company
	sc.acquirers = make(map[string]bool)
	for i, s := range sc.sents {
		sc.hire = append(sc.hire, s.reportsHire())
		if c := s.trackedAcquirer(); c >= 0 {
			sc.acquirers[normalizeCompany(s.toks[c].text)] = true
		}
		s.companyRelations(sc.rels)
		if s.hasTracked() || i > 0 && sc.sents[i-1].hasTracked() {
			s.ownCompanyRelation(sc.rels)
		}
		if rel := s.pluralDeal(); rel != "" {
			listRel, listLeft = rel, 8
		} else if rel := s.listHeading(m.ownVoice || i == 0 && s.hasTracked()); rel != "" {
			listRel, listLeft, listHeads = rel, 60, true
		} else if listLeft > 0 {
			s.listedCompanies(sc.rels, listRel, listHeads)
			listLeft--
		}
		s.namedSites(named)
		// A round no company of its sentence owns is the sentence's subject's ("Coolant Dynamics was started
		// by two engineers, who closed a $60 million growth round"), else the company the item is about.
		subject := s.subjectCompany()
		for _, o := range s.stages(stages, sc.firstPerson) {
			switch {
			case subject != "" && s.toks[0].form != "T":
				stages.add(normalizeCompany(subject), o)
			case sc.firstPerson && (strings.HasPrefix(s.str, "we") || s.opensWithRound(o) || s.weRaised() && !m.founders[normalizePerson(sc.author)]):
				// "We've raised a $2M seed round", "$4.2M seed led by Wasatch", in a founder's post; "Today we're
				// announcing that we've closed ..." too, unless a tracked founder writes it, whose "we" may be the
				// tracked company
				sc.ownRounds.add("", o)
			case sc.topics[i] != "":
				stages.add(normalizeCompany(sc.topics[i]), o)
			case other != "" && (sc.firstPerson || strings.HasPrefix(s.str, "we")):
				stages.add(normalizeCompany(other), o)
			default:
				sc.loose = append(sc.loose, looseRound{sent: i, mn: o})
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
	sc.full = full
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
				summary: mn.summary, relation: rel, sent: mn.sent, tok: mn.tok, byPronoun: len(mn.link.people) == 1 && mn.link.people[0] == pronoun})
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
	hired := sc.hiredPeople()
	for _, f := range finds {
		if m.founders[normalizePerson(f.name)] && (f.relation != RelDepartedToFound && f.relation != RelSpinoutFounder || sc.sents[f.sent].staysAt(f.tok)) ||
			sc.sents[f.sent].trackedCofounderAt(f.tok) {
			continue
		}
		if hired[normalizePerson(f.name)] && (f.relation == RelCofounderInNews || f.relation == RelDepartedToFound || f.relation == RelDepartedToJoin) {
			continue // "Cobalt has hired Daniel Osei ... Osei co-founded Paylane": a hire's own past
		}
		if _, ok := surnames[fold(f.company)]; ok || sc.personNamed(f.company) {
			continue // "Rahman's co-founder is Tom Ashby": a person's name is no company
		}
		if sc.sents[f.sent].leftCompany(f.company) {
			continue // "Ahmed Yusuf on why he left Vira Hälsa, the company he co-founded, to build T": the past
		}
		if long, ok := full[normalizeCompany(f.company)]; ok {
			f.company = long
		}
		if sc.acquirers[normalizeCompany(f.company)] {
			continue // "Harbourview Software has acquired T ... Harbourview was founded by": the buyer's founders
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
			} else if out[i].PersonRole == "" {
				out[i].PersonRole = c.PersonRole // "build Rowhouse Audio with my co-founder Brandon Liu"
			}
			continue
		}
		index[c.Key] = len(out)
		out = append(out, c)
	}
	if ownPage {
		out = slices.DeleteFunc(out, func(c Candidate) bool { return c.CompanyWebsite == "" })
	}
	sc.ownPage, sc.sites, sc.named, sc.stages = ownPage, sites, named, stages
	return sc, headlineOnly(notPeople(out), it)
}

// laterName matches a sentence that opens by naming the venture the sentence before left unnamed: "The
// company, said to be called Deepwell, has raised ...", "The start-up, tentatively named Gleis, is ...".
var laterName = regexp.MustCompile(`^The (?:new )?(?:company|start-up|startup|venture|firm|business) ?,? (?:(?:which is|said to be|to be|tentatively|provisionally|reportedly|currently|for now|so far) )*(?:called|named|dubbed) ((?:\p{Lu}[\p{L}\d&'-]*)(?: \p{Lu}[\p{L}\d&'-]*){0,3})(?: ,|,)?`)

// unnamedVenture matches a venture told of without its name ("is working on a geothermal-drilling
// start-up"): an article, at most three describing words and the noun, with no name after it.
var unnamedVenture = regexp.MustCompile(`\b(?:a|an) (?:(?:new|young|stealth|stealth-mode|second|[a-z][a-z-]*) ){0,3}?(?:start-up|startup|company|venture|firm|business)\b(?: ?[,:(]? ?\p{Lu})?`)

// nameLaterVenture gives an unnamed venture the name the next sentence gives it, so that the people said to
// build it and the name are read together: "... is working on a start-up with Karla Jensen. The company,
// said to be called Deepwell, has raised $3M" reads as "... a start-up called Deepwell with Karla Jensen.
// Deepwell has raised $3M".
func nameLaterVenture(raws []string) []string {
	for i := 1; i < len(raws); i++ {
		m := laterName.FindStringSubmatchIndex(raws[i])
		if m == nil {
			continue
		}
		name := raws[i][m[2]:m[3]]
		var at []int
		for _, loc := range unnamedVenture.FindAllStringIndex(raws[i-1], -1) {
			if last := raws[i-1][loc[1]-1]; last >= 'a' && last <= 'z' || last == '-' {
				at = loc // the last venture left unnamed
			}
		}
		if at == nil {
			continue
		}
		raws[i-1] = raws[i-1][:at[1]] + " called " + name + raws[i-1][at[1]:]
		raws[i] = name + " " + strings.TrimLeft(raws[i][m[1]:], " ")
	}
	return raws
}

// dateline matches the place in capitals that opens a news story: "SAN FRANCISCO — ", "OSLO, Norway — ",
// "LONDON (Reuters) - ".
var dateline = regexp.MustCompile(`^\p{Lu}[\p{Lu} .'-]{1,30}\p{Lu}(?:, [\p{L} .]{2,30})?(?: \([^)]{1,30}\))? ?(?:—|–|--|-|:) `)

// dropDatelines leaves out the dateline that opens a story, which names a place, not a company.
func dropDatelines(raws []string) []string {
	for i, raw := range raws {
		if loc := dateline.FindStringIndex(raw); loc != nil && loc[1] < len(raw) {
			raws[i] = raw[loc[1]:]
		}
	}
	return raws
}

// dashAside matches a remark set off by a pair of dashes: "who met at Marlin — Niall ran engineering, Orla
// ran customer success — and left in 2025".
var dashAside = regexp.MustCompile(` [—–] ([^—–]+?) [—–] `)

// asideKeeps are words that make a dashed remark part of what the sentence says about people and companies
// ("Gripwell's founding team — CEO Harriet Lowe and CTO Samir Haddad — will join").
var asideKeeps = regexp.MustCompile(`(?i)found|chief|\bceo\b|\bcto\b|\bcoo\b|\bcfo\b|president|\bhead\b|started|launched|built|spun|acquir|invest|partner`)

// dropAsides leaves out the dashed remarks that tell neither of founding nor of a role and read as a clause
// of their own, so that the sentence around them reads as one.
func dropAsides(raws []string) []string {
	for i, raw := range raws {
		raws[i] = dashAside.ReplaceAllStringFunc(raw, func(m string) string {
			inner := dashAside.FindStringSubmatch(m)[1]
			lower := 0
			for _, w := range strings.Fields(inner) {
				if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) {
					lower++
				}
			}
			if asideKeeps.MatchString(inner) || lower < 3 || !strings.Contains(inner, ",") {
				return m
			}
			return " "
		})
	}
	return raws
}

// spokesQuote matches a sentence that quotes a company's spokesperson: the quote, then "said a Taxwell
// spokesperson" or "a Taxwell spokeswoman said".
var spokesQuote = regexp.MustCompile(`^["“](.+?)[,.!?]?["”],? (?:said|says|according to|a|an|said a|said an|says a|says an) (?:a |an |the )?(\p{Lu}[\p{L}\d&'-]*(?: \p{Lu}[\p{L}\d&'-]*){0,3}) (?:spokesperson|spokeswoman|spokesman|representative|statement)\b`)

// ownersInQuote matches "our" before the words naming a company's founders or leaders, inside a quote.
var ownersInQuote = regexp.MustCompile(`\b(?:Our|our) ((?:co-)?founders?|founding team|chief executive|CEO)\b`)

// quotedOwners reads "our founders" in a spokesperson's quote as the founders of the spokesperson's company:
// "\"Our founders, Rasmus Holm and Ida Kjær, spent a decade as tax advisers,\" said a Taxwell spokesperson".
func quotedOwners(raws []string) []string {
	for i, raw := range raws {
		m := spokesQuote.FindStringSubmatchIndex(raw)
		if m == nil {
			continue
		}
		company := raw[m[4]:m[5]]
		quote := ownersInQuote.ReplaceAllString(raw[m[2]:m[3]], company+"'s $1")
		raws[i] = raw[:m[2]] + quote + raw[m[3]:]
	}
	return raws
}

// sharedWork matches a sentence that opens with a participle telling of work done with another company and
// names no doer: "Co-developed with Soundhaus, the Berlin plug-in maker founded by ...".
var sharedWork = regexp.MustCompile(`^(?:Co-developed|Co-built|Co-designed|Co-produced|Co-created|Developed|Built|Designed|Produced|Created|Made) (?:(?:together|jointly|in partnership|in collaboration) )?with `)

// participleSubject names the tracked company as the doer of a sentence that opens with sharedWork, when no
// other company is the item's topic there: release notes and posts by the company leave it unsaid.
func (m *matcher) participleSubject(raw, topic string) (string, bool) {
	if topic != "" && topic != m.display || !sharedWork.MatchString(raw) {
		return "", false
	}
	return m.display + " " + strings.ToLower(raw[:1]) + raw[1:], true
}

// hiredPeople returns the people, other than its founders, the item says the tracked company hires or
// appoints, by normalised name.
func (sc *itemScan) hiredPeople() map[string]bool {
	out := make(map[string]bool)
	for si, s := range sc.sents {
		if !sc.hire[si] {
			continue
		}
		for _, sp := range s.spans {
			if sp.person && !sc.m.founders[sp.personKey()] {
				out[sp.personKey()] = true
			}
		}
	}
	return out
}

// notPeople settles the names the leads of an item give both as a person and as a company, as a list read
// wrongly does ("Jane Doe of John Roe" beside "John Roe of Bluefern"): a name that is the company of
// several leads is a company, and its leads as a person go; else it is a person, and its leads as a
// company go.
func notPeople(cs []Candidate) []Candidate {
	people := make(map[string]bool, len(cs))
	companies := make(map[string]int, len(cs))
	for _, c := range cs {
		people[normalizePerson(c.PersonName)] = true
		companies[normalizePerson(c.CompanyName)]++
	}
	return slices.DeleteFunc(cs, func(c Candidate) bool {
		if k := normalizePerson(c.PersonName); companies[k] > 1 {
			return true
		}
		k := normalizePerson(c.CompanyName)
		return people[k] && companies[k] == 1
	})
}

// fullName is a person named in full, by the last name they may be named by later.
type fullName struct {
	name string
	sent int // the first sentence that names them in full
	tok  int // and the token there
}

// shortNames maps the last names of the people the sentences name in full to those people; a last name
// two people share maps to an empty name. Only names read as a person's count: a common given name first,
// a role, "said" or a founder's words around them, or a founder of the tracked company (founders).
func shortNames(sents []*sentence, founders map[string]bool) map[string]fullName {
	full := make(map[string]fullName)
	for si, s := range sents {
		for i, t := range s.toks {
			if t.span < 0 {
				continue
			}
			sp := s.spans[t.span]
			if !sp.person || len(sp.words) < 2 || !firstNames[strings.ToLower(fold(sp.words[0]))] && !s.confirmedPerson(i) && !founders[normalizePerson(sp.text)] {
				continue
			}
			keys := []string{fold(sp.words[len(sp.words)-1]), firstNameKey + fold(sp.words[0])}
			// A last name of several words: "Gutiérrez Lopera" after "Hernán Darío Gutiérrez Lopera", "Van Wyk"
			// after "Pieter van Wyk".
			for n := 2; n < len(sp.words); n++ {
				if tail := sp.words[len(sp.words)-n:]; !firstNames[strings.ToLower(fold(tail[0]))] {
					keys = append(keys, tailKey(tail))
				}
			}
			for _, k := range keys {
				if prev, ok := full[k]; ok {
					if normalizePerson(prev.name) != normalizePerson(sp.text) {
						full[k] = fullName{}
					}
					continue
				}
				full[k] = fullName{name: sp.text, sent: si, tok: i}
			}
		}
	}
	return full
}

// firstNameKey marks the keys of shortNames that are given names.
const firstNameKey = "first:"

// tailKey is the key of shortNames of a last name of several words.
func tailKey(words []string) string {
	return "tail:" + strings.ToLower(fold(strings.Join(words, " ")))
}

// expand writes out in full, in sentence s at index si of the item, the people named by their last name
// alone after the item named them in full ("Haddad founded Veil with ..."), or by a common given name the
// item gives one person only, so that the patterns read them as people and the lead carries the full name.
func (sc *itemScan) expand(s *sentence, si int, short map[string]fullName) {
	if len(short) == 0 {
		return
	}
	for i, t := range s.toks {
		if t.span < 0 {
			continue
		}
		sp := &s.spans[t.span]
		if f := short[tailKey(sp.words)]; len(sp.words) > 1 && f.name != "" && (f.sent < si || f.sent == si && f.tok < i) {
			sc.expanded[f.name] = true
			sp.text, sp.words, sp.person, sp.key, sp.pkey, sp.expanded = f.name, strings.Fields(f.name), true, "", "", true
			s.toks[i].text = f.name
			continue
		}
		if len(sp.words) != 1 || sp.companyish || sp.person {
			continue
		}
		f := short[fold(sp.words[0])]
		if f.name == "" || f.sent > si || f.sent == si && f.tok > i {
			// A given name alone names the one person of the item who has it, named before or after:
			// "Bluefern's founders, Jane and John, ... Jane Doe will lead".
			f = short[firstNameKey+fold(sp.words[0])]
			if f.name == "" || !firstNames[strings.ToLower(fold(sp.words[0]))] || s.givenName(i) {
				continue
			}
		}
		if i+1 < len(s.toks) && strings.HasPrefix(s.toks[i+1].form, rolePrefix) {
			continue
		}
		sc.expanded[f.name] = true
		sp.text, sp.words, sp.person, sp.key, sp.pkey, sp.expanded = f.name, strings.Fields(f.name), true, "", "", true
		s.toks[i].text = f.name
	}
}

// personNamed reports whether name is a person's full name the item also gives by a last or given name
// alone.
func (sc *itemScan) personNamed(name string) bool {
	return sc.expanded[name]
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
	if strings.HasPrefix(form, rolePrefix+"founder-") {
		return true // "founder-CEO"
	}
	return isCofounderRole(form)
}

// isCofounderRole reports whether a prepared token is the role co-founder or co-founders.
func isCofounderRole(form string) bool {
	bare := strings.TrimPrefix(form, rolePrefix)
	for _, p := range []string{"co-founder-", "cofounder-"} {
		if strings.HasPrefix(bare, p) {
			bare = strings.TrimSuffix(p, "-") // "co-founder-CTO"
		}
	}
	switch bare {
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
	return next.span >= 0 && s.spans[next.span].person && len(s.spans[next.span].words) == 2 && !s.spans[next.span].expanded
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
			"entrepreneurs", "duo", "pair", "trio", "team", "couple", "siblings", "sisters", "brothers", "friends":
			return true
		}
	}
	return false
}

// antecedent finds the person "she" or "he" in a link refers to: the first person named earlier in the
// same sentence, other than one whose name is a possessive, else in one of the two sentences before.
func (sc *itemScan) antecedent(l link) (sent, tok int, ok bool) {
	s := sc.sents[l.sent]
	for i := 0; i < l.company; i++ {
		if t := s.toks[i]; t.span >= 0 && s.spans[t.span].person && !slices.Contains(l.with, i) &&
			(i+1 >= len(s.toks) || s.toks[i+1].form != "'s") { // not "Pereira's co-founder, Tilly Nguyen, ... she"
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
	founder := sc.m.founders[normalizePerson(mn.name)] || sc.founderPartner(mn)
	atTracked := slices.Contains(words, "T") || founder
	departed := hasDeparture(words, founder) || hasDeparture(strings.Fields(mn.link.tail), founder)
	crel := sc.rels[company]
	if sc.sents[l.sent].beforeTracked() {
		return "" // "before Glasswing he started Tavla": a venture from before the tracked company
	}
	if crel == "" && (sc.sents[l.sent].soldAfter(l.company) || sc.sents[l.sent].closedAfter(l.company)) {
		return "" // "Tapestry, a design-systems tool sold in 2017": a past venture
	}
	switch {
	case crel == RelSpinoutFounder && l.kind != kindJoin:
		return RelSpinoutFounder
	case crel == RelAcquiredFounder && (l.kind == kindFound || l.kind == kindLead && l.people[0] > l.company) && !departed:
		// An acquired company's founders, or the people said to run it ("Bluefern, the start-up run by
		// John and Jane Roe"); not the people who lead something for the tracked company after the deal.
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

// founderPartner reports whether the person of mn is introduced as the co-founder of a founder of the
// tracked company named just before ("Harriet Wolfe set up Tidemark in 2019. Her co-founder, Imran Shah,
// left in 2024 to start Clauseworks"): a founder of the tracked company too.
func (sc *itemScan) founderPartner(mn mention) bool {
	pre := strings.Fields(sc.sents[mn.sent].pre(mn.tok))
	i := slices.IndexFunc(pre, isCofounderRole)
	if i < 1 || i < len(pre)-2 || (i == len(pre)-2 && pre[i+1] != ",") {
		return false
	}
	switch pre[i-1] {
	case "her", "his", "their":
	default:
		return false
	}
	for si := mn.sent; si >= 0 && si >= mn.sent-1; si-- {
		s := sc.sents[si]
		for j, t := range s.toks {
			if si == mn.sent && j >= mn.tok {
				break
			}
			if t.span >= 0 && s.spans[t.span].person && sc.m.founders[normalizePerson(t.text)] {
				return true
			}
		}
	}
	return false
}

// soldAfter reports whether the words after the company at token i say it was sold ("a logistics start-up
// he founded in 2012 and sold in 2015", "which was acquired by Google"): a venture of the past.
func (s *sentence) soldAfter(i int) bool {
	if s.soldBefore(i) {
		return true
	}
	for j := i + 1; j < len(s.toks) && j <= i+10; j++ {
		switch s.toks[j].form {
		case "T", ";":
			return false
		case "sold":
			return true
		case "selling":
			if j+1 < len(s.toks) && (s.toks[j+1].form == "it" || s.toks[j+1].form == "the") {
				return true // "before selling it to Adyen", not "a start-up selling permits"
			}
		case "acquired":
			if j+2 < len(s.toks) && s.toks[j+1].form == "by" && s.toks[j+2].form != "T" {
				return true
			}
		}
	}
	return false
}

// soldBefore reports whether the words just before the company at token i tell of selling or leaving it
// behind as a past venture: "after selling her first company, Loopwise", "having sold his previous start-up
// Tillpoint".
func (s *sentence) soldBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-6; j-- {
		switch f := s.toks[j].form; {
		case f == "T" || s.toks[j].span >= 0:
			return false
		case f == "selling" || f == "sold" || f == "exiting" || f == "exited":
			return true
		case f == "first" || f == "previous" || f == "earlier" || f == "last" || f == "prior":
			return j > 0 && (s.toks[j-1].form == "her" || s.toks[j-1].form == "his" || s.toks[j-1].form == "their") && s.pastTense(j)
		}
	}
	return false
}

// pastTense reports whether a verb before token j in the sentence tells that the founding happened before
// ("founded Northwind after ... her first company"): "after" or "before" opens the phrase.
func (s *sentence) pastTense(j int) bool {
	for k := j - 1; k >= 0 && k >= j-4; k-- {
		switch s.toks[k].form {
		case "after", "before":
			return true
		}
	}
	return false
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
		case departureVerbs[w] || (w == "moving" || w == "moves" || w == "moved") && i+1 < len(words) && words[i+1] == "on":
			// "leaves", "is moving on"
			if founder || trackedNear(words, i, 6, 6) {
				return true
			}
		case departureBefore[w]:
			if trackedNear(words, i, 0, 6) || i > 0 && words[i-1] == "T" || i > 1 && words[i-1] == "'s" && words[i-2] == "T" {
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

// trackedRaises reports whether the tracked company is the subject of a verb of raising money in the
// sentence: "T raises", "T has raised", "T, which sells scores to lenders, has raised".
func (s *sentence) trackedRaises() bool {
	for r, t := range s.toks {
		switch t.form {
		case "raises", "raised", "raising", "closes", "closed", "secures", "secured", "lands", "landed", "bags", "nabs":
		default:
			continue
		}
		for j := r - 1; j >= 0; j-- {
			switch {
			case s.toks[j].form == "T":
				return !s.trackedGoverned(j)
			case s.toks[j].span >= 0 || s.toks[j].form == ";" || s.toks[j].form == "and":
				return false
			case s.toks[j].form == ",":
				// A clause between commas describes the subject: skip it.
				k := j - 1
				for k >= 0 && s.toks[k].form != "," && s.toks[k].form != "T" {
					k--
				}
				if k < 0 || s.toks[k].form != "," || k+1 >= j || !clauseOpeners[s.toks[k+1].form] {
					return false
				}
				j = k
			}
		}
	}
	return false
}

// weRaised reports whether the sentence says "we" raised or closed something: "we've closed", "we just raised".
func (s *sentence) weRaised() bool {
	for i, t := range s.toks {
		if t.form != "we" && t.form != "we've" {
			continue
		}
		for j := i + 1; j < len(s.toks) && j <= i+3; j++ {
			if raiseVerbs[s.toks[j].form] {
				return true
			}
		}
	}
	return false
}

// opensWithRound reports whether the sentence has no subject before the round or amount mn: it opens with
// it ("$4.2M seed led by Wasatch Frontier Fund") or with the verb that raised it ("raised a $900K pre-seed").
func (s *sentence) opensWithRound(mn stageMention) bool {
	if mn.at <= 1 {
		return true
	}
	first := s.toks[0].form
	if first == "just" && len(s.toks) > 1 {
		first = s.toks[1].form
	}
	return raiseVerbs[first]
}

// raiseVerbs say that money was raised.
var raiseVerbs = wordSet(`raised raise closed close secured landed`)

// trackedGoverned reports whether the tracked company at token j is the object of a word before it, so that it
// is not the subject of the verb after it: "former managers of Freiburg sensor maker Lattice have raised",
// "engineers who left Lattice last year have raised".
func (s *sentence) trackedGoverned(j int) bool {
	for k := j - 1; k >= 0 && k >= j-4; k-- {
		switch f := s.toks[k].form; {
		case f == "," || f == ";":
			return false
		case governors[f]:
			return true
		}
	}
	return false
}

// governors take the name after them as their object.
var governors = wordSet(`of at from left quit leaving`)

// clauseOpeners open a clause that describes the name before it.
var clauseOpeners = wordSet(`which who that a an the its whose`)

// buyVerbs buy a company.
var buyVerbs = wordSet(`acquire acquires acquired acquiring buy buys bought buying`)

// trackedAcquirer returns the token of the company the sentence says acquires the tracked company ("Harbourview
// Software has acquired T", "Stratum Cloud ... an agreement to acquire T", "T was bought by Lumio", "T is now
// part of Sendhome"), or -1.
func (s *sentence) trackedAcquirer() int {
	for j, t := range s.toks {
		switch {
		case buyVerbs[t.form] && j+1 < len(s.toks) && s.toks[j+1].form == "T":
			// The buyer is the nearest company before the verb that does not describe a noun.
			for i := j - 1; i >= 0 && s.toks[i].form != "T" && s.toks[i].form != ";"; i-- {
				if sp := s.toks[i].span; sp >= 0 && !s.spans[sp].person && !s.spans[sp].place && !s.describesNext(i) && !s.describesNoun(i) {
					return i
				}
			}
		case buyVerbs[t.form] && j+2 < len(s.toks) && s.toks[j+1].form == "by" && s.isCompanyLike(j+2) && s.toks[j+2].form != "T" &&
			slices.ContainsFunc(s.toks[max(0, j-6):j], func(t token) bool { return t.form == "T" }):
			return j + 2 // "T was acquired by Lumio", "T has agreed to be acquired by Pollster Group"
		case t.form == "T":
			k := j + 1
			for k < len(s.toks) && partOfVerbs[s.toks[k].form] {
				k++
			}
			if k > j+1 && k+2 < len(s.toks) && s.toks[k].form == "part" && s.toks[k+1].form == "of" && s.isCompanyLike(k+2) && s.toks[k+2].form != "T" {
				return k + 2
			}
		}
	}
	return -1
}

// leftCompany reports whether the sentence says someone left the company named company: "left Vira Hälsa".
func (s *sentence) leftCompany(company string) bool {
	for i := 1; i < len(s.toks); i++ {
		if s.toks[i].text == company && s.toks[i].span >= 0 && s.leftAt(i-1) {
			return true
		}
	}
	return false
}

// partOfVerbs stand between the tracked company and "part of" its buyer: "T is now part of Sendhome".
var partOfVerbs = wordSet(`is now has become becomes became officially`)

// becomesCompany matches a sentence that tells of a team or unit becoming a company of its own: "Today that
// team becomes its own company: Kelpworks", "the unit will become a standalone company".
var becomesCompany = regexp.MustCompile(`\b(?:becomes|became|become|becoming|is now|are now|turns into|turned into) (?:its|their) own (?:company|business|start-up|startup)\b|\b(?:becomes|became|become|becoming|as|into|is now|are now) (?:a|an) (?:separate|independent|standalone|stand-alone) (?:company|business|start-up|startup)\b`)

// ownCompanyRelation marks the companies a sentence names as spun out when it tells of a team becoming a
// company of its own; it is read where the sentence or the one before names the tracked company.
func (s *sentence) ownCompanyRelation(rels map[string]string) {
	if !becomesCompany.MatchString(s.raw) {
		return
	}
	for i, t := range s.toks {
		if t.span < 0 || t.form == "T" || !s.isCompanyLike(i) || s.spans[t.span].person {
			continue
		}
		k := normalizeCompany(t.text)
		if companyRelationRank[RelSpinoutFounder] > companyRelationRank[rels[k]] {
			rels[k] = RelSpinoutFounder
		}
	}
}

// hasTracked reports whether the sentence names the tracked company.
func (s *sentence) hasTracked() bool {
	return slices.ContainsFunc(s.toks, func(t token) bool { return t.form == "T" })
}

// pluralNouns name several companies at once.
var pluralNouns = wordSet(`companies start-ups startups businesses firms ventures teams`)

// pluralCues are the deal words that name several deals, which a colon then lists.
var pluralCues = wordSet(`investments acquisitions partnerships partners`)

// pluralDeal returns the relation of a sentence in which the tracked company deals with several companies
// it does not name there ("Lumina has invested in three climate start-ups this quarter"), so that the
// sentences after, which list them, can be read as naming them; else "".
func (s *sentence) pluralDeal() string {
	for j, t := range s.toks {
		rel := relationCues[word(t.form)]
		if rel != "" && t.span < 0 && pluralCues[word(t.form)] && s.toks[len(s.toks)-1].form == ":" {
			return rel // "The first six investments, made from the new fund in March, are:"
		}
		if rel == "" || t.span >= 0 || s.cueAt(j, j) != rel && rel != RelPartnerFounder {
			continue
		}
		for k := j + 1; k < len(s.toks) && k <= j+6; k++ {
			if s.toks[k].span >= 0 || s.toks[k].form == "T" {
				break
			}
			if pluralNouns[s.toks[k].form] {
				return rel
			}
		}
	}
	return ""
}

// listHeading returns the relation of a heading over the tracked company's list of the companies it invests in
// or partners with ("Portfolio", "Our partners"), on its own pages or under a title naming it ("Portfolio –
// Innkraft Venture Studio"), so that the companies the page lists next are read as such; else "".
func (s *sentence) listHeading(own bool) string {
	if !own || len(s.toks) > 6 {
		return ""
	}
	for _, t := range s.toks {
		if rel := headingRelations[strings.ToLower(t.text)]; rel != "" {
			return rel
		}
	}
	return ""
}

// headingRelations map the words of a list's heading onto the relation of the companies it lists.
var headingRelations = map[string]string{
	"portfolio": RelPortfolioFounder, "investments": RelPortfolioFounder, "partners": RelPartnerFounder,
}

// listedCompanies gives rel to the companies a sentence after a plural deal names, unless the sentence
// says something else of them; under a page's heading (heads), only to the company that opens it, as
// "Hinoki Health — rehabilitation exoskeletons. Founded by ..." does.
func (s *sentence) listedCompanies(rels map[string]string, rel string, heads bool) {
	for i, t := range s.toks {
		if t.form == "T" || heads && i > 0 {
			return
		}
		if t.span < 0 || s.spans[t.span].person || !s.isCompanyLike(i) || s.notOwner(i) || placeBefore(s, i) ||
			legalSuffixes[strings.ToLower(t.text)] {
			continue
		}
		if i > 0 {
			// Only the heads of the list: "Heatloop, founded by ...; Rainfield, whose founders ...", not
			// "met at Spotify".
			switch s.toks[i-1].form {
			case ",", ";", ":", "and", "are", "is", "include", "includes", "including", "•", "-", "—", "–":
			default:
				continue
			}
		}
		if k := normalizeCompany(t.text); rels[k] == "" {
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
	if rel == RelPartnerFounder && s.titleOfPerson(j) {
		return "" // "Index Ventures, whose partner Mark Lee ...": an investor's partner is a person's title
	}
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

// titleOfPerson reports whether the role word at token j is the title of the person named right after it
// ("partner Mark Lee", "partner, Mark Lee").
func (s *sentence) titleOfPerson(j int) bool {
	if !strings.HasPrefix(s.toks[j].form, rolePrefix) {
		return false
	}
	k := j + 1
	if k < len(s.toks) && s.toks[k].form == "," {
		k++
	}
	return k < len(s.toks) && s.toks[k].span >= 0 && s.spans[s.toks[k].span].person
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
var stageWords = words("pre-?seed.* preseed.* seed.* angels? angel-.* series.* serie série growth.* late.* ipo initial public listing listed")

// isCompanyLike reports whether token i can own a funding round: the tracked company or a name that is
// not a person's.
func (s *sentence) isCompanyLike(i int) bool {
	t := s.toks[i]
	return t.form == "T" || t.span >= 0 && !s.spans[t.span].place && (!s.spans[t.span].person || s.companyContext(i)) && !strings.ContainsAny(t.text, "$€£") && !s.givenName(i)
}

// describesPersonAt reports whether the company at token i only says where a person works or worked:
// "previously an engineer at Adyen", and for the tracked company "Lattice scientist Priyanka Rao",
// "Northwind's former VP of software, Anil Kapoor".
func (s *sentence) describesPersonAt(i int) bool {
	if i >= 2 && s.toks[i-1].form == "at" {
		if f := s.toks[i-2].form; strings.HasPrefix(f, rolePrefix) || deptWords[f] {
			return true // "a former head of product at Lattice Pay"
		}
	}
	if s.toks[i].form != "T" {
		return false
	}
	for j := i + 1; j < len(s.toks) && j <= i+3; j++ {
		switch f := s.toks[j].form; {
		case strings.HasPrefix(f, rolePrefix):
			return true
		case f != "'s" && f != "former" && f != "ex" && f != "then":
			return false
		}
	}
	return false
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
	if j := s.namedFor(at); j >= 0 {
		return j
	}
	// "Fernway led its $6 million Series A": the round of the company the item is about, not the tracked
	// company's.
	for j := at - 1; j >= 0 && j >= at-4; j-- {
		if f := s.toks[j].form; f == "its" || f == "their" {
			named := false
			for k := j - 1; k >= 0; k-- {
				if k > 0 && relationCues[s.toks[k].form] == RelPortfolioFounder && s.toks[k-1].form == "T" {
					return -1
				}
				named = named || s.isCompanyLike(k) && !s.notOwner(k) && (f == "its" || s.toks[k].form != "T")
			}
			if !named {
				// "We joined their $900K angel round": the round of the company the item is about.
				return -1
			}
			break
		}
	}
	// "Bergwerk, founded by ..., builds customs software for SMEs; it raised CHF 1.5m": the round is that of
	// the first company the sentence names or, failing one, of the company the sentences before were about.
	for j := at - 1; j >= 0 && j >= at-6; j-- {
		t := s.toks[j]
		if t.span >= 0 || t.form == "T" {
			break
		}
		if t.form == "it" || nounWordSet[t.form] && j > 0 && s.toks[j-1].form == "the" {
			// Another company before the tracked one: "Acme invested in Bluefern as part of the start-up's
			// Series A".
			owner := -1
			for k := 0; k < j; k++ {
				if head[k] < 0 && s.isCompanyLike(k) && !s.notOwner(k) && !placeBefore(s, k) && !s.describesPersonAt(k) {
					if s.toks[k].form != "T" {
						return k
					}
					if owner < 0 {
						owner = k
					}
				}
			}
			return owner
		}
	}
	for j := at - 1; j >= 0; j-- {
		if head[j] < 0 && s.isCompanyLike(j) && !s.notOwner(j) && !placeBefore(s, j) && !s.describesPersonAt(j) {
			return j
		}
	}
	for j := at + 1; j < len(s.toks); j++ {
		if head[j] < 0 && s.isCompanyLike(j) && !s.notOwner(j) && !placeBefore(s, j) && !s.trackedModifier(j) {
			return j
		}
	}
	return -1
}

// namedFor returns the company a preposition after the round or amount at token at names as its owner, or -1:
// "the seed round of Falaj Sensors", even when the company is named like a person, or "€5.5 million for
// their own company, Lichtweg".
func (s *sentence) namedFor(at int) int {
	for j := at + 1; j < len(s.toks) && j <= at+4; j++ {
		switch s.toks[j].form {
		case "of", "in", "for", "into":
		default:
			continue
		}
		k := j + 1
		if k < len(s.toks) && s.toks[j].form != "in" && ownerDeterminers[s.toks[k].form] {
			for k++; k < len(s.toks) && ownerAdjectives[s.toks[k].form]; k++ {
			}
			if k >= len(s.toks) || !nounWordSet[s.toks[k].form] {
				continue
			}
			if k++; k < len(s.toks) && s.toks[k].form == "," {
				k++
			}
		}
		if k < len(s.toks) && (s.isCompanyLike(k) || s.isCompanyAt(k)) && !s.notOwner(k) {
			return k
		}
	}
	return -1
}

// ownerDeterminers and ownerAdjectives open the noun that a company's name then gives in apposition: "for
// their own company, Lichtweg", "into his new start-up Fernleaf".
var (
	ownerDeterminers = wordSet(`its their his her`)
	ownerAdjectives  = wordSet(`own new young`)
)

// trackedModifier reports whether the tracked company at token j only describes the word after it, as
// "our" does in "which our investment extends".
func (s *sentence) trackedModifier(j int) bool {
	if s.toks[j].form != "T" || j+1 >= len(s.toks) {
		return false
	}
	next := s.toks[j+1]
	if next.span >= 0 || len(next.text) < 2 || !isLowerWord(next.text) || strings.HasSuffix(next.form, "ed") || strings.HasSuffix(next.form, "s") {
		return false
	}
	switch next.form {
	case "will", "would", "can", "could", "should", "may", "might", "must", "now", "today", "also", "just", "and", "or", "to":
		return false
	}
	return true
}

// notOwner reports whether the name at token j cannot own a funding round: an investor, a place, a month,
// or a name describing the word after it ("former RAAF engineers").
func (s *sentence) notOwner(j int) bool {
	if s.toks[j].form == "T" {
		return false
	}
	return s.investorAt(j) || s.placeAt(j) || s.describesNoun(j) || s.beforeRole(j) || s.adjectiveAt(j) || s.notCompanyAt(j)
}
