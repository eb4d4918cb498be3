package leadfind

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// The patterns read a sentence in its prepared form: lowercase words and punctuation separated by single
// spaces, "T" for the tracked company, "N<i>" for each run of capitalised words and "~" before role words,
// for example "former T ~cto N0 launches N1". Matches are checked further in Go, because the regular
// expressions cannot look around.

// linkKind says how the people of a link stand to its company.
type linkKind int

const (
	kindFound linkKind = iota // founded it
	kindJoin                  // joined it or hold a non-founding role there
	kindLead                  // lead it, founding not stated
)

// pronoun marks a link whose person is "she" or "he" and is resolved against an earlier sentence.
const pronoun = -2

// startKind says at which tokens a pattern can begin.
type startKind int

const (
	atPeople        startKind = iota // a name, a role, the tracked company or a word such as "former"
	atName                           // a name
	atVerb                           // a passive founding verb ("founded by ...")
	atSentenceStart                  // the first token
	atPossessive                     // "her" or "his"
	atPronoun                        // "she" or "he"
)

// pattern is one way a sentence can tie people to a company.
type pattern struct {
	re      *regexp.Regexp
	needs   *regexp.Regexp // a word the sentence must contain for the pattern to apply
	start   startKind
	subject bool     // the people are the subject of a founding or joining verb
	kind    linkKind // kind when neither a verb nor a role decides
	noun    bool     // the phrasing itself names the company a company or startup
	pronoun bool     // the people are a pronoun
}

// memberStarts are the words that can open the description of a person in a list of people.
// Articles and pronouns are left out: a match that starts at them also starts at the next word.
var memberStarts = wordSet(`former ex fellow serial longtime onetime one-time both two three then current early dr prof
mr mrs ms sir dame T`)

// passiveStarts are the first words of the passive founding verbs.
var passiveStarts = wordSet(`co-founded cofounded founded started launched set established created formed built spun
incubated`)

// words compiles space-separated word expressions into one that matches a whole token form; a lone "~"
// stands for any role word.
func words(list string) *regexp.Regexp {
	alts := strings.Fields(list)
	for i, a := range alts {
		if a == rolePrefix {
			alts[i] = rolePrefix + ".*"
		}
	}
	return regexp.MustCompile(`^(?:` + strings.Join(alts, "|") + `)$`)
}

// contains reports whether a token of s, other than a name, matches re.
func (s *sentence) contains(re *regexp.Regexp) bool {
	for _, t := range s.toks {
		if t.span < 0 && re.MatchString(t.form) {
			return true
		}
	}
	return false
}

// needsCache maps a token form to the set of patterns, one bit each, whose needed word it is. Forms recur
// across items, so each is matched against the patterns' word lists once; the cache stops growing at
// needsCacheMax forms.
var (
	needsCache     sync.Map
	needsCacheSize atomic.Int64
)

const needsCacheMax = 200000

// neededBy returns the set of patterns, one bit each, whose needed word s contains.
func (s *sentence) neededBy() uint64 {
	var set uint64
	for _, t := range s.toks {
		if t.span >= 0 {
			continue
		}
		if v, ok := needsCache.Load(t.form); ok {
			set |= v.(uint64)
			continue
		}
		var bits uint64
		for pi, p := range patterns {
			if p.needs.MatchString(t.form) {
				bits |= 1 << pi
			}
		}
		if needsCacheSize.Load() < needsCacheMax {
			if _, loaded := needsCache.LoadOrStore(t.form, bits); !loaded {
				needsCacheSize.Add(1)
			}
		}
		set |= bits
	}
	return set
}

// startsAt reports whether the pattern can begin at token i of s.
func (p pattern) startsAt(s *sentence, i int) bool {
	form := s.toks[i].form
	switch p.start {
	case atPeople:
		return s.toks[i].span >= 0 || memberStarts[form] || strings.HasPrefix(form, rolePrefix)
	case atName:
		return s.toks[i].span >= 0
	case atVerb:
		// "Founded by Jane Doe, Aurora raises ...": the phrase opens the sentence or a clause, unlike the
		// "co-founded by" of "the start-up co-founded by Jane Doe, John Roe and Ali Khan".
		if !passiveStarts[form] || i == 0 {
			return i == 0 && passiveStarts[form]
		}
		switch s.toks[i-1].form {
		case ",", ";", ":", "—", "–", "-", "(", "and", "but":
			return true
		}
		return false
	case atSentenceStart:
		return i == 0
	case atPronoun:
		return form == "she" || form == "he"
	default:
		return form == "her" || form == "his"
	}
}

