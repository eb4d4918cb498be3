package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"radar"
)

// classifyCase is one labelled item. usd is the expected amount in dollars (0: none stated or not checked);
// negated marks a denial, which counts as no event of its type.
type classifyCase struct {
	name    string
	source  string
	kind    string // ItemChange for a page diff
	title   string
	text    string
	typ     string
	usd     float64
	negated bool
}

var classifyCases = []classifyCase{
	// Funding, phrased many ways and in several currencies.
	{name: "series a dollars", source: "news", title: "Northwind raises $12M Series A led by Acme Ventures", typ: radar.TypeFunding, usd: 12e6},
	{name: "million spelled out", source: "news", title: "Northwind secures $12 million to scale its logistics platform", typ: radar.TypeFunding, usd: 12e6},
	{name: "euro m", source: "news", title: "Berlin-based Northwind lands €3.5m seed round", typ: radar.TypeFunding, usd: 3.78e6},
	{name: "pound k", source: "news", title: "Northwind bags £800k pre-seed from angel investors", typ: radar.TypeFunding, usd: 1.016e6},
	{name: "usd bn", source: "news", title: "Northwind closes USD 2bn growth round as AI demand soars", typ: radar.TypeFunding, usd: 2e9},
	{name: "bare billion", source: "news", title: "Northwind raises 1.2B in its largest round yet", typ: radar.TypeFunding, usd: 1.2e9},
	{name: "press release paragraph", source: "website", title: "Press",
		text: "SAN FRANCISCO, March 3, 2026 — Northwind, the AI logistics company, today announced it has raised $40 million in Series B funding led by Index Ventures, with participation from existing investors.",
		typ:  radar.TypeFunding, usd: 40e6},
	{name: "we have raised blog", source: "feed", title: "Our next chapter",
		text: "We're thrilled to share that we have raised a €20M Series A to bring Northwind to every warehouse in Europe.",
		typ:  radar.TypeFunding, usd: 21.6e6},
	{name: "investment from", source: "news", title: "Northwind receives strategic investment from Maersk Growth", typ: radar.TypeFunding},
	{name: "funding round no amount", source: "news", title: "Northwind completes seed funding round with backing from Y Combinator", typ: radar.TypeFunding},
	{name: "valuation not the amount", source: "news", title: "Northwind raises $50M at a $1.2B valuation", typ: radar.TypeFunding, usd: 50e6},
	{name: "euros suffix", source: "news", title: "Northwind raises 5 million euros from Earlybird and Cherry Ventures", typ: radar.TypeFunding, usd: 5.4e6},
	{name: "pulls in", source: "news", title: "Logistics startup Northwind pulls in $7.5M to automate freight booking", typ: radar.TypeFunding, usd: 7.5e6},
	{name: "investors back", source: "news", title: "Sequoia leads $25M round in Northwind", typ: radar.TypeFunding, usd: 25e6},
	{name: "gbp million", source: "news", title: "Northwind snags £2.5 million in seed funding to expand its London team", typ: radar.TypeFunding, usd: 3.175e6},
	{name: "thousands separator", source: "website", title: "News", text: "Northwind has closed a $750,000 pre-seed round from angels.", typ: radar.TypeFunding, usd: 750e3},

	// Acquisitions and exits.
	{name: "acquired by", source: "news", title: "Northwind acquired by Flexport in $300M deal", typ: radar.TypeAcquisition, usd: 300e6},
	{name: "acquires target", source: "news", title: "Flexport acquires Northwind to bolster AI freight tools", typ: radar.TypeAcquisition},
	{name: "company acquires", source: "news", title: "Northwind acquires data startup Parcelly", typ: radar.TypeAcquisition},
	{name: "merger", source: "news", title: "Northwind merges with rival ShipFast to create European leader", typ: radar.TypeAcquisition},
	{name: "ipo", source: "news", title: "Northwind files confidentially for IPO", typ: radar.TypeAcquisition},
	{name: "agreed to be acquired paragraph", source: "website", title: "Blog",
		text: "Today we are announcing that Northwind has agreed to be acquired by DHL. The team will continue to build the product.",
		typ:  radar.TypeAcquisition},
	{name: "buys for euros", source: "news", title: "DHL buys Northwind for €120 million", typ: radar.TypeAcquisition, usd: 129.6e6},

	// Executives and founders.
	{name: "appoints cfo", source: "news", title: "Northwind appoints former Stripe executive Maria Lopez as CFO", typ: radar.TypeExecutiveChange},
	{name: "names cto", source: "news", title: "Northwind names Ben Carter chief technology officer", typ: radar.TypeExecutiveChange},
	{name: "ceo steps down not founder", source: "news", title: "Northwind CEO Tom Miller steps down after three years", typ: radar.TypeExecutiveChange},
	{name: "hires vp sales", source: "website", title: "Team", text: "We are delighted to welcome Sarah Kim, who joins Northwind as VP of Sales.", typ: radar.TypeExecutiveChange},
	{name: "founder steps down", source: "news", title: "Northwind co-founder Jane Doe steps down as CEO", typ: radar.TypeFounderDeparture},
	{name: "founder by name leaves", source: "news", title: "Raj Patel leaves Northwind", typ: radar.TypeFounderDeparture},
	{name: "founder departure paragraph", source: "feed", title: "A note from Jane",
		text: "After seven wonderful years, I have decided to leave Northwind. Building this company with Raj has been the privilege of my life.",
		typ:  radar.TypeFounderDeparture},
	{name: "departure of founder", source: "news", title: "Departure of Northwind founder rattles investors", typ: radar.TypeFounderDeparture},

	// New ventures.
	{name: "founder launches startup", source: "news", title: "Northwind co-founder Jane Doe launches new AI startup in stealth", typ: radar.TypeNewVenture},
	{name: "former founder new company", source: "news", title: "Former Northwind founder Raj Patel starts a climate company", typ: radar.TypeNewVenture},
	{name: "leaves to start", source: "news", title: "Jane Doe leaves Northwind to found a new venture", typ: radar.TypeNewVenture},

	// Team size.
	{name: "hiring 50 engineers", source: "news", title: "Northwind to hire 50 engineers in Lisbon", typ: radar.TypeTeamGrowth},
	{name: "doubles headcount", source: "news", title: "Northwind doubles headcount after record year", typ: radar.TypeTeamGrowth},
	{name: "we're hiring", source: "website", title: "Careers", text: "We’re hiring! Northwind has 12 open roles across engineering and sales.", typ: radar.TypeTeamGrowth},

	// Contraction.
	{name: "layoffs", source: "news", title: "Northwind announces layoffs amid slowing demand", typ: radar.TypeContraction},
	{name: "cuts percent", source: "news", title: "Northwind cuts 20% of staff in restructuring", typ: radar.TypeContraction},
	{name: "shuts down", source: "news", title: "Northwind shuts down after failing to raise new funding", typ: radar.TypeContraction},
	{name: "closes office", source: "news", title: "Northwind closes its Berlin office", typ: radar.TypeContraction},
	{name: "lays off", source: "news", title: "Northwind lays off 40 employees", typ: radar.TypeContraction},

	// Products.
	{name: "launches product", source: "news", title: "Northwind launches Dispatch, an AI co-pilot for freight brokers", typ: radar.TypeProductLaunch},
	{name: "unveils", source: "news", title: "Northwind unveils real-time carbon tracking for shipments", typ: radar.TypeProductLaunch},
	{name: "general availability", source: "feed", title: "Northwind Route Planner is now generally available", typ: radar.TypeProductLaunch},
	{name: "beta", source: "website", title: "Product", text: "Northwind Insights is now in public beta for all customers.", typ: radar.TypeProductLaunch},
	{name: "introduces", source: "news", title: "Northwind introduces pay-as-you-go pricing for small carriers", typ: radar.TypeProductLaunch},

	// Partnerships.
	{name: "partners with", source: "news", title: "Northwind partners with Maersk to digitise ocean freight", typ: radar.TypePartnership},
	{name: "teams up", source: "news", title: "Northwind teams up with SAP on supply chain integration", typ: radar.TypePartnership},
	{name: "integration", source: "feed", title: "New: Northwind integration with Shopify", typ: radar.TypePartnership},

	// Expansion.
	{name: "expands to", source: "news", title: "Northwind expands to the US with New York office", typ: radar.TypeExpansion},
	{name: "opens office", source: "news", title: "Northwind opens office in Singapore", typ: radar.TypeExpansion},
	{name: "enters market", source: "news", title: "Northwind enters the Japanese market", typ: radar.TypeExpansion},

	// Legal.
	{name: "sued", source: "news", title: "Northwind sued by former customer over data loss", typ: radar.TypeLegal},
	{name: "regulator fine", source: "news", title: "Dutch regulator fines Northwind €2m over GDPR breach", typ: radar.TypeLegal},
	{name: "settlement", source: "news", title: "Northwind reaches settlement in patent dispute", typ: radar.TypeLegal},

	// Recognition.
	{name: "wins award", source: "news", title: "Northwind wins Logistics Innovation Award 2026", typ: radar.TypeRecognition},
	{name: "named to list", source: "news", title: "Northwind named to Forbes AI 50 list", typ: radar.TypeRecognition},

	// Open source.
	{name: "github release", source: "github", title: "northwind/route-sdk released v2.3.0", typ: radar.TypeOpenSource},
	{name: "github new repo", source: "github", title: "New repository northwind/fastqueue", typ: radar.TypeOpenSource},
	{name: "open sources", source: "news", title: "Northwind open-sources its routing engine", typ: radar.TypeOpenSource},

	// Website changes and other news.
	{name: "website diff", source: "website", kind: ItemChange, title: "Website change on /about", text: "Added: Our mission is to make freight simple for every shipper.", typ: radar.TypeWebsiteChange},
	{name: "article without event", source: "website", title: "About us", text: "Our mission is to make freight simple for every shipper.", typ: radar.TypeOther},
	{name: "news in a page diff", source: "website", kind: ItemChange, title: "Website change on the home page", text: "Added: Northwind raises $12M Series A to bring freight booking to Europe; Trusted by 1,200 shippers\nRemoved: Trusted by 1,100 shippers", typ: radar.TypeFunding, usd: 12e6},
	{name: "cosmetic page diff", source: "website", kind: ItemChange, title: "Website change on the home page", text: "Added: © 2027 Northwind Ltd. All rights reserved.; Trusted by 1,200 shippers\nRemoved: © 2026 Northwind Ltd. All rights reserved.; Trusted by 1,100 shippers", typ: radar.TypeNoChange},
	{name: "other news", source: "news", title: "Northwind CEO shares thoughts on the future of freight", typ: radar.TypeOther},
	{name: "podcast", source: "news", title: "Podcast: how Northwind thinks about pricing", typ: radar.TypeOther},

	// Denials and non-events.
	{name: "denies layoffs", source: "news", title: "Northwind denies rumours of layoffs", typ: radar.TypeContraction, negated: true},
	{name: "no plans to raise", source: "news", title: "CEO says company has no plans to raise", typ: radar.TypeFunding, negated: true},
	{name: "not for sale", source: "news", title: "Northwind founder: the company is not for sale", typ: radar.TypeAcquisition, negated: true},
	{name: "rules out ipo", source: "news", title: "Northwind rules out IPO this year", typ: radar.TypeAcquisition, negated: true},
	{name: "dismisses acquisition reports", source: "news", title: "Northwind dismisses reports of acquisition talks with Amazon", typ: radar.TypeAcquisition, negated: true},
	{name: "founder not leaving", source: "news", title: "Jane Doe is not leaving Northwind, spokesperson says", typ: radar.TypeFounderDeparture, negated: true},

	// More phrasings.
	{name: "announces funding paragraph", source: "website", title: "Newsroom", text: "Northwind Technologies Inc. announced on Tuesday a $15 million Series A financing round co-led by Balderton Capital and Seedcamp.", typ: radar.TypeFunding, usd: 15e6},
	{name: "raises in euros word", source: "news", title: "Paris startup Northwind raises EUR 8 million to tackle empty truck miles", typ: radar.TypeFunding, usd: 8.64e6},
	{name: "nets funding", source: "news", title: "Northwind nets $3M to build freight marketplace", typ: radar.TypeFunding, usd: 3e6},
	{name: "series c no amount", source: "news", title: "Northwind closes Series C as revenue triples", typ: radar.TypeFunding},
	{name: "funding with hiring plans", source: "news", title: "Northwind raises $30M and plans to double its engineering team", typ: radar.TypeFunding, usd: 30e6},
	{name: "in talks to raise", source: "news", title: "Northwind in talks to raise $100M, sources say", typ: radar.TypeFunding, usd: 100e6},
	{name: "chief executive resigns", source: "news", title: "Northwind chief executive resigns amid board dispute", typ: radar.TypeExecutiveChange},
	{name: "founder steps back", source: "feed", title: "Leadership update", text: "Raj Patel, co-founder and CTO, will step back from day-to-day operations at the end of the quarter.", typ: radar.TypeFounderDeparture},
	{name: "founder exits to new fund", source: "news", title: "Northwind's Jane Doe departs to launch her own venture fund", typ: radar.TypeNewVenture},
	{name: "ex cto stealth", source: "news", title: "Ex-Northwind CTO emerges from stealth with $4M for developer tools startup", typ: radar.TypeNewVenture},
	{name: "acquisition completed", source: "feed", title: "Northwind completes acquisition of Routeco", typ: radar.TypeAcquisition},
	{name: "goes public", source: "news", title: "Northwind goes public on Nasdaq, valued at $4.1B", typ: radar.TypeAcquisition},
	{name: "restructuring redundancies", source: "news", title: "Northwind to make 60 redundancies in UK restructuring", typ: radar.TypeContraction},
	{name: "insolvency", source: "news", title: "Northwind files for insolvency in Germany", typ: radar.TypeContraction},
	{name: "rolls out", source: "news", title: "Northwind rolls out AI dispatcher to all customers", typ: radar.TypeProductLaunch},
	{name: "release notes", source: "feed", title: "Northwind 4.0 released with offline mode", typ: radar.TypeProductLaunch},
	{name: "signs deal", source: "news", title: "Northwind signs multi-year deal with Tesco", typ: radar.TypePartnership},
	{name: "launches in country", source: "news", title: "Northwind launches in Brazil", typ: radar.TypeExpansion},
	{name: "investigation", source: "news", title: "FTC opens investigation into Northwind pricing practices", typ: radar.TypeLegal},
	{name: "class action", source: "news", title: "Drivers file class action against Northwind", typ: radar.TypeLegal},
	{name: "ranked fastest growing", source: "news", title: "Northwind ranked among Europe's fastest-growing startups by the FT", typ: radar.TypeRecognition},
	{name: "github stars", source: "github", title: "northwind/fastqueue passed 10,000 stars", typ: radar.TypeOpenSource},
	{name: "blog post", source: "feed", title: "Five lessons from scaling our data pipeline", typ: radar.TypeOther},
	{name: "website pricing change", source: "website", kind: ItemChange, title: "Website change on /pricing", text: "Added: Team plan: $49 per seat per month, billed annually.\nRemoved: Team plan: $39 per seat per month", typ: radar.TypeWebsiteChange},
	{name: "refutes founder exit", source: "news", title: "Northwind refutes claims that founder Raj Patel is leaving", typ: radar.TypeFounderDeparture, negated: true},
	{name: "no layoffs planned", source: "news", title: "Northwind CEO: layoffs are not planned despite the downturn", typ: radar.TypeContraction, negated: true},
	{name: "never sell", source: "news", title: "Jane Doe says Northwind will never sell to a competitor", typ: radar.TypeAcquisition, negated: true},
	{name: "funding paragraph third person", source: "news", title: "Freight tech roundup",
		text: "Northwind, which helps mid-sized shippers book trucks, said on Monday it had raised $18 million from Lightspeed and General Catalyst.", typ: radar.TypeFunding, usd: 18e6},
	{name: "seed extension", source: "news", title: "Northwind adds £1.2m to its seed round", typ: radar.TypeFunding, usd: 1.524e6},
	{name: "acquisition by private equity", source: "news", title: "Private equity firm Vista to take Northwind private in $900 million deal", typ: radar.TypeAcquisition, usd: 900e6},
	{name: "coo joins", source: "feed", title: "Welcoming our new COO", text: "Priya Shah joins Northwind as Chief Operating Officer after a decade at Amazon.", typ: radar.TypeExecutiveChange},
	{name: "founder hands over ceo role", source: "news", title: "Jane Doe hands over CEO role at Northwind to Tom Miller", typ: radar.TypeFounderDeparture},
	{name: "founder new fund", source: "news", title: "Northwind co-founder Raj Patel launches $50M climate fund", typ: radar.TypeNewVenture},
	{name: "job cuts paragraph", source: "news", title: "Freight slump hits startups", text: "Northwind said it would cut 120 jobs, about a third of its workforce, as freight volumes fall.", typ: radar.TypeContraction},
	{name: "headcount growth", source: "website", title: "About", text: "Our team has grown to 200 people across four offices.", typ: radar.TypeTeamGrowth},
	{name: "new feature announcement", source: "feed", title: "Introducing Live ETAs", text: "Today we're introducing Live ETAs, which predict arrival times to the minute.", typ: radar.TypeProductLaunch},
	{name: "strategic partnership", source: "news", title: "Northwind and Siemens announce strategic partnership on rail freight", typ: radar.TypePartnership},
	{name: "new hq", source: "news", title: "Northwind moves headquarters to Amsterdam", typ: radar.TypeExpansion},
	{name: "patent suit", source: "news", title: "Rival files patent suit against Northwind", typ: radar.TypeLegal},
	{name: "top startups list", source: "news", title: "Northwind makes LinkedIn Top Startups list for second year", typ: radar.TypeRecognition},
	{name: "conference talk", source: "news", title: "Watch: Northwind CTO on scaling Postgres at FOSDEM", typ: radar.TypeOther},
	{name: "layoff rumours unconfirmed", source: "news", title: "Northwind reportedly planning layoffs", typ: radar.TypeContraction},
	{name: "no acquisition talks", source: "news", title: "Northwind says it is not in acquisition talks", typ: radar.TypeAcquisition, negated: true},
}

