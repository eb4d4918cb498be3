package leadfind

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

//go:generate go test -run ^TestTrainPairModel$ -train

// pairModelText holds the pair model's weights, trained on the evaluation set's training files
// (../analysis/testdata/eval: train-*, leads-extra* and leads-train-*; trainGlobs in eval_test.go) by
// TestTrainPairModel in pairtrain_test.go: run go generate after changing them, the pairs or their features.
//
//go:embed pairmodel.txt
var pairModelText string

// pairModel is a logistic regression over a pair's features: the probability that the item names the
// person as a founder or leader of the company, tied to the tracked company.
type pairModel struct {
	weights map[string]float64
}

var thePairModel = mustParsePairModel(pairModelText)

// The probabilities at which a pair becomes a lead, where the patterns tied it and where they did not,
// chosen by cross-validation on the training files (TestCrossValidatePairs).
var pairThresholds = thresholds{rule: 0.15, other: 0.3, second: 0.9}

// thresholds are the probabilities at which pairs become leads: rule for a pair the patterns tied, other
// for one they did not, second for a person's pair with a company other than their likeliest.
type thresholds struct{ rule, other, second float64 }

func mustParsePairModel(text string) *pairModel {
	m, err := parsePairModel(text)
	if err != nil {
		panic(err)
	}
	return m
}

// parsePairModel reads the model's text form: a comment line, then a feature and its weight per line.
func parsePairModel(text string) (*pairModel, error) {
	m := &pairModel{weights: make(map[string]float64)}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, v, ok := strings.Cut(line, "\t")
		w, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("pair model line %d: want a feature, a tab and a weight", n)
		}
		m.weights[f] = w
	}
	return m, nil
}

// formatPairModel writes weights in the form parsePairModel reads, features sorted.
func formatPairModel(weights map[string]float64, comment string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", comment)
	for _, f := range slices.Sorted(maps.Keys(weights)) {
		fmt.Fprintf(&b, "%s\t%.4g\n", f, weights[f])
	}
	return b.String()
}

// probability returns the model's probability that the pair is a lead.
func (m *pairModel) probability(features []string) float64 {
	z := 0.0
	for _, f := range features {
		z += m.weights[f]
	}
	return 1 / (1 + math.Exp(-z))
}

// judge returns the leads of an item: the pairs the model takes, those the patterns found first in their
// order, then the others in the order the item names them. A person the patterns read as leaving the tracked
// company to join another is kept as they found it: the evaluation set labels founders only, so the model
// has not learnt to judge those.
func (sc *itemScan) judge(rules []Candidate) []Candidate {
	return sc.judgeWith(thePairModel, pairThresholds, rules)
}

func (sc *itemScan) judgeWith(m *pairModel, th thresholds, rules []Candidate) []Candidate {
	pairs := sc.pairs(rules)
	prob := make([]float64, len(pairs))
	best := make(map[string]float64) // person -> the highest probability of their pairs
	for i, p := range pairs {
		prob[i] = m.probability(p.features)
		k := normalizePerson(p.person)
		best[k] = max(best[k], prob[i])
	}
	taken := make([]bool, len(rules))
	var added []Candidate
	for i, p := range pairs {
		pr := prob[i]
		if p.rule >= 0 && rules[p.rule].Relation == RelDepartedToJoin {
			taken[p.rule] = true
			continue
		}
		if pr < best[normalizePerson(p.person)] && pr < th.second {
			continue // a person is a lead of the company they are most likely tied to, and of others only when sure
		}
		if p.rule >= 0 {
			taken[p.rule] = pr >= th.rule
			continue
		}
		if pr < th.other || !p.tied || p.vetoed {
			continue // a pair the patterns did not tie is a lead only where the item ties its company to the tracked one
		}
		if c, ok := sc.candidate(p); ok {
			added = append(added, c)
		}
	}
	var out []Candidate
	for i, c := range rules {
		if taken[i] {
			out = append(out, c)
		}
	}
	return append(out, added...)
}

// candidate makes the lead of a pair the patterns did not tie.
func (sc *itemScan) candidate(p pair) (Candidate, bool) {
	key := normalizeCompany(p.company)
	website := cmp.Or(sc.named[key], websiteOf(p.company, sc.m, sc.sites))
	if sc.ownPage && website == "" {
		return Candidate{}, false
	}
	rel := sc.rels[key]
	switch {
	case sc.newVenture[key]:
		rel = RelDepartedToFound
	case rel == "":
		rel = RelCofounderInNews
	}
	s := sc.sents[p.sent]
	c := Candidate{
		PersonName:     p.person,
		PersonRole:     s.roleNear(p.ptok),
		CompanyName:    p.company,
		CompanyWebsite: website,
		Summary:        s.raw,
		CompanySummary: cmp.Or(sc.describe(key), Undescribed(p.company)),
		Relation:       rel,
		Stage:          sc.stages.of(p.company),
		Key:            NormalizeKey(p.person, p.company),
	}
	if sc.url != "" {
		c.Evidence = []string{sc.url}
	}
	return c, true
}

// roleNear returns the founder or leader role written within three words of the person at token i, or "".
func (s *sentence) roleNear(i int) string {
	for k := max(0, i-3); k < min(len(s.toks), i+4); k++ {
		f := strings.TrimPrefix(s.toks[k].form, rolePrefix)
		switch {
		case !founderRoles[f]:
		case strings.Contains(f, "founder"):
			return strings.TrimSuffix(f, "s")
		case f == "co-ceo":
			return "co-CEO"
		default:
			return strings.ToUpper(f)
		}
	}
	return ""
}