var (
	nameRe      = `N\d+`
	otherWord   = `[^N ][^ ]*`
	roleRe      = `~[^ ]+`
	roleExpr    = roleRe + `(?: (?:of |and |& |, |/ )?` + roleRe + `){0,6}`
	member      = `(?:(?:former|ex|fellow|serial|longtime|onetime|one-time|both|two|three|the|a|an|his|her|their|its|then|current|early) ){0,3}(?:(?:[a-z][a-z-]{2,} )?(?:team|duo|pair|couple|siblings|sisters|brothers|spouses|partners|friends) )?(?:[a-z][a-z-]{2,} )?(?:(?:T|` + nameRe + `)(?: 's)? (?:(?:former|ex|then|longtime|onetime|one-time|early|current) )?)?(?:` + roleExpr + ` (?:, )?)?(?:(?:dr|prof|mr|mrs|ms|sir|dame) )?` + nameRe
	aside       = `(?: , (?:a|an|the|both|now|formerly|previously|who|once) (?:` + otherWord + ` ){0,6}?` + otherWord + ` ,| \( (?:` + otherWord + ` ){0,4}?` + otherWord + ` \))?`
	listSep     = ` (?:, (?:and |& )?|and |& )`
	people      = `(?:` + member + aside + listSep + `)*` + member
	names       = `(?:` + nameRe + listSep + `)*` + nameRe
	nounWords   = `startup|start-up|company|venture|firm|business|outfit|spinout|spin-out|spinoff|spin-off|lab|site|app|platform|marketplace|studio|shop|brand|agency|service|co-operative|cooperative|retailer|maker|developer|provider`
	nounWordSet = wordSet(strings.ReplaceAll(nounWords, "|", " "))
	// nounPhraseStops end the words read before "startup" in "stealth startup Aurora".
	nounPhraseStops = wordSet(`with by from of in at for to and on into said says`)
	cpre            = `(?:(?:a|an|the|his|her|their|its) )?(?:(?:` + otherWord + `|` + nameRe + `) ){0,3}?(?:` + nounWords + `)(?: ,)? (?:(?:called|named|dubbed) )?`
	strongV         = `co-?found(?:s|ed|ing)?|cofound(?:s|ed|ing)?|found(?:s|ed|ing)?|start(?:s|ed|ing)?|set(?:s|ting)? up|establish(?:es|ed|ing)?|incorporat(?:e|es|ed|ing)|form(?:s|ed|ing)?|spin(?:s|ning)? (?:up|out|off)|spun (?:up|out|off)`
	weakV           = `launch(?:es|ed|ing)?|build(?:s|ing)?|built|unveil(?:s|ed|ing)?|debut(?:s|ed|ing)?|creat(?:e|es|ed|ing)|behind|work(?:s|ing)? on|raising (?:money|funds|capital|cash) for`
	leadV           = `lead|leads|leading|head|heads|heading|run|runs|running|helm|helms`
	joinV           = `join(?:s|ed|ing)?|rejoin(?:s|ed|ing)?|move(?:s|d)? to|moving to|head(?:s|ed)? to|heading to`
	passiveV        = `co-?founded|cofounded|founded|started|launched|set up|established|created|formed|built|spun out|spun off|incubated`
	asRole          = `(?P<as> as (?:(?:its|their|the|a|an|new|first) )*(?P<role>` + roleExpr + `))?`
	withList        = `(?P<with>(?: , (?:a|an|the) (?:(?:` + otherWord + `|` + nameRe + `) ){0,6}?(?:` + otherWord + `|` + nameRe + `) ,| ,)? (?:alongside|with|together with) (?:(?:~co-?founders?|~cofounders?|fellow|former|ex|his|her|their|my|our|old|longtime|two|three|a|the|friend|friends|and|~colleagues?|classmates?|wife|husband|brother|sister) ){0,5}(?P<withpeople>` + people + `))?`
	appositive      = `(?: , (?:a|an|the|its|which|whose)(?: ` + otherWord + `){0,6}? ,)?(?: (?:is|was|are|were|will be|has been|is now|now))?`
	objectRef       = `(?:the )?(?P<cpre>` + cpre + `)?(?P<company>` + nameRe + `)`
)

