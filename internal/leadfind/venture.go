package leadfind

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The patterns read one sentence at a time and need a person and a company in a fixed phrasing. Articles
// also name a new company in one sentence and its people in the next ("Laurent's co-founder is Ana
// Duarte", "My co-founder is Zodwa Khumalo"), or put the people in a first-person post. The venture reading
// below finds the companies an item is about (started, spun out, acquired, invested in or partnered with)
// and then the people the item names as their founders or leaders.

// found is a person the item ties to a company, before it becomes a Candidate.
type found struct {
	name, role, company, summary, relation string
	sent, tok                              int
	venture                                bool // found by the venture reading, which yields to the patterns
	byPronoun                              bool // the person is the one "she" or "he" refers to
}

// ventureCues, before a company, say it is being started or is new ("left to start Portlane", "a new
// studio: Paperlantern Games", "spinning out its lab as Soilbank").
var ventureCues = wordSet(`start starts started starting found founds founded founding co-found co-founds co-founded
co-founding cofound cofounds cofounded launch launches launched launching unveil unveils unveiled building build builds
spinning spin spins spun becomes become company: start-up: studio: startup: launching: thing: co: w/ opened open opens acquired acquire
acquires acquiring bought buys buy buying welcome welcomes welcoming merge merges merged`)

// ventureAfter, right after a company, say it was started or is new ("Shiftly was started", "Cardiowave
// emerged from stealth").
var ventureAfter = wordSet(`started founded co-founded cofounded launched emerged emerges emerging`)

// founderRoles are the roles that make a person a founder or leader of a company.
var founderRoles = wordSet(`founder founders co-founder co-founders cofounder cofounders ceo cto coo cfo cpo co-ceo`)

// founderVerbs tie a person to a company they start or lead.
var founderVerbs = wordSet(`started starting start starts founded co-founded cofounded co-founds co-found founds
launched launches launching lead leads led leading run runs heads headed helmed building builds built created creates set`)

// postSiteNames are the networks a social post's title names: "Jane Doe on LinkedIn", "Jane Doe on X: ...".
const postSiteNames = `LinkedIn X Twitter Threads Bluesky Mastodon`

// postSites are postSiteNames lowercased.
var postSites = wordSet(strings.ToLower(postSiteNames))

// authorPattern reads the author of a social post from its title: "Jane Doe on LinkedIn", with or without
// words after a colon or a dash ("Jane Doe on LinkedIn: Something new").
var authorPattern = regexp.MustCompile(`^(.+?) on (?:` + strings.ReplaceAll(postSiteNames, " ", "|") + `)(?:\s*[:|–—-].*)?$`)

// postByPattern reads the author of a post titled "Post by Jonas Ek (@jonasek)" or "Post by Jonas Ek: ...".
var postByPattern = regexp.MustCompile(`^Post by (\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,3})(?:\s*\(@[\w.]+\))?(?:\s*[:|–—-].*)?$`)

// signaturePattern reads a signature that ends a post's last line: "... a minority investor. — Jean-Claude
// Mugabo".
var signaturePattern = regexp.MustCompile(`[.!?)]\s*(?:--|[—–]) ?(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,2})$`)

// notePattern reads the writer a heading gives: "A personal note from Onur Acar", "A letter from Yusuf".
var notePattern = regexp.MustCompile(`(?im)^[#\s]*(?:a )?(?:personal )?(?:note|letter|message) from (\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,2})\s*$`)

// signedFounderPattern reads a signature that names the writer's company: "-- Daniel Cho, co-founder & CEO,
// Kinroot".
var signedFounderPattern = regexp.MustCompile(`^(?:--|[—–-])\s*(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’.-]+){1,3}),\s*(?i:co-?founder|founder)[^,\n]*,\s*(\p{Lu}[^,\n]{1,40}?)\.?$`)

// signedCompany returns the company the last line of text signs for its writer, name ("-- Daniel Cho,
// co-founder & CEO, Kinroot"), or "".
func signedCompany(text, name string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	m := signedFounderPattern.FindStringSubmatch(strings.TrimSpace(lines[len(lines)-1]))
	if m == nil || m[1] != name {
		return ""
	}
	return strings.TrimSpace(m[2])
}

// bylinePattern reads the author of a blog post from its first line ("By Jane Doe") or its last ("— Jane
// Doe").
var bylinePattern = regexp.MustCompile(`^(?:By|--|[—–-]) ?(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,2})$`)

// authorOf returns the author of a post: the name in a social post's title, the person a handle there stands
// for ("@kenjimori" for Kenji Mori, a founder of the tracked company or a person the item names), or a
// byline; "" when there is none.
func (sc *itemScan) authorOf(it Item) string {
	title := strings.TrimSpace(it.Title)
	if m := postByPattern.FindStringSubmatch(title); m != nil {
		return m[1]
	}
	if name, _, ok := strings.Cut(title, ": "); ok && looksLikePerson(strings.Fields(name)) &&
		(firstNames[strings.ToLower(fold(strings.Fields(name)[0]))] || !strings.Contains(it.Text, name) && singularVoice.MatchString(it.Text)) {
		// "Ruth Wanjohi: Welcoming my co-founder to Chama Cloud"; "Sioned Hopkins: something new" over a
		// text in the first person that never names them.
		return name
	}
	if m := authorPattern.FindStringSubmatch(title); m != nil {
		name := strings.TrimSpace(m[1])
		if at := strings.Index(name, " (@"); at > 0 && strings.HasSuffix(name, ")") {
			name = name[:at] // "Rohan Iyer (@rohan_iyer) on X"
		}
		if !strings.HasPrefix(name, "@") {
			return name
		}
		handle := strings.ToLower(name[1:])
		for _, f := range sc.m.founderNames {
			if handleOf(f) == handle || founderHandle(handle, handleOf(f)) {
				return f
			}
		}
		for _, s := range sc.sents {
			for _, sp := range s.spans {
				if sp.person && len(sp.words) > 1 && handleOf(sp.text) == handle {
					return sp.text
				}
			}
		}
		return ""
	}
	lines := strings.Split(strings.TrimSpace(it.Text), "\n")
	for len(lines) > 1 && (strings.TrimSpace(lines[len(lines)-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "#")) {
		lines = lines[:len(lines)-1] // "#Qatar #AI #startups" after the signature
	}
	for _, l := range []string{lines[0], lines[len(lines)-1]} {
		if m := bylinePattern.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			return m[1]
		}
	}
	if m := signaturePattern.FindStringSubmatch(strings.TrimSpace(lines[len(lines)-1])); m != nil {
		return m[1]
	}
	if m := notePattern.FindStringSubmatch(it.Text); m != nil {
		return m[1]
	}
	return ""
}

// singularVoice finds a writer speaking of themselves.
var singularVoice = regexp.MustCompile(`(?i)\b(?:i|i'm|i've|i'll|my|me)\b`)

// handleOf returns the handle a person's name would make: its letters, folded and lowercased.
func handleOf(name string) string {
	var b strings.Builder
	for _, r := range fold(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if r >= 'A' && r <= 'Z' {
			b.WriteRune(r + 'a' - 'A')
		}
	}
	return b.String()
}

// withBefore reports whether "with" comes before the person at token i, at most three describing words
// between: "with Meera Khanna", "with my old friend Chiara Bellini".
func (s *sentence) withBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		f := s.toks[j].form
		if f == "with" || f == "w/" || f == "alongside" {
			return true
		}
		if s.toks[j].span >= 0 || !isLowerWord(f) {
			return false
		}
	}
	return false
}

// coAuthors returns the people a post's author names as starting the company with them, as sentence and
// token indexes: "Cian Doyle and I left our jobs", "I'm starting Ferrule with Meera Khanna", "my co-founder
// is Tobi Adewale".
func (sc *itemScan) coAuthors() [][2]int {
	var out [][2]int
	for si, s := range sc.sents {
		for i, t := range s.toks {
			if t.span < 0 || !s.spans[t.span].person || sc.m.founders[normalizePerson(t.text)] {
				continue
			}
			after := func(k int) string {
				if i+k < len(s.toks) {
					return s.toks[i+k].form
				}
				return ""
			}
			before := func(k int) string {
				if i-k >= 0 {
					return s.toks[i-k].form
				}
				return ""
			}
			next := 1
			if after(1) == "(" { // "Devi Raman (@devi_r) and I"
				for next = 2; next < 6 && after(next) != ")" && after(next) != ""; next++ {
				}
				next++
			}
			joined := (after(next) == "and" || after(next) == "&") && (after(next+1) == "i" || after(next+1) == "i'm" || after(next+1) == "i've") ||
				s.withBefore(i) && slices.ContainsFunc(s.toks[:i], func(t token) bool { return weForms[t.form] }) ||
				isCofounderRole(before(1)) && before(2) == "my" ||
				(before(1) == "is" || before(1) == ",") && isCofounderRole(before(2)) && before(3) == "my"
			if !joined && (before(1) == "and" || before(1) == "&" || before(1) == ",") && len(out) > 0 && out[len(out)-1] == [2]int{si, i - 2} {
				joined = true // "with Ji-woo Han and Marcus Obi"
			}
			if joined {
				out = append(out, [2]int{si, i})
			}
		}
	}
	return out
}

// firstPersonFounding marks a post whose author says they are starting a company.
var firstPersonFounding = regexp.MustCompile(`(?i)\b(?:i'm|i am|i've|i have|we're|we are|we've|i)\s+(?:(?:now|just|officially|finally|also|so|already)\s+)?(?:starting|started|building|co-founding|co-founded|cofounded|founding|founded|launching|launched|off to start)\b|\bmy co-?founder\b|\bto (?:build|start|found|launch) something\b|\bsomething (?:new|of my own)\b|\bmy own (?:company|start-?up)\b|\b(?:and|&) i (?:left|quit|are|have|started|founded|co-founded)\b|\bleft (?:my|our) jobs?\b|\blast day at\b|\bnext chapter\b|\bwhat'?s next\s*:|\bco-?founded (?:it )?with\b|\bi'?m (?:leaving|moving on)\b[^.\n]{0,60}?\bto (?:start|found|co-found|build|launch)\b|\bjoining [^.\n]{0,60}?\bas (?:a )?co-?founder\b|\bco-?founder (?:at|of)\b|\bi(?:'ve| have)? (?:just )?(?:left|quit)\b[^.\n]{0,60}?\bto (?:start|found|co-found|build|launch)\b|(?m:^(?:next:\s*)?(?:now\s+)?(?:building|starting|launching|co-founding)\s+\p{Lu})|\bnew (?:company|venture|start-?up)\s*:`)