// label is how a case counts for precision and recall: a denial counts as no event.
func label(typ string, negated bool) string {
	if negated {
		return "(denied)"
	}
	return typ
}

func TestClassifyAccuracy(t *testing.T) {
	const floor = 0.95
	founders := []string{"Jane Doe", "Raj Patel"}
	tp, fp, fn := map[string]int{}, map[string]int{}, map[string]int{}
	correct := 0
	for _, c := range classifyCases {
		f := Classify(Item{Source: c.source, Kind: c.kind, URL: "https://example.com/" + c.name, Title: c.title, Text: c.text}, "Northwind", founders)
		got, want := label(f.Type, f.Negated), label(c.typ, c.negated)
		ok := got == want && (!c.negated || f.Type == c.typ)
		if ok && c.usd > 0 {
			ok = f.Money != nil && math.Abs(f.Money.USD-c.usd) <= 0.01*c.usd
		}
		if ok {
			correct++
			tp[want]++
		} else {
			fp[got]++
			fn[want]++
			t.Logf("miss %q: got %s (negated %v, money %+v, score %.2f), want %s (negated %v, usd %.0f)",
				c.name, f.Type, f.Negated, f.Money, f.Score, c.typ, c.negated, c.usd)
		}
	}
	labels := map[string]bool{}
	for _, m := range []map[string]int{tp, fp, fn} {
		for l := range m {
			labels[l] = true
		}
	}
	names := make([]string, 0, len(labels))
	for l := range labels {
		names = append(names, l)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s %9s %6s %4s\n", "type", "precision", "recall", "n")
	for _, l := range names {
		p, r := ratio(tp[l], tp[l]+fp[l]), ratio(tp[l], tp[l]+fn[l])
		fmt.Fprintf(&b, "%-18s %9.2f %6.2f %4d\n", l, p, r, tp[l]+fn[l])
	}
	acc := float64(correct) / float64(len(classifyCases))
	fmt.Fprintf(&b, "accuracy %.3f over %d items", acc, len(classifyCases))
	t.Log("\n" + b.String())
	if acc < floor {
		t.Errorf("accuracy %.3f, want at least %.2f", acc, floor)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func TestFindMoney(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		amount   float64
		currency string
		usd      float64
	}{
		{"dollar M", "raises $12M", 12e6, "USD", 12e6},
		{"dollar million", "raises $12 million", 12e6, "USD", 12e6},
		{"euro m decimal", "lands €3.5m", 3.5e6, "EUR", 3.78e6},
		{"pound k", "bags £800k", 800e3, "GBP", 1.016e6},
		{"usd code bn", "closes USD 2bn", 2e9, "USD", 2e9},
		{"bare B", "raises 1.2B", 1.2e9, "USD", 1.2e9},
		{"thousands separator", "a $750,000 round", 750e3, "USD", 750e3},
		{"decimal comma", "sammelt 3,5 Mio ein: €3,5m", 3.5e6, "EUR", 3.78e6},
		{"euros word", "5 million euros", 5e6, "EUR", 5.4e6},
		{"eur code", "EUR 8 million", 8e6, "EUR", 8.64e6},
		{"us dollar sign", "US$30m", 30e6, "USD", 30e6},
		{"gbp suffix", "2.5m GBP", 2.5e6, "GBP", 3.175e6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := dealMoney(normalise(tt.text))
			if m == nil {
				t.Fatalf("dealMoney(%q) = nil, want %.0f %s", tt.text, tt.amount, tt.currency)
			}
			if math.Abs(m.Amount-tt.amount) > 1 || m.Currency != tt.currency || math.Abs(m.USD-tt.usd) > 1 {
				t.Errorf("dealMoney(%q) = %+v, want amount %.0f %s (USD %.0f)", tt.text, *m, tt.amount, tt.currency, tt.usd)
			}
		})
	}
}

func TestDealMoneySkipsValuationAndCounts(t *testing.T) {
	tests := []struct {
		name string
		text string
		usd  float64 // 0: no deal amount
	}{
		{"valuation after round", "raises $50m at a $1.2b valuation", 50e6},
		{"valued at only", "now valued at $2b", 0},
		{"revenue", "passes $10m arr", 0},
		{"users", "reaches 2 million users", 0},
		{"tiny price", "plans from $49 per seat", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := dealMoney(normalise(tt.text))
			switch {
			case tt.usd == 0 && m != nil:
				t.Errorf("dealMoney(%q) = %+v, want none", tt.text, *m)
			case tt.usd > 0 && (m == nil || m.USD != tt.usd):
				t.Errorf("dealMoney(%q) = %+v, want USD %.0f", tt.text, m, tt.usd)
			}
		})
	}
}