// anchored compiles expr to match only at the start of the text, so that a pattern is tried only where
// its first token can begin; that keeps the automaton small and the scan linear in practice.
func anchored(expr string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + expr + `)`)
}

var patterns = []pattern{
	// "Jane Doe, co-founder of Northwind, has left to start Aurora Robotics", "Former Northwind CTO Jane Doe
	// launches Aurora", "Jane Doe departs Northwind to co-found Aurora with John Roe", "Jane Doe joins Aurora".
	{re: anchored(`(?P<people>` + people + `)(?P<gap>(?: ` + otherWord + `){0,16}?) (?P<verb>` + strongV + `|` + weakV + `|` + joinV + `|` + leadV + `) ` + objectRef + asRole + withList), needs: words(strongV + "|" + weakV + "|" + leadV + "|join(?:s|ed|ing)? rejoin(?:s|ed|ing)? set(?:s|ting)? spin(?:s|ning)? spun move[sd]? moving head(?:s|ed)? heading"), start: atPeople, subject: true},
	// "Ollie Marsh has teamed up with Dev Malhotra and Rosie Cartwright to found Shiftwise".
	{re: anchored(`(?P<people>` + people + `) (?:(?:has|have|had|is|are|was|were) )?(?:teamed|teaming|teams|team) up with (?P<withpeople>` + people + `)(?: ,)?(?P<gap> to) (?P<verb>` + strongV + `|` + weakV + `) ` + objectRef), needs: words("teamed teaming teams team"), start: atPeople, subject: true},
	// "Aurora, founded by ex-Northwind engineer Jane Doe", "Quill (founded by Raj Patel)".
	{re: anchored(`(?P<company>` + nameRe + `)(?P<cgap>(?: \(| ,| ` + otherWord + `| ` + nameRe + `){0,12}?) (?P<verb>` + passiveV + `)(?: ` + otherWord + `){0,3}?(?: in (?:a |an |the )?` + nameRe + `(?: ` + otherWord + `){0,3}?)? by (?P<people>` + people + `)`), needs: words("by"), start: atName},
	// "Founded by ex-Northwind engineer Jane Doe, Aurora raises a seed round".
	{re: anchored(`(?P<verb>` + passiveV + `) (?:in ` + otherWord + ` )?by (?P<people>` + people + `)(?: in ` + otherWord + `)? , (?:(?:the|a|an|its) )?(?:(?:stealth|new|startup|start-up|company|firm|venture) ){0,2}(?P<company>` + nameRe + `)`), needs: words("by"), start: atVerb},
	// "Beacon Labs founder Sam Lee", "Delta AI's co-founders Ann Bee and Cat Dee", "Aurora CTO Jane Doe".
	{re: anchored(`(?P<company>` + nameRe + `)(?: 's)? (?:(?:new|interim|current) )?(?P<role>` + roleExpr + `)(?: ,)? (?P<people>` + names + `)`), needs: words("~"), start: atName, kind: kindJoin},
	// "Sam Lee, co-founder and CEO of Beacon Labs", "Jane Doe is now CTO at Aurora".
	{re: anchored(`(?P<people>` + names + `)(?: ,(?: ` + otherWord + `){1,10}? ,)?(?: ,| is| are| was| were| became| becomes| has become| will be| remains| serves as| served as)(?: (?:the|a|an|its|now|also|currently|new|and|,))*(?: one of (?:the |its )?(?:two|three|four|five|six|several|the))? (?P<role>` + roleExpr + `) (?:of|at) (?P<company>` + nameRe + `)`), needs: words("~"), start: atName, kind: kindJoin, subject: true},
	// "Delta AI (founders: Ann Bee and Cat Dee)".
	{re: anchored(`(?P<company>` + nameRe + `) (?:\( |, |: )(?:(?:its|the|whose|with) )?(?P<role>~co-?founders?|~cofounders?|~founders?)(?: :| ,| are| include| including)? (?P<people>` + people + `)`), needs: words("~co-?founders? ~cofounders? ~founders?"), start: atName},
	// "Kite Health, under co-founders Mo Khan and Lia Park".
	{re: anchored(`(?P<company>` + nameRe + `)` + appositive + `(?: ,)? (?:under|led by|headed by|run by|helmed by) (?:(?:its|the|new|two|three|former|ex) )*(?P<role>` + roleExpr + `)(?: ,)? (?P<people>` + people + `)`), needs: words("under led headed run helmed"), start: atName, kind: kindLead},
	// "Kite Health, led by former Northwind VP Ann Bee".
	{re: anchored(`(?P<company>` + nameRe + `)` + appositive + `(?: ,)? (?:under|led by|headed by|run by|helmed by) (?P<people>` + people + `)`), needs: words("under led headed run helmed"), start: atName, kind: kindLead},
	// "Kite Robotics, with former Northwind CTO Li Wei as CEO".
	{re: anchored(`(?P<company>` + nameRe + `)(?: ,)? with (?P<people>` + people + `) as (?:(?:its|the|a|an|new|first) )*(?P<role>` + roleExpr + `)`), needs: words("with"), start: atName, kind: kindLead},
	// "Jane Doe's new startup, Aurora".
	{re: anchored(`(?P<people>` + names + `) 's (?:(?:new|latest|own|next|second|third|stealth|stealth-mode) ){0,2}(?:` + otherWord + ` ){0,2}?(?:` + nounWords + `)(?: ,)? (?:(?:called|named|dubbed) )?(?P<company>` + nameRe + `)`), needs: words("'s"), start: atName, noun: true, subject: true},
	// "Jane Doe, whose start-up Aurora Northwind acquired in January", "Kaito and Yui Watanabe — whose
	// company Hoshi was bought by Northwind".
	{re: anchored(`(?P<people>` + people + `)(?: ,| —| –| -)? whose (?:(?:new|own|first|latest|young|small|tiny|two-year-old|stealth) )?(?:` + otherWord + ` ){0,2}?(?:` + nounWords + `)(?: ,)? (?P<company>` + nameRe + `)`), needs: words("whose"), start: atPeople, noun: true, kind: kindFound},
	// "Huntress (@huntress_ish) — Maya Chen & Dev Rao's tiny threat-intel shop".
	{re: anchored(`(?P<company>` + nameRe + `)(?: \( [^ )]+(?: [^ )]+){0,3} \))? , (?P<people>` + names + `) 's (?:` + otherWord + ` ){0,3}?(?:` + nounWords + `)`), needs: words("'s"), start: atName, noun: true},
	// "Aurora, a new startup from former Northwind engineer Jane Doe".
	{re: anchored(`(?P<company>` + nameRe + `) , (?:a|an|the) (?:` + otherWord + ` ){0,3}?(?:` + nounWords + `) (?:from|by|of) (?P<people>` + people + `)`), needs: words("from by of"), start: atName, noun: true},
	// "Kestrel, a new company led by CEO Priya Nair".
	{re: anchored(`(?P<company>` + nameRe + `) , (?:a|an|the) (?:` + otherWord + ` ){0,3}?(?:` + nounWords + `) (?:led|headed|run|helmed) by (?:(?:its|the|new|former|ex) )*(?:(?P<role>` + roleExpr + `) )?(?P<people>` + people + `)`), needs: words("led headed run helmed"), start: atName, noun: true, kind: kindLead},
	// "Quill, which Raj Patel and Lena Fox founded in 2021", "Trailhead, the Calgary retailer that Greg and
	// Amira Lewis opened in 2016".
	{re: anchored(`(?P<company>` + nameRe + `) , (?:(?:a|an|the) (?:(?:` + otherWord + `|` + nameRe + `) ){0,4}?)?(?:which|that) (?:(?:` + otherWord + ` ){0,2}?(?:team|duo|pair|couple) )?(?P<people>` + people + `) (?:(?:had|have|has|jointly|together) )*(?P<verb>co-?founded|cofounded|founded|started|launched|set up|built|opened)`), needs: words("which that"), start: atName},
	// "Keyfold, which he started with former Okta engineer Maya Lindholm".
	{re: anchored(`(?P<company>` + nameRe + `) , (?:which|that) (?:she|he) (?:(?:had|have|has|jointly|together|also) )*(?P<verb>co-?founded|cofounded|founded|started|launched|set up|built)` + withList), needs: words("which that"), start: atName, subject: true, pronoun: true},
	// "Quill is the work of Raj Patel and Lena Fox", "Quill, the brainchild of Raj Patel".
	{re: anchored(`(?P<company>` + nameRe + `) (?:is|was|,) (?:(?:the|a|an) )?(?:(?:` + otherWord + `|` + nameRe + `) ){0,2}?(?:work|brainchild|creation|duo|baby) of (?P<people>` + people + `)`), needs: words("work brainchild creation duo baby"), start: atName, kind: kindFound},
	// "Jane Doe leaves Northwind for Aurora".
	{re: anchored(`(?P<people>` + people + `)(?P<gap>(?: ` + otherWord + `){0,8}?) (?:leaves|left|departs|departed|quits|quit|exits|exited|is leaving|has left)(?: T)?(?: ` + otherWord + `){0,4}? for (?:(?:the|a|an|rival|startup|stealth) )*(?P<company>` + nameRe + `)`), needs: words("for"), start: atPeople, subject: true, kind: kindJoin},
	// "Aurora hires former Northwind VP Jane Doe as CTO".
	{re: anchored(`(?P<company>` + nameRe + `) (?:(?:has|have|just|also) )*(?:hires|hired|appoints|appointed|names|named|taps|tapped|poaches|poached|recruits|recruited|adds|added|welcomes|welcomed|brings on|brought on|lands|landed|snags|nabs) (?P<people>` + people + `)(?: as (?:(?:its|their|the|a|an|new|first) )*(?P<role>` + roleExpr + `))?`), needs: words("hires hired appoints appointed names named taps tapped poaches poached recruits recruited adds added welcomes welcomed brings brought lands landed snags nabs"), start: atName, kind: kindJoin},
	// "She is now building Aurora, a stealth startup.", "Now she is building Aurora".
	{re: anchored(`(?:she|he)(?P<gap>(?: ` + otherWord + `){0,10}?) (?P<verb>` + strongV + `|` + weakV + `|` + joinV + `) ` + objectRef + asRole + withList), needs: words("she he"), start: atPronoun, subject: true, pronoun: true},
	// "She and Jon Berg have founded Aurora".
	{re: anchored(`(?:she|he) (?:and|&) (?P<withpeople>` + people + `)(?P<gap>(?: ` + otherWord + `){0,6}?) (?P<verb>` + strongV + `|` + weakV + `) ` + objectRef), needs: words("she he"), start: atPronoun, subject: true, pronoun: true},
	// "Together with Jon Berg, she founded Aurora".
	{re: anchored(`(?:together )?with (?P<withpeople>` + people + `) , (?:she|he)(?P<gap>(?: ` + otherWord + `){0,6}?) (?P<verb>` + strongV + `|` + weakV + `) ` + objectRef), needs: words("she he"), start: atSentenceStart, subject: true, pronoun: true},
	// "Aurora, a company she started this year".
	{re: anchored(`(?P<company>` + nameRe + `) , (?:a|an|the) (?:` + otherWord + ` ){0,3}?(?:` + nounWords + `) (?:(?:that|which) )?(?:she|he) (?:(?:had|has|also|just) )?(?P<verb>co-?founded|cofounded|founded|started|launched|set up|built)`), needs: words("she he"), start: atName, noun: true, pronoun: true},
	// "... to focus on her new startup, Aurora".
	{re: anchored(`(?:her|his) (?:(?:new|latest|own|next|second|stealth|stealth-mode) ){0,2}(?:` + otherWord + ` ){0,2}?(?:` + nounWords + `)(?: ,| :)? (?:(?:called|named|dubbed) )?(?P<company>` + nameRe + `)`), needs: words("her his"), start: atPossessive, noun: true, pronoun: true},
}