// ownFounding is an author's own word that they found a company, which holds for a founder of the tracked
// company who stays there as well ("I'm starting Ferrule", "I AM co-founding something on the side").
var ownFounding = regexp.MustCompile(`(?i)\bi(?:'m| am|'ve| have)? (?:also |now |just )?(?:starting|co-founding|cofounding|founding|started|co-founded|cofounded|founded) (?:something|a (?:new )?(?:company|start-?up)|(\p{Lu}[\p{L}&'-]*))`)

// ownFounding reports whether the author of text says they found a company other than the tracked one.
func (sc *itemScan) ownFounding(text string) bool {
	for _, m := range ownFounding.FindAllStringSubmatchIndex(text, -1) {
		if m[2] < 0 {
			return true
		}
		next := fold(strings.ToLower(text[m[2]:m[3]]))
		if !slices.ContainsFunc(sc.m.names, func(name []string) bool { return name[0] == next }) {
			return true
		}
	}
	return false
}

// personWords returns the single words (first and last names) of the people the item names, so that
// "Laurent's co-founder" or "Chiara and Sipho" are read as people, not companies.
func (sc *itemScan) personWords() map[string]bool {
	out := make(map[string]bool)
	for _, f := range sc.m.founderNames {
		if words := strings.Fields(f); len(words) > 1 {
			for _, w := range words {
				out[fold(w)] = true
			}
		}
	}
	for _, s := range sc.sents {
		for i, t := range s.toks {
			if t.span < 0 || !s.spans[t.span].person || s.companyContext(i) || !s.confirmedPerson(i) {
				continue
			}
			sp := s.spans[t.span]
			for _, w := range sp.words {
				if !isInitial(w) {
					out[fold(w)] = true
				}
			}
		}
	}
	return out
}

// isCompanyAt reports whether the name at token i of s can be a company the item is about.
func (sc *itemScan) isCompanyAt(s *sentence, i int, people map[string]bool) bool {
	t := s.toks[i]
	if t.span < 0 || s.spans[t.span].place || sc.m.founders[s.spans[t.span].personKey()] || len(s.spans[t.span].words) == 1 && isDemonym(t.text) {
		return false
	}
	if s.ownsRole(i) {
		return true
	}
	// A name described by who founded it is a company, even one that reads like a person's or follows "from":
	// "Conecta Pagos, a Medellín start-up co-founded by", "sensors from ColdEye, a Hanoi start-up founded by".
	described := s.foundedByAfter(i)
	if (s.spans[t.span].person || people[s.spans[t.span].companyKey()] || s.givenName(i)) && !described {
		return false
	}
	if s.placeAt(i) || s.investorAt(i) && !(described && i > 0 && s.toks[i-1].form == "from") || s.describesNoun(i) || placeBefore(s, i) && !described || s.adjectiveAt(i) || s.notCompanyAt(i) ||
		s.trackedProduct(i) || departedBefore(s, i) || s.describesPerson(i) || s.pastEmployer(i) {
		return false
	}
	if i > 0 && s.toks[i-1].form == ":" && len(s.spans[t.span].words) == 1 && strings.Count(sc.text, t.text) < 2 &&
		i+1 < len(s.toks) && s.toks[i+1].span < 0 && isLowerWord(s.toks[i+1].text) {
		return false // "@juacool: Bittersweet news": a capitalised word opening what follows a colon
	}
	if i == 0 && len(s.spans[t.span].words) == 1 && strings.Count(sc.text, t.text) < 2 && !s.opensClause() && !s.appositiveAfter(1) {
		return false
	}
	if i > 1 && s.toks[i-1].form == ":" && postSites[strings.ToLower(s.toks[i-2].text)] && len(s.spans[t.span].words) == 1 && strings.Count(sc.text, t.text) < 2 {
		return false // "Jane Doe on LinkedIn: Something new": the first word of a post's title
	}
	k := s.nameKey(i)
	return k != "" && k != sc.m.normName && !strings.HasPrefix(t.text, "@")
}

// placeBefore reports whether the name at token i follows "in", "from" or "of" a place phrase such as "in
// Valencia", where it names a place.
func placeBefore(s *sentence, i int) bool {
	if i == 0 {
		return false
	}
	switch s.toks[i-1].form {
	case "across", "near", "outside":
		return true
	case "in":
		if i < 2 {
			return true
		}
		switch s.toks[i-2].form {
		case "invest", "invests", "invested", "investing", "investment", "investments", "stake", "stakes", "interest",
			"participated", "participates", "share", "shares", "round", "rounds":
			return false
		}
		return s.toks[i].span >= 0 && !s.spans[s.toks[i].span].companyish // the tracked company (no span) is no place
	}
	return false
}

// ventures returns the companies, by normalised name, the item says were started, spun out, acquired,
// invested in or partnered with, each with its name as written.
func (sc *itemScan) ventures(people map[string]bool) map[string]string {
	names := make(map[string]string)
	for _, s := range sc.sents {
		for i, t := range s.toks {
			if t.span >= 0 && sc.firstPerson && s.ownStart(i) {
				names[s.nameKey(i)] = t.text // "I've co-founded Lumen Ledger", even when its name reads like a person's
				continue
			}
			if t.span < 0 || !sc.isCompanyAt(s, i, people) {
				continue
			}
			k := s.nameKey(i)
			if _, ok := names[k]; ok {
				continue
			}
			if sc.rels[k] != "" || sc.newVenture[k] || (s.ventureNamed(i) || s.foundedByAfter(i)) && sc.tiedVenture(k, people) {
				names[k] = t.text
			}
		}
	}
	// A company whose founders the item names is one it is about ("Carteira, founded by Larissa Moura").
	other := ""
	for _, s := range sc.sents {
		var companies []int
		for i, t := range s.toks {
			if t.span >= 0 && sc.isCompanyAt(s, i, people) {
				if sc.firstPerson {
					if k := s.nameKey(i); names[k] == "" {
						names[k] = t.text
					}
				}
				companies = append(companies, i)
			}
		}
		if len(companies) == 0 {
			if k := normalizeCompany(other); k != "" && names[k] == "" && sc.foundersNamed(s) && sc.tiedVenture(k, people) {
				names[k] = other
			}
			continue
		}
		if last := s.lastCompany(); last != "" && last != "T" {
			other = last
		}
		for i, t := range s.toks {
			if t.span < 0 || !s.spans[t.span].person || s.describesNoun(i) || s.trackedPerson(i) || s.investorPerson(i) {
				continue
			}
			dir := s.founderCue(i)
			if dir == 0 {
				continue
			}
			if c := s.companyFor(i, dir, companies, sc.labels); c >= 0 {
				k := s.nameKey(c)
				if _, ok := names[k]; !ok && sc.tiedVenture(k, people) {
					names[k] = s.toks[c].text
				}
			}
		}
	}
	return names
}

// ownStart reports whether the name at token i is what the writer says they start: "I've co-founded Lumen
// Ledger", "we're launching Petrel", "I'm leaving to start Recibo Verde", "Mototaxi Pay, which I've co-founded".
// A name that describes the noun after it is none: "we're building AI agents".
func (s *sentence) ownStart(i int) bool {
	if k := i + 1; k < len(s.toks) && s.toks[k].span < 0 && isLowerWord(s.toks[k].text) && !stopWords[s.toks[k].form] {
		return false
	}
	// "Mototaxi Pay, which I've co-founded with ..."
	if k := i + 1; k+2 < len(s.toks) && s.toks[k].form == "," && (s.toks[k+1].form == "which" || s.toks[k+1].form == "that") {
		switch s.toks[k+2].form {
		case "i've", "we've", "i", "we":
			if k+3 < len(s.toks) && (startVerbs[s.toks[k+3].form] || buildVerbs[s.toks[k+3].form]) {
				return true
			}
		}
	}
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		switch f := s.toks[j].form; {
		case f == "a" || f == "new" || f == "company" || f == "start-up" || f == "startup" || f == "," || f == ":":
			if j == 0 && f == "new" {
				return true // "New company: Kagami"
			}
			continue
		case startVerbs[f] || buildVerbs[f]:
			k := j - 1
			for k >= 0 && ownAdverbs[s.toks[k].form] {
				k--
			}
			if k < 0 {
				return true // "Now building Tidewater with ...", "Starting Ferrule"
			}
			switch s.toks[k].form {
			case "i", "i've", "i'm", "we", "we've", "we're", "have", "am", "are":
				return true
			case "to":
				// "I'm leaving to start Recibo Verde", "I've left Mi Granja, the company Xavier and I started six
				// years ago, to co-found Cacao Norte": the writer's leaving, with no one else's between.
				for m := k - 1; m >= 0; m-- {
					switch f := s.toks[m].form; {
					case weForms[f] || f == "i" || f == "i'm" || f == "i've":
						return true
					case s.isPersonAt(m):
						return false
					}
				}
				return false
			}
			return false
		}
		return false
	}
	return false
}

// ownAdverbs stand between a writer and the verb with which they start a company: "I'm now co-founding".
var ownAdverbs = wordSet(`now just officially finally also already`)

// ventureNamed reports whether the sentence says the company at token i is being started or is new.
func (s *sentence) ventureNamed(i int) bool {
	for j := i - 1; j >= 0 && j >= i-6; j-- {
		f := s.toks[j].form
		if ventureCues[f] && !s.trackedMakes(j) || f == ":" && j > 0 && ventureCues[s.toks[j-1].form+":"] {
			return true
		}
		if s.toks[j].span >= 0 || f == "T" || f == "." {
			break
		}
	}
	for j := i + 1; j < len(s.toks) && j <= i+3; j++ {
		f := s.toks[j].form
		if ventureAfter[f] {
			return true
		}
		switch f {
		case "was", "is", "has", "had", "have", "been", "will", "be", "first", "just", "officially", "today", "(":
			continue
		}
		break
	}
	return false
}

