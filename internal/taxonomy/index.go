package taxonomy

import (
	"math"
	"slices"
	"strings"
)

// Field weights: how strongly a token shows that a category fits, by where the category mentions it.
const (
	namedWeight    = 1.0  // in the category's name or a synonym
	termWeight     = 0.8  // in one of its descriptive terms
	ancestorWeight = 0.4  // in the name or a synonym of an ancestor
	genericFactor  = 0.15 // multiplies the idf of a word on the taxonomy's generic list
	// partialWeight scales, for company text, a word that a category uses only inside longer phrases:
	// "interface" alone says little about "brain computer interface"; the whole phrase earns a bonus.
	partialWeight = 0.5
)

// phrase is one name, synonym or descriptive term of a category, as token ids.
type phrase struct {
	cat    int
	tokens []int32
	weight float64 // sum of the tokens' weights
	named  bool    // a name or synonym rather than a descriptive term
}

// posting records that a category mentions a token. weight is the strongest field weight it does so
// in; doc is the weight used for company text, which discounts words used only inside longer phrases
// and is zero for words an ancestor names, so a child earns evidence only from what sets it apart.
type posting struct {
	cat    int32
	weight float32
	doc    float32
}

// index is the matching structure built once per taxonomy.
type index struct {
	vocab      map[string]int32
	words      [][]rune            // token id -> runes, for typo tolerance
	byLen      map[int][]int32     // rune length -> token ids, for typo tolerance
	df         []int               // token id -> number of categories mentioning it where no ancestor names it
	weight     []float64           // token id -> idf, scaled down for generic words
	generic    []bool              // token id -> on the generic list
	postings   [][]posting         // token id -> categories mentioning it
	own        []map[int32]float32 // category -> token id -> field weight
	nameToks   [][]int32           // category -> tokens of its own name
	ownNorm    []float64           // category -> length normalisation for company scoring
	phrases    []phrase
	catPhrases [][]int32          // category -> phrase ids
	exact      map[string][]int32 // order-free token key -> phrase ids
	starts     map[int32][]int32  // first token id -> ids of phrases with two or more tokens
	// ignore lists phrases whose words say nothing of a company's sector ("legal grade"), over their
	// own small vocabulary ignoreVocab, since their words need not be taxonomy words.
	ignore      [][]int32
	ignoreVocab map[string]int32
	longest     int // tokens in the longest phrase
}

