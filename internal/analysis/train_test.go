package analysis

import (
	"flag"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"radar/internal/adam"
)

var (
	trainFlag   = flag.Bool("train", false, "train the item model on testdata/eval/train-*.jsonl and write model.txt")
	cvFlag      = flag.Int("cv", 0, "cross-validate the analyser on the training files with this many folds")
	l2Flag      = flag.Float64("l2", defaultTrain.l2, "weight decay when cross-validating")
	itersFlag   = flag.Int("iterations", defaultTrain.iterations, "training passes when cross-validating")
	balanceFlag = flag.Float64("balance", defaultTrain.balance, "class balance when cross-validating (0: none, 1: equal classes)")
	unseenFlag  = flag.Float64("unseen", defaultTrain.unseen, "weight of the items' copies without trigger hits when cross-validating")
	shiftFlag   = flag.Float64("othershift", -1, "otherShift when cross-validating (-1: as it is)")
)

// trainConfig sets the logistic regression's training.
type trainConfig struct {
	minCount   int     // a word or word pair must occur in this many training items to become a feature
	l2         float64 // weight decay
	iterations int     // full-batch steps
	rate       float64 // Adam step size
	balance    float64 // 0: every item counts alike; 1: every class counts alike; between: in part
	unseen     float64 // weight of each item's copy without its trigger hits, as if no phrase had matched
}

var defaultTrain = trainConfig{minCount: 3, l2: 0.0001, iterations: 400, rate: 0.05, balance: 1, unseen: 0.3}

// example is one training item: its features and its type.
type example struct {
	features []string
	label    string
}

func examplesOf(items []evalItem) []example {
	out := make([]example, len(items))
	for i, e := range items {
		out[i] = example{features: features(scanItem(e.item(), e.Company.Name, e.Company.Founders)), label: e.Expect.Type}
	}
	return out
}

// structural reports whether a feature comes from the trigger table or the item's form rather than a
// word, and so is kept however rare.
func structural(f string) bool {
	kind, _, _ := strings.Cut(f, ":")
	switch kind {
	case "w", "b", "t", "tb":
		return false
	}
	return true
}

// withoutTriggers drops the trigger table's hits from an item's features.
func withoutTriggers(fs []string) []string {
	var out []string
	for _, f := range fs {
		if !triggerFeature(f) {
			out = append(out, f)
		}
	}
	return out
}