// ventureLeads finds the people the item names as founders or leaders of its ventures.
func (sc *itemScan) ventureLeads(it Item) []found {
	people := sc.personWords()
	surnames := sc.surnames()
	departed := sc.departedFounders(surnames)
	ventures := sc.ventures(people)
	own := sc.departedVentures(departed, surnames)
	started := make(map[string]bool, len(own))
	for _, f := range own {
		k := normalizeCompany(f.company)
		started[k] = true
		if ventures[k] == "" {
			ventures[k] = f.company
		}
	}
	if len(ventures) == 0 {
		return nil
	}
	out := own
	topic := ""
	for si, s := range sc.sents {
		here := make([]int, 0, 2)
		for i, t := range s.toks {
			if t.span >= 0 && ventures[s.nameKey(i)] != "" && (started[s.nameKey(i)] || sc.isCompanyAt(s, i, people)) {
				here = append(here, i)
			}
		}
		if len(here) == 0 && sc.topics[si] != "" {
			if _, ok := ventures[normalizeCompany(sc.topics[si])]; ok {
				topic = ventures[normalizeCompany(sc.topics[si])]
			}
		}
		for i := range s.toks {
			name := sc.personAt(s, i, surnames)
			if name == "" || sc.m.founders[normalizePerson(name)] && !departed[normalizePerson(name)] && !s.foundsAfter(i) || s.beforeTracked() {
				continue
			}
			dir, owner := s.founderCue(i), s.appositiveOwner(i)
			if dir == 0 && owner >= 0 {
				dir = -1 // "Trackmind, Ahmed Benali and Greta Johansson's start-up"
			}
			if dir == 0 || s.describesNoun(i) || s.investorPerson(i) || s.companyContext(i) {
				continue
			}
			if s.trackedPerson(i) && (dir < 0 || s.companyFor(i, dir, here, sc.labels) <= i) {
				continue
			}
			company := topic
			c := s.companyFor(i, dir, here, sc.labels)
			if owner >= 0 {
				if ventures[s.nameKey(owner)] == "" {
					continue // the founder of a company the item does not tie to the tracked one
				}
				c = owner
			}
			if c >= 0 {
				company = s.toks[c].text
			} else if n := s.cueName(i, dir); n >= 0 && s.investorAt(n) {
				continue // "Sarah Lee, co-founder of Elm Street Ventures": the founder of an investor
			}
			if company == "" {
				continue
			}
			k := normalizeCompany(company)
			if c >= 0 && sc.rels[k] == "" && (s.soldAfter(c) || s.closedAfter(c) || s.buyerAt(c)) {
				continue // "Tapestry, a design-systems tool sold in 2017", "Paywise, which was sold to Stripe": a past venture
			}
			if sc.hire[si] && sc.rels[k] != RelAcquiredFounder {
				continue
			}
			rel := sc.ventureRelation(k, s, i)
			if sc.m.founders[normalizePerson(name)] {
				rel = RelDepartedToFound
			}
			out = append(out, found{name: name, company: company, summary: s.raw, relation: rel, sent: si, tok: i, venture: true})
		}
		if len(here) > 0 {
			topic = s.toks[here[len(here)-1]].text
		}
	}
	if author := sc.author; sc.firstPerson {
		if looksLikePerson(strings.Fields(author)) && (!sc.m.founders[normalizePerson(author)] || departed[normalizePerson(author)] || sc.authorLeft() ||
			sc.ownFounding(it.Text)) {
			// The company the author says they start, else the first the item ties to them.
			first := func(own bool) (string, bool) {
				for _, s := range sc.sents {
					for i, t := range s.toks {
						if k := normalizeCompany(t.text); t.span >= 0 && ventures[k] != "" && (!own || s.ownStart(i)) {
							return k, true
						}
					}
				}
				return "", false
			}
			k, ok := first(true)
			if signed := signedCompany(it.Text, author); signed != "" && normalizeCompany(signed) != sc.m.normName {
				// "-- Daniel Cho, co-founder & CEO, Kinroot": the company the writer signs for.
				k, ok = normalizeCompany(signed), true
				if ventures[k] == "" {
					ventures[k] = signed
				}
			}
			if !ok {
				k, ok = first(false)
			}
			if ok {
				rel := sc.rels[k]
				if rel == "" {
					rel = RelDepartedToFound
				}
				out = append(out, found{name: author, company: ventures[k], role: "founder", summary: strings.TrimSpace(it.Text), relation: rel, sent: 1, venture: true})
				for _, p := range sc.coAuthors() {
					out = append(out, found{name: sc.sents[p[0]].toks[p[1]].text, company: ventures[k], role: "co-founder",
						summary: sc.sents[p[0]].raw, relation: RelCofounderInNews, sent: p[0], tok: p[1], venture: true})
				}
			}
		}
	}
	return out
}

// departedVentures finds the companies that people who left the tracked company start: its founders who left
// ("Tobias Grant, co-founder of Chessmouth Brewing, has left the brewery to start Windfall Cider"), or anyone a
// sentence about the tracked company says left to start one ("its former CTO ... before leaving to found
// Spindle Automation").
func (sc *itemScan) departedVentures(departed map[string]bool, surnames map[string]string) []found {
	var out []found
	for si, s := range sc.sents {
		for i := range s.toks {
			name := sc.personAt(s, i, surnames)
			if name == "" || s.trackedCofounderAt(i) {
				continue
			}
			if c := s.ownNewVenture(i); c >= 0 && departed[normalizePerson(name)] {
				// "Castillo's new business, Mill Mountain Soap Works, will make soap"
				out = append(out, found{name: name, role: "founder", company: s.toks[c].text, summary: s.raw,
					relation: RelDepartedToFound, sent: si, tok: i, venture: true})
				continue
			}
			c, verb := s.startedAfter(i)
			if c >= 0 && (departed[normalizePerson(name)] || s.leftBetween(i, verb) && (s.hasTracked() || si > 0 && sc.sents[si-1].hasTracked())) {
				out = append(out, found{name: name, role: "founder", company: s.toks[c].text, summary: s.raw,
					relation: RelDepartedToFound, sent: si, tok: i, venture: true})
			}
		}
	}
	return out
}

// staysAt reports whether the sentence says the person at token i stays with the tracked company: "Ashley
// Tolliver, who now runs T on her own", "Co-founder Christian Bruun will take over as chief executive of T".
func (s *sentence) staysAt(i int) bool {
	if i >= len(s.toks) || s.toks[i].span < 0 {
		return false
	}
	for j := i + 1; j < len(s.toks) && j <= i+8; j++ {
		takeOver := s.toks[j].form == "over" && takeForms[s.toks[j-1].form]
		if !stayVerbs[s.toks[j].form] && !takeOver {
			continue
		}
		for k := j + 1; k < len(s.toks) && k <= j+6; k++ {
			switch f := s.toks[k].form; {
			case f == "T":
				return true
			case f == "," || f == ";" || s.toks[k].span >= 0:
				return false
			}
		}
		return false
	}
	return false
}

// stayVerbs say someone keeps running a company: "runs T", "remains at T", "takes over as CEO of T".
var (
	stayVerbs = wordSet(`runs run running leads remains remain stays stay continues continue`)
	takeForms = wordSet(`take takes taking took`)
)

// ownNewVenture returns the token of the company a sentence calls the new venture of the person at token i
// ("Castillo's new business, Mill Mountain Soap Works"), or -1.
func (s *sentence) ownNewVenture(i int) int {
	if i+5 < len(s.toks) && s.toks[i+1].form == "'s" && s.toks[i+2].form == "new" && newVentureNouns[s.toks[i+3].form] &&
		s.toks[i+4].form == "," && s.toks[i+5].span >= 0 && !s.spans[s.toks[i+5].span].place {
		return i + 5
	}
	return -1
}

// newVentureNouns name what a person starts: "her new studio", "his new venture".
var newVentureNouns = wordSet(`business company venture start-up startup studio firm label brand shop agency`)

// trackedCofounderAt reports whether the person at token i is named as one the tracked company was founded
// with: "Matsumoto Aoi, who co-founded T with Inoue Haruto, has left to start Fude Pay".
// Words describing the tracked company may stand around it: "co-founded the T mini-market chain with Amalia
// Jiménez Vargas".
func (s *sentence) trackedCofounderAt(i int) bool {
	if s.trackedBuiltWith(i) {
		return true
	}
	if i < 3 || s.toks[i-1].form != "with" {
		return false
	}
	plain := func(k int) bool {
		f := s.toks[k].form
		return s.toks[k].span < 0 && f != "T" && f != "," && f != ";" && f != ":" && f != "and"
	}
	t := i - 2
	for t >= 0 && t >= i-6 && plain(t) {
		t--
	}
	if t < 1 || s.toks[t].form != "T" {
		return false
	}
	for k := t - 1; k >= 0 && k >= t-5; k-- {
		if startVerbs[s.toks[k].form] {
			return true
		}
		if !plain(k) && !(s.toks[k].span >= 0 && s.spans[s.toks[k].span].place) {
			return false
		}
	}
	return false
}

// trackedBuiltWith reports whether the person at token i is named, after the tracked company, as the one its
// writer started it with: "I've left T, the HR software company Gareth Evans and I built", "who has run T
// since founding it with Bjarni Hallsson".
func (s *sentence) trackedBuiltWith(i int) bool {
	tracked := slices.ContainsFunc(s.toks[max(0, i-12):i], func(t token) bool { return t.form == "T" })
	if !tracked {
		return false
	}
	if i+3 < len(s.toks) && s.toks[i+1].form == "and" && (s.toks[i+2].form == "i" || s.toks[i+2].form == "i've") {
		f := s.toks[i+3].form
		return startVerbs[f] || buildVerbs[f]
	}
	if i >= 3 && s.toks[i-1].form == "with" && s.toks[i-2].form == "it" && startVerbs[s.toks[i-3].form] {
		return true
	}
	// "T, the company I co-founded with Amelia Hart", "left T, which he started with Ruth Adler": a clause whose
	// nearest company before it is the tracked one.
	if i < 5 || s.toks[i-1].form != "with" || !startVerbs[s.toks[i-2].form] && !buildVerbs[s.toks[i-2].form] || !subjectPronouns[s.toks[i-3].form] {
		return false
	}
	for k := i - 4; k >= 0; k-- {
		switch t := s.toks[k]; {
		case t.form == "T":
			return true
		case t.span >= 0 && !s.spans[t.span].person && !s.spans[t.span].place:
			return false
		}
	}
	return false
}

// subjectPronouns open a clause whose verb follows them.
var subjectPronouns = wordSet(`i he she they we`)

// buildVerbs say the writer starts a company when they build it themselves: "I'm building Akagera".
var buildVerbs = wordSet(`build builds building built`)

// startVerbs start a company: "to start Windfall Cider", "has launched Shimo Cold Chain".
var startVerbs = wordSet(`start starts started starting found founds founded founding co-found co-founds co-founded
co-founding launch launches launched launching open opens opened opening`)

