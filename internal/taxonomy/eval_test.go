package taxonomy

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// labelledCompany is one line of the labelled sets in testdata: a company's own description and the
// categories that are acceptable as its first category; an empty list means nothing in the taxonomy fits
// and the company should get no category.
type labelledCompany struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Domain      string   `json:"domain"`
	Description string   `json:"description"`
	Expected    []string `json:"expected"`
}

// classifyScore sums up the classifier's answers on a labelled set.
type classifyScore struct {
	companies  int // labelled companies
	classified int // companies given at least one category
	correct    int // classified companies whose first category is acceptable
	fitting    int // companies with at least one acceptable category
	covered    int // fitting companies given an acceptable first category
}

// precision is the share of classified companies whose first category is acceptable.
func (s classifyScore) precision() float64 {
	if s.classified == 0 {
		return 1
	}
	return float64(s.correct) / float64(s.classified)
}

// coverage is the share of companies with an acceptable category that got one as their first category.
func (s classifyScore) coverage() float64 {
	if s.fitting == 0 {
		return 0
	}
	return float64(s.covered) / float64(s.fitting)
}

func readLabelled(t *testing.T, path string) []labelledCompany {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledCompany
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var c labelledCompany
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s line %d: %v", path, len(out)+1, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// scoreLabelled classifies every company of a set; verbose logs each miss, for the training set only.
func scoreLabelled(t *testing.T, tx *Taxonomy, set []labelledCompany, verbose bool) classifyScore {
	t.Helper()
	c := NewBuiltin(tx)
	var s classifyScore
	for _, lc := range set {
		for _, p := range lc.Expected {
			if cat, ok := tx.Lookup(p); !ok || cat.Path != p {
				t.Fatalf("%s: %q is not a category", lc.ID, p)
			}
		}
		as, err := c.ClassifyCompany(context.Background(), lc.Name, lc.Description, "")
		if err != nil {
			t.Fatal(err)
		}
		s.companies++
		if len(lc.Expected) > 0 {
			s.fitting++
		}
		if len(as) == 0 {
			if verbose && len(lc.Expected) > 0 {
				t.Logf("%s: none, want %q", lc.ID, lc.Expected)
			}
			continue
		}
		s.classified++
		if slices.Contains(lc.Expected, as[0].Path) {
			s.correct++
			s.covered++
		} else if verbose {
			t.Logf("%s: got %v, want %q", lc.ID, as, lc.Expected)
		}
	}
	return s
}

// TestClassifyLabelledCompanies measures the built-in classifier on labelled company descriptions. The
// training set is for improving the matcher; the held-out set is never tuned on, only its totals are read,
// and its top-1 precision must stay at or above the bar: no category is better than a wrong one.
func TestClassifyLabelledCompanies(t *testing.T) {
	const precisionBar = 0.85
	tx := Default()
	for _, tc := range []struct {
		name, file string
		verbose    bool
		bar        float64
	}{
		{"training", "testdata/companies_train.jsonl", true, 0},
		{"held-out", "testdata/companies_heldout.jsonl", false, precisionBar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := readLabelled(t, tc.file)
			s := scoreLabelled(t, tx, set, tc.verbose && testing.Verbose())
			t.Logf("%s: %d companies, %d classified, top-1 precision %.3f (%d/%d), coverage %.3f (%d/%d)",
				tc.name, s.companies, s.classified, s.precision(), s.correct, s.classified,
				s.coverage(), s.covered, s.fitting)
			if s.precision() < tc.bar {
				t.Errorf("%s top-1 precision %.3f, want at least %.2f", tc.name, s.precision(), tc.bar)
			}
		})
	}
}