func TestClassifyDenialsAndRumoursAreNeverSerious(t *testing.T) {
	tests := []struct {
		name  string
		title string
	}{
		{"denies layoffs", "Northwind denies rumours of layoffs"},
		{"no plans to raise", "CEO says company has no plans to raise"},
		{"not for sale", "Northwind is not for sale, says founder"},
		{"acquisition rumours", "Northwind rumoured to be an acquisition target for Amazon"},
		{"reportedly in talks", "BigCo reportedly in talks to acquire Northwind"},
		{"layoff reports false", "Northwind says reports of layoffs are false"},
		{"founder not leaving", "Jane Doe is not stepping down, Northwind says"},
		{"question headline", "Is Northwind about to be acquired?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Classify(Item{Source: "news", Title: tt.title}, "Northwind", []string{"Jane Doe"})
			if SeverityRank(f.Severity) > SeverityRank(SeverityMedium) {
				t.Errorf("severity = %s, want at most medium (type %s)", f.Severity, f.Type)
			}
			if !f.Negated && f.Score > 0.4 {
				t.Errorf("negated = false with score %.2f, want negated or a score of at most 0.4 (type %s)", f.Score, f.Type)
			}
		})
	}
}

func TestClassifySeverity(t *testing.T) {
	founders := []string{"Jane Doe"}
	tests := []struct {
		name   string
		source string
		title  string
		typ    string
		sev    string
	}{
		{"big round", "news", "Northwind raises $25M to expand", radar.TypeFunding, SeverityHigh},
		{"small seed", "news", "Northwind raises $2M seed round", radar.TypeFunding, SeverityMedium},
		{"series b without amount", "news", "Northwind closes Series B", radar.TypeFunding, SeverityHigh},
		{"company acquired", "news", "Northwind acquired by DHL", radar.TypeAcquisition, SeverityCritical},
		{"company buys another", "news", "Northwind acquires Parcelly", radar.TypeAcquisition, SeverityHigh},
		{"founder leaves", "news", "Jane Doe leaves Northwind", radar.TypeFounderDeparture, SeverityHigh},
		{"new ceo", "news", "Northwind appoints Tom Miller as CEO", radar.TypeExecutiveChange, SeverityHigh},
		{"new vp", "news", "Northwind appoints Tom Miller as VP of Marketing", radar.TypeExecutiveChange, SeverityMedium},
		{"layoffs", "news", "Northwind lays off 15% of staff", radar.TypeContraction, SeverityHigh},
		{"shutdown", "news", "Northwind shuts down", radar.TypeContraction, SeverityCritical},
		{"office closure", "news", "Northwind closes its Paris office", radar.TypeContraction, SeverityMedium},
		{"launch", "news", "Northwind launches fleet analytics", radar.TypeProductLaunch, SeverityMedium},
		{"lawsuit", "news", "Northwind sued by Uber over patents", radar.TypeLegal, SeverityHigh},
		{"award", "news", "Northwind wins Red Dot award", radar.TypeRecognition, SeverityLow},
		{"article without event", "website", "Home", radar.TypeOther, SeverityLow},
		{"third party without the company", "news", "Parcelly acquired by DHL", radar.TypeOther, SeverityLow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Classify(Item{Source: tt.source, Title: tt.title}, "Northwind", founders)
			if f.Type != tt.typ || f.Severity != tt.sev {
				t.Errorf("Classify(%q) = %s/%s, want %s/%s", tt.title, f.Type, f.Severity, tt.typ, tt.sev)
			}
		})
	}
}

