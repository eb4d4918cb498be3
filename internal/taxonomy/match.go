package taxonomy

import (
	"cmp"
	"math"
	"slices"
)

// Term resolution parameters. A term's score for a category lies in [0, 1]:
//
//	score = 0.7·coverage + 0.3·phraseFit
//
// where coverage is the idf-weighted share of the term's words the category mentions (names and
// synonyms count fully, descriptive terms 0.8, an ancestor's name 0.4), divided by at least
// minEvidence so that a term made of low-information words cannot reach a high score, and phraseFit
// is how completely the term covers the category's best-fitting name, synonym or descriptive term.
// A term equal to a name or synonym (in any word order) scores 1, one equal to a descriptive term 0.9.
// A term made only of generic words matches just the categories named by one of those words, at 0.6.
// When a term equals a name or synonym, or does so once its generic words are left out ("AI startups"),
// those categories are its matches and partial matches are not considered.
const (
	// TermThreshold is the score below which a category is a weak match for a term and is dropped.
	TermThreshold = 0.5
	coverageShare = 0.7
	// relativeCut keeps only categories scoring at least this share of the best one.
	relativeCut = 0.85
	// maxTermMatches caps the categories one term maps to.
	maxTermMatches = 5
	// minEvidence is the idf mass a term needs for full coverage: about one moderately rare word.
	minEvidence = 1.5
	// unknownWeight is the idf mass of a word the taxonomy does not know; such words lower coverage,
	// since a term like "underwater basket weaving" should not match on its one near-known word.
	unknownWeight = 2.0
	genericOnly   = 0.6
	exactTermHit  = 0.9
	splitFactor   = 0.95
	typoFactorOne = 0.9
	typoFactorTwo = 0.75
)

// Company classification parameters. A category's evidence is the sum, over the words and phrases of
// its names, synonyms and terms found in the company's text, of idf × field weight × a saturating
// count, divided by a mild length normalisation; it inherits half of its parent's evidence, and the
// score is evidence/(evidence+companyScale).
const (
	// CompanyThreshold is the score a category needs to be assigned to a company.
	CompanyThreshold = 0.5
	companyScale     = 6.0
	minOwnEvidence   = 3.0 // a category must earn this much itself, not only through its ancestors
	inherit          = 0.5
	saturation       = 1.2
	phraseBonus      = 0.5
	lengthNorm       = 0.3
	companyKeep      = 0.5  // assignments with less evidence than this share of the best are dropped
	childShare       = 0.35 // a child replaces its parent only with this share of the parent's own evidence
	maxAssignments   = 3
	maxTextTokens    = 20000
	summaryWeight    = 1.5
	minSignals       = 2 // distinct words of evidence a category needs, its own or one from its ancestors
)

// qtok is a term word recognised in the vocabulary; factor is below 1 when it was corrected.
type qtok struct {
	id     int32
	factor float64
}

// queryTokens maps a term to known tokens, joining split words ("fin tech"), splitting joined ones
// ("cyberinsurance") and correcting small typos; unknown words are dropped.
func (ix *index) queryTokens(term string) (out []qtok, unknown int) {
	raw := tokens(term)
	add := func(id int32, f float64) {
		for i := range out {
			if out[i].id == id {
				out[i].factor = max(out[i].factor, f)
				return
			}
		}
		out = append(out, qtok{id, f})
	}
	for i := 0; i < len(raw); i++ {
		id, known := ix.lookup(raw[i])
		if i+1 < len(raw) {
			_, nextKnown := ix.lookup(raw[i+1])
			if joined, ok := ix.lookup(raw[i] + raw[i+1]); ok && (!known || !nextKnown) {
				add(joined, 1)
				i++
				continue
			}
		}
		if known {
			add(id, 1)
			continue
		}
		if l, r, ok := ix.split(raw[i]); ok {
			add(l, splitFactor)
			add(r, splitFactor)
			continue
		}
		if id, d, ok := ix.closest(raw[i]); ok {
			f := typoFactorOne
			if d > 1 {
				f = typoFactorTwo
			}
			add(id, f)
			continue
		}
		unknown++
	}
	return out, unknown
}

// split finds a joined word made of two known words of at least three letters each.
func (ix *index) split(tok string) (int32, int32, bool) {
	for k := 3; k <= len(tok)-3; k++ {
		l, okl := ix.lookup(tok[:k])
		r, okr := ix.lookup(stemString(tok[k:]))
		if okl && okr {
			return l, r, true
		}
	}
	return 0, 0, false
}

