// Package fuzzy resolves a loosely written company name, founder name or website to one of an organisation's
// companies, answering the spec's fuzzy lookup with a match, nothing, or a short list of candidates.
//
// Every company contributes normalised keys: its name without legal suffixes and with words joined
// ("northwindlabs"), the first label of its website's registrable domain ("northwind"), and each founder's
// name ("janedoe"); its registrable domain ("northwind.io") is kept for exact lookup. A lookup normalises the
// query the same way, gathers candidate keys from exact equality, from keys the query is a prefix of, and
// from a trigram inverted index, scores each by Jaro-Winkler and trigram similarity, and decides:
//
//   - An exact normalised match (name, founder or registrable domain) scores 1 and wins over every inexact
//     match, so "northwind" picks "Northwind" even when "Northwind Labs" exists; two exact matches are
//     ambiguous.
//   - A domain label that equals a key ("northwind.com" for "Northwind", or "northwind" for a company at
//     northwind.io) scores [LabelScore].
//   - A query of at least three characters that begins the keys of two or more companies is ambiguous
//     ("north" with "Northwind" and "Northstar"), unless one company matches exactly.
//   - A query of one word may be a typo of a key: within one edit from four letters or two edits from seven
//     (optimal string alignment, so a transposition is one edit), the key scores 1 - [TypoStep] per edit,
//     and, unless the query begins a key as written, a key at least three letters longer that begins with
//     such a typo of the query scores as a prefix match less [TypoStep] per edit.
//   - Otherwise the best score must reach [Threshold], and a runner-up within [Margin] of it makes the
//     lookup ambiguous.
package fuzzy

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/adrg/strutil/metrics"
)

// Decision constants of a lookup.
const (
	// Threshold is the lowest score that counts as a match.
	Threshold = 0.80
	// Margin is how close to the best score a runner-up must be to make a lookup ambiguous.
	Margin = 0.05
	// LabelScore is the score of a domain label equal to a key, below an exact match because the rest of
	// the domain may differ.
	LabelScore = 0.97
	// MaxCandidates is the most candidates an ambiguous lookup returns.
	MaxCandidates = 5
	// TypoStep is what each edit of a one-word typo takes off the score; it exceeds Margin, so a company one
	// edit closer than another wins rather than making the lookup ambiguous.
	TypoStep = 0.06
)

// Values of Candidate.MatchedOn.
const (
	OnCompanyName = "companyName"
	OnFounderName = "founderName"
	OnWebsite     = "website"
)

const (
	// jwWeight and triWeight blend Jaro-Winkler and trigram Dice similarity into an inexact score.
	jwWeight  = 0.6
	triWeight = 0.4
	// minDice is the lowest trigram similarity with which an inexact key can still reach Threshold-Margin.
	minDice = (Threshold - Margin - jwWeight) / triWeight
	// prefixRunes is the shortest query that counts as a prefix of longer keys.
	prefixRunes = 3
	// prefixSpan is how far a prefix match rises above Threshold as the query covers more of the key.
	prefixSpan = 0.19
	// similarKeys and prefixKeys bound how many keys one lookup scores from each source.
	similarKeys = 64
	prefixKeys  = 16
	// typoDice is the lowest trigram similarity of a key still checked for a one-word typo: a short word
	// with two edits shares few trigrams with the key it means.
	typoDice = 0.2
	// oneTypoRunes and twoTyposRunes are the shortest one-word queries allowed one and two edits.
	oneTypoRunes  = 4
	twoTyposRunes = 7
)

// Doc is one company as the index sees it.
type Doc struct {
	ID          string   // entity UUID
	CompanyName string   // company name as registered
	Website     string   // company website; its registrable domain and that domain's first label match
	Founders    []string // founder names
}

// Candidate is a company a lookup found, as reported in a resolution object or an ambiguity error.
type Candidate struct {
	ID          string  `json:"id"`
	CompanyName string  `json:"companyName"`
	FounderName string  `json:"founderName"` // founder names joined with ", "
	MatchedOn   string  `json:"matchedOn"`   // OnCompanyName, OnFounderName or OnWebsite
	Score       float64 `json:"score"`       // 0..1, 1 for an exact normalised match
}