// startedAfter returns the company the person at token i is said to start later in the sentence and the token
// of the word that starts it, or -1, -1. A name that describes the tracked company ("co-founded HR analytics
// company Nettlefield"), a place or a venture of the past ("before Glasswing he started Tavla, ... that shut
// down in 2014") is none.
func (s *sentence) startedAfter(i int) (company, verb int) {
	for j := i + 1; j < len(s.toks) && j <= i+40; j++ {
		f := s.toks[j].form
		if f == ";" || f == "said" || f == "says" || f == "previously" || f == "before" && !s.leftAt(j+1) {
			return -1, -1
		}
		if s.toks[j].span >= 0 && s.spans[s.toks[j].span].person && s.toks[j].text != s.toks[i].text {
			return -1, -1 // another person's doing
		}
		if !startVerbs[f] {
			continue
		}
		for k := j + 1; k < len(s.toks) && k <= j+5; k++ {
			switch s.toks[k].form {
			case "a", "an", "the", "new", "company", "start-up", "startup", "firm", ",", ":", "called", "named", "his", "her", "their", "own":
				continue
			case "T":
				return -1, -1
			}
			if s.toks[k].span >= 0 && !s.describesTracked(k) {
				if s.placeAt(k) || s.spans[s.toks[k].span].place || s.adjectiveAt(k) || s.soldAfter(k) || s.closedAfter(k) {
					return -1, -1
				}
				return k, j
			}
			break
		}
	}
	return -1, -1
}

// leftAt reports whether token j is a word of leaving: "before leaving to found Spindle".
func (s *sentence) leftAt(j int) bool {
	return j < len(s.toks) && departureVerbs[s.toks[j].form] && s.toks[j].form != "spent"
}

// leftBetween reports whether a word of leaving stands between tokens i and j: "Lukas Hofer, who left in
// January to found Brume".
func (s *sentence) leftBetween(i, j int) bool {
	for k := i + 1; k < j; k++ {
		if s.leftAt(k) {
			return true
		}
	}
	return false
}

// describesTracked reports whether the name at token i is a word about the tracked company named right
// after it: "Aarhus industrial-automation company T".
func (s *sentence) describesTracked(i int) bool {
	for j := i + 1; j < len(s.toks) && j <= i+5; j++ {
		switch s.toks[j].form {
		case "T":
			return true
		case ",", ".", ";", "and", "to", "with":
			return false
		}
	}
	return false
}

// closedAfter reports whether the words after the company at token i say it closed: "a booking app that
// shut down in 2014", "which closed in 2019".
func (s *sentence) closedAfter(i int) bool {
	for j := i + 1; j < len(s.toks) && j <= i+12; j++ {
		switch s.toks[j].form {
		case "T", ";":
			return false
		case "shut", "folded", "wound":
			return true
		case "closed": // not "closed a seed round"
			return j+1 == len(s.toks) || s.toks[j+1].form == "in" || s.toks[j+1].form == "down" || s.toks[j+1].form == "." ||
				s.toks[j+1].form == "," || s.toks[j+1].form == "its" && j+2 < len(s.toks) && s.toks[j+2].form == "doors"
		}
	}
	return false
}

// ventureRelation is how a founder of venture k relates to the tracked company.
func (sc *itemScan) ventureRelation(k string, s *sentence, i int) string {
	if rel := sc.rels[k]; rel != "" {
		return rel
	}
	words := strings.Fields(s.pre(i) + " " + s.post(i))
	if hasDeparture(words, false) {
		return RelDepartedToFound
	}
	return RelCofounderInNews
}

// compoundFounder reports whether a word joins founder to another role, as in "founder-CEO".
func compoundFounder(f string) bool {
	return compoundRole(f) && (strings.HasPrefix(f, "founder-") || strings.HasPrefix(f, "co-founder-") || strings.HasPrefix(f, "cofounder-"))
}

// nearestOf returns the token of among that is nearest to token i, or -1.
func (s *sentence) nearestOf(i int, among []int) int {
	best, dist := -1, len(s.toks)+1
	for _, j := range among {
		if d := max(i-j, j-i); d < dist {
			best, dist = j, d
		}
	}
	return best
}

// founderCue tells whether the words around the person at token i call them a founder or leader, and on
// which side the company is to be looked for: -1 before the person ("Fieldgrid co-founder Ana Duarte",
// "Fieldgrid, founded by Ana Duarte"), +1 after ("Ana Duarte, co-founder of Fieldgrid", "Ana Duarte started
// Fieldgrid"), 0 when they do not.
func (s *sentence) founderCue(i int) int {
	for j := i - 1; j >= 0 && j >= i-30; j-- {
		f := word(s.toks[j].form)
		switch {
		case j < i-12:
		case (founderRoles[f] || compoundFounder(f)) && j >= i-6:
			if s.trackedRole(j) {
				return 0
			}
			return -1
		case f == "by":
			for k := j - 1; k >= 0 && k >= j-6; k-- {
				if founderVerbs[s.toks[k].form] {
					return -1
				}
			}
		case f == "with" || f == "w/" || f == "alongside":
			for k := j - 1; k >= 0 && k >= j-14; k-- {
				if g := word(s.toks[k].form); strings.Contains(g, "found") || founderVerbs[g] {
					return -1
				}
			}
		}
		if s.toks[j].span >= 0 && s.spans[s.toks[j].span].person && !s.listBetween(j, i) {
			if s.joinedTo(j, i) && s.founderCue(j) < 0 {
				return -1
			}
			break
		}
		if f == "said" || f == "says" || f == ";" {
			break
		}
	}
	for j := i + 1; j < len(s.toks) && j <= i+20; j++ {
		f := word(s.toks[j].form)
		if (founderRoles[f] || compoundFounder(f)) && j <= i+8 || founderVerbs[f] && f != "building" && f != "builds" && f != "built" {
			return 1
		}
		if (f == "raised" || f == "raises" || f == "raising") && s.raisedFor(j) {
			return 1
		}
		if f == "said" || f == "says" || f == "told" || f == ";" {
			return 0
		}
		if t := s.toks[j]; t.span >= 0 && !s.spans[t.span].person && !s.placeAt(j) && !placeBefore(s, j) && !s.adjectiveAt(j) &&
			!s.describesNoun(j) && !s.notCompanyAt(j) && !s.beforeRole(j) {
			return 0
		}
	}
	return 0
}

// companyFor returns the company among companies that a person at token i with a founder cue on side dir
// belongs to: the nearest on that side, preferring one whose website the item names, else the nearest on
// the other side, or -1.
func (s *sentence) companyFor(i, dir int, companies []int, labels map[string]bool) int {
	best, dist, site := -1, len(s.toks)+1, false
	for _, c := range companies {
		if (c-i)*dir <= 0 {
			continue
		}
		d := max(c-i, i-c)
		hasSite := labels[strings.ReplaceAll(s.nameKey(c), " ", "")]
		if hasSite && !site || hasSite == site && d < dist {
			best, dist, site = c, d, hasSite
		}
	}
	if best >= 0 {
		return best
	}
	return s.nearestOf(i, companies)
}

// appositiveAfter reports whether the comma at token i opens a description of the name before it ("Tutorly,
// founded by ...", "Tutorly, the tutoring marketplace, ...") rather than a clause ("Finally, the company ...").
func (s *sentence) appositiveAfter(i int) bool {
	if i+1 >= len(s.toks) {
		return false
	}
	switch s.toks[i+1].form {
	case "founded", "co-founded", "cofounded", "started", "launched", "built", "which", "whose", "who", "led", "backed", "based":
		return true
	case "a", "an", "the":
		for j := i + 2; j < len(s.toks) && j <= i+6; j++ {
			if s.toks[j].form == "," {
				return true
			}
		}
	}
	return false
}

// buyerAt reports whether the name at token i bought a company the sentence names before it: "sold to
// Stripe", "acquired by Stripe".
func (s *sentence) buyerAt(i int) bool {
	if i < 2 {
		return false
	}
	prev, verb := s.toks[i-1].form, s.toks[i-2].form
	return prev == "to" && verb == "sold" || prev == "by" && (verb == "acquired" || verb == "bought")
}

// pastEmployer reports whether the name at token i is where someone worked: "previously worked at
// Bluefern", "spent six years at Bluefern".
func (s *sentence) pastEmployer(i int) bool {
	if i < 2 {
		return false
	}
	switch s.toks[i-1].form {
	case "at", "for":
	default:
		return false
	}
	switch s.toks[i-2].form {
	case "worked", "working", "years", "months", "stint", "spell", "career", "previously", "formerly", "internship", "interned":
		return true
	}
	// "was previously chief operating officer at Bluefern", "formerly head of sales at Bluefern": a role
	// held there before.
	for j := i - 2; j >= 0 && j >= i-8 && strings.HasPrefix(s.toks[j].form, rolePrefix); j-- {
		if j > 0 {
			switch s.toks[j-1].form {
			case "previously", "formerly", "former", "ex":
				return true
			}
		}
	}
	return false
}

// cueName returns the first name or mention of the tracked company within a few words of the person at
// token i on the side dir the founder cue points to, or -1.
func (s *sentence) cueName(i, dir int) int {
	for j := i + dir; j >= 0 && j < len(s.toks) && j != i+6*dir; j += dir {
		if t := s.toks[j]; t.span >= 0 || t.form == "T" {
			return j
		}
	}
	return -1
}

// trackedPerson reports whether the person at token i is described as holding a role at the tracked
// company now ("Northwind CEO Jane Doe", "Jane Doe, CTO of Northwind").
func (s *sentence) trackedPerson(i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		f := s.toks[j].form
		if f == "T" || f == "'s" && j > 0 && s.toks[j-1].form == "T" {
			return !departedBefore(s, j)
		}
		if !strings.HasPrefix(f, rolePrefix) && f != "'s" && f != "new" && f != "interim" && f != "incoming" {
			break
		}
	}
	return false
}

// describesPerson reports whether the name at token i describes the person named right after one or two
// lowercase words, as a past employer or school does in "MIT graduates Leo Park" or "Google veterans Ravi
// Sen".
func (s *sentence) describesPerson(i int) bool {
	for j := i + 1; j < len(s.toks) && j <= i+3; j++ {
		t := s.toks[j]
		if t.span >= 0 {
			return j > i+1 && s.spans[t.span].person
		}
		if !isLowerWord(t.text) || stopWords[t.form] {
			return false
		}
	}
	return false
}

