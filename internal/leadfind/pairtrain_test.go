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
)

// pairTrainConfig sets the pair model's training.
type pairTrainConfig struct {
	minCount   int     // a feature must occur in this many training pairs to be weighed
	l2         float64 // weight decay
	iterations int     // full-batch steps
	rate       float64 // Adam step size
}

var defaultPairTrain = pairTrainConfig{minCount: 3, l2: 0.0001, iterations: 300, rate: 0.05}

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

// trainPairModel fits a logistic regression by full-batch Adam.
func trainPairModel(examples []pairExample, cfg pairTrainConfig) map[string]float64 {
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
	xs := make([][]int, len(examples))
	for i, ex := range examples {
		for _, f := range ex.features {
			if j, ok := index[f]; ok {
				xs[i] = append(xs[i], j)
			}
		}
	}
	w := make([]float64, len(vocab))
	g := make([]float64, len(w))
	opt := adam.New(len(w), cfg.rate)
	n := float64(len(examples))
	for range cfg.iterations {
		clear(g)
		for i, x := range xs {
			z := 0.0
			for _, j := range x {
				z += w[j]
			}
			d := 1 / (1 + math.Exp(-z))
			if examples[i].lead {
				d--
			}
			for _, j := range x {
				g[j] += d / n
			}
		}
		for k := range g {
			g[k] += cfg.l2 * w[k]
		}
		opt.Step(w, g)
	}
	// Weights under 0.01 are left out: cross-validation moves by a thousandth without them, and the file
	// is a third of the size.
	out := make(map[string]float64, len(vocab))
	for j, f := range vocab {
		if math.Abs(w[j]) >= 0.01 {
			out[f] = w[j]
		}
	}
	return out
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
	weights := trainPairModel(examples, defaultPairTrain)
	text := formatPairModel(weights, fmt.Sprintf("pair model: %d features from %d pairs of %d training items", len(weights), len(examples), len(items)))
	if _, err := parsePairModel(text); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("pairmodel.txt", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("pairmodel.txt: %d features, %d bytes, from %d pairs", len(weights), len(text), len(examples))
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
	cfg.l2, cfg.iterations, cfg.minCount = *l2Flag, *itersFlag, *minCountFlag
	items := readPairs(trainingItems(t))
	var grid []thresholds
	for _, r := range []float64{0.15, 0.2, 0.3} {
		for _, o := range []float64{0.2, 0.3, 0.4} {
			for _, sec := range []float64{0.9} {
				grid = append(grid, thresholds{rule: r, other: o, second: sec})
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
		m := &pairModel{weights: trainPairModel(examplesOfPairs(train), cfg)}
		for i, th := range grid {
			totals[i].merge(scoreJudged(test, m, th))
		}
		for _, ip := range test {
			rules.add(ip.item, ip.rules, nil)
		}
	}
	t.Logf("patterns alone: %v", rules)
	for i, th := range grid {
		t.Logf("thresholds %.2f %.2f %.2f:  %v", th.rule, th.other, th.second, totals[i])
	}
}