func TestClassifyPeopleAndFounders(t *testing.T) {
	tests := []struct {
		name  string
		item  Item
		typ   string
		want  []string
		avoid []string
	}{
		{"appointed executive", Item{Source: "news", Title: "Northwind appoints former Stripe executive Maria Lopez as CFO"},
			radar.TypeExecutiveChange, []string{"Maria Lopez"}, nil},
		{"founder by surname", Item{Source: "feed", Title: "Leadership update", Text: "Doe will step down as CEO at the end of the year, the board said."},
			radar.TypeFounderDeparture, []string{"Jane Doe"}, nil},
		{"executive steps down", Item{Source: "news", Title: "Northwind CEO Tom Miller steps down"},
			radar.TypeExecutiveChange, nil, nil},
		{"organisation is no person", Item{Source: "news", Title: "Northwind receives strategic investment from Maersk Growth"},
			radar.TypeFunding, nil, []string{"Maersk Growth"}},
		{"left another company", Item{Source: "website", Title: "About", Text: "Jane Doe left Google in 2019 to start Northwind."},
			radar.TypeOther, []string{"Jane Doe"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Classify(tt.item, "Northwind", []string{"Jane Doe", "Raj Patel"})
			if f.Type != tt.typ {
				t.Errorf("type = %s, want %s", f.Type, tt.typ)
			}
			for _, p := range tt.want {
				if !slices.Contains(f.People, p) {
					t.Errorf("people = %v, want %q among them", f.People, p)
				}
			}
			for _, p := range tt.avoid {
				if slices.Contains(f.People, p) {
					t.Errorf("people = %v, want no %q", f.People, p)
				}
			}
		})
	}
}