var (
	strongVerb  = regexp.MustCompile(`^(?:` + strongV + `|` + passiveV + `)$`)
	joinVerb    = regexp.MustCompile(`^(?:` + joinV + `)$`)
	leadVerb    = regexp.MustCompile(`^(?:` + leadV + `)$`)
	presentVerb = regexp.MustCompile(`(?:s|ing)$`)

	hirePattern = anchored(`T(?: 's)?(?: (?:has|have|today|just|officially|recently|now|is|also))* (?:` + hireVerbs + `)(?: |$)` +
		`|(?:joins|is joining|has joined|will join|to join|rejoins|rejoined|returns to|returning to|joining) (?:the )?(?:(?:advisory )?~board (?:of )?(?:~directors )?(?:at |of )?)?T(?: |$)` +
		`|joined (?:the )?(?:~board of )?T (?:'s )?(?:~board|as)(?: |$)` +
		`|T 's (?:(?:advisory|~executive|leadership|management) )?~board(?: |$)` +
		`|~board (?:of ~directors )?(?:at|of) T(?: |$)`)
)

// hireStarts are the tokens where a hire into the tracked company can be reported.
var hireStarts = wordSet(`T joins is has will to rejoins rejoined returns returning joining joined ~board`)

// reportsHire reports whether the sentence tells of a hire into the tracked company or a seat on its board.
func (s *sentence) reportsHire() bool {
	for i, t := range s.toks {
		if hireStarts[t.form] && hirePattern.MatchString(s.str[s.starts[i]:]) {
			return true
		}
	}
	return false
}

