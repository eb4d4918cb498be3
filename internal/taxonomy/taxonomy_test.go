package taxonomy

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestDefaultTaxonomyIsWellFormed(t *testing.T) {
	tx := Default()
	cats := tx.Categories()
	t.Logf("%d categories", len(cats))
	if len(cats) < 150 {
		t.Fatalf("got %d categories, want at least 150", len(cats))
	}
	seen := map[string]bool{}
	for _, c := range cats {
		if seen[c.Path] {
			t.Errorf("duplicate path %q", c.Path)
		}
		seen[c.Path] = true
		if c.Parent != "" && !seen[c.Parent] {
			t.Errorf("%q: parent %q not listed before it", c.Path, c.Parent)
		}
		if want := c.Parent + PathSeparator + c.Name; c.Parent != "" && c.Path != want {
			t.Errorf("path %q, want %q", c.Path, want)
		}
		if len(c.Synonyms) == 0 || len(c.Terms) == 0 {
			t.Errorf("%q: got %d synonyms and %d terms, want some of each", c.Path, len(c.Synonyms), len(c.Terms))
		}
	}
}

func TestDefaultSectorsAreCovered(t *testing.T) {
	tx := Default()
	for _, path := range []string{
		"Software > Developer Tools", "Software > Cybersecurity", "Software > Data & Analytics", "Artificial Intelligence",
		"Financial Services > Fintech > Payments", "Financial Services > Insurance > Insurtech", "Crypto & Web3",
		"Healthcare > Biotech", "Healthcare > Medtech", "Climate & Energy", "Mobility & Transportation", "Robotics",
		"Hardware", "Consumer > E-commerce", "Consumer > Marketplaces", "Media & Entertainment > Gaming", "Education",
		"Real Estate > Proptech", "Food & Agriculture > Agtech", "Industrial & Manufacturing", "Logistics & Supply Chain",
		"Government & Defense > Govtech", "Government & Defense > Defense Tech", "Legal > Legal Tech", "Human Resources", "Space",
	} {
		if _, ok := tx.Lookup(path); !ok {
			t.Errorf("no category %q", path)
		}
	}
}

// A synonym names one category; if two categories shared one, a term equal to it would be ambiguous.
func TestSynonymsNameOneCategory(t *testing.T) {
	tx := Default()
	owner := map[string]string{}
	for _, c := range tx.Categories() {
		for _, s := range append([]string{c.Name}, c.Synonyms...) {
			key := phraseKey(tx.ix.words, idsOf(tx, s))
			if prev, ok := owner[key]; ok && prev != c.Path {
				t.Errorf("synonym %q of %q also names %q", s, c.Path, prev)
			}
			owner[key] = c.Path
		}
	}
}

func idsOf(tx *Taxonomy, s string) []int32 {
	var ids []int32
	for _, tok := range tokens(s) {
		id, _ := tx.ix.lookup(tok)
		ids = append(ids, id)
	}
	return ids
}

func TestDescendants(t *testing.T) {
	tx := Default()
	tests := map[string]struct {
		path         string
		include      []string
		exclude      []string
		wantNil      bool
		wantOnlySelf bool
	}{
		"sector": {
			path:    "Financial Services > Fintech",
			include: []string{"Financial Services > Fintech", "Financial Services > Fintech > Payments", "Financial Services > Fintech > Payments > B2B Payments", "Financial Services > Fintech > Lending > Mortgages"},
			exclude: []string{"Financial Services", "Financial Services > Insurance", "Crypto & Web3"},
		},
		"case and spacing": {
			path:    "financial services>FINTECH >  payments",
			include: []string{"Financial Services > Fintech > Payments", "Financial Services > Fintech > Payments > Card Issuing"},
			exclude: []string{"Financial Services > Fintech"},
		},
		"leaf":    {path: "Space > Launch", include: []string{"Space > Launch"}, wantOnlySelf: true},
		"unknown": {path: "Underwater Basket Weaving", wantNil: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := tx.Descendants(tc.path)
			if tc.wantNil {
				if got != nil {
					t.Fatalf("got %v, want nil", got)
				}
				return
			}
			if tc.wantOnlySelf && len(got) != 1 {
				t.Errorf("got %v, want only the path itself", got)
			}
			for _, p := range tc.include {
				if !slices.Contains(got, p) {
					t.Errorf("got %v, want it to include %q", got, p)
				}
			}
			for _, p := range tc.exclude {
				if slices.Contains(got, p) {
					t.Errorf("got %v, want it to exclude %q", got, p)
				}
			}
		})
	}
}