// scored is a category with a match score.
type scored struct {
	cat   int
	score float64
}

// resolveTerm scores every category that mentions a word of the term and keeps the strong ones.
func (t *Taxonomy) resolveTerm(term string) []Assignment {
	ix := t.ix
	q, unknown := ix.queryTokens(term)
	if len(q) == 0 {
		return []Assignment{}
	}
	ids := make([]int32, len(q))
	minFactor := 1.0
	for i, tok := range q {
		ids[i] = tok.id
		minFactor = min(minFactor, tok.factor)
	}
	var exact []int32
	if unknown == 0 {
		exact = ix.exact[phraseKey(ix.words, ids)]
		if named := t.namedMatches(exact, minFactor); len(named) > 0 {
			return named
		}
		specific := slices.DeleteFunc(slices.Clone(ids), func(id int32) bool { return ix.generic[id] })
		if len(specific) > 0 && len(specific) < len(ids) {
			if named := t.namedMatches(ix.exact[phraseKey(ix.words, specific)], minFactor); len(named) > 0 {
				return named
			}
		}
	}
	scores := map[int]float64{}
	den, allGeneric := float64(unknown)*unknownWeight, true
	for _, tok := range q {
		den += ix.weight[tok.id]
		allGeneric = allGeneric && ix.generic[tok.id]
		for _, p := range ix.postings[tok.id] {
			scores[int(p.cat)] = 0
		}
	}
	den = max(den, minEvidence)
	for cat := range scores {
		num := 0.0
		for _, tok := range q {
			m := float64(ix.own[cat][tok.id])
			if m == 0 && t.ancestorNamed(cat, tok.id) {
				m = ancestorWeight
			}
			num += ix.weight[tok.id] * m * tok.factor
		}
		fit := 0.0
		for _, pid := range ix.catPhrases[cat] {
			p := ix.phrases[pid]
			covered := 0.0
			for _, id := range p.tokens {
				for _, tok := range q {
					if tok.id == id {
						covered += ix.weight[id] * tok.factor
						break
					}
				}
			}
			f := covered / p.weight
			if !p.named {
				f *= termWeight
			}
			fit = max(fit, f)
		}
		scores[cat] = coverageShare*num/den + (1-coverageShare)*fit
	}
	for _, pid := range exact {
		cat := ix.phrases[pid].cat
		scores[cat] = max(scores[cat], exactTermHit*minFactor)
	}
	if allGeneric {
		for _, tok := range q {
			for _, pid := range ix.exact[string(ix.words[tok.id])] {
				if p := ix.phrases[pid]; p.named {
					scores[p.cat] = max(scores[p.cat], genericOnly*tok.factor)
				}
			}
		}
	}
	cands := make([]scored, 0, len(scores))
	for cat, s := range scores {
		cands = append(cands, scored{cat, s})
	}
	return t.selectTermMatches(cands)
}

// namedMatches selects the categories among exact phrase hits whose name or synonym was hit.
func (t *Taxonomy) namedMatches(hits []int32, score float64) []Assignment {
	var named []scored
	for _, pid := range hits {
		if p := t.ix.phrases[pid]; p.named {
			named = append(named, scored{p.cat, score})
		}
	}
	if len(named) == 0 {
		return nil
	}
	return t.selectTermMatches(named)
}

// ancestorNamed reports whether an ancestor of cat has token id in its name or a synonym.
func (t *Taxonomy) ancestorNamed(cat int, id int32) bool {
	for p := t.parent[cat]; p >= 0; p = t.parent[p] {
		if t.ix.namedIn(p, id) {
			return true
		}
	}
	return false
}