// Outcome is the decision of a lookup.
type Outcome int

// Outcomes of a lookup; the zero value is NotFound.
const (
	NotFound Outcome = iota
	Matched
	Ambiguous
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Matched:
		return "matched"
	case Ambiguous:
		return "ambiguous"
	}
	return "not found"
}

// Result is the answer of a lookup.
type Result struct {
	Outcome    Outcome
	Best       Candidate   // when Matched
	Candidates []Candidate // when Ambiguous: up to MaxCandidates, best first
}

// field is what a key was made from; lower values win ties.
type field uint8

const (
	fieldCompany field = iota
	fieldWebsite
	fieldFounder
)

// limit is the highest score a key of the field can reach.
func (f field) limit() float64 {
	if f == fieldWebsite {
		return LabelScore
	}
	return 1
}

func (f field) matchedOn() string {
	switch f {
	case fieldWebsite:
		return OnWebsite
	case fieldFounder:
		return OnFounderName
	}
	return OnCompanyName
}

// key is one normalised form of a company.
type key struct {
	text  string
	doc   uint32
	field field
	tris  uint16 // distinct trigrams of text
}

type entry struct {
	id, name, founders string
}

// Index answers fuzzy lookups over one organisation's companies. It is immutable after Build and safe for
// concurrent use.
type Index struct {
	docs     []entry
	keys     []key                // ordered by text, doc, field
	postings map[trigram][]uint32 // positions in keys holding a trigram, ascending
	domains  map[string][]uint32  // registrable domain to docs
	jw       *metrics.JaroWinkler
	scratch  sync.Pool // *scratch sized for keys
}

// Build indexes docs; the caller rebuilds the index when the organisation's companies change.
func Build(docs []Doc) *Index {
	ix := &Index{
		docs:    make([]entry, 0, len(docs)),
		domains: make(map[string][]uint32),
		jw:      metrics.NewJaroWinkler(),
	}
	for i, d := range docs {
		doc := uint32(i)
		var founders []string
		for _, f := range d.Founders {
			if f = strings.TrimSpace(f); f != "" {
				founders = append(founders, f)
			}
		}
		ix.docs = append(ix.docs, entry{id: d.ID, name: d.CompanyName, founders: strings.Join(founders, ", ")})
		ix.addKey(nameKey(d.CompanyName), doc, fieldCompany)
		if domain, label, ok := domainOf(d.Website); ok {
			if ds := ix.domains[domain]; len(ds) == 0 || ds[len(ds)-1] != doc {
				ix.domains[domain] = append(ds, doc)
			}
			ix.addKey(label, doc, fieldWebsite)
		}
		for _, f := range founders {
			ix.addKey(personKey(f), doc, fieldFounder)
		}
	}
	slices.SortFunc(ix.keys, func(a, b key) int {
		return cmp.Or(strings.Compare(a.text, b.text), cmp.Compare(a.doc, b.doc), cmp.Compare(a.field, b.field))
	})
	ix.keys = slices.CompactFunc(ix.keys, func(a, b key) bool { return a.text == b.text && a.doc == b.doc })
	ix.keys = slices.Clip(ix.keys)
	ix.buildPostings()
	n := len(ix.keys)
	ix.scratch.New = func() any { return &scratch{counts: make([]uint8, n)} }
	return ix
}

func (ix *Index) addKey(text string, doc uint32, f field) {
	if text != "" {
		ix.keys = append(ix.keys, key{text: text, doc: doc, field: f})
	}
}

// buildPostings fills the trigram inverted index, all lists sharing one backing array.
func (ix *Index) buildPostings() {
	var buf []trigram
	sizes := make(map[trigram]int)
	total := 0
	for i := range ix.keys {
		buf = trigrams(ix.keys[i].text, buf)
		ix.keys[i].tris = uint16(min(len(buf), math.MaxUint16))
		for _, t := range buf {
			sizes[t]++
		}
		total += len(buf)
	}
	arena := make([]uint32, total)
	ix.postings = make(map[trigram][]uint32, len(sizes))
	off := 0
	for t, n := range sizes {
		ix.postings[t] = arena[off : off : off+n]
		off += n
	}
	for i := range ix.keys {
		buf = trigrams(ix.keys[i].text, buf)
		for _, t := range buf {
			ix.postings[t] = append(ix.postings[t], uint32(i))
		}
	}
}