// link ties people of a sentence to a company they founded, joined or lead.
type link struct {
	sent     int
	people   []int // token indexes of the people, or pronoun
	with     []int // token indexes of co-founders named after "with"
	company  int
	kind     linkKind
	role     string
	strong   bool     // founding is certain: a founding verb or role, or the company is called a company
	explicit bool     // a founding verb or role, or "a new startup, X": more than a launch of something
	fresh    bool     // the phrasing announces a new venture rather than recalling an old one
	cofound  bool     // the verb says co-found
	ctx      string   // words after the people, before the company, that tell how they relate to the tracked company
	tail     string   // words after the company, for people who are the subject ("founded Aurora after leaving T")
	withCtx  []string // the words around each co-founder named after "with"
}

// findLinks applies every pattern to the sentence at index si of sents.
func findLinks(sents []*sentence, si int) []link {
	s := sents[si]
	var links []link
	needed := s.neededBy()
	for pi, p := range patterns {
		if needed&(1<<pi) == 0 {
			continue
		}
		for i := 0; i < len(s.toks); i++ {
			if !p.startsAt(s, i) {
				continue
			}
			at := s.starts[i]
			m := p.re.FindStringSubmatchIndex(s.window(at))
			if m == nil {
				continue
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += at
				}
			}
			if l, ok := s.link(p, m); ok {
				l.sent = si
				links = append(links, l)
				i = s.tokenAt(m[1] - 1)
			}
		}
	}
	return links
}

