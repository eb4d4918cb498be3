package analysis

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"radar"
)

func analyse(t *testing.T, in Input) Result {
	t.Helper()
	res, err := Builtin().Analyse(context.Background(), in)
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if len(res.Evaluations) != len(in.Policy.Rules) {
		t.Fatalf("got %d evaluations for %d rules", len(res.Evaluations), len(in.Policy.Rules))
	}
	for i, e := range res.Evaluations {
		if e.RuleID != in.Policy.Rules[i].ID || e.Sentence != in.Policy.Rules[i].Sentence {
			t.Errorf("evaluation %d is %s %q, want %s %q", i, e.RuleID, e.Sentence, in.Policy.Rules[i].ID, in.Policy.Rules[i].Sentence)
		}
		if e.Reason == "" || e.Evidence == nil {
			t.Errorf("evaluation %s has reason %q and evidence %v, want both set", e.RuleID, e.Reason, e.Evidence)
		}
	}
	if res.Analyser != "builtin" || res.Summary == "" || res.Analysis == "" {
		t.Errorf("analyser %q, summary %q, analysis %q: want builtin and both texts", res.Analyser, res.Summary, res.Analysis)
	}
	return res
}

func news(url, title string) Item {
	return Item{Source: "news", URL: url, Title: title}
}

func TestAnalyseNoItems(t *testing.T) {
	res := analyse(t, Input{
		CompanyName: "Northwind", Founders: []string{"Jane Doe"},
		Policy: Compile("Tell me when they raise more than $10M\nany founder leaving"),
	})
	if res.Type != radar.TypeNoChange || res.Severity != SeverityLow || res.Recommendation != RecommendNoAction || res.NeedsAttention {
		t.Errorf("got %s/%s/%s attention=%v, want no_change/low/no_action attention=false",
			res.Type, res.Severity, res.Recommendation, res.NeedsAttention)
	}
	for _, e := range res.Evaluations {
		if e.Matched || e.Reason != "no new items this run" || len(e.Evidence) != 0 {
			t.Errorf("evaluation %+v, want unmatched with reason %q", e, "no new items this run")
		}
	}
}

func TestAnalyseRuleEvaluations(t *testing.T) {
	policy := Compile(`Tell me when they raise more than $10M
layoffs or office closures
mentions of SOC 2
if Jane Doe leaves`)
	tests := []struct {
		name    string
		items   []Item
		matched []bool
		reasons []string // substrings expected in each rule's reason, "" to skip
		typ     string
		sev     string
		rec     string
	}{
		{
			name:    "big round matches threshold",
			items:   []Item{news("https://news.example/1", "Northwind raises $12M Series A led by Acme Ventures")},
			matched: []bool{true, false, false, false},
			reasons: []string{"matched funding: 'Northwind raises $12M Series A led by Acme Ventures' ($12.0M >= $10.0M)", "no new item about layoffs or closures", `no new item about "SOC 2"`, "no new item about Jane Doe leaving"},
			typ:     radar.TypeFunding, sev: SeverityHigh, rec: RecommendReachOut,
		},
		{
			name:    "threshold blocks a small round",
			items:   []Item{news("https://news.example/2", "Northwind raises $2M seed round")},
			matched: []bool{false, false, false, false},
			reasons: []string{"$2.0M, below $10.0M", "", "", ""},
			typ:     radar.TypeFunding, sev: SeverityMedium, rec: RecommendReview,
		},
		{
			name:    "round without amount cannot pass a threshold",
			items:   []Item{news("https://news.example/3", "Northwind closes seed round")},
			matched: []bool{false, false, false, false},
			reasons: []string{"states no amount", "", "", ""},
			typ:     radar.TypeFunding, sev: SeverityMedium, rec: RecommendReview,
		},
		{
			name:    "denial never matches",
			items:   []Item{news("https://news.example/4", "Northwind denies rumours of layoffs and office closures")},
			matched: []bool{false, false, false, false},
			reasons: []string{"", "is a denial, not counted", "", ""},
			typ:     radar.TypeOther, sev: SeverityLow, rec: RecommendMonitor,
		},
		{
			name: "keyword and person rules",
			items: []Item{
				{Source: "website", URL: "https://northwind.example/security", Title: "Security", Text: "Northwind is now SOC 2 Type II certified."},
				news("https://news.example/5", "Northwind co-founder Jane Doe steps down"),
			},
			matched: []bool{false, false, true, true},
			reasons: []string{"", "", `matched "SOC 2": 'Security'`, "matched founder departure: 'Northwind co-founder Jane Doe steps down' (mentions Jane Doe)"},
			typ:     radar.TypeFounderDeparture, sev: SeverityHigh, rec: RecommendReachOut,
		},
		{
			name:    "person rule ignores other founders",
			items:   []Item{news("https://news.example/6", "Northwind co-founder Raj Patel steps down")},
			matched: []bool{false, false, false, false},
			typ:     radar.TypeFounderDeparture, sev: SeverityHigh, rec: RecommendReachOut,
		},
		{
			name:    "office closure matches contraction rule",
			items:   []Item{news("https://news.example/7", "Northwind closes its Berlin office"), news("https://news.example/8", "Northwind wins design award")},
			matched: []bool{false, true, false, false},
			reasons: []string{"", "matched contraction: 'Northwind closes its Berlin office'", "", ""},
			typ:     radar.TypeContraction, sev: SeverityMedium, rec: RecommendReview,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyse(t, Input{CompanyName: "Northwind", Founders: []string{"Jane Doe", "Raj Patel"}, Items: tt.items, Policy: policy})
			anyMatch := false
			for i, e := range res.Evaluations {
				if e.Matched != tt.matched[i] {
					t.Errorf("%s matched = %v, want %v (reason %q)", e.RuleID, e.Matched, tt.matched[i], e.Reason)
				}
				if tt.reasons != nil && !strings.Contains(e.Reason, tt.reasons[i]) {
					t.Errorf("%s reason = %q, want it to contain %q", e.RuleID, e.Reason, tt.reasons[i])
				}
				if e.Matched {
					anyMatch = true
					if len(e.Evidence) == 0 {
						t.Errorf("%s matched without evidence", e.RuleID)
					}
				} else if len(e.Evidence) != 0 {
					t.Errorf("%s unmatched with evidence %v", e.RuleID, e.Evidence)
				}
			}
			if res.Type != tt.typ || res.Severity != tt.sev || res.Recommendation != tt.rec {
				t.Errorf("signal = %s/%s/%s, want %s/%s/%s", res.Type, res.Severity, res.Recommendation, tt.typ, tt.sev, tt.rec)
			}
			wantAttention := anyMatch || SeverityRank(tt.sev) >= SeverityRank(SeverityHigh)
			if res.NeedsAttention != wantAttention {
				t.Errorf("needsAttention = %v, want %v", res.NeedsAttention, wantAttention)
			}
		})
	}
}

