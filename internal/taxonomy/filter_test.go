package taxonomy

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseTerms(t *testing.T) {
	tests := map[string]struct {
		raw     string
		want    []string
		wantErr error
		wantMsg string
	}{
		"empty":                 {raw: "", want: nil},
		"blank":                 {raw: " , ,", want: nil},
		"one":                   {raw: "fintech", want: []string{"fintech"}},
		"trims and drops empty": {raw: " fintech , ,  AI   for radiology ,", want: []string{"fintech", "AI for radiology"}},
		"four":                  {raw: "a1,b2,c3,d4", want: []string{"a1", "b2", "c3", "d4"}},
		"repeats kept once":     {raw: "Fintech,fintech,FINTECH", want: []string{"Fintech"}},
		"five": {raw: "fintech,healthcare,climate,robotics,space", wantErr: ErrTooManyTerms,
			wantMsg: "classification: at most 4 terms, got 5"},
		"too long": {raw: "fintech," + strings.Repeat("x", 101), wantErr: ErrTermTooLong,
			wantMsg: "classification: a term is at most 100 characters: term 2 has 101"},
		"100 characters":           {raw: strings.Repeat("x", 100), want: []string{strings.Repeat("x", 100)}},
		"100 multibyte characters": {raw: strings.Repeat("é", 100), want: []string{strings.Repeat("é", 100)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTerms(tc.raw)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got error %v, want %v", err, tc.wantErr)
				}
				if err.Error() != tc.wantMsg {
					t.Errorf("got message %q, want %q", err.Error(), tc.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ParseTerms(%q) = %q, want %q", tc.raw, got, tc.want)
			}
		})
	}
}

func TestResolveIncludesDescendants(t *testing.T) {
	tx := Default()
	res := Resolve(context.Background(), tx, NewBuiltin(tx), []string{"fintech", "AI for radiology"})
	if res.DegradedToTextMatching {
		t.Error("got degraded resolution from the built-in classifier")
	}
	if len(res.Terms) != 2 || res.Terms[0].Term != "fintech" || res.Terms[1].Term != "AI for radiology" {
		t.Fatalf("got terms %+v, want one per input term in order", res.Terms)
	}
	if got := matchPaths(res.Terms[0].Matches); !slices.Equal(got, []string{"Financial Services > Fintech"}) {
		t.Errorf("fintech matched %v, want only the Fintech category before expansion", got)
	}
	want := append(tx.Descendants("Financial Services > Fintech"), tx.Descendants("Healthcare > Medtech > Medical Imaging")...)
	for _, p := range want {
		if !slices.Contains(res.Paths, p) {
			t.Errorf("paths lack %q", p)
		}
	}
	if len(res.Paths) != len(want) {
		t.Errorf("got %d paths, want %d: %v", len(res.Paths), len(want), res.Paths)
	}
	for _, p := range []string{"Financial Services", "Financial Services > Insurance", "Healthcare", "Healthcare > Medtech"} {
		if slices.Contains(res.Paths, p) {
			t.Errorf("paths include %q, want only the matched categories and what lies below them", p)
		}
	}
}

func TestResolveNothingMatches(t *testing.T) {
	tx := Default()
	res := Resolve(context.Background(), tx, nil, []string{"underwater basket weaving", "platform"})
	for _, tr := range res.Terms {
		if tr.Matches == nil || len(tr.Matches) != 0 {
			t.Errorf("term %q: got matches %#v, want an empty list", tr.Term, tr.Matches)
		}
	}
	if res.Paths == nil || len(res.Paths) != 0 {
		t.Errorf("got paths %#v, want an empty list", res.Paths)
	}
	if res.Matches([]string{"Financial Services > Fintech"}) {
		t.Error("a filter that matched nothing accepted a company")
	}
}