// beforeTracked reports whether the sentence tells what came before the tracked company was founded or
// joined ("Before founding Northwind, Ines Marchetti started Brightloom"): a founder's earlier venture.
func (s *sentence) beforeTracked() bool {
	for j, t := range s.toks {
		if t.form != "before" && t.form != "prior" {
			continue
		}
		for k := j + 1; k < len(s.toks) && k <= j+4; k++ {
			if departureVerbs[s.toks[k].form] {
				break // "before leaving Northwind"
			}
			if s.toks[k].form == "T" {
				return true
			}
		}
	}
	return false
}

// departedBefore reports whether "former" or "ex" stands just before token j.
func departedBefore(s *sentence, j int) bool {
	for k := j - 1; k >= 0 && k >= j-2; k-- {
		if departureBefore[s.toks[k].form] {
			return true
		}
	}
	return false
}

// investorPerson reports whether the person at token i is named as an investor or an adviser.
func (s *sentence) investorPerson(i int) bool {
	for j := max(0, i-3); j < len(s.toks) && j <= i+6; j++ {
		switch word(s.toks[j].form) {
		case "investor", "investors", "adviser", "advisor", "advisers", "advisors", "board", "analyst", "angel", "partner",
			"principal", "associate":
			return true
		}
	}
	return false
}

// tiedVenture reports whether the item ties company k to the tracked company: a sentence names both, or
// the company and a founder of the tracked company, or the item is a first-person post.
func (sc *itemScan) tiedVenture(k string, people map[string]bool) bool {
	if sc.firstPerson || strings.HasPrefix(sc.text, "Website change on") {
		return true
	}
	for si, s := range sc.sents {
		if sc.describedTie(k, si) {
			return true
		}
		named, tied := false, false
		if sc.rels[k] == "" && (s.hasWord(rivalWords) || s.hasWord(meetingWords) || s.hasWord(customerWords) || s.disclaimsTie()) && !s.hasWord(takeoverWords) {
			continue
		}
		for _, t := range s.toks {
			switch {
			case t.form == "T" || weForms[t.form]:
				tied = true
			case t.span >= 0 && sc.m.founders[s.spans[t.span].personKey()]:
				tied = true
			case t.span >= 0 && sameCompany(s.spans[t.span].companyKey(), k):
				named = true
			}
		}
		if named && tied {
			return true
		}
	}
	return false
}

// describedTie reports whether sentence si describes company k by its founders and says, there or in the
// sentence before, what the tracked company does with it: "sensors from ColdEye, a Hanoi start-up founded
// by ...", "of the 14 companies it has built and invested in ... Among them are Baridi, co-founded by ...".
func (sc *itemScan) describedTie(k string, si int) bool {
	s := sc.sents[si]
	if s.hasWord(rivalWords) || s.hasWord(meetingWords) || s.disclaimsTie() {
		return false
	}
	for i, t := range s.toks {
		if t.span < 0 || !sameCompany(s.spans[t.span].companyKey(), k) || !s.foundedByAfter(i) || s.customerBefore(i) {
			continue
		}
		for j, back := si, 0; j >= 0 && back <= 2; j-- {
			if sc.sents[j].hasWord(dealWords) {
				return true
			}
			if !listItem(sc.sents[j].raw) {
				back++ // the items of a list count as one: "The selected start-ups are: - Frenada ... - CargaYa ..."
			}
		}
	}
	return false
}

// listItem reports whether a sentence is an item of a list.
func listItem(raw string) bool {
	raw = strings.TrimSpace(raw)
	return strings.HasPrefix(raw, "- ") || strings.HasPrefix(raw, "• ") || strings.HasPrefix(raw, "* ")
}

// customerBefore reports whether a word just before the name at token i says it is a customer: "Northwind's
// customer Brightmart".
func (s *sentence) customerBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if customerWords[s.toks[j].form] {
			return true
		}
	}
	return false
}

// dealWords mark a sentence that says what the tracked company does with a company it describes by its
// founders: "sensors from ColdEye, a Hanoi start-up founded by ...", "will use the technology of Conecta
// Pagos, a Medellín start-up co-founded by ...".
var dealWords = wordSet(`with from through partner partners partnering partnership supplier supplies supply supplied
technology developed co-developed built backed stake invested investment acquired bought uses use using works together
among powered provides provided subcontractor distributor integration back backs portfolio invest invests accelerator
cohort programme program selected selects acquire acquires acqui-hires acqui-hired`)

// ventureNouns name a young company: "Ahmed Benali and Greta Johansson's Malmö start-up".
var ventureNouns = wordSet(`start-up startup start-ups company firm spin-off spinout spin-out studio lab venture business`)