// buildIndex computes the vocabulary, idf weights, postings and phrase tables of t.
func buildIndex(t *Taxonomy, genericWords, ignorePhrases []string) *index {
	ix := &index{
		vocab:      map[string]int32{},
		byLen:      map[int][]int32{},
		own:        make([]map[int32]float32, len(t.cats)),
		nameToks:   make([][]int32, len(t.cats)),
		ownNorm:    make([]float64, len(t.cats)),
		catPhrases: make([][]int32, len(t.cats)),
		exact:      map[string][]int32{},
		starts:     map[int32][]int32{},
	}
	intern := func(tok string) int32 {
		if id, ok := ix.vocab[tok]; ok {
			return id
		}
		id := int32(len(ix.words))
		r := []rune(tok)
		ix.vocab[tok] = id
		ix.words = append(ix.words, r)
		ix.byLen[len(r)] = append(ix.byLen[len(r)], id)
		return id
	}
	addPhrase := func(cat int, text string, named bool) {
		var ids []int32
		tokenize(text, func(tok string) { ids = append(ids, intern(tok)) })
		if len(ids) == 0 {
			return
		}
		ix.phrases = append(ix.phrases, phrase{cat: cat, tokens: ids, named: named})
		ix.longest = max(ix.longest, len(ids))
		ix.catPhrases[cat] = append(ix.catPhrases[cat], int32(len(ix.phrases)-1))
	}
	for i, c := range t.cats {
		addPhrase(i, c.Name, true)
		tokenize(c.Name, func(tok string) { ix.nameToks[i] = append(ix.nameToks[i], intern(tok)) })
		for _, s := range c.Synonyms {
			addPhrase(i, s, true)
		}
		for _, s := range c.Terms {
			addPhrase(i, s, false)
		}
	}
	ix.ignoreVocab = map[string]int32{}
	for _, s := range ignorePhrases {
		var ids []int32
		tokenize(s, func(tok string) {
			id, ok := ix.ignoreVocab[tok]
			if !ok {
				id = int32(len(ix.ignoreVocab))
				ix.ignoreVocab[tok] = id
			}
			ids = append(ids, id)
		})
		if len(ids) > 0 {
			ix.ignore = append(ix.ignore, ids)
		}
	}
	ix.generic = make([]bool, len(ix.words))
	for _, g := range genericWords {
		tokenize(g, func(tok string) {
			if id, ok := ix.vocab[tok]; ok {
				ix.generic[id] = true
			}
		})
	}

	ix.postings = make([][]posting, len(ix.words))
	doc := make([]map[int32]float32, len(t.cats))
	for i := range t.cats {
		ix.own[i] = map[int32]float32{}
		doc[i] = map[int32]float32{}
	}
	for pid, p := range ix.phrases {
		w := float32(termWeight)
		if p.named {
			w = namedWeight
		}
		dw := w
		if len(p.tokens) > 1 {
			dw *= partialWeight
		}
		for _, id := range p.tokens {
			ix.own[p.cat][id] = max(ix.own[p.cat][id], w)
			doc[p.cat][id] = max(doc[p.cat][id], dw)
		}
		key := phraseKey(ix.words, p.tokens)
		ix.exact[key] = append(ix.exact[key], int32(pid))
		if len(p.tokens) > 1 {
			ix.starts[p.tokens[0]] = append(ix.starts[p.tokens[0]], int32(pid))
		}
	}
	ix.df = make([]int, len(ix.words))
	for cat, m := range ix.own {
		for id, w := range m {
			dw := doc[cat][id]
			for a := t.parent[cat]; a >= 0; a = t.parent[a] {
				if ix.own[a][id] == namedWeight {
					dw = 0
				}
			}
			if dw > 0 {
				ix.df[id]++
			}
			ix.postings[id] = append(ix.postings[id], posting{cat: int32(cat), weight: w, doc: dw})
		}
	}
	for id := range ix.postings {
		slices.SortFunc(ix.postings[id], func(a, b posting) int { return int(a.cat - b.cat) })
	}
	n := float64(len(t.cats))
	ix.weight = make([]float64, len(ix.words))
	for id, df := range ix.df {
		w := math.Log(1 + n/float64(df))
		if ix.generic[id] {
			w *= genericFactor
		}
		ix.weight[id] = w
	}
	for pid := range ix.phrases {
		p := &ix.phrases[pid]
		for _, id := range p.tokens {
			p.weight += ix.weight[id]
		}
	}
	total := 0
	for _, m := range ix.own {
		total += len(m)
	}
	avg := float64(total) / n
	for cat, m := range ix.own {
		ix.ownNorm[cat] = 1 - lengthNorm + lengthNorm*float64(len(m))/avg
	}
	return ix
}

// phraseKey identifies a phrase by its tokens regardless of order, so "radiology ai" equals "ai radiology".
func phraseKey(words [][]rune, ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = string(words[id])
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// docWeight is the weight with which category cat's company evidence counts token id (posting.doc).
func (ix *index) docWeight(cat int, id int32) float64 {
	ps := ix.postings[id]
	i, ok := slices.BinarySearchFunc(ps, int32(cat), func(p posting, c int32) int { return int(p.cat - c) })
	if !ok {
		return 0
	}
	return float64(ps[i].doc)
}

// lookup returns the id of a known token.
func (ix *index) lookup(tok string) (int32, bool) {
	id, ok := ix.vocab[tok]
	return id, ok
}

// namedIn reports whether category cat mentions token id in its name or a synonym.
func (ix *index) namedIn(cat int, id int32) bool {
	return ix.own[cat][id] == namedWeight
}

// closest returns the known token nearest to an unknown one within a typo budget that grows with
// its length (one edit from four characters, two from eight), preferring the more widely used word.
func (ix *index) closest(tok string) (int32, int, bool) {
	r := []rune(tok)
	budget := 0
	switch {
	case len(r) >= 8:
		budget = 2
	case len(r) >= 4:
		budget = 1
	default:
		return 0, 0, false
	}
	best, bestDist := int32(-1), budget+1
	scratch := make([]int, 3*(len(r)+budget+1))
	for n := max(3, len(r)-budget); n <= len(r)+budget; n++ {
		for _, id := range ix.byLen[n] {
			d := editDistance(r, ix.words[id], budget, scratch)
			if d < bestDist || (d == bestDist && best >= 0 && ix.df[id] > ix.df[best]) {
				best, bestDist = id, d
			}
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	return best, bestDist, true
}