func TestClassifyRound(t *testing.T) {
	tests := map[string]string{
		"Northwind raises $1M pre-seed":            "pre_seed",
		"Northwind raises $3M seed round":          "seed",
		"Northwind closes $20M Series A":           "series_a",
		"Northwind announces $80 million Series C": "series_c",
		"Northwind raises $5M":                     "",
	}
	for title, want := range tests {
		t.Run(title, func(t *testing.T) {
			f := Classify(Item{Source: "news", Title: title}, "Northwind", nil)
			if f.Type != radar.TypeFunding || f.Round != want {
				t.Errorf("Classify(%q) = %s round %q, want funding round %q", title, f.Type, f.Round, want)
			}
		})
	}
}

// TestClassifyMoneyThatIsNotARound checks that items whose money is someone else's round, revenue, a deal's
// value or a prize, or a round of the past, are not called funding, while the company's own round, and a
// grant it receives, still are.
func TestClassifyMoneyThatIsNotARound(t *testing.T) {
	founders := []string{"Jane Doe", "Raj Patel"}
	cases := []struct {
		name, title, text string
		notFunding        bool
		typ               string // "" when only "not funding" is checked
	}{
		{name: "customer's round", title: "Tidal Freight raises $32M Series B led by Index Ventures",
			text:       "Tidal Freight, which books trucks for grocery suppliers, has raised a $32 million Series B led by Index Ventures. The company has run its route planning on Northwind since 2023 and says the money will go on hiring engineers in Chicago and opening an office in Dallas next year.",
			notFunding: true, typ: radar.TypeOther},
		{name: "platform-powered start-up's round", title: "Northwind-powered booking app Haulio raises $6M",
			text:       "Haulio, which lets small hauliers take bookings from shippers in a few taps, has raised $6 million in a round led by Seedcamp. Haulio runs its pricing and dispatch on Northwind's APIs. It was founded last year in Rotterdam by two former freight brokers and has 20 staff.",
			notFunding: true, typ: radar.TypeOther},
		{name: "revenue milestone", title: "Northwind passes $20M in annual recurring revenue",
			text:       "Northwind, the freight software company, says it has passed $20 million in annual recurring revenue, up from $8 million a year ago. Co-founder Jane Doe said the company is profitable and has no plans to look for outside money this year. Most of the growth came from mid-sized shippers in the US.",
			notFunding: true},
		{name: "contract value", title: "Northwind lands €28m contract to run freight booking for Spanish rail",
			text:       "Northwind has won a €28 million contract from the Spanish rail operator to run freight booking across its network for five years. Deliveries of the first modules start in the second quarter, and chief executive Raj Patel called it the company's largest order to date.",
			notFunding: true, typ: radar.TypePartnership},
		{name: "past round in background", title: "How Northwind keeps its warehouse robots busy at night",
			text:       "Northwind, which raised €14m in a Series A last year, runs its Rotterdam warehouse around the clock with forty robots and six people on the night shift. Chief executive Raj Patel showed us around the floor. The robots charge in the quiet hour before dawn and the team plans the next day's picks while they do.",
			notFunding: true},
		{name: "own round", title: "Northwind raises $12M Series A to automate freight booking",
			text: "Northwind, the Rotterdam freight software company, has raised a $12 million Series A round led by Acme Ventures, with participation from existing investors. Chief executive Raj Patel said the money would go on hiring engineers and opening an office in Hamburg next year.",
			typ:  radar.TypeFunding},
		{name: "cash prize", title: "Northwind wins $1 million prize in the Clean Freight Challenge",
			text:       "Northwind has won the $1 million grand prize in the Clean Freight Challenge, beating 300 entrants with its route planner for electric trucks. The judges tested the finalists' software on a month of real orders from three grocery chains. Co-founder Jane Doe collected the award in Chicago on Thursday.",
			notFunding: true, typ: radar.TypeRecognition},
		{name: "government grant", title: "Northwind awarded €2.5m EU grant to cut empty freight miles",
			text: "Northwind has been awarded a €2.5 million grant from the European Commission to build a booking exchange that fills empty return trips. The grant covers two years of work with three hauliers in the Netherlands and Belgium, chief executive Raj Patel said.",
			typ:  radar.TypeFunding},
		{name: "round beside layoffs", title: "Northwind raises €8m bridge round and cuts 25 jobs",
			text: "Northwind has raised an €8 million bridge round from its existing investors and will cut 25 jobs, about a tenth of its staff, chief executive Raj Patel said. The company is closing its sales office in Madrid and moving the team to Rotterdam, where the rest of the company already works.",
			typ:  radar.TypeFunding},
	}
	for _, c := range cases {
		f := Classify(Item{Source: "news", URL: "https://news.example/" + c.name, Title: c.title, Text: c.text}, "Northwind", founders)
		if c.notFunding && f.Type == radar.TypeFunding {
			t.Errorf("%s: typed funding (%s), want no funding", c.name, strings.Join(f.Reasons, "; "))
		}
		if c.typ != "" && f.Type != c.typ {
			t.Errorf("%s: typed %s (%s), want %s", c.name, f.Type, strings.Join(f.Reasons, "; "), c.typ)
		}
		if c.notFunding && slices.Contains(f.Secondary, radar.TypeFunding) {
			t.Errorf("%s: reports funding beside %s, want none", c.name, f.Type)
		}
	}
}

