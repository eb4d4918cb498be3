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
	"sync"
)

//go:generate go test -run ^TestTrainPairModel$ -train

// pairModelText holds the pair model's weights, trained on the evaluation set's training files
// (../analysis/testdata/eval: train-*, leads-extra* and leads-train-*; trainGlobs in eval_test.go) by
// TestTrainPairModel in pairtrain_test.go: run go generate after changing them, the pairs or their features.
//
//go:embed pairmodel.txt
var pairModelText string

// pairModel is two logistic regressions over a pair's features, whose product is the probability that the
// item names the person as a founder or leader of the company, tied to the tracked company: the founder
// part reads every feature, the tie part only what is said of the company and the sentence (tieFeature).
// Trained together, the tie part can veto a pair however founder-like its wording, which one sum of
// weights cannot.
type pairModel struct {
	weights map[string]float64 // the founder part: every feature
	tie     map[string]float64 // the tie part: the features tieFeature admits; none: the founder part alone
}

// tiePrefix marks a weight of the tie part in the model's text form.
const tiePrefix = "tie|"

// tieFeature reports whether the tie part reads feature f: what the item says of the company and of the
// sentence, not of how the person stands to the company.
func tieFeature(f string) bool {
	for _, p := range tieFeaturePrefixes {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

var tieFeaturePrefixes = []string{"bias", "deal:", "venture", "c:", "cm:", "s:tracked", "sw:", "rule", "norule", "post", "topic", "x:"}

// thePairModel is the embedded pair model, read on first use so that a process that finds no leads (a command
// line) does not pay for it.
var thePairModel = sync.OnceValue(func() *pairModel { return mustParsePairModel(pairModelText) })

// The probabilities at which a pair becomes a lead, where the patterns tied it and where they did not,
// chosen by cross-validation on the training files (TestCrossValidatePairs).
var pairThresholds = thresholds{rule: 0.3, other: 0.3, second: 0.9, untied: 0.5}

// departedBar is the most a pair needs where the patterns read a person leaving the tracked company to found
// the pair's company, or leading a company it spins out: such a founder is the lead an investor most wants,
// and the words that tell it are few.
const departedBar = 0.2

// thresholds are the probabilities at which pairs become leads: rule for a pair the patterns tied, other
// for one they did not, untied for one they did not whose company the item ties to the tracked one by no
// deal the patterns read, second for a person's pair with a company other than their likeliest.
type thresholds struct{ rule, other, second, untied float64 }

func mustParsePairModel(text string) *pairModel {
	m, err := parsePairModel(text)
	if err != nil {
		panic(err)
	}
	return m
}

// parsePairModel reads the model's text form: a comment line, then a feature and its weight per line.
func parsePairModel(text string) (*pairModel, error) {
	m := &pairModel{weights: make(map[string]float64), tie: make(map[string]float64)}
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
		if t, ok := strings.CutPrefix(f, tiePrefix); ok {
			m.tie[t] = w
		} else {
			m.weights[f] = w
		}
	}
	return m, nil
}

// formatPairModel writes m in the form parsePairModel reads, the founder part and then the tie part,
// features sorted.
func formatPairModel(m *pairModel, comment string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", comment)
	for _, f := range slices.Sorted(maps.Keys(m.weights)) {
		fmt.Fprintf(&b, "%s\t%.4g\n", f, m.weights[f])
	}
	for _, f := range slices.Sorted(maps.Keys(m.tie)) {
		fmt.Fprintf(&b, "%s%s\t%.4g\n", tiePrefix, f, m.tie[f])
	}
	return b.String()
}

// probability returns the model's probability that the pair is a lead: that the person founded or leads the
// company, times that the item ties the company to the tracked one.
func (m *pairModel) probability(features []string) float64 {
	a, b := 0.0, 0.0
	for _, f := range features {
		a += m.weights[f]
		b += m.tie[f]
	}
	if len(m.tie) == 0 {
		return sigmoid(a)
	}
	return sigmoid(a) * sigmoid(b)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// judge returns the leads of an item: the pairs the model takes, those the patterns found first in their
// order, then the others in the order the item names them. A person the patterns read as leaving the tracked
// company to join another is kept as they found it: the evaluation set labels founders only, so the model
// has not learnt to judge those.
func (sc *itemScan) judge(rules []Candidate) []Candidate {
	return sc.judgeWith(thePairModel(), pairThresholds, rules)
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
			bar := th.rule
			if r := rules[p.rule].Relation; r == RelDepartedToFound || r == RelSpinoutFounder {
				bar = min(bar, departedBar)
			}
			taken[p.rule] = pr >= bar
			continue
		}
		if pr < th.other || !p.tied && pr < th.untied || p.vetoed {
			continue // a pair the patterns did not tie needs a company tied to the tracked one, or a sure model
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
	return sc.personStages(onePerName(append(out, added...)))
}

// onePerName folds a lead into another of the same company whose person's name holds its person's whole name
// of two words or more: "Julia Paz" and "Julia Paz Mendizábal", "Wei Jie" and "Tan Wei Jie" are one founder.
func onePerName(leads []Candidate) []Candidate {
	words := make([][]string, len(leads))
	for i, c := range leads {
		words[i] = strings.Fields(normalizePerson(c.PersonName))
	}
	drop := make([]bool, len(leads))
	for i := range leads {
		for j := range leads {
			if i == j || drop[j] || len(words[i]) < 2 || len(words[i]) >= len(words[j]) || !containsRun(words[j], words[i]) ||
				!sameCompany(normalizeCompany(leads[i].CompanyName), normalizeCompany(leads[j].CompanyName)) {
				continue
			}
			merge(&leads[j], leads[i])
			drop[i] = true
			break
		}
	}
	out := leads[:0]
	for i, c := range leads {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out
}

// containsRun reports whether the words of part stand together, in order, in whole.
func containsRun(whole, part []string) bool {
	for k := 0; k+len(part) <= len(whole); k++ {
		if slices.Equal(whole[k:k+len(part)], part) {
			return true
		}
	}
	return false
}

// personStages gives a lead whose company has no round named the round the item gives its founders
// ("Zodwa Khumalo raised a R2 million pre-seed round"), the founders of one company together.
func (sc *itemScan) personStages(leads []Candidate) []Candidate {
	// A round a founder's post tells in the first person is that of the company its writer founds, else of
	// the one company its leads found.
	if we := sc.ownRounds.of(""); we != StageUnknown && len(leads) > 0 {
		own := normalizeCompany(leads[0].CompanyName)
		if i := slices.IndexFunc(leads, func(c Candidate) bool { return sc.author != "" && c.PersonName == sc.author }); i >= 0 {
			own = normalizeCompany(leads[i].CompanyName)
		} else if slices.ContainsFunc(leads, func(c Candidate) bool { return !sameCompany(normalizeCompany(c.CompanyName), own) }) {
			own = ""
		}
		for i := range leads {
			if own != "" && leads[i].Stage == StageUnknown && sameCompany(normalizeCompany(leads[i].CompanyName), own) {
				leads[i].Stage = we
			}
		}
	}
	fillStages(leads, func(c Candidate) string { return sc.stages.of(c.PersonName) })
	// What is still unknown takes the rounds no company owns that the item tells beside a lead of the company.
	fillStages(leads, sc.looseStage)
	return leads
}

// fillStages gives each lead whose stage is unknown the latest stage stageOf reads for a lead of its company.
func fillStages(leads []Candidate, stageOf func(Candidate) string) {
	for i := range leads {
		if leads[i].Stage != StageUnknown {
			continue
		}
		company := normalizeCompany(leads[i].CompanyName)
		for _, c := range leads {
			if sameCompany(normalizeCompany(c.CompanyName), company) {
				leads[i].Stage = laterStage(leads[i].Stage, stageOf(c))
			}
		}
	}
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