// textMatch is the fallback used when the classifier is unavailable: plain word matching of the term
// against category names, synonyms and paths, without typo tolerance or weighting. A category whose
// name or synonym equals the term scores 1, one whose names and synonyms contain every word 0.8, and
// one whose path and synonyms contain every word 0.6. Words no category uses are ignored, and so are
// generic words when other words remain; a term of generic words only must equal a name or synonym.
func (t *Taxonomy) textMatch(term string) []Assignment {
	ix := t.ix
	var all, specific []int32
	for _, tok := range tokens(term) {
		id, ok := ix.lookup(tok)
		if !ok || slices.Contains(all, id) {
			continue
		}
		all = append(all, id)
		if !ix.generic[id] {
			specific = append(specific, id)
		}
	}
	if len(all) == 0 {
		return []Assignment{}
	}
	scores := map[int]float64{}
	for _, pid := range ix.exact[phraseKey(ix.words, all)] {
		if p := ix.phrases[pid]; p.named {
			scores[p.cat] = 1
		}
	}
	if len(specific) > 0 {
		for cat := range t.cats {
			if scores[cat] == 1 {
				continue
			}
			inNames, inPath := true, true
			for _, id := range specific {
				named := ix.namedIn(cat, id)
				inNames = inNames && named
				inPath = inPath && (named || t.inPath(cat, id))
			}
			switch {
			case inNames:
				scores[cat] = 0.8
			case inPath:
				scores[cat] = 0.6
			}
		}
	}
	cands := make([]scored, 0, len(scores))
	for cat, s := range scores {
		cands = append(cands, scored{cat, s})
	}
	return t.selectTermMatches(cands)
}

// inPath reports whether token id occurs in the name of an ancestor of cat.
func (t *Taxonomy) inPath(cat int, id int32) bool {
	for p := t.parent[cat]; p >= 0; p = t.parent[p] {
		if slices.Contains(t.ix.nameToks[p], id) {
			return true
		}
	}
	return false
}

// selectTermMatches keeps strong candidates: above TermThreshold and close to the best, broadest first
// on ties, each category once and never both a category and its ancestor (the higher-scoring one
// stays; descendants of a match are included by the filter anyway). Two or more kept siblings whose
// parent is itself above TermThreshold give way to the parent: "farming" names the farming sector
// rather than three kinds of farm. At most maxTermMatches remain.
func (t *Taxonomy) selectTermMatches(cands []scored) []Assignment {
	byScore := func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(t.depth[a.cat], t.depth[b.cat]), cmp.Compare(a.cat, b.cat))
	}
	slices.SortFunc(cands, byScore)
	score := map[int]float64{}
	var kept []scored
	for _, c := range cands {
		score[c.cat] = max(score[c.cat], c.score)
		if c.score < TermThreshold || c.score < relativeCut*cands[0].score {
			continue
		}
		if !slices.ContainsFunc(kept, func(k scored) bool { return t.related(k.cat, c.cat) }) {
			kept = append(kept, c)
		}
	}
	for merged := true; merged; {
		merged = false
		for _, k := range kept {
			p := t.parent[k.cat]
			siblings := 0
			for _, o := range kept {
				if p >= 0 && t.parent[o.cat] == p {
					siblings++
				}
			}
			if siblings >= 2 && score[p] >= TermThreshold {
				kept = slices.DeleteFunc(kept, func(o scored) bool { return t.isAncestor(p, o.cat) })
				kept = append(kept, scored{p, score[p]})
				merged = true
				break
			}
		}
	}
	slices.SortFunc(kept, byScore)
	out := []Assignment{}
	for _, k := range kept[:min(len(kept), maxTermMatches)] {
		out = append(out, Assignment{Path: t.cats[k.cat].Path, Score: round(k.score)})
	}
	return out
}

// related reports whether two categories are the same or one lies below the other.
func (t *Taxonomy) related(a, b int) bool {
	return a == b || t.isAncestor(a, b) || t.isAncestor(b, a)
}