// ownersAfter reports whether people named from token j own what follows: "Trackmind, Ahmed Benali and Greta
// Johansson's Malmö start-up".
func (s *sentence) ownersAfter(j int) bool {
	people := 0
	for ; j < len(s.toks); j++ {
		t := s.toks[j]
		switch {
		case t.span >= 0 && s.spans[t.span].person:
			people++
		case t.form == "and" || t.form == "&" || t.form == ",":
		case t.form == "'s" && people > 0:
			for k := j + 1; k < len(s.toks) && k <= j+4; k++ {
				if ventureNouns[s.toks[k].form] {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// founderVerbsBy are the words before "by" that name who founded a company.
var founderVerbsBy = wordSet(`founded co-founded cofounded started led`)

// foundedByAfter reports whether the company at token i is described right after by who founded it: "ColdEye,
// a Hanoi start-up founded by", "Baridi, co-founded by", "Wavecrest (founded by", "Vetbyte, whose co-founders".
func (s *sentence) foundedByAfter(i int) bool {
	j := i + 1
	if j >= len(s.toks) || s.toks[j].form != "," && s.toks[j].form != "(" {
		return false
	}
	if s.toks[j].form == "(" && j+1 < len(s.toks) && founderRoles[word(s.toks[j+1].form)] {
		return true // "Frenada (co-founders Diego Salazar and Rocío Tapia)"
	}
	if s.ownersAfter(j + 1) {
		return true
	}
	for j++; j < len(s.toks) && j <= i+14; j++ {
		switch f := s.toks[j].form; {
		case founderVerbsBy[f]:
			return j+1 < len(s.toks) && s.toks[j+1].form == "by"
		case f == "whose" || f == "(":
			return j+1 < len(s.toks) && founderRoles[word(s.toks[j+1].form)]
		case f == ",":
			if j+1 < len(s.toks) && founderVerbsBy[s.toks[j+1].form] {
				continue // "CargaYa, a load board for the Andean region, founded by"
			}
			return false
		case f == ";" || f == "." || f == "which" || f == "that" || f == "who" || f == ")" || f == "T":
			return false
		}
	}
	return false
}

// appositiveOwner returns the company whose founders' list holds the person at token i ("Conecta Pagos, a
// Medellín start-up co-founded by Andrés Gómez and Sara Vélez"), or -1.
func (s *sentence) appositiveOwner(i int) int {
	for c := i - 1; c >= 0 && c >= i-20; c-- {
		switch s.toks[c].form {
		case ";", ".", "which", "that", "who", ")", "-":
			return -1
		}
		if t := s.toks[c]; t.span >= 0 {
			if s.foundedByAfter(c) {
				return c
			}
			if !s.spans[t.span].person && !s.spans[t.span].place && !placeBefore(s, c) && !s.adjectiveAt(c) {
				return -1 // another company stands between
			}
		}
	}
	return -1
}

// adjectiveAt reports whether the single-word name at token i describes the word after it, as in "a
// Mexican trucking marketplace", "for African mid-market companies" or "disposable ECG patches".
func (s *sentence) adjectiveAt(i int) bool {
	t := s.toks[i]
	if t.span < 0 {
		return false
	}
	if strings.ContainsAny(t.text, "0123456789$€£") {
		return true
	}
	if r := t.text[0]; r >= 'a' && r <= 'z' {
		return true
	}
	if lower := strings.ToLower(t.text); len(s.spans[t.span].words) == 1 && len(lower) > 4 && i+1 < len(s.toks) && isLowerWord(s.toks[i+1].text) &&
		!stopWords[s.toks[i+1].form] && !strings.HasSuffix(s.toks[i+1].form, "ed") &&
		(strings.HasSuffix(lower, "ian") || strings.HasSuffix(lower, "ese") || strings.HasSuffix(lower, "ish") || strings.HasSuffix(lower, "can") || strings.HasSuffix(lower, "ean")) {
		return true
	}
	if len(s.spans[t.span].words) > 1 || s.spans[t.span].companyish || i+1 >= len(s.toks) {
		return false
	}
	next := s.toks[i+1]
	if next.span >= 0 || next.form == "T" || len(next.form) < 2 || strings.HasPrefix(next.form, rolePrefix) || !isLowerWord(next.text) {
		return false
	}
	if i > 0 {
		switch s.toks[i-1].form {
		case "a", "an", "the", "its", "their", "our", "his", "her", "for", "with", "on", "of", "at", "from", "disposable", "new":
			return true
		}
	}
	return !verbLike(next.form)
}

// isLowerWord reports whether w is a word in lower case.
func isLowerWord(w string) bool {
	r := w[0]
	return r >= 'a' && r <= 'z'
}

// verbLike reports whether a lowercase word after a name can be a verb or a function word, so that the name
// is its subject ("Fieldgrid raised", "Fieldgrid is") rather than a word describing it.
func verbLike(w string) bool {
	if stopWords[w] || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "s") {
		return true
	}
	switch w {
	case "will", "would", "can", "could", "should", "may", "might", "must", "now", "today", "also", "said", "says",
		"alongside", "together", "across", "through", "toward", "towards", "within", "beyond", "behind", "against",
		"inside", "outside", "around", "near", "along", "last", "this", "next", "early", "late":
		return true
	}
	return false
}

// fullNames maps each company name of the item that is the start of a longer one to the longer one, so
// that "Lumen" after "Lumen AI" or "Iris" after "Iris Therapeutics" name the same company.
func (sc *itemScan) fullNames() map[string]string {
	type name struct {
		text, key string
		company   bool
	}
	var names []name
	seen := make(map[name]bool)
	for _, s := range sc.sents {
		for i, t := range s.toks {
			if t.span >= 0 && !s.describesNoun(i) {
				company := !s.spans[t.span].person || s.companyContext(i) || s.ownsRole(i)
				if !company && s.describesNext(i) {
					continue
				}
				if n := (name{t.text, "", company}); !seen[n] {
					seen[n] = true
					names = append(names, name{t.text, s.spans[t.span].companyKey(), company})
				}
			}
		}
	}
	// One of the two names must read as a company; a longer name that reads like a person's still names
	// the company when the item uses its first words alone as a company ("acquire Sealane Power ...
	// Sealane was set up"): people are not named by their given name alone in the news.
	out := make(map[string]string)
	longest := make(map[string]int)
	for _, short := range names {
		for _, long := range names {
			if !short.company && !long.company {
				continue
			}
			// "Far Harbor" and "Far Harbor Interactive" share a key, the longer name still being the full one.
			longer := strings.HasPrefix(long.key, short.key+" ") || long.key == short.key && strings.HasPrefix(long.text, short.text+" ")
			if longer && len(long.text) > longest[short.key] && !productOf(short.text, long.text) {
				out[short.key], longest[short.key] = long.text, len(long.text)
			}
		}
	}
	return out
}

// productOf reports whether long is short's name followed by the name of a product of it: "Voxa API",
// "Tervo S3", "Kryptis HSMs", "Marlowe Builder Card".
func productOf(short, long string) bool {
	rest, ok := strings.CutPrefix(long, short+" ")
	if !ok {
		return false
	}
	words := strings.Fields(rest)
	if productNouns[strings.ToLower(words[len(words)-1])] {
		return true
	}
	for _, w := range words {
		lower := strings.ToLower(w)
		if companyWords[lower] || legalSuffixes[strings.TrimSuffix(lower, ".")] || countryCodes[w] {
			return false // "Bosque Vivo GT": a company of the country
		}
		if !strings.ContainsAny(w, "0123456789") && strings.IndexFunc(w[1:], unicode.IsUpper) < 0 {
			return false
		}
	}
	return true
}

// countryCodes are the codes of countries with which a company's name may end.
var countryCodes = wordSet(`AR AU BD BO BR CA CH CL CN CO CR DE DK DO EC EG ES ET FI FR GH GT HN ID IE IN IT JP KE KR LK MA MX MY
NG NI NL NO NP NZ PA PE PH PK PL PR PT PY RW SA SE SG SN SV TH TR TZ UG UK US UY VE VN ZA ZM ZW`)

// productNouns end the names of products rather than of companies.
var productNouns = wordSet(`api app apps card cards sdk kit kits plugin pro max mini`)

// openingPrepositions follow a capitalised word that opens a sentence and is no name ("Fresh from", "Apart
// from"); not "to", as in a headline's "Fieldgrid to raise $5M".
var openingPrepositions = wordSet(`from of about after`)

// notCompanyAt reports whether the name at token i is a dateline or an opening word ("LONDON —",
// "Separately,", "Fresh from"), a currency before a number ("KSh 260 million"), a month or a university.
func (s *sentence) notCompanyAt(i int) bool {
	t := s.toks[i]
	words := s.spans[t.span].words
	if len(words) == 1 && isDemonym(t.text) || s.spans[t.span].place {
		return true // "Greek founder Giorgos Papadopoulos", "in Lagos"
	}
	if i == 0 && len(words) == 1 && i+1 < len(s.toks) && s.toks[i+1].form == "," && strings.HasSuffix(t.text, "ly") && !s.appositiveAfter(i+1) {
		return true
	}
	if strings.ToUpper(t.text) == t.text && i+1 < len(s.toks) && s.toks[i+1].form == "," && (i == 0 || s.toks[i-1].form == ",") {
		return true
	}
	if len(words) == 1 && len(t.text) >= 4 && strings.ToUpper(t.text) == t.text && i <= 2 && i+1 < len(s.toks) && (s.toks[i+1].form == "and" || s.toks[i+1].form == ",") {
		return true
	}
	if i+1 < len(s.toks) && len(s.toks[i+1].form) > 0 && s.toks[i+1].form[0] >= '0' && s.toks[i+1].form[0] <= '9' {
		return true
	}
	if len(words) == 1 && len(t.text) <= 5 && strings.ToUpper(t.text) == t.text && !strings.ContainsAny(t.text, "0123456789") {
		return true // "CAD files", "by SMS": an acronym
	}
	if len(words) == 1 && i+2 < len(s.toks) && s.toks[i+1].form == "'s" && s.toks[i+2].form == "T" {
		return true // "co-founder of Galway's Northwind": where the tracked company is
	}
	if len(words) == 1 && headingRelations[strings.ToLower(t.text)] != "" {
		return true // "Portfolio", a page's heading
	}
	if i == 0 && len(words) == 1 && i+1 < len(s.toks) && openingPrepositions[s.toks[i+1].form] {
		return true // "Fresh from their seed round": a word opening the sentence
	}
	key := s.spans[t.span].companyKey()
	first, _, _ := strings.Cut(key, " ")
	last := key[strings.LastIndexByte(key, ' ')+1:]
	switch last {
	case "university", "college", "school", "institute", "hospital", "april", "june", "august":
		return true
	}
	return notCompanies[first] && notCompanies[last]
}

// listBetween reports whether only list separators stand between tokens j and i, as between two people
// of "Ana Duarte and Rui Lopes".
func (s *sentence) listBetween(j, i int) bool {
	for k := j + 1; k < i; k++ {
		switch s.toks[k].form {
		case ",", "and", "&", "+":
		default:
			return false
		}
	}
	return true
}

// foundersNamed reports whether the sentence names a person as a founder or leader.
func (sc *itemScan) foundersNamed(s *sentence) bool {
	for i, t := range s.toks {
		if t.span >= 0 && s.spans[t.span].person && !s.trackedPerson(i) && !s.investorPerson(i) && s.founderCue(i) != 0 {
			return true
		}
	}
	return false
}

// ownsRole reports whether the name at token i is followed by a founder role and a person, as in "Lesson
// Bus founders Funmilayo Adekunle and Chukwuma Obi", so that it names a company even if it looks like a
// person's name.
func (s *sentence) ownsRole(i int) bool {
	j := i + 1
	if j < len(s.toks) && s.toks[j].form == "'s" {
		j++
	}
	if j >= len(s.toks) || !founderRoles[word(s.toks[j].form)] {
		return false
	}
	for j++; j < len(s.toks) && j <= i+4; j++ {
		if t := s.toks[j]; t.span >= 0 {
			return s.spans[t.span].person
		}
	}
	return false
}

// sameCompany reports whether two normalised names name the same company, one maybe a short form of the
// other ("halden", "halden microsystems").
func sameCompany(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+" ") || strings.HasPrefix(b, a+" ")
}

// isDemonym reports whether w names a people, one or many: "Greek", "Peruvians".
func isDemonym(w string) bool {
	lower := strings.ToLower(w)
	return demonyms[lower] || strings.HasSuffix(lower, "s") && demonyms[lower[:len(lower)-1]]
}

// notCompanies are capitalised words that name platforms, places, regions or abbreviations rather than a
// company an item is about.
var notCompanies = wordSet(`linkedin twitter x github android ios api apis ev evs hr ai ml it ui ux uk us usa eu un
south north east west central southern northern eastern western brazil india china japan germany france spain italy
portugal nigeria kenya ghana senegal egypt morocco mexico canada australia britain england scotland wales ireland
netherlands belgium sweden norway denmark finland poland estonia latvia lithuania turkey israel singapore indonesia
vietnam korea colombia chile argentina peru switzerland austria greece europe africa asia america latin
greek thai dutch french swiss czech irish welsh scottish danish polish nordic baltic european german spanish italian
swedish norwegian finnish british american canadian australian mexican brazilian chinese japanese korean indian
nigerian kenyan ghanaian egyptian israeli turkish portuguese austrian belgian african asian one two three four five six
seven eight nine ten existing honoured honored thrilled proud excited tbd tba ci cd`)

// weForms are the words with which the tracked company's own posts refer to it or its people.
var weForms = wordSet(`we we're we've we'll we'd our us i i'm i've my`)

// describesNoun reports whether the name at token i describes the noun right after it, as in "a São Paulo
// start-up".
func (s *sentence) describesNoun(i int) bool {
	return i+1 < len(s.toks) && nounWordSet[s.toks[i+1].form]
}

// describesNext reports whether the name at token i is followed by a noun it describes, as a product's
// name is in "a Brackenbase Postgres database".
func (s *sentence) describesNext(i int) bool {
	if i+1 >= len(s.toks) {
		return false
	}
	next := s.toks[i+1]
	return next.span < 0 && next.form != "T" && isLowerWord(next.text) && !stopWords[next.form] && !verbLike(next.form)
}

// joinedTo reports whether the person at token i is added by "and" to the one at token j, with only words
// describing them in between ("Dr. Renata Vasques and engineer Thiago Nunes").
func (s *sentence) joinedTo(j, i int) bool {
	for k := j + 1; k < i; k++ {
		if t := s.toks[k]; t.span >= 0 && s.spans[t.span].person {
			return false
		}
	}
	for k := i - 1; k > j && k >= i-3; k-- {
		switch s.toks[k].form {
		case "and", "&", "+":
			return true
		}
		if s.toks[k].span >= 0 {
			return false
		}
	}
	return false
}

// surnames maps the last name of each person the item names to the full name, for later mentions by last
// name ("Kovač is co-founder and CEO of Oreline"); a last name two people share maps to "".
func (sc *itemScan) surnames() map[string]string {
	if sc.lastNames != nil {
		return sc.lastNames
	}
	out := make(map[string]string)
	sc.lastNames = out
	for _, s := range sc.sents {
		for _, sp := range s.spans {
			if !sp.person || len(sp.words) < 2 {
				continue
			}
			k := fold(sp.words[len(sp.words)-1])
			if prev, ok := out[k]; ok && normalizePerson(prev) != normalizePerson(sp.text) {
				out[k] = ""
				continue
			}
			out[k] = sp.text
		}
	}
	return out
}

// personAt returns the person the name at token i refers to, by full name or by last name, or "".
func (sc *itemScan) personAt(s *sentence, i int, surnames map[string]string) string {
	t := s.toks[i]
	if t.span < 0 {
		return ""
	}
	if s.spans[t.span].person {
		return t.text
	}
	if len(s.spans[t.span].words) == 1 {
		return surnames[fold(t.text)]
	}
	return ""
}

// departedFounders lists the founders of the tracked company the item says are leaving or have left.
func (sc *itemScan) departedFounders(surnames map[string]string) map[string]bool {
	out := make(map[string]bool)
	for _, s := range sc.sents {
		for i := range s.toks {
			name := sc.personAt(s, i, surnames)
			if name == "" || !sc.m.founders[normalizePerson(name)] {
				continue
			}
			if s.departure() {
				out[normalizePerson(name)] = true
			}
		}
	}
	return out
}

// beforeRole reports whether a role word follows the name at token i ("Redpoll CTO", "Fieldgrid's
// co-founder").
func (s *sentence) beforeRole(i int) bool {
	j := i + 1
	if j < len(s.toks) && s.toks[j].form == "'s" {
		j++
	}
	return j < len(s.toks) && strings.HasPrefix(s.toks[j].form, rolePrefix)
}

// companyContext reports whether the words around the name at token i treat it as a company, even if it
// reads like a person's name: "Skyward Vision's model", "Skyward Vision was founded", "Sentinel Mesh raised".
func (s *sentence) companyContext(i int) bool {
	if i+2 < len(s.toks) && s.toks[i+1].form == "'s" {
		// "Maya Chen & Dev Rao's shop": the pair's, not a company's.
		if i > 1 && (s.toks[i-1].form == "&" || s.toks[i-1].form == "and") && s.toks[i-2].span >= 0 && s.spans[s.toks[i-2].span].person {
			return false
		}
		next := s.toks[i+2]
		return next.span < 0 && next.form != "T" && !strings.HasPrefix(next.form, rolePrefix) && isLowerWord(next.text) &&
			!founderRoles[word(next.form)]
	}
	if i+2 < len(s.toks) && s.toks[i+1].form == "," && (s.toks[i+2].form == "a" || s.toks[i+2].form == "an" || s.toks[i+2].form == "the") {
		// "Marta Ruiz, a Bilbao start-up", "Grace Obi, the Houston printing start-up"; not "Meera Pillai, the
		// company employs", where the company is the clause's subject.
		for k := i + 4; k < len(s.toks) && k <= i+6; k++ {
			if ventureNouns[s.toks[k].form] {
				return true
			}
			if s.toks[k].form == "," || s.toks[k].form == "." {
				break
			}
		}
	}
	if i+1 < len(s.toks) {
		switch s.toks[i+1].form {
		case "raised", "raises", "closed", "announced":
			return i == 0 || !s.listBetween(i-2, i) && s.toks[i-1].form != "and"
		case "was", "is":
			if i+2 < len(s.toks) {
				switch s.toks[i+2].form {
				case "founded", "co-founded", "started", "created", "built", "acquired", "backed":
					return true
				}
			}
		case "has":
			if i+2 < len(s.toks) && (s.toks[i+2].form == "raised" || s.toks[i+2].form == "closed") {
				return true
			}
		}
	}
	return false
}

// confirmedPerson reports whether the words around the name at token i show it is a person: a role or an
// honorific before it, a founder's words around it, or "said", "who" or an aside after it.
func (s *sentence) confirmedPerson(i int) bool {
	if i > 0 {
		prev := s.toks[i-1].form
		if strings.HasPrefix(prev, rolePrefix) || personAffixes[prev] || prev == "by" {
			return true
		}
	}
	if i+1 < len(s.toks) {
		switch s.toks[i+1].form {
		case "said", "says", "told", "who":
			return true
		case ",", "and", "&":
			if i+2 < len(s.toks) {
				next := s.toks[i+2]
				if strings.HasPrefix(next.form, rolePrefix) || next.form == "who" || next.span >= 0 && s.spans[next.span].person {
					return true
				}
			}
		}
	}
	return s.founderCue(i) != 0
}

// trackedRole reports whether the role word at token j is a role at the tracked company ("CEO at
// Northwind", "Northwind's CEO").
func (s *sentence) trackedRole(j int) bool {
	if j+2 < len(s.toks) && (s.toks[j+1].form == "at" || s.toks[j+1].form == "of") && s.toks[j+2].form == "T" {
		return true
	}
	return j > 0 && s.toks[j-1].form == "T" || j > 1 && s.toks[j-1].form == "'s" && s.toks[j-2].form == "T"
}

// authorLeft reports whether the author of a first-person post says they left the tracked company ("I'm
// leaving Pathwise", "after four years at Copperfield Bank, I'm starting something new").
func (sc *itemScan) authorLeft() bool {
	for _, s := range sc.sents {
		first := false
		for _, t := range s.toks {
			switch t.form {
			case "i", "i'm", "i've", "my", "me":
				first = true
			}
		}
		if first && (s.departure() || strings.Contains(s.raw, "post-")) {
			return true
		}
		tracked := slices.ContainsFunc(s.toks, func(t token) bool { return t.form == "T" })
		if tracked && strings.Contains(strings.ToLower(s.raw), "last day at") {
			return true // "Last day at Honeycomb Games today."
		}
		if tracked && len(s.toks) > 1 && (s.toks[0].form == "left" || s.toks[0].form == "leaving") && s.toks[1].form == "T" {
			return true // "Leaving Tilde after 6 years."
		}
	}
	return false
}

// raisedFor reports whether "raised" at token j raised money for a company named a few words on ("has
// raised a $40 million first round for Ironsalt").
func (s *sentence) raisedFor(j int) bool {
	for k := j + 1; k < len(s.toks)-1 && k <= j+10; k++ {
		if s.toks[k].form == "for" && s.toks[k+1].span >= 0 && !s.spans[s.toks[k+1].span].person {
			return true
		}
	}
	return false
}

// foundsAfter reports whether the person at token i is said to start a company named right after the
// founding verb ("Aditi Rao, co-founder of Cobalt Harbour, has launched Tallyfin").
func (s *sentence) foundsAfter(i int) bool {
	for j := i + 1; j < len(s.toks) && j <= i+20; j++ {
		switch f := s.toks[j].form; {
		case f == "said" || f == "says" || f == ";":
			return false
		case strings.Contains(f, "found") && f != "found" || f == "launched" || f == "launches" || f == "started" || f == "starts" ||
			f == "starting" || f == "launching" || f == "start":
			for k := j + 1; k < len(s.toks) && k <= j+4; k++ {
				if t := s.toks[k]; t.span >= 0 {
					return !s.spans[t.span].person && !eventName(t.text) && !s.placeAt(k) && !placeBefore(s, k)
				}
				switch s.toks[k].form {
				case "T", "said", "says", "told", ";":
					return false // "Tamar Cohen, Driftwell's co-founder, said Qantara would ..."
				}
			}
			return false
		}
	}
	return false
}

// eventName reports whether a name is an event's ("Nordic Health Summit").
func eventName(name string) bool {
	switch w := strings.Fields(strings.ToLower(name)); w[len(w)-1] {
	case "summit", "conference", "festival", "awards", "award", "week", "expo", "forum", "prize", "fair", "day":
		return true
	}
	return false
}

// notPerson reports whether the person of a find is a company after all: it is named like its company,
// is followed by its own founders' role or is used as a company ("Sentinel Mesh raised"), or names a region.
func (sc *itemScan) notPerson(f found) bool {
	if sameCompany(normalizeCompany(f.name), normalizeCompany(f.company)) {
		return true
	}
	words := strings.Fields(fold(f.name))
	if notCompanies[words[0]] {
		return true
	}
	if f.sent >= len(sc.sents) {
		return false
	}
	s := sc.sents[f.sent]
	if f.tok >= len(s.toks) || s.toks[f.tok].text != f.name || s.ownNewVenture(f.tok) >= 0 || f.byPronoun && sc.m.founders[normalizePerson(f.name)] {
		return false // a tracked founder "she" refers to is a person, however "Zeynep's doing" reads
	}
	return s.ownsRole(f.tok) || s.companyContext(f.tok) || s.roundLeader(f.tok)
}

// roundLeader reports whether the name at token i leads or backs a funding round: "a Series B led by
// General Catalyst", "$3 million round backed by Seedcamp".
func (s *sentence) roundLeader(i int) bool {
	// Back over a list of backers: "led by Tom Lee, co-founder of Bluefern, and Ann Bee".
	for i >= 2 && s.toks[i-1].form != "by" {
		switch f := s.toks[i-1].form; {
		case s.toks[i-1].span >= 0, f == "T", f == ",", f == "and", f == "&", f == "of", f == "at", f == "the", f == "its",
			strings.HasPrefix(f, rolePrefix):
			i--
		default:
			return false
		}
	}
	if i < 2 || s.toks[i-1].form != "by" {
		return false
	}
	switch s.toks[i-2].form {
	case "led", "co-led", "backed", "funded":
	default:
		return false
	}
	for j := i - 3; j >= 0 && j >= i-8; j-- {
		f := s.toks[j].form
		if stageWords.MatchString(f) || f == "round" || f == "funding" || f == "financing" || f == "investment" || strings.ContainsAny(f, "$€£") {
			return true
		}
		if s.toks[j].span >= 0 {
			return false
		}
	}
	return false
}

// rivalWords mark a sentence that names a competitor of the tracked company, which ties no lead to it.
var rivalWords = wordSet(`compete competes competing competitor competitors rival rivals sued sues suing lawsuit lawsuits
litigation unlike beat beats beating outbid versus vs competition rivalry accusing accuses accused incumbent incumbents`)

// customerWords mark a sentence in which the other company buys from or uses the tracked one: a customer's
// founders are no leads ("Northwind's customer Brightmart, founded by Tom Reyes, uses the software").
var customerWords = wordSet(`customer customers client clients`)

// disclaimsTie reports whether the sentence says a company has no part in the news: "Bluefern, which is not
// involved in the deal", "an unaffiliated start-up".
func (s *sentence) disclaimsTie() bool {
	for i, t := range s.toks {
		switch t.form {
		case "uninvolved", "unrelated", "unaffiliated", "unconnected":
			return true
		case "involved", "affiliated", "connected", "related":
			if i > 0 && (s.toks[i-1].form == "not" || s.toks[i-1].form == "never") {
				return true
			}
		}
	}
	return false
}

// meetingWords mark a sentence in which companies meet only on a stage, at a dinner, in a list of speakers or
// in an opinion piece, which ties no company to the tracked one.
var meetingWords = wordSet(`talks speakers speaker panel panellists panelists keynote spoke speak speaking conference
summit webinar hottest ranked ranking rankings finalists shortlist shortlisted nominees dinner dinners hosted op-ed column
columnist`)

// makesWords are the venture words that, with the tracked company as their subject, name something it made
// rather than a company: "Northwind launched Atlas".
var makesWords = wordSet(`launch launches launched launching unveil unveils unveiled build builds built building creates
opened open opens`)

// trackedMakes reports whether the venture word at token j has the tracked company as its subject.
func (s *sentence) trackedMakes(j int) bool {
	if !makesWords[s.toks[j].form] {
		return false
	}
	for k := j - 1; k >= 0 && k >= j-3; k-- {
		switch f := s.toks[k].form; f {
		case "we", "we've", "we're":
			return true
		case "T":
			return k == 0 || s.toks[k-1].form == "," || s.toks[k-1].form == "and" || s.toks[k-1].form == ":"
		case "has", "have", "today", "just", "also", "is", "officially", "recently":
			continue
		}
		return false
	}
	return false
}

// takeoverWords mark a sentence in which the tracked company takes over a rival, which does tie its
// founders to it.
var takeoverWords = wordSet(`acquire acquires acquired acquiring acquisition buy buys bought buying taken took takes merge
merges merged merger takeover snaps snapped absorbs absorbed`)

// trackedProduct reports whether the name at token i is something the tracked company made: "Northwind
// launched Atlas", "Northwind's new app, Atlas".
func (s *sentence) trackedProduct(i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		f := s.toks[j].form
		switch {
		case makesWords[f]:
			return s.trackedMakes(j)
		case f == "'s" && j > 0 && s.toks[j-1].form == "T":
			return true
		case f == "its" || f == "new" || f == "," || f == "the" || f == "a" || f == "product" || f == "app" || f == "tool" || f == "feature":
			continue
		}
		return false
	}
	return false
}

// handlePattern finds social handles such as "@fieldgrid" or "@formcraftapp".
var handlePattern = regexp.MustCompile(`@([A-Za-z0-9_]{3,30})`)

// mentionPattern matches a LinkedIn mention, a person's name written after "@" ("@Kofi Boateng"), which
// reads as the name.
var mentionPattern = regexp.MustCompile(`(?:^|\B)@(\p{Lu}[\p{Ll}'’-]+(?: \p{Lu}[\p{Ll}'’-]+){1,2})\b`)

// nameHandlePattern matches a name followed by its handle in brackets.
var nameHandlePattern = regexp.MustCompile(`(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,3}) \(@([A-Za-z0-9_.]{2,30})\)`)

// handleNamePattern matches a handle followed by the name it stands for in brackets.
var handleNamePattern = regexp.MustCompile(`@[A-Za-z0-9_.]{2,30} \((\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,3})\)`)

// nameHandles writes the handles in text whose name matches a web site the item mentions as the company's
// name ("@formcraftapp" and formcraft.example: "Formcraft"), so that they are read as companies, and the
// handles of the tracked company's founders and of other people ("@jamesokafor") as their names.
func nameHandles(text string, sites []site, founders []string) string {
	if !strings.Contains(text, "@") {
		return text
	}
	text = mentionPattern.ReplaceAllString(text, "$1")
	text = handleNamePattern.ReplaceAllString(text, "$1") // "@mirapark_dev (Mira Park)": the name
	written := writtenHandles(text)
	paired := pairedHandles(text)
	return handlePattern.ReplaceAllStringFunc(text, func(h string) string {
		name := strings.ToLower(h[1:])
		if full, ok := written[handleOf(name)]; ok {
			return full // "Alana Kealoha (@alanakealoha)": the name the item writes
		}
		for _, suffix := range handleTails {
			if trimmed := strings.TrimSuffix(name, suffix); len(trimmed) >= 4 && trimmed != name {
				for _, st := range sites {
					if st.label == trimmed {
						name = trimmed
					}
				}
			}
		}
		for _, st := range sites {
			if st.label == name {
				return strings.ToUpper(name[:1]) + name[1:]
			}
		}
		for _, f := range founders {
			if founderHandle(name, handleOf(f)) {
				return f
			}
		}
		if person := handlePerson(h[1:]); person != "" {
			return person
		}
		if brand := camelHandle(h[1:]); brand != "" {
			return brand
		}
		if brand := lowerHandle(h[1:]); brand != "" && !paired[strings.ToLower(h[1:])] {
			return brand
		}
		return h
	})
}

// Handles of people: two handles, or a handle and "I", joined by "and" or "&" ("@kimyoonah & @liamfoster",
// "@ikovalchuk and I"), a handle after a founder's title or "founded by", and the handles listed with one
// ("founded by @mikeyt (ex-CTO @gossamernet), @dr_ilse and @kofiasare").
var (
	pairedHandlePattern  = regexp.MustCompile(`@(\w{3,30}) +(?:and|&) +(?:@(\w{3,30})|[Ii]\b)`)
	founderHandlePattern = regexp.MustCompile(`(?i)(?:\bby|\bfounders?|\bco-?founders?) +@(\w{3,30})`)
	listedHandlePattern  = regexp.MustCompile(`@(\w{3,30})(?: *\([^)]*\))? *(?:,|and|&) *@(\w{3,30})`)
)

// pairedHandles returns the lowercased handles of people the patterns above find.
func pairedHandles(text string) map[string]bool {
	out := make(map[string]bool)
	for _, p := range []*regexp.Regexp{pairedHandlePattern, founderHandlePattern} {
		for _, m := range p.FindAllStringSubmatch(text, -1) {
			for _, h := range m[1:] {
				if h != "" {
					out[strings.ToLower(h)] = true
				}
			}
		}
	}
	lists := listedHandlePattern.FindAllStringSubmatch(text, -1)
	for changed := true; changed; {
		changed = false
		for _, m := range lists {
			a, b := strings.ToLower(m[1]), strings.ToLower(m[2])
			if out[a] != out[b] {
				out[a], out[b], changed = true, true, true
			}
		}
	}
	return out
}

// handleTails are the generic words a company's handle may end with ("@courtsideapp", "@tillkithq").
var handleTails = []string{"app", "hq", "inc", "io", "team", "official"}

// lowerHandle reads a handle of lowercase letters that names no person the item writes out as the name of a
// company, capitalised and without a generic tail ("@cribnote": Cribnote, "@courtsideapp": Courtside), else
// it returns "".
func lowerHandle(handle string) string {
	if len(handle) < 4 || !isLetters(handle) {
		return ""
	}
	for _, suffix := range handleTails {
		if trimmed := strings.TrimSuffix(handle, suffix); len(trimmed) >= 4 && trimmed != handle {
			handle = trimmed
			break
		}
	}
	return strings.ToUpper(handle[:1]) + handle[1:]
}

// camelHandle reads a handle written with a capital as the name of a company, without a tail of capitals such
// as a country code or "HQ" ("@ZakatFlow": ZakatFlow, "@TankhaPK": Tankha, "@Tillkit": Tillkit), else it
// returns "".
func camelHandle(handle string) string {
	if strings.ContainsAny(handle, "_0123456789") || !isUpperStart(handle) {
		return ""
	}
	name := strings.TrimRightFunc(handle, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	stripped := len(handle) - len(name)
	if stripped == 1 {
		return "" // "NetflixX"
	}
	if len(name) < 3 || len(name) == 3 && stripped == 0 && strings.IndexFunc(name[1:], unicode.IsUpper) < 0 {
		return "" // "@Abc"; "@AbcPK" and "@Tillkit" are names
	}
	return name
}

// namePattern finds runs of two to four capitalised words, which may name a person.
var namePattern = regexp.MustCompile(`\p{Lu}[\p{L}'’-]+(?:[ \t]+\p{Lu}[\p{L}'’-]+){1,3}`)

// writtenHandles maps the handle each run of two to four capitalised words of text would make to the
// words, for the runs and their parts of two words or more, and for two words also the other way round.
func writtenHandles(text string) map[string]string {
	out := make(map[string]string)
	for _, m := range nameHandlePattern.FindAllStringSubmatch(text, -1) {
		name := m[1]
		for first, rest, ok := strings.Cut(name, " "); ok && stopWords[strings.ToLower(first)] && strings.Contains(rest, " "); first, rest, ok = strings.Cut(rest, " ") {
			name = rest // "So Chidi Okonkwo (@c_okonkwo)": the sentence's first word is no part of the name
		}
		out[handleOf(m[2])] = name // "Temi Olaniyan (@temi_ola)"
	}
	for _, run := range namePattern.FindAllString(text, -1) {
		words := strings.Fields(run)
		for i := range words {
			for j := i + 2; j <= len(words); j++ {
				name := strings.Join(words[i:j], " ")
				hs := []string{handleOf(name)}
				if j == i+2 {
					// "Shimizu Akira (@akira_shimizu)": a handle may give two words the other way round.
					hs = append(hs, handleOf(words[i+1]+words[i]))
				}
				for _, h := range hs {
					if _, ok := out[h]; !ok && len(h) >= 5 {
						out[h] = name
					}
				}
			}
		}
	}
	return out
}

// founderHandle reports whether handle is a founder's: their name's letters, with at most two more
// letters or digits after it, as taken handles get ("@katengg" for Kate Ng).
func founderHandle(handle, letters string) bool {
	return len(letters) >= 5 && strings.HasPrefix(handle, letters) && len(handle)-len(letters) <= 2
}

// handlePerson reads a handle as a person's name when it is a common given name followed by a surname
// ("@jamesokafor", "@lena_park"), else it returns "". Handles of firms ("@maxventures") are left alone.
func handlePerson(handle string) string {
	lower := strings.ToLower(handle)
	given, rest, split := strings.Cut(lower, "_")
	if split {
		if strings.Contains(rest, "_") || !firstNames[given] {
			return ""
		}
	} else {
		given, rest = "", ""
		// The longest given name wins, unless it leaves a surname opening with a vowel where a shorter one
		// leaves one opening with a consonant ("@saraholm" is Sara Holm, not Sarah Olm).
		for n := len(lower) - 3; n >= 2; n-- {
			if !firstNames[lower[:n]] {
				continue
			}
			if given == "" || isVowel(rest[0]) && !isVowel(lower[n]) {
				given, rest = lower[:n], lower[n:]
			}
		}
	}
	if given == "" || len(rest) < 3 || len(rest) > 14 || !isLetters(rest) || companyWords[rest] || stopWords[rest] ||
		roleWords[rest] || companySuffix(rest) {
		return ""
	}
	for _, w := range []string{"vc", "hq", "app", "labs", "capital", "ventures", "fund", "news", "official", "team", "inc", "io"} {
		if strings.HasSuffix(rest, w) {
			return ""
		}
	}
	return strings.ToUpper(given[:1]) + given[1:] + " " + strings.ToUpper(rest[:1]) + rest[1:]
}

// isVowel reports whether the letter b is a vowel.
func isVowel(b byte) bool {
	return strings.IndexByte("aeiouy", b) >= 0
}

// isLetters reports whether s is made of the letters a to z only.
func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// departure reports whether the sentence says someone left, computed once.
func (s *sentence) departure() bool {
	if s.left == 0 {
		s.left = 1
		if hasDeparture(strings.Fields(s.str), true) {
			s.left = 2
		}
	}
	return s.left == 2
}
