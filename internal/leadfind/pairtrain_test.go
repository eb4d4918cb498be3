package leadfind

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"testing"

	"radar/internal/adam"
)

var (
	trainFlag    = flag.Bool("train", false, "train the pair model on the evaluation set's training files and write pairmodel.txt")
	cvFlag       = flag.Int("cv", 0, "cross-validate the lead finder on the training files with this many folds")
	l2Flag       = flag.Float64("l2", defaultPairTrain.l2, "weight decay when cross-validating")
	itersFlag    = flag.Int("iterations", defaultPairTrain.iterations, "training passes when cross-validating")
	minCountFlag = flag.Int("mincount", defaultPairTrain.minCount, "pairs a feature must occur in when cross-validating")
	cvMissesFlag = flag.Bool("cv.misses", false, "list the leads cross-validation misses and finds wrongly, with the model's reading of their pairs")
	tieFlag      = flag.Bool("tie", defaultPairTrain.tie, "train a tie part beside the founder part when cross-validating")
)

// pairTrainConfig sets the pair model's training.
type pairTrainConfig struct {
	minCount   int     // a feature must occur in this many training pairs to be weighed
	l2         float64 // weight decay
	iterations int     // full-batch steps
	rate       float64 // Adam step size
	tie        bool    // train a tie part beside the founder part
}

var defaultPairTrain = pairTrainConfig{minCount: 3, l2: 0.00001, iterations: 300, rate: 0.05, tie: true}

// pairExample is one pair of a training item with whether the item labels it a lead.
type pairExample struct {
	features []string
	lead     bool
}

// itemPairs is one item read for the pair model: the leads the patterns found, its pairs and its labels.
type itemPairs struct {
	item  evalItem
	sc    *itemScan
	rules []Candidate
	pairs []pair
}

func readPairs(items []evalItem) []itemPairs {
	var out []itemPairs
	for _, it := range items {
		m := newMatcher(it.Company.Name, it.Company.Founders)
		ip := itemPairs{item: it}
		if len(m.names) > 0 {
			ip.sc, ip.rules = m.scan(Item{URL: it.URL, Title: it.Title, Text: it.Text})
			if ip.sc != nil {
				ip.pairs = ip.sc.pairs(ip.rules)
			}
		}
		out = append(out, ip)
	}
	return out
}

func examplesOfPairs(items []itemPairs) []pairExample {
	var out []pairExample
	for _, ip := range items {
		want := make(map[string]bool)
		for _, l := range ip.item.Leads {
			want[NormalizeKey(l.Person, l.Company)] = true
		}
		for _, p := range ip.pairs {
			if p.rule >= 0 && ip.rules[p.rule].Relation == RelDepartedToJoin {
				continue // kept as the patterns found them; the set labels founders only
			}
			out = append(out, pairExample{features: p.features, lead: want[NormalizeKey(p.person, p.company)]})
		}
	}
	return out
}