// matchWindow bounds, in bytes of the prepared sentence, how far one match can reach, so that a long list
// of names costs each attempt a fixed amount of work.
const matchWindow = 200

// window returns the prepared sentence from offset at, cut at the first token end after matchWindow bytes.
func (s *sentence) window(at int) string {
	end := at + matchWindow
	if end >= len(s.str) {
		return s.str[at:]
	}
	if sp := strings.IndexByte(s.str[end:], ' '); sp >= 0 {
		return s.str[at : end+sp]
	}
	return s.str[at:]
}

// group returns the token range [from, to) of a named group of match m, or ok=false when it did not match.
func (s *sentence) group(p pattern, m []int, name string) (from, to int, ok bool) {
	i := p.re.SubexpIndex(name)
	if i < 0 || m[2*i] < 0 {
		return 0, 0, false
	}
	if m[2*i] == m[2*i+1] {
		return s.tokenAt(m[2*i]), s.tokenAt(m[2*i]), true
	}
	return s.tokenAt(m[2*i]), s.tokenAt(m[2*i+1]-1) + 1, true
}

// text returns the prepared text of a named group of match m, or "".
func (s *sentence) text(p pattern, m []int, name string) string {
	i := p.re.SubexpIndex(name)
	if i < 0 || m[2*i] < 0 {
		return ""
	}
	return s.str[m[2*i]:m[2*i+1]]
}