// TestClassifyFlatDenialOfARetoldEvent checks that an event retold from others ("seeing posts saying ...")
// and flatly denied by the next sentence ("We didn't.") counts as denied, while an event the company states
// and then follows with a short negative sentence does not.
func TestClassifyFlatDenialOfARetoldEvent(t *testing.T) {
	founders := []string{"Jane Doe"}
	denied := Classify(Item{Source: "news", Title: "@janedoe on X",
		Text: "Seeing a few posts saying Northwind just raised a big round. We didn't. We're profitable and we have no plans to take outside money, so please stop asking me about allocation in the round."},
		"Northwind", founders)
	if denied.Type == radar.TypeFunding && !denied.Negated {
		t.Errorf("retold round denied by the next sentence: typed funding, not denied (%s)", strings.Join(denied.Reasons, "; "))
	}
	stated := Classify(Item{Source: "news", Title: "@janedoe on X",
		Text: "Northwind just raised a $12M Series A led by Acme Ventures. We didn't stop there. This week we also shipped our booking API to every customer, and we are hiring engineers in Rotterdam."},
		"Northwind", founders)
	if stated.Type != radar.TypeFunding || stated.Negated {
		t.Errorf("stated round: typed %s (negated %v), want funding, not denied", stated.Type, stated.Negated)
	}
}

