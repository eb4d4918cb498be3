package leadfind

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"radar/internal/evalset"
)

// The evaluation set is shared with the analyser: labelled items, one JSON object a line (see its README).
const evalDir = "../analysis/testdata/eval"

// showMisses prints, for the training part only, every missed, spurious or mislabelled lead.
var showMisses = flag.Bool("eval.misses", false, "print the training items' missed and spurious leads")

// trainOnly leaves the held-out part unread, for measuring while tuning.
var trainOnly = flag.Bool("eval.train", false, "score the training files only, leaving the held-out part unread")

// The held-out bars: the test fails when the held-out figures fall below them. The lead F1 bar is the 0.92
// target (5,757 held-out items: 0.922; 0.943 on the heldout* files the analyser shares, 0.919 on the lead-rich
// leads-heldout* files); the stage bar is the stage reached (0.935), floored to the hundredth, above the 0.90
// target.
const (
	minHeldoutF1    = 0.92
	minHeldoutStage = 0.93
)

type evalItem struct {
	ID      string `json:"id"`
	Company struct {
		Name     string   `json:"name"`
		Founders []string `json:"founders"`
	} `json:"company"`
	Title string     `json:"title"`
	Text  string     `json:"text"`
	URL   string     `json:"url"`
	Leads []evalLead `json:"leads"`
}

type evalLead struct {
	Person  string `json:"person"`
	Company string `json:"company"`
	Stage   string `json:"stage"`
	Website string `json:"website"`
}

// evalScore counts how the found leads compare with the labelled ones.
type evalScore struct {
	items, expected, found, matched, stageRight, websiteRight int
}

func (s evalScore) precision() float64 { return ratio(s.matched, s.found) }
func (s evalScore) recall() float64    { return ratio(s.matched, s.expected) }
func (s evalScore) stage() float64     { return ratio(s.stageRight, s.matched) }
func (s evalScore) website() float64   { return ratio(s.websiteRight, s.matched) }

// f1 is the harmonic mean of precision and recall, computed from the counts so that it has no rounding of
// its own.
func (s evalScore) f1() float64 {
	return ratio(2*s.matched, s.found+s.expected)
}

func (s evalScore) String() string {
	return fmt.Sprintf("%d items, %d leads expected, %d found, %d matched: precision %.3f, recall %.3f, F1 %.3f, stage %.3f, website %.3f",
		s.items, s.expected, s.found, s.matched, s.precision(), s.recall(), s.f1(), s.stage(), s.website())
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// readEval reads one file of the set.
func readEval(t *testing.T, name string) []evalItem {
	t.Helper()
	items, err := evalset.Load[evalItem](evalDir, name)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// sameWebsite compares two addresses ignoring scheme, "www.", case and a trailing slash.
func sameWebsite(a, b string) bool {
	norm := func(u string) string {
		u = strings.ToLower(strings.TrimSpace(u))
		u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
		return strings.TrimSuffix(strings.TrimPrefix(u, "www."), "/")
	}
	return norm(a) == norm(b)
}

// score runs Extract on each item alone and compares its leads with the labelled ones; report, when set,
// receives a line for every difference.
func score(items []evalItem, report func(format string, args ...any)) evalScore {
	var s evalScore
	for _, it := range items {
		s.add(it, Extract(it.Company.Name, it.Company.Founders, []Item{{URL: it.URL, Title: it.Title, Text: it.Text}}), report)
	}
	return s
}

// add compares the leads found in one item with its labelled ones.
func (s *evalScore) add(it evalItem, got []Candidate, report func(format string, args ...any)) {
	s.items++
	want := make(map[string]evalLead)
	for _, l := range it.Leads {
		want[NormalizeKey(l.Person, l.Company)] = l
	}
	s.expected += len(want)
	seen := make(map[string]bool)
	for _, c := range got {
		if seen[c.Key] {
			continue
		}
		seen[c.Key] = true
		s.found++
		w, ok := want[c.Key]
		if !ok {
			if report != nil {
				report("%s spurious: %s of %s (%s)", it.ID, c.PersonName, c.CompanyName, c.Relation)
			}
			continue
		}
		s.matched++
		if c.Stage == w.Stage {
			s.stageRight++
		} else if report != nil {
			report("%s stage: %s of %s is %s, want %s", it.ID, c.PersonName, c.CompanyName, c.Stage, w.Stage)
		}
		if sameWebsite(c.CompanyWebsite, w.Website) {
			s.websiteRight++
		} else if report != nil {
			report("%s website: %s is %q, want %q", it.ID, c.CompanyName, c.CompanyWebsite, w.Website)
		}
	}
	if report != nil {
		for k, w := range want {
			if !seen[k] {
				report("%s missed: %s of %s", it.ID, w.Person, w.Company)
			}
		}
	}
}

// merge adds the counts of o.
func (s *evalScore) merge(o evalScore) {
	s.items += o.items
	s.expected += o.expected
	s.found += o.found
	s.matched += o.matched
	s.stageRight += o.stageRight
	s.websiteRight += o.websiteRight
}

// The files of the evaluation set the lead finder reads. The analyser reads trainFiles and heldoutFiles
// only; the leads-* files are labelled in full for the lead finder alone.
var (
	// trainGlobs are the items the pair model is trained on and the patterns may be tuned on.
	trainGlobs = []string{"train-*.jsonl", "leads-extra*.jsonl", "leads-train-*.jsonl"}
	// heldoutGlobs are the items never looked at while tuning.
	heldoutGlobs = []string{"heldout*.jsonl", "leads-heldout-*.jsonl"}
)

// readGlobs reads every file matching one of globs, in order.
func readGlobs(t *testing.T, globs []string) (names []string, items [][]evalItem) {
	t.Helper()
	for _, g := range globs {
		paths, err := filepath.Glob(filepath.Join(evalDir, g))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			names = append(names, strings.TrimSuffix(filepath.Base(path), ".jsonl"))
			items = append(items, readEval(t, filepath.Base(path)))
		}
	}
	return names, items
}

// TestEval measures the lead finder on the evaluation set: the held-out files the analyser shares, the lead
// finder's own held-out files, and the whole held-out part; with -v, also each training file and all of them.
func TestEval(t *testing.T) {
	var report func(string, ...any)
	if *showMisses {
		report = t.Logf
	}
	// The training files are scored for reading (-v) and tuning; the held-out files for the bar, always.
	if testing.Verbose() || *trainOnly || *showMisses {
		names, files := readGlobs(t, trainGlobs)
		var train evalScore
		for i, items := range files {
			s := score(items, report)
			t.Logf("%-16s %v", names[i]+":", s)
			train.merge(s)
		}
		t.Logf("%-16s %v", "train:", train)
	}
	if *trainOnly {
		return
	}
	names, files := readGlobs(t, heldoutGlobs)
	if len(files) == 0 {
		t.Skip("no held-out files")
	}
	var shared, own evalScore
	for i, items := range files {
		s := score(items, nil)
		if strings.HasPrefix(names[i], "leads-") {
			own.merge(s)
		} else {
			shared.merge(s)
		}
	}
	all := shared
	all.merge(own)
	t.Logf("held-out, heldout*:       %v", shared)
	t.Logf("held-out, leads-heldout*: %v", own)
	t.Logf("held-out:                 %v", all)
	if all.f1() < minHeldoutF1 || all.stage() < minHeldoutStage {
		t.Errorf("held-out F1 %.3f and stage accuracy %.3f, want at least %.3f and %.2f", all.f1(), all.stage(), minHeldoutF1, minHeldoutStage)
	}
}