// Len returns the number of companies in the index.
func (ix *Index) Len() int { return len(ix.docs) }

// query is a lookup text in its normalised forms.
type query struct {
	name    string // name form, empty for a URL
	oneWord bool   // whether the name form is one word
	domain  string // registrable domain, when the text looks like a website
	label   string // first label of domain
}

func parseQuery(s string) query {
	s = strings.TrimSpace(s)
	var q query
	if domain, label, ok := domainOf(s); ok {
		q.domain, q.label = domain, label
		lower := strings.ToLower(s)
		if strings.Contains(lower, "://") || strings.HasPrefix(lower, "www.") || strings.Contains(lower, "/") {
			return q
		}
	}
	ws := stripLegalSuffixes(words(s))
	q.name = truncate(strings.Join(ws, ""))
	q.oneWord = len(ws) == 1
	return q
}

// probe is one normalised form of a query, the highest score it may give and how it finds keys. A domain
// query probes its name form ("northwindio") only for equal and prefixed keys, and its label ("northwind")
// for equal and similar ones.
type probe struct {
	text     string
	cap      float64
	prefixes bool // whether keys the text begins count as prefix matches
	similar  bool // whether keys sharing trigrams with the text are scored
	typos    int  // edits a one-word text may be away from a key, 0 for none
}

// match is the best score of one company in a lookup.
type match struct {
	score float64
	field field
}

// lookup holds the state of one Lookup call.
type lookup struct {
	ix      *Index
	matches map[uint32]match
	tris    []trigram // trigrams of the current probe
	keyTris []trigram // trigrams of the key being scored
	shared  bool      // whether the query begins keys of two or more companies
	begins  bool      // whether the current probe equals or begins a key
	equal   bool      // whether the current probe equals a key
	runes   []rune    // the current probe's text, for typo distances
	keyRs   []rune    // the key being scored
	rows    []int     // working rows of typoDistance
}

// Lookup resolves a company name, founder name or website to a company of the index.
func (ix *Index) Lookup(text string) Result {
	q := parseQuery(text)
	l := &lookup{ix: ix, matches: make(map[uint32]match)}
	for _, doc := range ix.domains[q.domain] {
		l.offer(doc, 1, fieldWebsite)
	}
	probes := []probe{{text: q.name, cap: 1, prefixes: true, similar: true, typos: typoBudget(q)}}
	if q.domain != "" {
		probes = []probe{{text: q.name, cap: LabelScore, prefixes: true}, {text: q.label, cap: LabelScore, similar: true}}
	}
	for _, p := range probes {
		if p.text == "" {
			continue
		}
		l.tris = trigrams(p.text, l.tris)
		l.runes = append(l.runes[:0], []rune(p.text)...)
		l.scan(p)
		if l.equal {
			p.typos = 0 // an exact match wins over every typo
		}
		if p.similar {
			l.similar(p)
		}
	}
	return l.decide()
}

// typoBudget is how many edits away from a key a query may be: none unless it is one word.
func typoBudget(q query) int {
	if !q.oneWord {
		return 0
	}
	switch n := utf8.RuneCountInString(q.name); {
	case n >= twoTyposRunes:
		return 2
	case n >= oneTypoRunes:
		return 1
	}
	return 0
}

func (l *lookup) offer(doc uint32, score float64, f field) {
	cur, ok := l.matches[doc]
	if !ok || score > cur.score || (score == cur.score && f < cur.field) {
		l.matches[doc] = match{score: score, field: f}
	}
}