func TestResolutionMatches(t *testing.T) {
	tx := Default()
	res := Resolve(context.Background(), tx, nil, []string{"payments", "climate"})
	tests := map[string]struct {
		res   Resolution
		paths []string
		want  bool
	}{
		"matched category":         {res, []string{"Financial Services > Fintech > Payments"}, true},
		"descendant":               {res, []string{"Financial Services > Fintech > Payments > Card Issuing"}, true},
		"deeper than the taxonomy": {res, []string{"Climate & Energy > Renewable Energy > Solar > Perovskite Cells"}, true},
		"case and spacing":         {res, []string{"financial services>fintech >  PAYMENTS"}, true},
		"any of several":           {res, []string{"Software > Cybersecurity", "Climate & Energy > Water Tech"}, true},
		"parent of a match":        {res, []string{"Financial Services > Fintech"}, false},
		"sibling":                  {res, []string{"Financial Services > Fintech > Lending"}, false},
		"no stored paths":          {res, nil, false},
		"no filter":                {Resolution{}, []string{"Space"}, true},
		"no filter and no paths":   {Resolution{}, nil, true},
		"whole segments only": {Resolution{Terms: []TermResolution{{Term: "x"}}, Paths: []string{"Consumer"}},
			[]string{"Consumer Goods > Snacks"}, false},
		"built by hand": {Resolution{Terms: []TermResolution{{Term: "x"}}, Paths: []string{"Consumer"}},
			[]string{"Consumer > Pets"}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tc.res.Matches(tc.paths); got != tc.want {
				t.Errorf("Matches(%q) = %v, want %v", tc.paths, got, tc.want)
			}
		})
	}
}

func TestResolutionJSON(t *testing.T) {
	tx := Default()
	raw, err := json.Marshal(Resolve(context.Background(), tx, nil, []string{"space", "platform"}))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"terms", "paths", "degradedToTextMatching"} {
		if _, ok := got[key]; !ok {
			t.Errorf("JSON %s lacks %q", raw, key)
		}
	}
	if len(got) != 3 {
		t.Errorf("JSON %s has %d keys, want 3", raw, len(got))
	}
	if !strings.Contains(string(raw), `{"term":"platform","matches":[]}`) {
		t.Errorf("JSON %s: want an unmatched term to carry an empty matches list", raw)
	}
	if !strings.Contains(string(raw), `{"term":"space","matches":[{"path":"Space","score":1}]}`) {
		t.Errorf("JSON %s: want the matched term with its path and score", raw)
	}
}

// failingClassifier stands in for a custom classifier whose backend is down.
type failingClassifier struct{}

func (failingClassifier) ClassifyCompany(context.Context, string, string, string) ([]Assignment, error) {
	return nil, ErrUnavailable
}

func (failingClassifier) ResolveTerm(context.Context, string) ([]Assignment, error) {
	return nil, ErrUnavailable
}

func TestTextMatchingFallback(t *testing.T) {
	tx := Default()
	tests := map[string]struct {
		term string
		want []string
	}{
		"sector name":          {"fintech", []string{"Financial Services > Fintech"}},
		"plural and case":      {"Payments", []string{"Financial Services > Fintech > Payments"}},
		"synonym":              {"AI for radiology", []string{"Healthcare > Medtech > Medical Imaging"}},
		"multi-word":           {"developer tools", []string{"Software > Developer Tools"}},
		"generic word dropped": {"fintech software", []string{"Financial Services > Fintech"}},
		"generic only":         {"services", []string{}},
		"unknown":              {"underwater basket weaving", []string{}},
		"no typo tolerance":    {"paymnets", []string{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res := Resolve(context.Background(), tx, failingClassifier{}, []string{tc.term})
			if !res.DegradedToTextMatching {
				t.Error("got DegradedToTextMatching false, want true")
			}
			if got := matchPaths(res.Terms[0].Matches); !slices.Equal(got, tc.want) {
				t.Errorf("text matching %q = %v, want %v", tc.term, got, tc.want)
			}
		})
	}
}

// wrongPaths answers with paths outside the taxonomy alongside a real one.
type wrongPaths struct{ failingClassifier }

func (wrongPaths) ResolveTerm(context.Context, string) ([]Assignment, error) {
	return []Assignment{{Path: "Made Up > Sector", Score: 0.9}, {Path: "space", Score: 0.8}}, nil
}

func TestResolveIgnoresUnknownPaths(t *testing.T) {
	res := Resolve(context.Background(), Default(), wrongPaths{}, []string{"rockets"})
	if got := matchPaths(res.Terms[0].Matches); !slices.Equal(got, []string{"Space"}) {
		t.Errorf("got matches %v, want only the existing path, spelled canonically", got)
	}
}