// trainModel fits a multinomial logistic regression with L2 decay by full-batch Adam; it is deterministic.
// Each item is also learnt a second time without its trigger hits (weighted by cfg.unseen), so that the
// model reads the words of items whose phrasing the trigger table does not know rather than calling every
// item without a hit other news; classes are weighted towards equal shares by cfg.balance.
func trainModel(examples []example, cfg trainConfig) (classes []string, bias []float64, weights map[string][]float64) {
	exWeight := make([]float64, len(examples))
	for i := range exWeight {
		exWeight[i] = 1
	}
	if cfg.unseen > 0 {
		for _, ex := range slices.Clone(examples) {
			examples = append(examples, example{features: withoutTriggers(ex.features), label: ex.label})
			exWeight = append(exWeight, cfg.unseen)
		}
	}
	for _, ex := range examples {
		if !slices.Contains(classes, ex.label) {
			classes = append(classes, ex.label)
		}
	}
	order := Types()
	slices.SortFunc(classes, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	nc := len(classes)

	counts := map[string]int{}
	for _, ex := range examples {
		for _, f := range ex.features {
			counts[f]++
		}
	}
	var vocab []string
	for f, n := range counts {
		if n >= cfg.minCount || structural(f) {
			vocab = append(vocab, f)
		}
	}
	slices.Sort(vocab)
	index := make(map[string]int, len(vocab))
	for i, f := range vocab {
		index[f] = i
	}
	xs := make([][]int, len(examples))
	ys := make([]int, len(examples))
	for i, ex := range examples {
		for _, f := range ex.features {
			if j, ok := index[f]; ok {
				xs[i] = append(xs[i], j)
			}
		}
		ys[i] = slices.Index(classes, ex.label)
	}

	perClass := make([]int, nc)
	for _, y := range ys {
		perClass[y]++
	}
	sw := make([]float64, len(examples)) // each item's weight, averaging 1
	total := 0.0
	for i, y := range ys {
		sw[i] = exWeight[i] * math.Pow(float64(len(examples))/float64(nc*perClass[y]), cfg.balance)
		total += sw[i]
	}
	for i := range sw {
		sw[i] *= float64(len(examples)) / total
	}

	nf := len(vocab)
	w := make([]float64, (nf+1)*nc) // the last row is the bias
	g := make([]float64, len(w))
	opt := adam.New(len(w), cfg.rate)
	scores := make([]float64, nc)
	n := float64(len(examples))
	for range cfg.iterations {
		clear(g)
		for i, x := range xs {
			copy(scores, w[nf*nc:])
			for _, j := range x {
				for c := range nc {
					scores[c] += w[j*nc+c]
				}
			}
			softmax(scores)
			scores[ys[i]] -= 1
			for c := range nc {
				scores[c] *= sw[i] / n
			}
			for _, j := range x {
				for c := range nc {
					g[j*nc+c] += scores[c]
				}
			}
			for c := range nc {
				g[nf*nc+c] += scores[c]
			}
		}
		for k := range nf * nc {
			g[k] += cfg.l2 * w[k]
		}
		opt.Step(w, g)
	}
	weights = make(map[string][]float64, nf)
	for j, f := range vocab {
		weights[f] = slices.Clone(w[j*nc : (j+1)*nc])
	}
	return classes, slices.Clone(w[nf*nc:]), weights
}

func softmax(s []float64) {
	maxS := math.Inf(-1)
	for _, v := range s {
		maxS = math.Max(maxS, v)
	}
	sum := 0.0
	for i, v := range s {
		s[i] = math.Exp(v - maxS)
		sum += s[i]
	}
	for i := range s {
		s[i] /= sum
	}
}

// fitModel trains on items and returns the model as Classify uses it, through its text form.
func fitModel(t testing.TB, items []evalItem, cfg trainConfig) (*itemModel, string) {
	t.Helper()
	classes, bias, weights := trainModel(examplesOf(items), cfg)
	text := formatModel(classes, bias, weights)
	m, err := parseModel(text)
	if err != nil {
		t.Fatal(err)
	}
	return m, text
}

// TestTrainModel writes model.txt from the training files when run with -train (see go generate).
func TestTrainModel(t *testing.T) {
	if !*trainFlag {
		t.Skip("run with -train to write model.txt")
	}
	train := loadEval(t, "train-*.jsonl")
	if len(train) == 0 {
		t.Fatal("no training items")
	}
	m, text := fitModel(t, train, defaultTrain)
	if err := os.WriteFile("model.txt", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("model.txt: %d classes, %d features, %d bytes, from %d items", len(m.classes), len(m.weights), len(text), len(train))
}

// foldOf puts an item in one of k folds by its company, so that items about one company, which tend to
// share names and wording, are never on both sides.
func foldOf(e evalItem, k int) int {
	h := fnv.New32a()
	h.Write([]byte(e.Company.Name))
	return int(h.Sum32() % uint32(k))
}

// TestCrossValidate, with -cv k, trains on all but one k-th of the training files in turn (grouped by
// company) and scores the analyser on the k-th left out; it also scores the trigger table alone on every
// training item, which flatters it, as its phrases were chosen on these items.
func TestCrossValidate(t *testing.T) {
	if *cvFlag < 2 {
		t.Skip("run with -cv 5 to cross-validate on the training files")
	}
	train := loadEval(t, "train-*.jsonl")
	k := *cvFlag
	if *shiftFlag >= 0 {
		saved := otherShift
		otherShift = *shiftFlag
		defer func() { otherShift = saved }()
	}
	saved := classifier
	defer func() { classifier = saved }()

	classifier = func() *itemModel { return nil }
	rules := scoreEval(t, train, false)
	t.Log("\n" + rules.report("trigger table alone, all training items"))

	total := evalScore{confusion: map[[2]string]int{}, byHard: map[string][2]int{}}
	for fold := range k {
		var fit, held []evalItem
		for _, e := range train {
			if foldOf(e, k) == fold {
				held = append(held, e)
			} else {
				fit = append(fit, e)
			}
		}
		cfg := defaultTrain
		cfg.l2, cfg.iterations = *l2Flag, *itersFlag
		cfg.balance, cfg.unseen = *balanceFlag, *unseenFlag
		m, _ := fitModel(t, fit, cfg)
		classifier = func() *itemModel { return m }
		s := scoreEval(t, held, *evalErrors)
		t.Logf("fold %d: %d items, accuracy %.3f", fold, s.n, s.accuracy())
		total.n += s.n
		total.correct += s.correct
		total.severity += s.severity
		total.rules += s.rules
		total.ruleTotal += s.ruleTotal
		for key, v := range s.confusion {
			total.confusion[key] += v
		}
		for key, v := range s.byHard {
			h := total.byHard[key]
			total.byHard[key] = [2]int{h[0] + v[0], h[1] + v[1]}
		}
		total.wrong = append(total.wrong, s.wrong...)
	}
	t.Log("\n" + total.report("cross-validated with the model"))
	typ, p := total.lowestBalancedPrecision()
	t.Logf("lowest precision with every type weighted alike, as in the balanced held-out files: %.3f (%s)", p, typ)
	if *evalErrors {
		t.Log("left-out items got wrong:\n" + strings.Join(total.wrong, "\n"))
	}
}

// lowestBalancedPrecision is the lowest precision of a type when each expected type counts as much as any
// other, whatever its share of the items: the training files hold more other news than the held-out files,
// which are balanced by type, so plain precision flatters the catch-all type.
func (s evalScore) lowestBalancedPrecision() (string, float64) {
	support := map[string]int{}
	for k, n := range s.confusion {
		support[k[0]] += n
	}
	predicted, right := map[string]float64{}, map[string]float64{}
	for k, n := range s.confusion {
		w := float64(n) / float64(support[k[0]])
		predicted[k[1]] += w
		if k[0] == k[1] {
			right[k[1]] += w
		}
	}
	lowest, low := "", 2.0
	for typ, n := range predicted {
		if p := right[typ] / n; p < low || p == low && typ < lowest {
			lowest, low = typ, p
		}
	}
	return lowest, low
}
