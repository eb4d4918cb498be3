package analysis

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"radar"
)

func TestCompileSentenceForms(t *testing.T) {
	tests := []struct {
		sentence    string
		kind        string
		types       []string
		people      []string
		keyword     string // one keyword the rule must carry, "" for none
		minUSD      float64
		minSeverity string
	}{
		{"Tell me when they raise more than $10M", KindTyped, []string{radar.TypeFunding}, nil, "", 10e6, ""},
		{"any founder leaving", KindTyped, []string{radar.TypeFounderDeparture}, nil, "", 0, ""},
		{"new product launches", KindTyped, []string{radar.TypeProductLaunch}, nil, "", 0, ""},
		{"layoffs or office closures", KindTyped, []string{radar.TypeContraction}, nil, "layoffs", 0, ""},
		{"if Jane Doe leaves", KindTyped, []string{radar.TypeExecutiveChange, radar.TypeFounderDeparture}, []string{"Jane Doe"}, "", 0, ""},
		{"mentions of SOC 2", KindKeyword, nil, nil, "SOC 2", 0, ""},
		{"acquisition rumours", KindTyped, []string{radar.TypeAcquisition}, nil, "acquisition", 0, ""},
		{"hiring a new CTO", KindTyped, []string{radar.TypeExecutiveChange}, nil, "new cto", 0, ""},
		{"€5m+ rounds", KindTyped, []string{radar.TypeFunding}, nil, "", 5.4e6, ""},
		{"if a founder starts a new company", KindTyped, []string{radar.TypeNewVenture}, nil, "", 0, ""},
		{"lawsuits or regulator investigations", KindTyped, []string{radar.TypeLegal}, nil, "", 0, ""},
		{"expansion into new markets", KindTyped, []string{radar.TypeExpansion}, nil, "", 0, ""},
		{"big partnerships", KindTyped, []string{radar.TypePartnership}, nil, "", 0, SeverityMedium},
		{"only major news", KindTyped, allEventTypes(), nil, "", 0, SeverityHigh},
		{"Anything about Kubernetes or \"zero trust\"", KindKeyword, nil, nil, "zero trust", 0, ""},
		{"changes to their pricing page", KindKeyword, nil, nil, "pricing", 0, ""},
		{"any news", KindTyped, allEventTypes(), nil, "", 0, ""},
		{"mentions of Sam Altman", KindKeyword, nil, []string{"Sam Altman"}, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.sentence, func(t *testing.T) {
			p := Compile(tt.sentence)
			if len(p.Rules) != 1 {
				t.Fatalf("Compile(%q) gave %d rules, want 1", tt.sentence, len(p.Rules))
			}
			r := p.Rules[0]
			if r.Kind != tt.kind {
				t.Errorf("kind = %s, want %s", r.Kind, tt.kind)
			}
			if !slices.Equal(r.Types, orEmpty(tt.types)) {
				t.Errorf("types = %v, want %v", r.Types, tt.types)
			}
			if !slices.Equal(r.People, orEmpty(tt.people)) {
				t.Errorf("people = %v, want %v", r.People, tt.people)
			}
			if tt.keyword != "" && !slices.Contains(r.Keywords, tt.keyword) {
				t.Errorf("keywords = %v, want %q among them", r.Keywords, tt.keyword)
			}
			if r.MinAmountUSD != tt.minUSD {
				t.Errorf("minAmountUsd = %.0f, want %.0f", r.MinAmountUSD, tt.minUSD)
			}
			if r.MinSeverity != tt.minSeverity {
				t.Errorf("minSeverity = %q, want %q", r.MinSeverity, tt.minSeverity)
			}
			if r.Sentence != tt.sentence {
				t.Errorf("sentence = %q, want %q", r.Sentence, tt.sentence)
			}
		})
	}
}

