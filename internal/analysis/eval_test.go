package analysis

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"radar"
	"radar/internal/evalset"
)

// evalErrors prints the training items the analyser gets wrong; it never applies to the held-out part.
var evalErrors = flag.Bool("evalerrors", false, "print the evaluation set's training items the analyser gets wrong")

// heldoutFiles chooses the held-out files TestEval scores: a file alone gives that file's figures (the bar still applies).
var heldoutFiles = flag.String("heldout", "heldout*.jsonl", "the held-out files TestEval scores, a pattern under testdata/eval")

// The held-out bar: the evaluation test fails when the held-out figures fall below these, the targets:
// accuracy 0.92, macro-F1 0.88 and no type's precision under 0.80 (held out, 1,857 items: accuracy 0.922,
// macro-F1 0.924, lowest precision 0.819, for other news). The macro-F1 bar stands at what is reached,
// floored to two decimals, as a guard against regressions.
const (
	barAccuracy  = 0.92
	barMacroF1   = 0.92
	barPrecision = 0.80
)

// evalItem is one labelled item of testdata/eval, as described in its README.
type evalItem struct {
	ID      string `json:"id"`
	Style   string `json:"style"`
	Hard    string `json:"hard"`
	Company struct {
		Name     string   `json:"name"`
		Website  string   `json:"website"`
		Founders []string `json:"founders"`
	} `json:"company"`
	Source string `json:"source"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Expect struct {
		Type     string   `json:"type"`
		Severity string   `json:"severity"`
		Also     []string `json:"also"`
	} `json:"expect"`
	Rules []struct {
		Rule  string `json:"rule"`
		Match bool   `json:"match"`
	} `json:"rules"`
}

// item is the analysis item the crawler would hand over for an evaluation item: a "change" is a page diff
// of the company's website.
func (e evalItem) item() Item {
	it := Item{Source: e.Source, Kind: ItemArticle, URL: e.URL, Title: e.Title, Text: e.Text}
	if e.Source == "change" {
		it.Source, it.Kind = "website", ItemChange
	}
	return it
}

func (e evalItem) input() Input {
	rules := make([]string, len(e.Rules))
	for i, r := range e.Rules {
		rules[i] = r.Rule
	}
	return Input{CompanyName: e.Company.Name, Founders: e.Company.Founders, Items: []Item{e.item()},
		Policy: Compile(strings.Join(rules, "\n"))}
}

// loadEval reads the items of the files matching pattern, in file order.
func loadEval(t testing.TB, pattern string) []evalItem {
	t.Helper()
	items, err := evalset.Load[evalItem](filepath.Join("testdata", "eval"), pattern)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range items {
		if !slices.Contains(radar.SignalTypes, e.Expect.Type) {
			t.Fatalf("%s expects unknown type %q", e.ID, e.Expect.Type)
		}
	}
	return items
}

// evalScore is what the analyser got right on a set of items.
type evalScore struct {
	n, correct, severity, rules, ruleTotal int
	confusion                              map[[2]string]int // {expected, got}
	byHard                                 map[string][2]int // hard category: {correct, total}
	wrong                                  []string
}

// typeStats are one type's figures.
type typeStats struct {
	typ                   string
	support, predicted    int
	precision, recall, f1 float64
}

func scoreEval(t testing.TB, items []evalItem, keepWrong bool) evalScore {
	t.Helper()
	s := evalScore{confusion: map[[2]string]int{}, byHard: map[string][2]int{}}
	a := Builtin()
	for _, e := range items {
		res, err := a.Analyse(context.Background(), e.input())
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		s.n++
		s.confusion[[2]string{e.Expect.Type, res.Type}]++
		h := s.byHard[cmpOr(e.Hard, "plain")]
		h[1]++
		if res.Type == e.Expect.Type {
			s.correct++
			h[0]++
		} else if keepWrong {
			s.wrong = append(s.wrong, fmt.Sprintf("%s [%s %s %s] want %s/%s got %s/%s: %s\n    %s", e.ID, e.Source, e.Style, e.Hard,
				e.Expect.Type, e.Expect.Severity, res.Type, res.Severity, truncate(e.Title, 100), firstLine(res.Analysis, 3)))
		}
		s.byHard[cmpOr(e.Hard, "plain")] = h
		if res.Severity == e.Expect.Severity {
			s.severity++
		}
		for i, r := range e.Rules {
			s.ruleTotal++
			if i < len(res.Evaluations) && res.Evaluations[i].Matched == r.Match {
				s.rules++
			}
		}
	}
	return s
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// firstLine returns the first paragraphs of an analysis text, for an error listing.
func firstLine(s string, n int) string {
	parts := strings.SplitN(s, "\n\n", n+1)
	return strings.Join(parts[:min(n, len(parts))], " | ")
}

// types lists the types that occur as expected or predicted, in the contract's order.
func (s evalScore) types() []string {
	var out []string
	for _, typ := range radar.SignalTypes {
		for k := range s.confusion {
			if k[0] == typ || k[1] == typ {
				out = append(out, typ)
				break
			}
		}
	}
	return out
}

func (s evalScore) stats() []typeStats {
	var out []typeStats
	for _, typ := range s.types() {
		st := typeStats{typ: typ}
		tp := s.confusion[[2]string{typ, typ}]
		for k, n := range s.confusion {
			if k[0] == typ {
				st.support += n
			}
			if k[1] == typ {
				st.predicted += n
			}
		}
		if st.predicted > 0 {
			st.precision = float64(tp) / float64(st.predicted)
		}
		if st.support > 0 {
			st.recall = float64(tp) / float64(st.support)
		}
		if st.precision+st.recall > 0 {
			st.f1 = 2 * st.precision * st.recall / (st.precision + st.recall)
		}
		out = append(out, st)
	}
	return out
}

func (s evalScore) accuracy() float64 { return share(s.correct, s.n) }

// macroF1 averages F1 over every type that is expected or predicted.
func (s evalScore) macroF1() float64 {
	st := s.stats()
	if len(st) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range st {
		sum += x.f1
	}
	return sum / float64(len(st))
}

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// report renders the confusion matrix (rows expected, columns got) and the figures.
func (s evalScore) report(name string) string {
	var b strings.Builder
	types := s.types()
	short := func(t string) string {
		if len(t) > 8 {
			return t[:8]
		}
		return t
	}
	fmt.Fprintf(&b, "%s: %d items, accuracy %.3f, macro-F1 %.3f, severity accuracy %.3f, rule-match accuracy %.3f (%d rules)\n",
		name, s.n, s.accuracy(), s.macroF1(), share(s.severity, s.n), share(s.rules, s.ruleTotal), s.ruleTotal)
	fmt.Fprintf(&b, "%-18s", "expected \\ got")
	for _, typ := range types {
		fmt.Fprintf(&b, " %8s", short(typ))
	}
	b.WriteString("\n")
	for _, exp := range types {
		fmt.Fprintf(&b, "%-18s", exp)
		for _, got := range types {
			if n := s.confusion[[2]string{exp, got}]; n > 0 {
				fmt.Fprintf(&b, " %8d", n)
			} else {
				fmt.Fprintf(&b, " %8s", ".")
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-18s %9s %9s %9s %7s %9s\n", "type", "precision", "recall", "F1", "support", "predicted")
	for _, st := range s.stats() {
		fmt.Fprintf(&b, "%-18s %9.3f %9.3f %9.3f %7d %9d\n", st.typ, st.precision, st.recall, st.f1, st.support, st.predicted)
	}
	hards := make([]string, 0, len(s.byHard))
	for h := range s.byHard {
		hards = append(hards, h)
	}
	slices.Sort(hards)
	b.WriteString("accuracy by kind of item:")
	for _, h := range hards {
		fmt.Fprintf(&b, " %s %d/%d", h, s.byHard[h][0], s.byHard[h][1])
	}
	b.WriteString("\n")
	return b.String()
}

// TestEval runs the built-in analyser over the evaluation set, one item per run, and prints the held-out
// figures, with -v the training figures too; it fails when the held-out figures fall below the bar. Only
// totals of the held-out part are ever printed.
func TestEval(t *testing.T) {
	train := loadEval(t, "train-*.jsonl")
	heldout := loadEval(t, *heldoutFiles)
	if len(train) == 0 || len(heldout) == 0 {
		t.Fatalf("evaluation set incomplete: %d training and %d held-out items", len(train), len(heldout))
	}

	// The training figures are for reading (-v) and tuning; the held-out ones hold the bar, always.
	if testing.Verbose() || *evalErrors {
		tr := scoreEval(t, train, *evalErrors)
		t.Log("\n" + tr.report("train"))
		if *evalErrors {
			t.Log("training items got wrong:\n" + strings.Join(tr.wrong, "\n"))
		}
	}

	ho := scoreEval(t, heldout, false)
	t.Log("\n" + ho.report("held-out"))
	if acc := ho.accuracy(); acc < barAccuracy {
		t.Errorf("held-out accuracy %.3f, below the bar %.2f", acc, barAccuracy)
	}
	if f1 := ho.macroF1(); f1 < barMacroF1 {
		t.Errorf("held-out macro-F1 %.3f, below the bar %.2f", f1, barMacroF1)
	}
	for _, st := range ho.stats() {
		if st.predicted > 0 && st.precision < barPrecision {
			t.Errorf("held-out precision of %s %.3f, below the bar %.2f", st.typ, st.precision, barPrecision)
		}
	}
}

// TestTrainingFigures prints, with -v, the training figures alone, with -evalerrors the items got wrong; it reads
// nothing of the held-out part and fails only on an unreadable set.
func TestTrainingFigures(t *testing.T) {
	if !testing.Verbose() && !*evalErrors {
		t.Skip("prints figures only: run with -v")
	}
	train := loadEval(t, "train-*.jsonl")
	if len(train) == 0 {
		t.Skip("no training items")
	}
	tr := scoreEval(t, train, *evalErrors)
	t.Log("\n" + tr.report("train"))
	if *evalErrors {
		t.Log("training items got wrong:\n" + strings.Join(tr.wrong, "\n"))
	}
}
