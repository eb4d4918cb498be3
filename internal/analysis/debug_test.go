package analysis

import (
	"flag"
	"strings"
	"testing"
)

var debugIDs = flag.String("debugids", "", "")

func TestDebugItems(t *testing.T) {
	if *debugIDs == "" {
		t.Skip()
	}
	for _, e := range loadEval(t, "train-*.jsonl") {
		if !strings.Contains(","+*debugIDs+",", ","+e.ID+",") {
			continue
		}
		sc := scanItem(e.item(), e.Company.Name, e.Company.Founders)
		t.Logf("%s want %s: %q", e.ID, e.Expect.Type, e.Title)
		for typ, m := range sc.best {
			t.Logf("   %s w=%.2f neg=%v spec=%v past=%v subj=%v: %q in %q", typ, m.weight, m.negated, m.speculative, m.past, m.subject, m.sentence[m.start:m.end], truncate(m.sentence, 160))
		}
	}
}