func TestAnalyseEvidenceListsEveryMatchingItem(t *testing.T) {
	res := analyse(t, Input{
		CompanyName: "Northwind",
		Items: []Item{
			news("https://a.example/1", "Northwind launches Dispatch"),
			news("https://a.example/2", "Northwind unveils carbon tracking"),
			news("https://a.example/3", "Northwind opens office in Lisbon"),
		},
		Policy: Compile("new product launches"),
	})
	e := res.Evaluations[0]
	if !e.Matched || strings.Join(e.Evidence, " ") != "https://a.example/1 https://a.example/2" {
		t.Errorf("evaluation = %+v, want matched with the two launch URLs", e)
	}
	if !strings.Contains(e.Reason, "and 1 more") {
		t.Errorf("reason = %q, want it to mention the second match", e.Reason)
	}
}

func TestAnalysePicksMostSignificantFinding(t *testing.T) {
	res := analyse(t, Input{
		CompanyName: "Northwind", Founders: []string{"Jane Doe"},
		Items: []Item{
			{Source: "website", URL: "https://northwind.example/", Title: "Home", Text: "Freight, simplified."},
			news("https://n.example/1", "Northwind launches route optimiser"),
			news("https://n.example/2", "Flexport acquires Northwind"),
			news("https://n.example/3", "Northwind denies rumours of layoffs"),
		},
	})
	if res.Type != radar.TypeAcquisition || res.Severity != SeverityCritical || res.Recommendation != RecommendReachOut || !res.NeedsAttention {
		t.Errorf("signal = %s/%s/%s attention=%v, want acquisition/critical/reach_out attention=true",
			res.Type, res.Severity, res.Recommendation, res.NeedsAttention)
	}
	if !strings.Contains(res.Summary, "Flexport acquires Northwind") {
		t.Errorf("summary %q does not name the acquisition", res.Summary)
	}
	for _, want := range []string{"Most significant: acquisition", "Not counted, because the item denies the event", "Northwind denies rumours of layoffs"} {
		if !strings.Contains(res.Analysis, want) {
			t.Errorf("analysis lacks %q:\n%s", want, res.Analysis)
		}
	}
}