// trainPairModel fits the model by full-batch Adam: the founder part on every feature, the tie part on those
// tieFeature admits, their product the probability of a lead.
func trainPairModel(examples []pairExample, cfg pairTrainConfig) *pairModel {
	counts := map[string]int{}
	for _, ex := range examples {
		for _, f := range ex.features {
			counts[f]++
		}
	}
	index := map[string]int{}
	var vocab []string
	for f, n := range counts {
		if n >= cfg.minCount {
			index[f] = len(vocab)
			vocab = append(vocab, f)
		}
	}
	// The tie part's weights follow the founder part's in one vector.
	tieIndex := map[string]int{}
	if cfg.tie {
		for _, f := range vocab {
			if tieFeature(f) {
				tieIndex[f] = len(vocab) + len(tieIndex)
			}
		}
	}
	xs := make([][]int, len(examples))
	ts := make([][]int, len(examples))
	for i, ex := range examples {
		for _, f := range ex.features {
			if j, ok := index[f]; ok {
				xs[i] = append(xs[i], j)
			}
			if j, ok := tieIndex[f]; ok {
				ts[i] = append(ts[i], j)
			}
		}
	}
	w := make([]float64, len(vocab)+len(tieIndex))
	if j, ok := tieIndex["bias"]; ok {
		w[j] = 2 // the tie part starts out sure, so that the founder part starts as the model alone
	}
	g := make([]float64, len(w))
	opt := adam.New(len(w), cfg.rate)
	n := float64(len(examples))
	for range cfg.iterations {
		clear(g)
		for i, x := range xs {
			a, b := 0.0, 0.0
			for _, j := range x {
				a += w[j]
			}
			for _, j := range ts[i] {
				b += w[j]
			}
			sa := sigmoid(a)
			if !cfg.tie {
				d := sa
				if examples[i].lead {
					d--
				}
				for _, j := range x {
					g[j] += d / n
				}
				continue
			}
			// p = σ(a)σ(b); the derivative of -log p is -(1-σ(a)) in a, and of -log(1-p) is
			// (1-σ(a))·p/(1-p); the same in b with σ(b).
			sb := sigmoid(b)
			p := sa * sb
			r := -1.0
			if !examples[i].lead {
				r = p / max(1-p, 1e-12)
			}
			da, db := (1-sa)*r/n, (1-sb)*r/n
			for _, j := range x {
				g[j] += da
			}
			for _, j := range ts[i] {
				g[j] += db
			}
		}
		for k := range g {
			g[k] += cfg.l2 * w[k]
		}
		opt.Step(w, g)
	}
	// Weights under 0.01 are left out: cross-validation moves by a thousandth without them, and the file
	// is a third of the size.
	m := &pairModel{weights: make(map[string]float64), tie: make(map[string]float64)}
	for j, f := range vocab {
		if math.Abs(w[j]) >= 0.01 {
			m.weights[f] = w[j]
		}
	}
	for f, j := range tieIndex {
		if math.Abs(w[j]) >= 0.01 {
			m.tie[f] = w[j]
		}
	}
	return m
}

// trainingItems reads every training file.
func trainingItems(t *testing.T) []evalItem {
	_, files := readGlobs(t, trainGlobs)
	var items []evalItem
	for _, f := range files {
		items = append(items, f...)
	}
	if len(items) == 0 {
		t.Fatal("no training items")
	}
	return items
}