// link turns match m of pattern p into a link, or reports false when the match does not hold up: the
// company is the tracked one or its own unit, the role is a board seat, no named person remains.
func (s *sentence) link(p pattern, m []int) (link, bool) {
	l := link{kind: p.kind}
	cFrom, _, _ := s.group(p, m, "company")
	l.company = cFrom
	if s.toks[cFrom].span < 0 || s.adjectiveAt(cFrom) || placeBefore(s, cFrom) || s.placeAt(cFrom) || s.notCompanyAt(cFrom) || s.describesNoun(cFrom) {
		return l, false
	}
	companyEnd := cFrom + 1
	if companyEnd < len(s.toks) && s.toks[companyEnd].form == "'s" && p.subject {
		return l, false
	}
	if from, to, ok := s.group(p, m, "cgap"); ok && !cleanGap(s.toks[from:to]) {
		return l, false
	}
	verb := s.text(p, m, "verb")
	l.cofound = strings.Contains(verb, "cofound") || strings.Contains(verb, "co-found")
	if from, to, ok := s.group(p, m, "role"); ok {
		l.role = s.roleText(from, to)
	}
	switch {
	case joinVerb.MatchString(verb):
		l.kind = kindJoin
	case leadVerb.MatchString(verb):
		l.kind = kindLead
	case verb != "":
		l.kind = kindFound
	case strings.Contains(l.role, "found"):
		l.kind = kindFound
	}
	if isExcludedRole(l.role) || l.kind == kindJoin && s.followedByBoard(companyEnd) {
		return l, false
	}
	cpre := s.text(p, m, "cpre")
	if cpre == "" {
		cpre = s.nounBefore(cFrom)
	}
	if slices.Contains(strings.Fields(cpre), "T") {
		return l, false
	}
	l.explicit = strongVerb.MatchString(verb) || strings.Contains(l.role, "found") || cpre != "" || p.noun
	l.strong = l.explicit || s.spans[s.toks[cFrom].span].companyish || s.calledCompany(companyEnd)
	gap := strings.Fields(s.text(p, m, "gap"))
	l.fresh = presentVerb.MatchString(verb) || strings.Contains(cpre, "new") || strings.Contains(cpre, "second") ||
		strings.Contains(cpre, "another") || strings.Contains(cpre, "own") || p.noun ||
		len(gap) > 0 && slices.Contains([]string{"has", "have", "is", "are", "will", "to", "now", "just", "'s"}, gap[len(gap)-1])

	end := companyEnd
	if _, to, ok := s.group(p, m, "as"); ok {
		end = max(end, to)
	}
	if from, to, ok := s.group(p, m, "withpeople"); ok {
		l.with = s.members(from, to)
		for _, w := range l.with {
			l.withCtx = append(l.withCtx, s.pre(w)+" "+s.post(l.with[len(l.with)-1]))
		}
		end = max(end, to)
	}
	if p.pronoun {
		l.people = []int{pronoun}
		l.ctx = strings.Join(gap, " ")
		if p.subject {
			l.tail = s.post(end - 1)
		}
		return l, true
	}
	from, to, _ := s.group(p, m, "people")
	l.people = s.members(from, to)
	if len(l.people) == 0 {
		return l, false
	}
	last := l.people[len(l.people)-1]
	if p.subject && last < l.company {
		l.ctx = s.forms(last+1, l.company)
		l.tail = s.post(end - 1)
	} else {
		l.ctx = s.post(last)
	}
	l.fresh = l.fresh || slices.Contains(strings.Fields(l.ctx), "now")
	return l, true
}

// members returns the token indexes of the people named in the token range [from, to): each capitalised
// run that ends a list item, as opposed to a company or title before a name.
func (s *sentence) members(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		if s.toks[i].span < 0 {
			continue
		}
		if i+1 < to {
			next := s.toks[i+1].form
			if next == "'s" || strings.HasPrefix(next, rolePrefix) {
				continue
			}
		}
		if s.spans[s.toks[i].span].person || s.givenName(i) {
			out = append(out, i)
		}
	}
	return out
}

// pre returns the words before token i that describe the person there, up to the previous name, "by",
// "with" or similar.
func (s *sentence) pre(i int) string {
	var words []string
	for j := i - 1; j >= 0 && len(words) < 12; j-- {
		t := s.toks[j]
		if t.span >= 0 || preStops[t.form] {
			break
		}
		words = append(words, t.form)
	}
	slices.Reverse(words)
	return strings.Join(words, " ")
}