func allEventTypes() []string {
	return slices.DeleteFunc(Types(), func(t string) bool { return t == radar.TypeNoChange })
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestCompileThresholds(t *testing.T) {
	tests := map[string]float64{
		"Tell me when they raise more than $10M": 10e6,
		"funding rounds over $2.5 million":       2.5e6,
		"€5m+ rounds":                            5.4e6,
		"rounds of £2 million or more":           2.54e6,
		"acquisitions of at least USD 1bn":       1e9,
		"raises above 500k":                      500e3,
		"any round, even under $1M":              0,
		"funding rounds (no threshold)":          0,
	}
	for sentence, want := range tests {
		t.Run(sentence, func(t *testing.T) {
			p := Compile(sentence)
			if got := p.Rules[0].MinAmountUSD; got != want {
				t.Errorf("Compile(%q) minAmountUsd = %.0f, want %.0f", sentence, got, want)
			}
		})
	}
}

func TestCompileKeepsEverySentenceInOrder(t *testing.T) {
	text := `Tell me when they raise more than $10M. Any founder leaving!
- new product launches
* layoffs or office closures; if Jane Doe leaves
1. mentions of SOC 2
2) acquisition rumours
• hiring a new CTO

Blue widgets? Tell me.`
	want := []string{
		"Tell me when they raise more than $10M", "Any founder leaving", "new product launches",
		"layoffs or office closures", "if Jane Doe leaves", "mentions of SOC 2", "acquisition rumours",
		"hiring a new CTO", "Blue widgets", "Tell me",
	}
	p := Compile(text)
	var got []string
	for i, r := range p.Rules {
		got = append(got, r.Sentence)
		if wantID := "r" + string(rune('0'+i+1)); i < 9 && r.ID != wantID {
			t.Errorf("rule %d id = %q, want %q", i, r.ID, wantID)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sentences = %q, want %q", got, want)
	}
	if p.Rules[9].ID != "r10" {
		t.Errorf("tenth rule id = %q, want r10", p.Rules[9].ID)
	}
	if last := p.Rules[9]; last.Kind != KindKeyword || len(last.Keywords) != 0 {
		t.Errorf("rule without topic = %+v, want a keyword rule with no keywords", last)
	}
	if again := Compile(text); !reflect.DeepEqual(again, p) {
		t.Errorf("compiling twice differs:\n%+v\n%+v", p, again)
	}
}

func TestCompileEmpty(t *testing.T) {
	p := Compile("  \n - \n;")
	if p.Rules == nil || len(p.Rules) != 0 {
		t.Fatalf("Compile of blank text = %#v, want an empty, non-nil rule list", p.Rules)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"rules":[]}` {
		t.Errorf("JSON = %s, want {\"rules\":[]}", b)
	}
}

func TestPolicyJSONRoundTrip(t *testing.T) {
	p := Compile("Tell me when they raise more than $10M\nmajor acquisitions\nmentions of SOC 2")
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"id":"r1"`, `"minAmountUsd":10000000`, `"minSeverity":"high"`, `"kind":"keyword"`, `"people":[]`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	var back Policy
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Errorf("round trip = %+v, want %+v", back, p)
	}
}

// A sentence compiled again gives the same rule, and a caller changing the rule it got changes no later one.
func TestCompiledSentencesAreCopies(t *testing.T) {
	const text = "Tell me if Jane Doe leaves. Funding rounds over $5M"
	first := Compile(text)
	want, _ := json.Marshal(first)
	for i := range first.Rules {
		r := &first.Rules[i]
		for _, s := range [][]string{r.Types, r.Keywords, r.People} {
			for j := range s {
				s[j] = "changed"
			}
		}
		r.Sentence = "changed"
	}
	if got, _ := json.Marshal(Compile(text)); string(got) != string(want) {
		t.Errorf("compiled again after the first copy changed:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(want), `"people":["Jane Doe"]`) || !strings.Contains(string(want), `"minAmountUsd":5000000`) {
		t.Errorf("Compile(%q) = %s: not the rules this test is about", text, want)
	}
}