// TestTrainPairModel writes pairmodel.txt from the training files when run with -train (see go generate).
func TestTrainPairModel(t *testing.T) {
	if !*trainFlag {
		t.Skip("run with -train to write pairmodel.txt")
	}
	items := trainingItems(t)
	examples := examplesOfPairs(readPairs(items))
	m := trainPairModel(examples, defaultPairTrain)
	text := formatPairModel(m, fmt.Sprintf("pair model: %d founder and %d tie weights from %d pairs of %d training items",
		len(m.weights), len(m.tie), len(examples), len(items)))
	if _, err := parsePairModel(text); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("pairmodel.txt", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("pairmodel.txt: %d founder and %d tie weights, %d bytes, from %d pairs", len(m.weights), len(m.tie), len(text), len(examples))
}

// pairFold puts an item in one of k folds by its company, so that items about one company are never on
// both sides.
func pairFold(e evalItem, k int) int {
	h := fnv.New32a()
	h.Write([]byte(e.Company.Name))
	return int(h.Sum32() % uint32(k))
}

// scoreJudged scores items as score does, with the leads judged by m at threshold.
func scoreJudged(items []itemPairs, m *pairModel, th thresholds) evalScore {
	var s evalScore
	for _, ip := range items {
		var got []Candidate
		if ip.sc != nil {
			got = ip.sc.judgeWith(m, th, ip.rules)
		}
		s.add(ip.item, got, nil)
	}
	return s
}

// TestCrossValidatePairs, with -cv k, trains the pair model on all but one k-th of the training items in
// turn (grouped by company) and scores the lead finder on the k-th left out, at several thresholds, beside
// the patterns alone.
func TestCrossValidatePairs(t *testing.T) {
	if *cvFlag < 2 {
		t.Skip("run with -cv k to cross-validate")
	}
	k := *cvFlag
	cfg := defaultPairTrain
	cfg.l2, cfg.iterations, cfg.minCount, cfg.tie = *l2Flag, *itersFlag, *minCountFlag, *tieFlag
	items := readPairs(trainingItems(t))
	var grid []thresholds
	for _, r := range []float64{0.15, 0.2, 0.3} {
		for _, o := range []float64{0.2, 0.3, 0.4} {
			for _, u := range []float64{0.5, 0.7, 2} {
				grid = append(grid, thresholds{rule: r, other: o, second: 0.9, untied: u})
			}
		}
	}
	totals := make([]evalScore, len(grid))
	var rules evalScore
	for fold := range k {
		var train, test []itemPairs
		for _, ip := range items {
			if pairFold(ip.item, k) == fold {
				test = append(test, ip)
			} else {
				train = append(train, ip)
			}
		}
		m := trainPairModel(examplesOfPairs(train), cfg)
		for i, th := range grid {
			totals[i].merge(scoreJudged(test, m, th))
		}
		for _, ip := range test {
			rules.add(ip.item, ip.rules, nil)
			if *cvMissesFlag && ip.sc != nil {
				reportPairs(t, ip, m, pairThresholds)
			}
		}
	}
	t.Logf("patterns alone: %v", rules)
	for i, th := range grid {
		t.Logf("thresholds %.2f %.2f %.2f %.2f:  %v", th.rule, th.other, th.second, th.untied, totals[i])
	}
}

// reportPairs logs the leads of one item the model misses or finds wrongly, with each pair's probability.
func reportPairs(t *testing.T, ip itemPairs, m *pairModel, th thresholds) {
	got := ip.sc.judgeWith(m, th, ip.rules)
	found := make(map[string]bool)
	for _, c := range got {
		found[c.Key] = true
	}
	want := make(map[string]bool)
	for _, l := range ip.item.Leads {
		want[NormalizeKey(l.Person, l.Company)] = true
	}
	pairOf := make(map[string]pair)
	for _, p := range ip.pairs {
		pairOf[NormalizeKey(p.person, p.company)] = p
	}
	describe := func(k string) string {
		p, ok := pairOf[k]
		if !ok {
			return "no pair"
		}
		return fmt.Sprintf("p=%.2f rule=%v tied=%v vetoed=%v", m.probability(p.features), p.rule >= 0, p.tied, p.vetoed)
	}
	for _, l := range ip.item.Leads {
		if k := NormalizeKey(l.Person, l.Company); !found[k] {
			t.Logf("MISS %s %s | %s: %s", ip.item.ID, l.Person, l.Company, describe(k))
		}
	}
	for _, c := range got {
		if !want[c.Key] {
			t.Logf("SPUR %s %s | %s: %s %s", ip.item.ID, c.PersonName, c.CompanyName, describe(c.Key), c.Relation)
		}
	}
}

// TestTrainPairModelLearnsBothParts trains on pairs that are leads only when the person founded the company
// and the company is tied to the tracked one: both parts must learn their half.
func TestTrainPairModelLearnsBothParts(t *testing.T) {
	var examples []pairExample
	for range 20 {
		examples = append(examples,
			pairExample{features: []string{"bias", "btw:founded", "deal:partner"}, lead: true},
			pairExample{features: []string{"bias", "btw:founded"}},
			pairExample{features: []string{"bias", "deal:partner"}},
			pairExample{features: []string{"bias"}})
	}
	m := trainPairModel(examples, pairTrainConfig{minCount: 1, iterations: 500, rate: 0.05, tie: true})
	if _, ok := m.tie["btw:founded"]; ok {
		t.Errorf("the tie part weighs btw:founded, which tieFeature does not admit")
	}
	if m.tie["deal:partner"] <= 0 {
		t.Errorf("tie weight of deal:partner = %v, want it positive", m.tie["deal:partner"])
	}
	for _, ex := range examples[:4] {
		p := m.probability(ex.features)
		if ex.lead && p < 0.9 || !ex.lead && p > 0.1 {
			t.Errorf("probability of %v = %.3f, want it on the side of lead=%v", ex.features, p, ex.lead)
		}
	}
}