// forms returns the pattern forms of tokens [from, to) joined by spaces.
func (s *sentence) forms(from, to int) string {
	var words []string
	for _, t := range s.toks[from:to] {
		words = append(words, t.form)
	}
	return strings.Join(words, " ")
}

// post returns the words after token i up to the next name or a reporting verb such as "said".
func (s *sentence) post(i int) string {
	var words []string
	for j := i + 1; j < len(s.toks) && len(words) < 16; j++ {
		t := s.toks[j]
		if t.span >= 0 || postStops[t.form] {
			break
		}
		words = append(words, t.form)
	}
	return strings.Join(words, " ")
}

// cleanGap reports whether the words between a company and "founded by" only describe the company, so the
// founders named next are its founders and not those of another thing mentioned in between.
func cleanGap(toks []token) bool {
	for i, t := range toks {
		if t.form == "T" && (i+1 == len(toks) || toks[i+1].form == ",") {
			return false
		}
		switch t.form {
		case "from", "of", "in", "at", "with", "for", "to", "on", "into", "by", "and", "said", "says":
			return false
		}
	}
	return true
}

// nounBefore returns the words before the company at token i when they call it a company, as in
// "stealth startup Aurora" or "a new company called Aurora", else "".
func (s *sentence) nounBefore(i int) string {
	j := i - 1
	if j >= 0 {
		switch s.toks[j].form {
		case "called", "named", "dubbed":
			j--
		}
	}
	if j >= 0 && s.toks[j].form == "," {
		j--
	}
	if j < 0 || !nounWordSet[s.toks[j].form] {
		return ""
	}
	from := j
	for k := j - 1; k >= 0 && k >= j-3; k-- {
		t := s.toks[k]
		if t.span >= 0 || t.form == "," || t.form == "(" || t.form == ")" || nounPhraseStops[t.form] {
			break
		}
		from = k
	}
	return s.forms(from, i)
}

// calledCompany reports whether the company ending before token i is described next as a company, as in
// "Aurora, a stealth startup".
func (s *sentence) calledCompany(i int) bool {
	if i+1 >= len(s.toks) || s.toks[i].form != "," {
		return false
	}
	switch s.toks[i+1].form {
	case "a", "an", "the", "its":
	default:
		return false
	}
	for j := i + 2; j < len(s.toks) && j < i+8; j++ {
		t := s.toks[j]
		if t.span >= 0 || t.form == "," {
			return false
		}
		switch t.form {
		case "startup", "start-up", "company", "venture", "firm", "business", "maker", "developer", "provider", "spinout", "spin-off", "spinoff", "lab":
			return j+1 >= len(s.toks) || s.toks[j+1].form != "'s"
		}
	}
	return false
}

// followedByBoard reports whether the company ending before token i is followed by "board", as in
// "joins Aurora's board".
func (s *sentence) followedByBoard(i int) bool {
	for j := i; j < len(s.toks) && j < i+3; j++ {
		switch word(s.toks[j].form) {
		case "board", "advisory":
			return true
		}
	}
	return false
}

// isExcludedRole reports whether a role is not a founding or operating role (board seats, advisers,
// investors).
func isExcludedRole(role string) bool {
	for w := range strings.FieldsSeq(strings.ToLower(role)) {
		switch w {
		case "board", "advisor", "adviser", "advisors", "advisers", "investor", "investors", "member", "members", "intern", "alum", "alumni", "alumnus", "alumna", "veteran", "veterans", "colleague", "colleagues":
			return true
		}
	}
	return false
}

// roleText renders the role in tokens [from, to) as written, lowercasing all but acronyms and using the
// singular of founders.
func (s *sentence) roleText(from, to int) string {
	var words []string
	for _, t := range s.toks[from:to] {
		w := t.text
		if w == "," && len(words) > 0 {
			words[len(words)-1] += ","
			continue
		}
		if strings.ToUpper(w) != w || len(w) < 2 {
			w = strings.ToLower(w)
		}
		switch strings.ToLower(w) {
		case "co-founders", "cofounders", "cofounder":
			w = "co-founder"
		case "founders":
			w = "founder"
		case "ceos":
			w = "CEO"
		case "co-ceos":
			w = "co-CEO"
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}
