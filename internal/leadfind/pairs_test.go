package leadfind

import (
	"maps"
	"slices"
	"testing"
)

// TestExtractWeighsPairs covers leads that no pattern reads whole: the pair model takes them from the words
// around the people and the company.
func TestExtractWeighsPairs(t *testing.T) {
	tests := map[string]struct {
		text string
		want []string // "person | company"
	}{
		"a partner named like a person, thanked with its co-founders": {
			text: "Northwind now syncs every payment to Lipa Ledger, the bookkeeping app. Thanks to Kwame Asante and Efua Boateng, Lipa Ledger's co-founders, for building the connector with us.",
			want: []string{"Kwame Asante | Lipa Ledger", "Efua Boateng | Lipa Ledger"},
		},
		"the people who built a partner's tool": {
			text: "Northwind is partnering with Dockr, the yard-booking tool Lina Haddad and Felix Wong built in Rotterdam.",
			want: []string{"Lina Haddad | Dockr", "Felix Wong | Dockr"},
		},
		"a heading run into its text": {
			text: "Northwind today announced a partnership with Floodline Labs.\n\nAbout Floodline Labs Floodline Labs builds flood models for insurers. Founded in 2021 by Eoin Gallagher and Meera Pillai, the company employs 28 people.",
			want: []string{"Eoin Gallagher | Floodline Labs", "Meera Pillai | Floodline Labs"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, c := range Extract("Northwind", nil, []Item{{Text: tc.text}}) {
				got = append(got, c.PersonName+" | "+c.CompanyName)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Extract(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestPairModelText checks that the model's text form reads back as written, and that a line out of form
// is refused with its number.
func TestPairModelText(t *testing.T) {
	want := &pairModel{
		weights: map[string]float64{"bias": -0.5, "rule": 1.25, "btw:founded": 0.75},
		tie:     map[string]float64{"bias": 2, "deal:partner": 1.5},
	}
	m, err := parsePairModel(formatPairModel(want, "test"))
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(m.weights, want.weights) || !maps.Equal(m.tie, want.tie) {
		t.Errorf("read back %v and %v, want %v and %v", m.weights, m.tie, want.weights, want.tie)
	}
	if _, err := parsePairModel("# model\nbias\t-0.5\nrule 1.25\n"); err == nil || err.Error() != "pair model line 3: want a feature, a tab and a weight" {
		t.Errorf("parsePairModel of a line without a tab: %v", err)
	}
}

// TestDeniesDeal reads the sentences that deny a deal, which the pair model weighs against a tie.
func TestDeniesDeal(t *testing.T) {
	m := newMatcher("Harlow Robotics", nil)
	for text, want := range map[string]bool{
		"Harlow Robotics has denied a report that it agreed to acquire Pennant AI.": true,
		"Harlow Robotics: no partnership with Kitsune AI.":                          true,
		"We are not in talks to buy it, Harlow Robotics said.":                      true,
		"Pennant AI has nothing to do with Harlow Robotics.":                        true,
		"Harlow Robotics has acquired Pennant AI, founded by Gabriel Silva.":        false,
		"Harlow Robotics said it has no plans to lay off staff after the purchase.": true,
		"Harlow Robotics signed an agreement with Pennant AI.":                      false,
	} {
		if got := m.prepare(text).deniesDeal(); got != want {
			t.Errorf("deniesDeal(%q) = %v, want %v", text, got, want)
		}
	}
}