// scan offers the keys equal to the probe and, for a name probe, the shortest keys it is a prefix of.
func (l *lookup) scan(p probe) {
	keys := l.ix.keys
	i, _ := slices.BinarySearchFunc(keys, p.text, func(k key, t string) int { return strings.Compare(k.text, t) })
	l.begins = i < len(keys) && strings.HasPrefix(keys[i].text, p.text)
	l.equal = i < len(keys) && keys[i].text == p.text
	for ; i < len(keys) && keys[i].text == p.text; i++ {
		l.offer(keys[i].doc, l.score(p, keys[i]), keys[i].field)
	}
	if !p.prefixes || utf8.RuneCountInString(p.text) < prefixRunes {
		return
	}
	var (
		shortest []uint32
		firstDoc = -1
	)
	for ; i < len(keys) && strings.HasPrefix(keys[i].text, p.text); i++ {
		switch d := int(keys[i].doc); {
		case firstDoc < 0:
			firstDoc = d
		case d != firstDoc:
			l.shared = true
		}
		if len(shortest) < prefixKeys {
			shortest = append(shortest, uint32(i))
			continue
		}
		j := 0
		for x, s := range shortest {
			if len(keys[s].text) > len(keys[shortest[j]].text) {
				j = x
			}
		}
		if len(keys[shortest[j]].text) > len(keys[i].text) {
			shortest[j] = uint32(i)
		}
	}
	for _, s := range shortest {
		l.offer(keys[s].doc, l.score(p, keys[s]), keys[s].field)
	}
}

// scratch is the reusable working memory of similar.
type scratch struct {
	counts  []uint8 // shared trigrams per key, all zero between uses
	touched []uint32
	best    []hit
}

// hit is a key and its trigram similarity to the probe.
type hit struct {
	pos  uint32
	dice float64
}

// worse orders hits from least to most similar, the later key first among equals.
func worse(a, b hit) bool { return a.dice < b.dice || a.dice == b.dice && a.pos > b.pos }

// similar offers the keys sharing the most trigrams with the probe.
func (l *lookup) similar(p probe) {
	ix := l.ix
	sc := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(sc)
	nq := len(l.tris)
	sc.touched = sc.touched[:0]
	for _, t := range l.tris {
		for _, k := range ix.postings[t] {
			if sc.counts[k] == 0 {
				sc.touched = append(sc.touched, k)
			}
			sc.counts[k]++
		}
	}
	sc.best = sc.best[:0]
	floor := minDice
	if p.typos > 0 {
		floor = typoDice
	}
	for _, k := range sc.touched {
		c := int(sc.counts[k])
		sc.counts[k] = 0
		h := hit{pos: k, dice: 2 * float64(c) / float64(nq+int(ix.keys[k].tris))}
		if h.dice < floor {
			continue
		}
		if len(sc.best) < similarKeys {
			sc.best = append(sc.best, h)
			siftUp(sc.best, len(sc.best)-1)
		} else if worse(sc.best[0], h) {
			sc.best[0] = h
			siftDown(sc.best, 0)
		}
	}
	for _, h := range sc.best {
		k := ix.keys[h.pos]
		if h.dice < minDice {
			// Too few shared trigrams for the blended score to count: only a typo can match.
			if s := l.typoScore(p, k); s > 0 {
				l.offer(k.doc, min(s, p.cap, k.field.limit()), k.field)
			}
			continue
		}
		l.offer(k.doc, l.score(p, k), k.field)
	}
}

// siftUp and siftDown keep hs a heap with the least similar hit first.
func siftUp(hs []hit, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !worse(hs[i], hs[parent]) {
			return
		}
		hs[i], hs[parent] = hs[parent], hs[i]
		i = parent
	}
}

func siftDown(hs []hit, i int) {
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(hs) && worse(hs[l], hs[least]) {
			least = l
		}
		if r < len(hs) && worse(hs[r], hs[least]) {
			least = r
		}
		if least == i {
			return
		}
		hs[i], hs[least] = hs[least], hs[i]
		i = least
	}
}

// score rates key k against probe p.
func (l *lookup) score(p probe, k key) float64 {
	limit := min(p.cap, k.field.limit())
	if k.text == p.text {
		return limit
	}
	l.keyTris = trigrams(k.text, l.keyTris)
	s := jwWeight*l.ix.jw.Compare(p.text, k.text) + triWeight*dice(l.tris, l.keyTris)
	if p.prefixes && strings.HasPrefix(k.text, p.text) {
		if n := utf8.RuneCountInString(p.text); n >= prefixRunes {
			s = max(s, prefixScore(n, utf8.RuneCountInString(k.text)))
		}
	}
	return min(max(s, l.typoScore(p, k)), limit)
}