// classify scores every category against a company's name, summary and website text and returns
// the most specific good matches, best first.
//
// Words inside a matched phrase count only for the categories that own the phrase: "cloud kitchens"
// is evidence of food delivery, not of cloud infrastructure. Words inside an ignored phrase ("legal
// grade") count for nothing. A category needs at least minSignals distinct words of evidence, its own
// or named by an ancestor, so one word alone never places a company.
func (t *Taxonomy) classify(name, summary, text string) []Assignment {
	ix := t.ix
	type catTok struct {
		cat int32
		id  int32
	}
	tf := map[int32]float64{}     // words outside matched phrases
	bound := map[catTok]float64{} // words inside a matched phrase, for the phrase's category
	hits := map[int32]float64{}
	type span struct{ start, end, cat int } // a matched phrase: tokens [start, end) of its category
	var (
		seq, skip []int32
		covered   []bool
		spans     []span
	)
	scan := func(s string, weight float64, limit int) {
		seq, skip = seq[:0], skip[:0]
		scanTokens(s, func(tok []byte) {
			if len(seq) >= limit {
				return
			}
			id, ok := ix.vocab[string(tok)]
			if !ok {
				id = -1
			}
			seq = append(seq, id)
			if len(ix.ignore) > 0 {
				sid, ok := ix.ignoreVocab[string(tok)]
				if !ok {
					sid = -1
				}
				skip = append(skip, sid)
			}
		})
		for i := range skip {
			for _, p := range ix.ignore {
				if i+len(p) <= len(skip) && slices.Equal(skip[i:i+len(p)], p) {
					for j := i; j < i+len(p); j++ {
						seq[j] = -1
					}
				}
			}
		}
		covered = slices.Grow(covered[:0], len(seq))[:len(seq)]
		clear(covered)
		spans = spans[:0]
		for i, id := range seq {
			if id < 0 {
				continue
			}
			for _, pid := range ix.starts[id] {
				p := ix.phrases[pid]
				if end := i + len(p.tokens); end <= len(seq) && slices.Equal(seq[i:end], p.tokens) {
					hits[pid] += weight
					spans = append(spans, span{i, end, p.cat})
					for j := i; j < end; j++ {
						covered[j] = true
					}
				}
			}
		}
		for i, id := range seq {
			if id >= 0 && !covered[i] {
				tf[id] += weight
			}
		}
		// A covered word counts once for each category with a phrase around it; spans are in order of start.
		for k, sp := range spans {
			for j := sp.start; j < sp.end; j++ {
				again := false
				for m := k - 1; m >= 0 && spans[m].start+ix.longest > j; m-- {
					again = again || (spans[m].cat == sp.cat && spans[m].start <= j && j < spans[m].end)
				}
				if !again {
					bound[catTok{int32(sp.cat), seq[j]}] += weight
				}
			}
		}
	}
	scan(name, 1, maxTextTokens)
	scan(summary, summaryWeight, maxTextTokens)
	scan(text, 1, maxTextTokens)

	own := make([]float64, len(t.cats))
	signals := make([]int, len(t.cats))
	for id, n := range tf {
		w := ix.weight[id] * sat(n)
		for _, p := range ix.postings[id] {
			own[p.cat] += w * float64(p.doc)
			if p.doc > 0 {
				signals[p.cat]++
			}
		}
	}
	for ct, n := range bound {
		d := ix.docWeight(int(ct.cat), ct.id)
		own[ct.cat] += ix.weight[ct.id] * sat(n) * d
		if _, free := tf[ct.id]; !free || d == 0 {
			signals[ct.cat]++
		}
	}
	for pid, n := range hits {
		p := ix.phrases[pid]
		f := termWeight
		if p.named {
			f = namedWeight
		}
		own[p.cat] += phraseBonus * p.weight * f * sat(n)
	}
	total := make([]float64, len(t.cats))
	support := make([]int, len(t.cats))
	var cands []scored
	for cat := range t.cats {
		own[cat] /= ix.ownNorm[cat]
		total[cat] = own[cat]
		support[cat] = signals[cat]
		if p := t.parent[cat]; p >= 0 {
			total[cat] += inherit * total[p]
			support[cat] = max(support[cat], signals[cat]+min(1, support[p]))
		}
		score := total[cat] / (total[cat] + companyScale)
		p := t.parent[cat]
		if own[cat] >= minOwnEvidence && score >= CompanyThreshold && support[cat] >= minSignals &&
			(p < 0 || own[cat] >= childShare*own[p]) {
			cands = append(cands, scored{cat, score})
		}
	}
	specific := cands[:0:0]
	for _, c := range cands {
		if !slices.ContainsFunc(cands, func(d scored) bool { return t.isAncestor(c.cat, d.cat) }) {
			specific = append(specific, c)
		}
	}
	slices.SortFunc(specific, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.cat, b.cat))
	})
	out := []Assignment{}
	for _, c := range specific {
		if len(out) == maxAssignments || total[c.cat] < companyKeep*total[specific[0].cat] {
			break
		}
		out = append(out, Assignment{Path: t.cats[c.cat].Path, Score: round(c.score)})
	}
	return out
}

// sat dampens repeated mentions so one word said many times cannot outweigh several different ones.
func sat(n float64) float64 {
	return n * (saturation + 1) / (n + saturation)
}

// round keeps three decimals so scores read cleanly in API responses.
func round(x float64) float64 {
	return math.Round(x*1000) / 1000
}