// TestClassifyRaisesTheBar checks that "raises" in a figure of speech before an amount is no round.
func TestClassifyRaisesTheBar(t *testing.T) {
	f := Classify(Item{Source: "news", Title: "Northwind raises the bar: $1 billion in freight booked in a month"}, "Northwind", nil)
	if f.Type == radar.TypeFunding {
		t.Errorf("typed funding (%s), want no funding", strings.Join(f.Reasons, "; "))
	}
}

// TestClassifyLegalRecognitionAndPartnershipWording checks that the trigger table knows the common ways news
// and posts tell of a legal matter, an honour or a partnership, and that each headline, told alone, gets its type.
func TestClassifyLegalRecognitionAndPartnershipWording(t *testing.T) {
	cases := []struct{ title, typ string }{
		{"Northwind faces OSHA citation after warehouse accident", radar.TypeLegal},
		{"Northwind settles consumer-protection probe for $2 million", radar.TypeLegal},
		{"Northwind pleads guilty to export violations", radar.TypeLegal},
		{"Northwind recalls 12,000 units of its battery pack", radar.TypeLegal},
		{"Northwind takes rival to court over booking patents", radar.TypeLegal},
		{"Northwind hit with class-action lawsuit over data sharing", radar.TypeLegal},
		{"Northwind shares Clean Freight prize with Globex", radar.TypeRecognition},
		{"Northwind named a leader in the freight software magic quadrant", radar.TypeRecognition},
		{"The 50 most innovative logistics companies of 2026 include Northwind", radar.TypeRecognition},
		{"Northwind selected for the Techstars Mobility accelerator", radar.TypeRecognition},
		{"Northwind and Globex partner on cross-border freight", radar.TypePartnership},
		{"Northwind's route planner now runs on @globexcloud's GPUs", radar.TypePartnership},
		{"From Monday every Globex depot will sell Northwind's booking cards", radar.TypePartnership},
		{"Northwind has taken a minority stake in route-planning start-up Globex", radar.TypePartnership},
	}
	for _, c := range cases {
		f := Classify(Item{Source: "news", Title: c.title}, "Northwind", nil)
		if f.Type != c.typ {
			t.Errorf("%q: typed %s (%s), want %s", c.title, f.Type, strings.Join(f.Reasons, "; "), c.typ)
		}
	}
}