// typoScore rates key k as a typo of a one-word probe: 0 when it is none.
func (l *lookup) typoScore(p probe, k key) float64 {
	if p.typos == 0 {
		return 0
	}
	n, kn := len(l.runes), utf8.RuneCountInString(k.text)
	prefixes := p.prefixes && !l.begins && kn >= n+prefixRunes
	if !prefixes && (kn > n+p.typos || kn < n-p.typos) {
		return 0
	}
	l.keyRs = l.keyRs[:0]
	for _, r := range k.text {
		l.keyRs = append(l.keyRs, r)
	}
	whole, prefix := typoDistance(l.runes, l.keyRs, p.typos, &l.rows)
	s := 0.0
	if whole <= p.typos {
		s = 1 - TypoStep*float64(whole)
	}
	if prefixes && prefix <= p.typos {
		s = max(s, prefixScore(n, kn)-TypoStep*float64(prefix))
	}
	return s
}

// prefixScore is the score of a query of n runes that begins a key of keyRunes runes.
func prefixScore(n, keyRunes int) float64 {
	return Threshold + prefixSpan*float64(n)/float64(keyRunes)
}

// typoDistance returns the optimal-string-alignment distance (insertions, deletions, substitutions and
// adjacent transpositions, each one edit) between q and k, and between q and the closest prefix of k of at
// least len(q)-budget runes; either is budget+1 once it is certain to exceed budget. rows is reused working memory.
func typoDistance(q, k []rune, budget int, rows *[]int) (whole, prefix int) {
	cols := min(len(k), len(q)+budget)
	w := cols + 1
	if cap(*rows) < 3*w {
		*rows = make([]int, 3*w)
	}
	buf := (*rows)[:3*w]
	prev2, prev, cur := buf[:w], buf[w:2*w], buf[2*w:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(q); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= cols; j++ {
			cost := 1
			if q[i-1] == k[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && q[i-1] == k[j-2] && q[i-2] == k[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > budget {
			return budget + 1, budget + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	whole, prefix = budget+1, budget+1
	if cols == len(k) {
		whole = min(prev[cols], budget+1)
	}
	for j := len(q) - budget; j <= cols; j++ {
		if j >= 0 {
			prefix = min(prefix, prev[j])
		}
	}
	return whole, min(prefix, budget+1)
}

// ranked is one company with its rounded score.
type ranked struct {
	doc   uint32
	score float64
	field field
}

// decide turns the scores into a Result by the rules in the package comment.
func (l *lookup) decide() Result {
	all := make([]ranked, 0, len(l.matches))
	for doc, m := range l.matches {
		s := math.Round(m.score*1e4) / 1e4
		if s >= 1 && m.score < 1 {
			s = 0.9999
		}
		all = append(all, ranked{doc: doc, score: s, field: m.field})
	}
	docs := l.ix.docs
	slices.SortFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.score, a.score),
			strings.Compare(docs[a.doc].name, docs[b.doc].name),
			strings.Compare(docs[a.doc].id, docs[b.doc].id))
	})
	if len(all) == 0 || all[0].score < Threshold {
		return Result{Outcome: NotFound}
	}
	best := all[0]
	exact := 0
	for _, r := range all {
		if r.score == 1 {
			exact++
		}
	}
	ambiguous := exact > 1 ||
		exact == 0 && (l.shared || len(all) > 1 && all[1].score >= best.score-Margin)
	if !ambiguous {
		return Result{Outcome: Matched, Best: l.candidate(best)}
	}
	floor := min(Threshold, best.score-Margin)
	var cs []Candidate
	for _, r := range all {
		if len(cs) == MaxCandidates || r.score < floor {
			break
		}
		cs = append(cs, l.candidate(r))
	}
	return Result{Outcome: Ambiguous, Candidates: cs}
}

// candidate reports a ranked company.
func (l *lookup) candidate(r ranked) Candidate {
	e := l.ix.docs[r.doc]
	return Candidate{ID: e.id, CompanyName: e.name, FounderName: e.founders, MatchedOn: r.field.matchedOn(), Score: r.score}
}