func TestParseRejectsMalformedFiles(t *testing.T) {
	tests := map[string]string{
		"child before parent": "A > B | b | bee\nA | a | ay\n",
		"duplicate":           "A | a | ay\nA | a2 | ay2\n",
		"too many fields":     "A | a | ay | extra\n",
		"empty segment":       "A >  > B | b | bee\n",
		"no categories":       "# nothing here\ngeneric: software\n",
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(data))
			if !errors.Is(err, ErrInvalidTaxonomy) {
				t.Fatalf("got error %v, want ErrInvalidTaxonomy", err)
			}
		})
	}
}

func TestParseSmallTaxonomy(t *testing.T) {
	tx, err := Parse([]byte("# test\ngeneric: software\nPets | pets, pet care | dogs, cats\nPets > Pet Food | pet food | kibble, treats\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := tx.Categories()
	want := []Category{
		{Path: "Pets", Name: "Pets", Synonyms: []string{"pets", "pet care"}, Terms: []string{"dogs", "cats"}},
		{Path: "Pets > Pet Food", Name: "Pet Food", Parent: "Pets", Synonyms: []string{"pet food"}, Terms: []string{"kibble", "treats"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d categories, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Path != want[i].Path || got[i].Name != want[i].Name || got[i].Parent != want[i].Parent ||
			!slices.Equal(got[i].Synonyms, want[i].Synonyms) || !slices.Equal(got[i].Terms, want[i].Terms) {
			t.Errorf("category %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	got[0].Synonyms[0] = "changed"
	if c, _ := tx.Lookup("pets"); c.Synonyms[0] != "pets" {
		t.Errorf("Categories exposed the taxonomy's own slices: synonym now %q", c.Synonyms[0])
	}
}

func TestTokenize(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []string
	}{
		"plurals":          {"Payments, Companies and Batteries", []string{"payment", "company", "battery"}},
		"stopwords":        {"AI for the radiology of it", []string{"ai", "radiology"}},
		"hyphen parts":     {"low-code cross-border", []string{"low", "code", "cross", "border"}},
		"one-letter parts": {"E-commerce for K-12", []string{"ecommerce", "k12"}},
		"possessive":       {"Women's health", []string{"women", "health"}},
		"not plurals":      {"news analysis business campus saas", []string{"news", "analysis", "business", "campus", "saas"}},
		"punctuation":      {"CI/CD; A/B testing!", []string{"ci", "cd", "testing"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tokens(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"fintech", "fintech", 2, 0},
		{"fintec", "fintech", 2, 1},
		{"paymnet", "payment", 2, 1},
		{"helthcare", "healthcare", 2, 1},
		{"robotic", "semantic", 2, 3},
		{"ab", "abcdef", 2, 3},
	}
	for _, tc := range tests {
		a, b := []rune(tc.a), []rune(tc.b)
		if got := editDistance(a, b, tc.max, make([]int, 3*(len(b)+1))); got != tc.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.max, got, tc.want)
		}
	}
}

func TestCategoryPathsUseSeparator(t *testing.T) {
	for _, c := range Default().Categories() {
		if strings.Contains(c.Name, ">") || strings.Contains(c.Name, ",") || strings.Contains(c.Name, "|") {
			t.Errorf("category name %q contains a reserved character", c.Name)
		}
	}
}