// TestClassifyListing checks that a listing on a stock exchange, however the exchange is named, is the
// company's exit, not a launch.
func TestClassifyListing(t *testing.T) {
	for _, title := range []string{"Northwind lists on the ASX", "Northwind makes its debut on the Australian Securities Exchange", "Northwind shares jump in Nasdaq market debut"} {
		f := Classify(Item{Source: "news", Title: title}, "Northwind", nil)
		if f.Type != radar.TypeAcquisition || f.Severity != SeverityCritical {
			t.Errorf("%q: typed %s/%s (%s), want acquisition/critical", title, f.Type, f.Severity, strings.Join(f.Reasons, "; "))
		}
	}
}

// TestClassifyStrongPhraseOverOther checks that a strong phrase about the company overrules an item model that
// calls the item other news while still giving the phrase's type a fair share, and only then.
func TestClassifyStrongPhraseOverOther(t *testing.T) {
	it := Item{Source: "news", Title: "Northwind sued by former customer over lost shipments",
		Text: "Northwind, the Rotterdam freight software company, has been sued by a former customer, a grocery wholesaler, which says a booking outage last winter cost it dozens of lost shipments. The wholesaler is seeking damages in the district court. Chief executive Raj Patel said the company would defend itself and that the outage had been fixed within a day."}
	saved := otherShift // the biases below are the scores as they are, without the shift of other news
	otherShift = 0
	defer func() { otherShift = saved }()
	for _, c := range []struct {
		legalBias float64
		want      string
	}{{0.3, radar.TypeLegal}, {-1, radar.TypeOther}} {
		m, err := parseModel(fmt.Sprintf("classes\tlegal\tother\trecognition\nbias\t%g\t1\t-3\n", c.legalBias))
		if err != nil {
			t.Fatal(err)
		}
		f := classifyScanned(scanItem(it, "Northwind", []string{"Raj Patel"}), m)
		if f.Type != c.want {
			t.Errorf("legal bias %g: typed %s (%s), want %s", c.legalBias, f.Type, strings.Join(f.Reasons, "; "), c.want)
		}
	}
}

// TestPageFurniture checks the diffs whose every line is page furniture, and that a price or a line of news
// beside the furniture still counts.
func TestPageFurniture(t *testing.T) {
	tests := map[string]struct {
		diff     string
		cosmetic bool
	}{
		"newsletter wording":   {"Added: Subscribe to our newsletter\nRemoved: Sign up for our newsletter", true},
		"analytics tag":        {"Added: gtag('config', 'G-7KQ2M91XZP');\nRemoved: gtag('config', 'UA-40112233-1');", true},
		"image alt text":       {"Added: Image: handmade oak side table in natural light\nRemoved: Image: IMG_4471", true},
		"list sorting":         {"Added: Showing 1–12 of 48 articles; Sort: newest first\nRemoved: Showing 1–12 of 47 articles; Sort: most recent", true},
		"opening hours":        {"Added: Opening hours: Monday to Friday, 9:00–17:30 CET\nRemoved: Opening hours: Monday to Friday, 9:00–18:00 CET", true},
		"status banner":        {"Added: All systems operational\nRemoved: Degraded performance — API response times elevated", true},
		"a price to subscribe": {"Added: Subscribe for $49 a month\nRemoved: Subscribe for $39 a month", false},
		"news beside furniture": {"Added: Subscribe to our newsletter; Northwind has acquired Ferrol Routing\n" +
			"Removed: Sign up for our newsletter", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := parseDiff(tc.diff).cosmetic(false); got != tc.cosmetic {
				t.Errorf("cosmetic(%q) = %v, want %v", tc.diff, got, tc.cosmetic)
			}
		})
	}
}

// TestDiffSimilarity checks how much wording a diff's gained and lost lines are said to share, which the item
// model weighs: a reworded line shares most, a new plan little.
func TestDiffSimilarity(t *testing.T) {
	tests := map[string]struct{ diff, want string }{
		"a fixed typo":      {"Added: Adjustable for comfort and durability\nRemoved: Adjustable for comfort and durabilty", "most"},
		"a reworded line":   {"Added: Talk to an engineer about rooftop solar\nRemoved: Speak to an engineer about rooftop solar", "most"},
		"a new plan":        {"Added: Team plan, unlimited seats, SSO and audit logs\nRemoved: Free tier with three dashboards", "low"},
		"lines only gained": {"Added: Careers: 14 open roles in Lisbon", "none"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := parseDiff(tc.diff).similarity(); got != tc.want {
				t.Errorf("similarity(%q) = %s, want %s", tc.diff, got, tc.want)
			}
		})
	}
}