func TestAnalyseMentionsSourceProblems(t *testing.T) {
	res := analyse(t, Input{
		CompanyName:    "Northwind",
		Items:          []Item{{Source: "website", Kind: ItemChange, URL: "https://northwind.example/about", Title: "Website change on /about", Text: "Added: We now have 40 people."}},
		SourceProblems: []string{"news: failing for 3 runs: timeout"},
	})
	if !strings.Contains(res.Analysis, "news: failing for 3 runs: timeout") {
		t.Errorf("analysis does not mention the source problem:\n%s", res.Analysis)
	}
	if res.Type != radar.TypeWebsiteChange || res.Recommendation != RecommendMonitor || res.NeedsAttention {
		t.Errorf("signal = %s/%s attention=%v, want website_change/monitor attention=false", res.Type, res.Recommendation, res.NeedsAttention)
	}
}

func TestAnalyseHonoursCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Builtin().Analyse(ctx, Input{CompanyName: "Northwind"}); err == nil {
		t.Error("Analyse with a cancelled context succeeded, want an error")
	}
}

func BenchmarkAnalyse(b *testing.B) {
	titles := []string{
		"Northwind raises $12M Series A led by Acme Ventures",
		"Northwind launches Dispatch, an AI co-pilot for freight brokers",
		"Northwind co-founder Jane Doe steps down as CEO",
		"Northwind denies rumours of layoffs",
		"Northwind opens office in Singapore",
		"Northwind partners with Maersk to digitise ocean freight",
		"Northwind named to Forbes AI 50 list",
		"Podcast: how Northwind thinks about pricing",
		"Northwind to hire 50 engineers in Lisbon",
		"Flexport acquires Parcelly",
	}
	items := make([]Item, 0, 20)
	for i := range 20 {
		items = append(items, Item{
			Source: "news", URL: fmt.Sprintf("https://news.example/%d", i), Title: titles[i%len(titles)],
			Text: "SAN FRANCISCO, March 3, 2026 — Northwind, the AI logistics company, today shared an update with customers and partners. The company serves more than 400 shippers across Europe and North America.",
		})
	}
	in := Input{
		CompanyName: "Northwind", Founders: []string{"Jane Doe", "Raj Patel"}, Items: items,
		Policy: Compile("Tell me when they raise more than $10M\nany founder leaving\nnew product launches\nlayoffs or office closures\nmentions of SOC 2"),
	}
	ctx := context.Background()
	a := Builtin()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Analyse(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAnalysePageChanges(t *testing.T) {
	cosmetic := Item{Source: "website", Kind: ItemChange, URL: "https://northwind.example/", Title: "Website change on the home page",
		Text: "Added: © 2027 Northwind Ltd; Trusted by 1,200 shippers\nRemoved: © 2026 Northwind Ltd; Trusted by 1,100 shippers"}
	pricing := Item{Source: "website", Kind: ItemChange, URL: "https://northwind.example/pricing", Title: "Website change on /pricing",
		Text: "Added: Team plan: $59 per seat per month\nRemoved: Team plan: $49 per seat per month"}
	news := Item{Source: "website", Kind: ItemChange, URL: "https://northwind.example/press", Title: "Website change on /press",
		Text: "Added: Northwind raises $12M Series A led by Acme Ventures to expand across Europe"}
	article := Item{Source: "website", Kind: ItemArticle, URL: "https://northwind.example/blog/pricing", Title: "How we think about pricing",
		Text: "Pricing is a product decision as much as a commercial one."}
	tests := []struct {
		name  string
		items []Item
		typ   string
		sev   string
	}{
		{"only cosmetic changes are quiet", []Item{cosmetic}, radar.TypeNoChange, SeverityLow},
		{"a changed price is a website change", []Item{cosmetic, pricing}, radar.TypeWebsiteChange, SeverityLow},
		{"a page diff announcing news is typed by it", []Item{pricing, news}, radar.TypeFunding, SeverityHigh},
		{"an article without news is other, never a website change", []Item{article}, radar.TypeOther, SeverityLow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyse(t, Input{CompanyName: "Northwind", Items: tt.items, Policy: Compile("pricing changes")})
			if res.Type != tt.typ || res.Severity != tt.sev {
				t.Errorf("got %s/%s, want %s/%s\n%s", res.Type, res.Severity, tt.typ, tt.sev, res.Analysis)
			}
		})
	}
}

func TestAnalyseExplainsDecision(t *testing.T) {
	res := analyse(t, Input{CompanyName: "Lumenfold", Items: []Item{
		news("https://news.example/lumenfold", "Lumenfold raises $45M Series B and acquires Tiltmap to expand into Germany"),
	}})
	if res.Type != radar.TypeAcquisition {
		t.Errorf("type %s, want acquisition: the most significant of the item's events", res.Type)
	}
	for _, want := range []string{"Decided by: the phrase", "The item also reports: funding"} {
		if !strings.Contains(res.Analysis, want) {
			t.Errorf("analysis lacks %q:\n%s", want, res.Analysis)
		}
	}
}
