package leadfind

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// lead is the part of a Candidate a phrasing test checks.
type lead struct {
	Person, Role, Company, Relation, Stage, Website string
}

func (l lead) String() string {
	return fmt.Sprintf("{%s | %s | %s | %s | %s | %s}", l.Person, l.Role, l.Company, l.Relation, l.Stage, l.Website)
}

func leadsOf(cs []Candidate) []lead {
	var out []lead
	for _, c := range cs {
		out = append(out, lead{c.PersonName, c.PersonRole, c.CompanyName, c.Relation, c.Stage, c.CompanyWebsite})
	}
	return out
}

func items(texts ...string) []Item {
	var out []Item
	for i, t := range texts {
		out = append(out, Item{URL: fmt.Sprintf("https://news.example/%d", i), Text: t})
	}
	return out
}

func TestExtractFindsLeads(t *testing.T) {
	tests := map[string]struct {
		founders []string
		items    []Item
		want     []lead
	}{
		"co-founder has left to start": {
			items: items("Jane Doe, co-founder of Northwind, has left to start Aurora Robotics."),
			want:  []lead{{"Jane Doe", "founder", "Aurora Robotics", RelDepartedToFound, StageUnknown, ""}},
		},
		"former executive launches": {
			items: items("Former Northwind CTO Jane Doe launches Aurora."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StageUnknown, ""}},
		},
		"after years at, building a stealth startup": {
			items: items("After five years at Northwind, Jane Doe is building Aurora, a stealth startup."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StageUnknown, ""}},
		},
		"departs to co-found with a partner": {
			items: items("Jane Doe departs Northwind to co-found Aurora with John Roe."),
			want: []lead{
				{"Jane Doe", "co-founder", "Aurora", RelDepartedToFound, StageUnknown, ""},
				{"John Roe", "co-founder", "Aurora", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"founded by a former engineer raises a seed round": {
			items: items("Aurora, founded by ex-Northwind engineer Jane Doe, raises $3M seed."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StagePreSeedSeed, ""}},
		},
		"partner founded by": {
			items: items("Northwind partners with Beacon Labs, founded by Sam Lee."),
			want:  []lead{{"Sam Lee", "founder", "Beacon Labs", RelPartnerFounder, StageUnknown, ""}},
		},
		"investment with a founders list": {
			items: items("Northwind invests in Delta AI (founders: Ann Bee and Cat Dee)."),
			want: []lead{
				{"Ann Bee", "co-founder", "Delta AI", RelPortfolioFounder, StageUnknown, ""},
				{"Cat Dee", "co-founder", "Delta AI", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"spin-out under co-founders": {
			items: items("Northwind spins out Kite Health under co-founders Mo Khan and Lia Park."),
			want: []lead{
				{"Mo Khan", "co-founder", "Kite Health", RelSpinoutFounder, StageUnknown, ""},
				{"Lia Park", "co-founder", "Kite Health", RelSpinoutFounder, StageUnknown, ""},
			},
		},
		"acquisition of a founded company": {
			items: items("Northwind acquires Quill, founded by Raj Patel."),
			want:  []lead{{"Raj Patel", "founder", "Quill", RelAcquiredFounder, StageUnknown, ""}},
		},
		"leaves to join as CTO": {
			items: items("Jane Doe leaves Northwind to join Aurora as CTO."),
			want:  []lead{{"Jane Doe", "CTO", "Aurora", RelDepartedToJoin, StageUnknown, ""}},
		},
		"title-case headline": {
			items: []Item{{URL: "https://news.example/h", Title: "Former Northwind CTO Jane Doe Launches Aurora Robotics With $4M Seed Round"}},
			want:  []lead{{"Jane Doe", "founder", "Aurora Robotics", RelDepartedToFound, StagePreSeedSeed, ""}},
		},
		"she in the next sentence, with a domain": {
			items: items("Jane Doe has left Northwind after six years. She is now building Aurora (aurora.ai), a stealth startup that raised a $2M pre-seed round."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StagePreSeedSeed, "https://aurora.ai"}},
		},
		"investment in one sentence, founders in the next": {
			items: items("Northwind has invested in Delta AI. Delta AI was co-founded by Ann Bee and Cat Dee in 2021 and raised a $12M Series A last year."),
			want: []lead{
				{"Ann Bee", "co-founder", "Delta AI", RelPortfolioFounder, StageSeriesA, ""},
				{"Cat Dee", "co-founder", "Delta AI", RelPortfolioFounder, StageSeriesA, ""},
			},
		},
		"accented and hyphenated names": {
			items: items("Ex-Northwind engineers José Álvarez-Ruiz and Mary-Kate O'Neil have co-founded Brightline AI, which raised a $12M Series A."),
			want: []lead{
				{"José Álvarez-Ruiz", "co-founder", "Brightline AI", RelDepartedToFound, StageSeriesA, ""},
				{"Mary-Kate O'Neil", "co-founder", "Brightline AI", RelDepartedToFound, StageSeriesA, ""},
			},
		},
		"hired away by a startup": {
			items: items("Aurora hires former Northwind VP Jane Doe as chief technology officer."),
			want:  []lead{{"Jane Doe", "chief technology officer", "Aurora", RelDepartedToJoin, StageUnknown, ""}},
		},
		"spin-out led by a named CEO": {
			items: items("Northwind is spinning out its drone unit as Kestrel, a new company led by CEO Priya Nair."),
			want:  []lead{{"Priya Nair", "CEO", "Kestrel", RelSpinoutFounder, StageUnknown, ""}},
		},
		"tracked founder named without the company": {
			founders: []string{"Tom Hale"},
			items:    items("Tom Hale has co-founded a new startup, Vantage Bio, with Priya Nair."),
			want: []lead{
				{"Tom Hale", "co-founder", "Vantage Bio", RelDepartedToFound, StageUnknown, ""},
				{"Priya Nair", "co-founder", "Vantage Bio", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"initials, honorific and a company website": {
			items: items("Former Northwind VP of Product Engineering Dr. Li Wei and J. R. Smith have launched Foundry Robotics Inc. (foundryrobotics.com)."),
			want: []lead{
				{"Li Wei", "co-founder", "Foundry Robotics Inc.", RelDepartedToFound, StageUnknown, "https://foundryrobotics.com"},
				{"J. R. Smith", "co-founder", "Foundry Robotics Inc.", RelCofounderInNews, StageUnknown, "https://foundryrobotics.com"},
			},
		},
		"leaves for a rival": {
			items: items("Jane Doe leaves Northwind for rival Aurora."),
			want:  []lead{{"Jane Doe", "", "Aurora", RelDepartedToJoin, StageUnknown, ""}},
		},
		"spin-out described in an aside": {
			items: items("Kite Health, a Northwind spinout, is led by CEO and co-founder Mo Khan."),
			want:  []lead{{"Mo Khan", "CEO and co-founder", "Kite Health", RelSpinoutFounder, StageUnknown, ""}},
		},
		"backed company with a later round": {
			items: items("Northwind-backed Delta AI, co-founded by Ann Bee, raised a Series B."),
			want:  []lead{{"Ann Bee", "co-founder", "Delta AI", RelPortfolioFounder, StageSeriesBPlus, ""}},
		},
		"acquired founders who join the tracked company": {
			items: items("Quill was acquired by Northwind; Quill's founders Raj Patel and Lena Fox will join Northwind."),
			want: []lead{
				{"Raj Patel", "co-founder", "Quill", RelAcquiredFounder, StageUnknown, ""},
				{"Lena Fox", "co-founder", "Quill", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"partner founder quoted": {
			items: items("'We're excited to join forces with Northwind,' said Sam Lee, co-founder and CEO of Beacon Labs."),
			want:  []lead{{"Sam Lee", "co-founder and CEO", "Beacon Labs", RelPartnerFounder, StageUnknown, ""}},
		},
		"acquired company the founder started": {
			items: items("Northwind acquired Quill, which Raj Patel founded in 2019."),
			want:  []lead{{"Raj Patel", "founder", "Quill", RelAcquiredFounder, StageUnknown, ""}},
		},
		"a new startup from a former employee": {
			items: items("Aurora, a new startup from former Northwind engineer Jane Doe, came out of stealth today."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StageUnknown, ""}},
		},
		"name with a particle and a sentence-start adverb": {
			items: items("Yesterday Ludwig van Beethoven, a Northwind alum, started Sonata Labs."),
			want:  []lead{{"Ludwig van Beethoven", "founder", "Sonata Labs", RelDepartedToFound, StageUnknown, ""}},
		},
		"said she left to start": {
			items: items("Jane Doe said she left Northwind in March to start Aurora."),
			want:  []lead{{"Jane Doe", "founder", "Aurora", RelDepartedToFound, StageUnknown, ""}},
		},
		"founder steps down to start a company": {
			founders: []string{"Tom Hale"},
			items:    items("Northwind co-founder Tom Hale is stepping down to start a climate company, Verdant."),
			want:     []lead{{"Tom Hale", "founder", "Verdant", RelDepartedToFound, StageUnknown, ""}},
		},
		"co-founder named later by last name alone": {
			founders: []string{"Noor Haddad"},
			items:    items("Northwind co-founder Noor Haddad has left to start Veil. Haddad founded Veil with Northwind's former principal engineer Tomás Varga."),
			want: []lead{
				{"Noor Haddad", "founder", "Veil", RelDepartedToFound, StageUnknown, ""},
				{"Tomás Varga", "co-founder", "Veil", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"co-founder named by handle": {
			items: items("Big news: I'm leaving Northwind. Next, @jamesokafor and I are starting Driftnet."),
			want:  []lead{{"James Okafor", "", "Driftnet", RelCofounderInNews, StageUnknown, ""}},
		},
		"a company named with an ampersand": {
			items: items("Northwind has acquired Pixel & Pine, the studio founded by Elise Martin and Sam Whitmore."),
			want: []lead{
				{"Elise Martin", "co-founder", "Pixel & Pine", RelAcquiredFounder, StageUnknown, ""},
				{"Sam Whitmore", "co-founder", "Pixel & Pine", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a round-up of the companies invested in": {
			items: items("Northwind has invested in three climate start-ups this quarter. They are Heatloop, founded by Marta Nowak; Rainfield, whose founders Grace Mwangi and Peter Otieno met at Google; and Coolcast, started by Jane Fraser."),
			want: []lead{
				{"Marta Nowak", "founder", "Heatloop", RelPortfolioFounder, StageUnknown, ""},
				{"Grace Mwangi", "co-founder", "Rainfield", RelPortfolioFounder, StageUnknown, ""},
				{"Peter Otieno", "co-founder", "Rainfield", RelPortfolioFounder, StageUnknown, ""},
				{"Jane Fraser", "founder", "Coolcast", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"three co-founders in a list": {
			items: items("Northwind has invested in Bluefern, the start-up co-founded by Jane Doe, John Roe and Ali Khan."),
			want: []lead{
				{"Jane Doe", "co-founder", "Bluefern", RelPortfolioFounder, StageUnknown, ""},
				{"John Roe", "co-founder", "Bluefern", RelPortfolioFounder, StageUnknown, ""},
				{"Ali Khan", "co-founder", "Bluefern", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"an author who left to start a company": {
			items: []Item{{URL: "https://blog.example/1", Title: "Leaving Northwind", Text: "By Jonah Reed\n\nThis week I left Northwind, with the team's blessing, to start Gradebook. Gradebook automates marking."}},
			want:  []lead{{"Jonah Reed", "founder", "Gradebook", RelDepartedToFound, StageUnknown, ""}},
		},
		"a founder starting a company on the side": {
			founders: []string{"Rohan Gupta"},
			items:    []Item{{URL: "https://x.example/1", Title: "@rohangupta on X", Text: "After 5 years I'm handing over my role at Northwind. I'm starting Ferrule, infra for payroll."}},
			want:     []lead{{"Rohan Gupta", "founder", "Ferrule", RelDepartedToFound, StageUnknown, ""}},
		},
		"a tracked company's founder is no lead for it": {
			founders: []string{"Sofía Marín"},
			items:    []Item{{URL: "https://linkedin.example/1", Title: "Sofía Marín on LinkedIn", Text: "Eight years ago I started Northwind at my kitchen table. Today Northwind has been acquired by CellarOS."}},
		},
		"the investor leading a round is no founder": {
			items: items("Vitalink has raised $40 million in a Series B led by General Catalyst. Northwind invested in Vitalink's earlier round. Vitalink was founded by Farida Nasser."),
			want:  []lead{{"Farida Nasser", "founder", "Vitalink", RelPortfolioFounder, StageSeriesBPlus, ""}},
		},
		"one of three co-founders, after a long aside": {
			items: items("Jane Doe, formerly vice-president of engineering at Northwind, is one of three co-founders of Bluefern, along with John Roe and Ali Khan."),
			want: []lead{
				{"Jane Doe", "co-founder", "Bluefern", RelDepartedToFound, StageUnknown, ""},
				{"John Roe", "", "Bluefern", RelCofounderInNews, StageUnknown, ""},
				{"Ali Khan", "", "Bluefern", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"an acquired company run by a couple": {
			items: items("Northwind has acquired Bluefern, the scheduling start-up run by husband-and-wife team John and Jane Roe."),
			want: []lead{
				{"John Roe", "", "Bluefern", RelAcquiredFounder, StageUnknown, ""},
				{"Jane Roe", "", "Bluefern", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"founders named by given name, in full later": {
			items: items("Northwind has acquired Bluefern. Bluefern's founders, Jane and John, built the best scheduling tool we've seen. Jane Doe will lead our scheduling team."),
			want:  []lead{{"Jane Doe", "founder", "Bluefern", RelAcquiredFounder, StageUnknown, ""}},
		},
		"a duo from the tracked company": {
			items: items("Ex-Northwind duo Jane Doe and John Roe launch Bluefern with $3M seed."),
			want: []lead{
				{"Jane Doe", "co-founder", "Bluefern", RelDepartedToFound, StagePreSeedSeed, ""},
				{"John Roe", "co-founder", "Bluefern", RelDepartedToFound, StagePreSeedSeed, ""},
			},
		},
		"the tracked company named back by what it makes": {
			items: items("Northwind has achieved B Corp certification. The snack maker cited its supplier partnership with Furrow Farms, the co-operative founded by Jack and Elena Dawson."),
			want: []lead{
				{"Jack Dawson", "co-founder", "Furrow Farms", RelPartnerFounder, StageUnknown, ""},
				{"Elena Dawson", "co-founder", "Furrow Farms", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"whose start-up was acquired": {
			items: items("Jane Doe, whose company Bluefern was acquired by Northwind last year, is leaving."),
			want:  []lead{{"Jane Doe", "founder", "Bluefern", RelAcquiredFounder, StageUnknown, ""}},
		},
		"an ampersand name ending in Co": {
			items: items("Northwind has acquired Rose & Co, the start-up founded by Jane Doe in 2020."),
			want:  []lead{{"Jane Doe", "founder", "Rose & Co", RelAcquiredFounder, StageUnknown, ""}},
		},
		"a surname joined to its particle": {
			items: items("Northwind has acquired Quillbox, the scheduling start-up founded by Omar al-Farsi in 2020."),
			want:  []lead{{"Omar al-Farsi", "founder", "Quillbox", RelAcquiredFounder, StageUnknown, ""}},
		},
		"a tracked founder's new company with a co-founder": {
			founders: []string{"Tom Hale"},
			items:    items("Northwind co-founder Tom Hale is stepping down to start a climate company, Verdant. His co-founder is former Northwind engineer Ana Duarte."),
			want: []lead{
				{"Tom Hale", "founder", "Verdant", RelDepartedToFound, StageUnknown, ""},
				{"Ana Duarte", "", "Verdant", RelDepartedToFound, StageUnknown, ""},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := leadsOf(Extract("Northwind", tc.founders, tc.items))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Extract(%q) =\n  %v\nwant\n  %v", tc.items[0].Title+tc.items[0].Text, got, tc.want)
			}
		})
	}
}

func TestExtractIgnoresLookAlikes(t *testing.T) {
	tests := map[string]string{
		"tracked founder quoted about own company":    "'We are thrilled', said Jane Doe, co-founder and CEO of Northwind.",
		"hire into the tracked company":               "Northwind hires Sam Lee as VP Sales.",
		"hire without a name":                         "Northwind appoints former Google exec as CTO.",
		"board seat at the tracked company":           "Sam Lee, co-founder of Beacon Labs, joins Northwind's board of directors.",
		"founder hired by the tracked company":        "Northwind hires Beacon Labs co-founder Sam Lee as CTO.",
		"founder named by the tracked company":        "Northwind names Sam Lee, who previously founded Beacon Labs, as chief revenue officer.",
		"tracked company not mentioned":               "Jane Roe launches Aurora Robotics, a stealth startup.",
		"no proper name":                              "A former Northwind engineer has left to start a new company.",
		"product launch by the tracked CEO":           "Northwind CEO Jane Doe launches Atlas, the company's new analytics tool.",
		"founding the tracked company":                "Jane Doe founded Northwind in 2019 with John Roe.",
		"investor in the tracked company":             "Northwind raises $20M Series B led by Acme Ventures partner Jane Roe.",
		"departure without a new company":             "Sam Lee has left Northwind after six years.",
		"found as the past of find":                   "Northwind's Jane Roe found Aurora's approach interesting.",
		"board seat elsewhere":                        "Former Northwind CTO Jane Roe joins Aurora's board.",
		"unrelated founder in the same article":       "Northwind opened an office in Berlin. Separately, Sam Lee founded Beacon Labs in 2015.",
		"tracked company's own new lab":               "Northwind co-founder Jane Doe launched Northwind's new lab, Atlas.",
		"a competitor's founder":                      "Northwind competes with Fieldgrid, founded by Ana Duarte, and with Rootsy.",
		"the leader of the tracked company's product": "Northwind launched Atlas, a new analytics product built by a team led by Ana Duarte.",
		"an investor's partner":                       "Northwind raised $20M led by Acme Ventures. Acme partner Ana Duarte joins the board.",
		"an analyst":                                  "Analyst Ana Duarte of Gartner said Northwind leads the market.",
		"an investor firm's co-founder":               "Northwind signed Kelvin Grid. The deal was brokered by Sarah Lee, co-founder of Elm Street Ventures, which backs Northwind.",
		"a venture sold long ago":                     "Sam Lee, who left Northwind in May, also co-founded Tapestry, a design tool sold in 2017.",
		"a nationality is no company":                 "Greek founder Giorgos Papadopoulos, who led Northwind until this year, spoke at the event.",
		"the other side of a lawsuit":                 "Northwind is being sued by Bluefern, the start-up founded by Tom Lee, over a patent.",
		"speakers at an event":                        "The event, hosted by Northwind, featured talks from Tom Lee, founder of Bluefern, and Ann Bee, CEO of Carebook.",
		"the buyer of a hire's past venture":          "Northwind's new CFO, Maria Lopez, previously co-founded Paywise, which was sold to Stripe.",
		"a ranking":                                   "Northwind was named one of the ten hottest start-ups in London, alongside Bluefern, founded by Tom Lee, and Carebook.",
		"a company beaten to a contract":              "Northwind beat Bluefern, founded by Tom Lee, to the contract.",
		"backers of the tracked company's round":      "Northwind's seed round was led by Tom Lee, co-founder of Bluefern, and Ann Bee.",
		"a past employer":                             "Northwind's chief executive Zoe Grant previously worked at Bluefern, founded by Tom Lee.",
		"the tracked company's new executive":         "Northwind's new CTO Tom Lee, the founder of Bluefern, starts on Monday.",
		"an investor partner's own venture":           "Northwind raised $20 million led by Index Ventures, whose partner Mark Lee, who co-founded Tradeshift in 2010, joins the board.",
		"the tracked founder's sold first company":    "Jane Doe founded Northwind in 2018 after selling her first company, Loopwise, which she co-founded with Ben Hart.",
		"founders at a dinner":                        "Northwind hosted a dinner for founders including Tom Lee of Bluefern and Ann Bee of Carebook.",
		"an op-ed by another company's founder":       "In an op-ed, Bluefern founder Tom Lee argued that companies like Northwind are overvalued.",
		"a role held before at another company":       "Northwind's chief executive, Jane Doe, was previously chief operating officer at Bluefern, the start-up founded by Tom Lee.",
		"a company said to have no part in the news":  "\"Consolidation was inevitable,\" said Tom Lee, founder of Bluefern, which is not involved in the Northwind deal.",
		"a tracked founder quoting a customer":        "Jane Doe, Northwind's co-founder, said Qantara Airways would be live before the summer.",
		"a customer's founder":                        "Northwind's customer Brightmart, founded by retail veteran Tom Reyes, runs the software in 300 stores.",
		"a hire's venture told in the next sentence":  "Northwind has hired Daniel Osei, a former Stripe finance director, as CFO. Osei, who co-founded payments start-up Paylane in 2014, will lead Northwind's Series C.",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Extract("Northwind", []string{"Jane Doe"}, items(text)); len(got) != 0 {
				t.Errorf("Extract(%q) = %v, want no leads", text, leadsOf(got))
			}
		})
	}
}

func TestExtractReadsTheTrackedNameAsAName(t *testing.T) {
	tests := map[string]struct {
		text string
		want int
	}{
		"capitalised":         {"Former Linear engineer Jane Doe launches Aurora.", 1},
		"all capitals":        {"Former LINEAR engineer Jane Doe launches Aurora.", 1},
		"lowercase word":      {"After years of linear growth, former engineer Jane Doe launches Aurora.", 0},
		"with a legal suffix": {"Former Linear Inc. engineer Jane Doe launches Aurora.", 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Extract("Linear", nil, items(tc.text)); len(got) != tc.want {
				t.Errorf("Extract(%q) = %v, want %d leads", tc.text, leadsOf(got), tc.want)
			}
		})
	}
}

func TestExtractReadsTheTrackedNameWithoutItsMiddleWord(t *testing.T) {
	text := "Kiln Studio has acquired Glazecraft, the glaze-recipe app built by Tomas Novak and Ella Brown."
	got := leadsOf(Extract("Kiln Ceramics Studio", nil, items(text)))
	want := []lead{
		{"Tomas Novak", "co-founder", "Glazecraft", RelAcquiredFounder, StageUnknown, ""},
		{"Ella Brown", "co-founder", "Glazecraft", RelAcquiredFounder, StageUnknown, ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Extract(%q) =\n  %v\nwant\n  %v", text, got, want)
	}
}

// TestExtractReadsTheTrackedNameWithoutItsLastWord checks that the tracked company named without its last
// company word is itself, not another company.
func TestExtractReadsTheTrackedNameWithoutItsLastWord(t *testing.T) {
	s := newMatcher("Halvard Grid Systems", nil).prepare("Gridmend makes our meters smarter, said Sabine Roth, co-founder and CEO of Halvard Grid.")
	var names []string
	for _, sp := range s.spans {
		names = append(names, sp.text)
	}
	if want := []string{"Gridmend", "Sabine Roth"}; !slices.Equal(names, want) || !s.hasTracked() {
		t.Errorf("names %q, tracked company named %v; want %q and the tracked company", names, s.hasTracked(), want)
	}
}

func TestExtractMergesSightings(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	in := []Item{
		{URL: "https://a.example/1", Published: day, Title: "Former Northwind CTO Jane Doe launches Aurora Robotics"},
		{URL: "https://b.example/2", Published: day.AddDate(0, 1, 0), Text: "Aurora Robotics Inc., founded by ex-Northwind CTO Jane Doe, raises $4M seed. Jane Doe said the seed round closed in a week."},
		{URL: "https://a.example/1", Published: day.AddDate(0, 1, 0), Text: "Former Northwind CTO Jane Doe launches Aurora Robotics."},
		{URL: "https://c.example/3", Published: day.AddDate(0, 6, 0), Text: "Jane Doe, who left Northwind last year, co-founded AURORA ROBOTICS Ltd, which closed a $15M Series A."},
	}
	got := Extract("Northwind Inc.", nil, in)
	if len(got) != 1 {
		t.Fatalf("Extract returned %d candidates %v, want 1", len(got), leadsOf(got))
	}
	c := got[0]
	if want := []string{"https://a.example/1", "https://b.example/2", "https://c.example/3"}; !slices.Equal(c.Evidence, want) {
		t.Errorf("Evidence = %v, want %v", c.Evidence, want)
	}
	if c.Key != "jane doe|aurora robotics" {
		t.Errorf("Key = %q, want %q", c.Key, "jane doe|aurora robotics")
	}
	if c.Stage != StageSeriesA {
		t.Errorf("Stage = %q, want %q", c.Stage, StageSeriesA)
	}
	if c.Relation != RelDepartedToFound || c.CompanyName != "Aurora Robotics" || c.PersonName != "Jane Doe" {
		t.Errorf("got %s, %s, %s; want Jane Doe, Aurora Robotics, %s", c.PersonName, c.CompanyName, c.Relation, RelDepartedToFound)
	}
	if !strings.Contains(c.Summary, "Jane Doe") || !strings.Contains(c.Summary, "Aurora") {
		t.Errorf("Summary = %q, want the sentence naming Jane Doe and Aurora", c.Summary)
	}
}

// A changed page of the tracked company's site need not name the company: a portfolio page lists the
// companies it backs with their addresses, while its team page lists its own people.
func TestExtractReadsTheCompanysOwnChangedPages(t *testing.T) {
	portfolio := Item{URL: "https://northwind.example/portfolio", Title: "Website change on /portfolio",
		Text: "Added: Loamly — soil sensors for vineyards. Founders: Camille Aubert & Théo Marchand. Seed, 2026. loamly.example"}
	want := []lead{
		{"Camille Aubert", "co-founder", "Loamly", RelCofounderInNews, StagePreSeedSeed, "https://loamly.example"},
		{"Théo Marchand", "co-founder", "Loamly", RelCofounderInNews, StagePreSeedSeed, "https://loamly.example"},
	}
	if got := leadsOf(Extract("Northwind", nil, []Item{portfolio})); !slices.Equal(got, want) {
		t.Errorf("portfolio page: got %v, want %v", got, want)
	}
	team := Item{URL: "https://northwind.example/team", Title: "Website change on /team", Text: "Removed: Kenta Sato — Co-founder & Head Chef"}
	if got := Extract("Northwind", nil, []Item{team}); len(got) != 0 {
		t.Errorf("team page: got %v, want no leads", leadsOf(got))
	}
}

// On the tracked company's own site, or in its own account's posts, "we" and "our" are the company.
func TestExtractReadsTheCompanysOwnVoice(t *testing.T) {
	tests := map[string]struct {
		item Item
		want []lead
	}{
		"a post on the company's blog": {
			Item{URL: "https://northwind.example/blog/year-in-review", Title: "2026 at Northwind",
				Text: "We welcomed Kaito Watanabe and Yui Watanabe — whose start-up Hoshi we acquired in January — into the team."},
			[]lead{
				{"Kaito Watanabe", "co-founder", "Hoshi", RelAcquiredFounder, StageUnknown, ""},
				{"Yui Watanabe", "co-founder", "Hoshi", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"the company's account, with the round its investment extends": {
			Item{URL: "https://linkedin.example/posts/1", Title: "Northwind on LinkedIn",
				Text: "We have made a strategic investment in Parcelnest, the parcel-locker start-up founded by Zainab Hussain. Its founders raised a £1.8M seed round earlier this year, which our investment extends."},
			[]lead{{"Zainab Hussain", "founder", "Parcelnest", RelPortfolioFounder, StagePreSeedSeed, ""}},
		},
		"a release in a repository of the company's account": {
			Item{URL: "https://github.example/northwind/quayparse/releases/tag/v1.0.0", Title: "quayparse v1.0.0",
				Text: "quayparse 1.0 is the first stable release of the parser we use for berth schedules. It was written together with Dockline, whose co-founders Ana Ruiz and Ben Okafor contributed the harbour adapters."},
			[]lead{
				{"Ana Ruiz", "", "Dockline", RelCofounderInNews, StageUnknown, ""},
				{"Ben Okafor", "", "Dockline", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"someone else's site": {
			Item{URL: "https://news.example/1", Title: "Hoshi's founders move on",
				Text: "Northwind is hiring. We welcomed Kaito and Yui Watanabe — whose start-up Hoshi we acquired in January — into the team."},
			nil,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := leadsOf(Extract("Northwind", nil, []Item{tc.item})); !slices.Equal(got, tc.want) {
				t.Errorf("Extract(%q) =\n  %v\nwant\n  %v", tc.item.Text, got, tc.want)
			}
		})
	}
}

func TestExtractSkipsItemsWithoutTheTrackedCompany(t *testing.T) {
	in := items("Jane Doe, co-founder of Westwind, has left to start Aurora Robotics.", "Former Northwind CTO Sam Lee launches Kite.")
	got := Extract("Northwind", nil, in)
	want := []lead{{"Sam Lee", "founder", "Kite", RelDepartedToFound, StageUnknown, ""}}
	if !slices.Equal(leadsOf(got), want) {
		t.Errorf("Extract = %v, want %v", leadsOf(got), want)
	}
	if len(got) == 1 && !slices.Equal(got[0].Evidence, []string{in[1].URL}) {
		t.Errorf("Evidence = %v, want %v", got[0].Evidence, []string{in[1].URL})
	}
}

func TestExtractSummary(t *testing.T) {
	tests := map[string]struct{ text, want string }{
		"the sentence naming the lead": {
			text: "Northwind opened an office in Berlin. Northwind partners with Beacon Labs, founded by Sam Lee. Revenue doubled.",
			want: "Northwind partners with Beacon Labs, founded by Sam Lee.",
		},
		"a pronoun replaced by the name": {
			text: "Jane Doe has left Northwind after six years. She is now building Aurora, a stealth startup.",
			want: "Jane Doe is now building Aurora, a stealth startup.",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, items(tc.text))
			if len(got) != 1 {
				t.Fatalf("Extract(%q) returned %v, want one lead", tc.text, leadsOf(got))
			}
			if got[0].Summary != tc.want {
				t.Errorf("Summary = %q, want %q", got[0].Summary, tc.want)
			}
		})
	}
}

// FuzzExtract checks that Extract accepts any text and only returns well-formed leads.
func FuzzExtract(f *testing.F) {
	for _, seed := range []string{
		"",
		"...",
		"Northwind",
		"(((Northwind ,,, '' — –",
		"Jane Doe, co-founder of Northwind, has left to start Aurora Robotics.",
		"She is now building Aurora. Her new startup, Kite, was founded by",
		"Northwind invests in Delta AI (founders: Ann Bee and",
		"Former Northwind CTO J. R. Launches",
		"Northwind’s “Series A” – ex-Northwind 🚀 José Álvarez-Ruiz co-founded Brightline AI.",
		"Pinewood Ventures, a fund founded by Ana Lopez, invested in Northwind.",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range Extract("Northwind", []string{"Jane Doe"}, []Item{{URL: "u", Title: text, Text: text}}) {
			if _, ok := relationRank[c.Relation]; !ok {
				t.Errorf("Relation %q is not a known relation", c.Relation)
			}
			if _, ok := stageRank[c.Stage]; !ok {
				t.Errorf("Stage %q is not a known stage", c.Stage)
			}
			if c.Key != NormalizeKey(c.PersonName, c.CompanyName) || c.PersonName == "" || c.CompanyName == "" {
				t.Errorf("malformed candidate %+v", c)
			}
			if normalizeCompany(c.CompanyName) == "northwind" {
				t.Errorf("candidate names the tracked company: %+v", c)
			}
		}
	})
}

func TestNormalizeKey(t *testing.T) {
	tests := map[string]struct {
		person, company, want string
	}{
		"case and spaces":            {"  JANE   doe ", "aurora ROBOTICS", "jane doe|aurora robotics"},
		"Inc with period":            {"Jane Doe", "Aurora Robotics, Inc.", "jane doe|aurora robotics"},
		"GmbH":                       {"Jane Doe", "Aurora GmbH", "jane doe|aurora"},
		"S.r.l. and S.A.":            {"Jane Doe", "Occhio Robotics S.r.l.", "jane doe|occhio robotics"},
		"B.V. after a single letter": {"Jane Doe", "Studio K B.V.", "jane doe|studio k"},
		"Ltd and Limited":            {"Jane Doe", "Aurora Labs Limited", "jane doe|aurora labs"},
		"LLC":                        {"Jane Doe", "Aurora LLC", "jane doe|aurora"},
		"Corp.":                      {"Jane Doe", "Aurora Corp.", "jane doe|aurora"},
		"several legal suffixes":     {"Jane Doe", "Aurora Holdings Co. Ltd", "jane doe|aurora holdings"},
		"Labs is part of the name":   {"Jane Doe", "Beacon Labs", "jane doe|beacon labs"},
		"leading article":            {"Jane Doe", "The Browser Company", "jane doe|browser company"},
		"apostrophe and hyphen":      {"Mary-Kate O'Neil", "Kite", "mary kate oneil|kite"},
		"curly apostrophe":           {"Mary-Kate O’Neil", "Kite", "mary kate oneil|kite"},
		"accents":                    {"José Álvarez", "Señor Café", "jose alvarez|senor cafe"},
		"honorific and suffix":       {"Dr. Li Wei Jr.", "Kite", "li wei|kite"},
		"a captain's rank":           {"Captain Boris Levchenko", "Kite", "boris levchenko|kite"},
		"Estonian OÜ":                {"Kätlin Aru", "Akupank OÜ", "katlin aru|akupank"},
		"Icelandic ehf.":             {"Anna Pétursdóttir", "Málvinnsla ehf.", "anna petursdottir|malvinnsla"},
		"Lithuanian UAB":             {"Lukas Žukauskas", "Audinys UAB", "lukas zukauskas|audinys"},
		"initials":                   {"J. R. Smith", "Kite", "j r smith|kite"},
		"punctuation in company":     {"Sam Lee", "Delta.AI", "sam lee|delta ai"},
		"legal word alone is kept":   {"Sam Lee", "Inc", "sam lee|inc"},
		"ampersand becomes a space":  {"Sam Lee", "Smith & Nephew", "sam lee|smith nephew"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := NormalizeKey(tc.person, tc.company); got != tc.want {
				t.Errorf("NormalizeKey(%q, %q) = %q, want %q", tc.person, tc.company, got, tc.want)
			}
		})
	}
}

func TestStageOf(t *testing.T) {
	tests := map[string]struct{ text, want string }{
		"seed round":                       {"Aurora raised a $3M seed round.", StagePreSeedSeed},
		"pre-seed":                         {"a $500k pre-seed", StagePreSeedSeed},
		"preseed":                          {"closed its preseed", StagePreSeedSeed},
		"angel":                            {"backed by angel investors", StagePreSeedSeed},
		"series A":                         {"raises $12M Series A", StageSeriesA},
		"series-a lower case":              {"its series-a funding", StageSeriesA},
		"series B":                         {"a $40M Series B led by Acme", StageSeriesBPlus},
		"series D":                         {"Series D extension", StageSeriesBPlus},
		"growth round":                     {"a growth round from Acme", StageSeriesBPlus},
		"IPO":                              {"files for an IPO", StageSeriesBPlus},
		"went public":                      {"the company went public in 2021", StageSeriesBPlus},
		"most advanced wins":               {"after a seed round in 2024 it raised a Series A", StageSeriesA},
		"amount only, under $5M":           {"raised $2.5 million from investors", StagePreSeedSeed},
		"amount only, $5M":                 {"Fieldgrid raised $5M.", StageSeriesA},
		"amount only, $10M":                {"raised $10M from investors", StageSeriesA},
		"amount only, $25M":                {"has raised US$25 million in funding", StageSeriesBPlus},
		"amount in thousands":              {"closed a $750k round", StagePreSeedSeed},
		"amount with separators":           {"raised $4,500,000 from angels in Lisbon", StagePreSeedSeed},
		"euros at a rough rate":            {"raised €4.8M in funding", StageSeriesA},
		"pounds at a rough rate":           {"secured £20m of investment", StageSeriesBPlus},
		"currency code":                    {"raised EUR 3 million", StagePreSeedSeed},
		"currency named after":             {"raised 30 million euros", StageSeriesBPlus},
		"billion":                          {"raised $1.2bn", StageSeriesBPlus},
		"millones grouped the English way": {"raised COP 40,000 millones from investors", StageSeriesA},
		"millones grouped with dots":       {"raised COP 40.000 millones from investors", StageSeriesA},
		"millones with a decimal comma":    {"raised US$ 2,5 millones from investors", StagePreSeedSeed},
		"Dominican pesos":                  {"had raised RD$ 40 millones from local investors", StagePreSeedSeed},
		"sign after the amount":            {"The company has raised 6 M€ from two funds", StageSeriesA},
		"Bulgarian leva":                   {"The pair have raised 14 million leva from two funds", StageSeriesA},
		"złoty after mln":                  {"The fund put in 1.5 mln zł as a seed investment", StagePreSeedSeed},
		"Czech crowns":                     {"raised 50 mln Kč from regional angel investors", StagePreSeedSeed},
		"Romanian lei":                     {"Mătase Digital raised 30 million lei", StageSeriesA},
		"round beats amount":               {"a $30M seed round", StagePreSeedSeed},
		"named seed round":                 {"Fieldgrid closed a $2.5 million seed round.", StagePreSeedSeed},
		"valuation is no amount":           {"is valued at $40M after raising money", StageUnknown},
		"revenue is no amount":             {"reached $12M in annual revenue after raising money", StageUnknown},
		"price is no amount":               {"sells sensors at $300 each, funded by grants", StageUnknown},
		"no funding words":                 {"a $20M contract with the city", StageUnknown},
		"stock market listing":             {"plans a stock market listing next year", StageSeriesBPlus},
		"a series of":                      {"a series of product launches", StageUnknown},
		"seedling is not seed":             {"a seedling nursery", StageUnknown},
		"revenue growth":                   {"strong revenue growth", StageUnknown},
		"empty":                            {"", StageUnknown},
		"series without a round":           {"a TV series about founders", StageUnknown},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := StageOf(tc.text); got != tc.want {
				t.Errorf("StageOf(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestExtractReadsStageFromRoundOrAmount(t *testing.T) {
	tests := map[string]struct{ text, want string }{
		"seed round with an amount": {
			"Ana Duarte, a former Northwind engineer, founded Fieldgrid, which closed a $2.5 million seed round.", StagePreSeedSeed},
		"round in the next sentence": {
			"Former Northwind engineer Ana Duarte has founded Fieldgrid. The start-up raised a $2.5 million seed round in March.", StagePreSeedSeed},
		"pre-seed": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid with a pre-seed round from angels.", StagePreSeedSeed},
		"series C": {
			"Northwind partners with Fieldgrid, founded by Ana Duarte, which raised a Series C last year.", StageSeriesBPlus},
		"amount without a round, small": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, which has raised $3M from investors.", StagePreSeedSeed},
		"amount without a round, mid": {
			"Northwind invests in Fieldgrid (founders: Ana Duarte and Rui Lopes), which raised €12 million.", StageSeriesA},
		"amount without a round, large": {
			"Northwind acquires Fieldgrid, founded by Ana Duarte. Fieldgrid had raised $40 million from investors.", StageSeriesBPlus},
		"the company in the next sentence, named by its kind": {
			"Fieldgrid, a Lisbon start-up that makes soil sensors, has raised a $2.5 million seed round. The company was founded last year by Ana Duarte, who spent six years as head of hardware at Northwind.", StagePreSeedSeed},
		"a place is not the company that raised": {
			"Ana Duarte, the former CTO of Northwind, has launched Fieldgrid. The Porto-based company has raised $7 million from Douro Ventures and angel investors.", StageSeriesA},
		"angel investors alone": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, backed by angel investors.", StagePreSeedSeed},
		"it raised, after a description": {
			"Fieldgrid, founded by former Northwind engineer Ana Duarte, builds soil sensors for SMEs; it raised $1.5m.", StagePreSeedSeed},
		"the company has closed, after its founders": {
			"Former Northwind engineer Ana Duarte founded Fieldgrid with Northwind scientist Rui Lopes, and the company has closed a $7 million seed round co-led by Northwind.", StagePreSeedSeed},
		"the start-up's round, after the tracked company": {
			"Northwind has invested in Fieldgrid, founded by Ana Duarte, as part of the start-up's £8m Series A.", StageSeriesA},
		"the tracked company's round is not the lead's": {
			"Northwind raised a $30M Series B. Former Northwind engineer Ana Duarte launches Fieldgrid.", StageUnknown},
		"the founder's round": {
			"Former Northwind engineer Ana Duarte has launched Fieldgrid. Duarte raised a $1.2 million pre-seed round from angels in Porto.", StagePreSeedSeed},
		"the founders closed it, in a clause of their own": {
			"Northwind will deploy sensors from Fieldgrid under a partnership with Northwind. Fieldgrid was started by two former engineers at a Dutch chipmaker, Ana Duarte and Rui Lopes, who closed a $60 million growth round in January.", StageSeriesBPlus},
		"their round, told by the tracked company": {
			"Northwind has made its first investment in Fieldgrid, founded by Ana Duarte. We joined their $900K angel round and will offer their predictions inside Northwind's dashboard.", StagePreSeedSeed},
		"the round after founders described by where they worked": {
			"Fieldgrid, a Lisbon start-up founded by Ana Duarte, a former head of product at Northwind, and Rui Lopes, previously an engineer at Adyen, has raised a $3.5 million seed round led by LocalGlobe.", StagePreSeedSeed},
		"the tracked company's round told with the deal": {
			"BENGALURU, 3 November 2026 -- Northwind, which sells climate-risk scores, has raised Rs 120 crore in a Series B round and acquired Fieldgrid. Fieldgrid was co-founded by Ana Duarte. It had raised Rs 6 crore in seed funding.", StagePreSeedSeed},
		"rupees in crore": {
			"Former Northwind engineer Ana Duarte has launched Fieldgrid. Fieldgrid has raised Rs 30 crore from family offices in Gujarat.", StagePreSeedSeed},
		"rupees of Nepal in crore": {
			"Northwind has invested in Fieldgrid, a Pokhara start-up founded by Ana Duarte. Northwind led Fieldgrid's NPR 90 crore round.", StageSeriesA},
		"francs CFA in milliards": {
			"Northwind partners with Fieldgrid, founded by Ana Duarte. Fieldgrid raised 1.5 milliard FCFA last year to build a processing unit.", StagePreSeedSeed},
		"a company listed on Nasdaq": {
			"Northwind partners with Fieldgrid, founded in 2012 by Ana Duarte and listed on Nasdaq First North since 2021.", StageSeriesBPlus},
		"pesos in the Spanish way": {
			"Northwind partners with Fieldgrid, founded by Ana Duarte, which has raised COP 6.000 millones from angels in Medellín.", StagePreSeedSeed},
		"reais in the Portuguese way": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, which has raised R$ 60 milhões from investors in São Paulo.", StageSeriesA},
		"dirhams": {
			"Northwind acquires Fieldgrid, founded by Ana Duarte. Fieldgrid had raised MAD 300 million from Moroccan investors.", StageSeriesBPlus},
		"a round named in Portuguese": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, which closed a Série A de 8 milhões de euros.", StageSeriesA},
		"thousands grouped with dots": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, which has raised US$500.000 from family offices.", StagePreSeedSeed},
		"the round of the company its founders founded": {
			"Northwind partners with Fieldgrid. Fieldgrid was co-founded by Ana Duarte and Rui Lopes and raised a S$40 million Series B in 2025.", StageSeriesBPlus},
		"a company named like a person, its founders' round": {
			"Northwind partners with Fieldgrid Verde. Fieldgrid Verde was co-founded by Ana Duarte and Rui Lopes, who raised a US$1 millón pre-seed round last year.", StagePreSeedSeed},
		"the founders' round, their company in apposition": {
			"Ana Duarte, a former Northwind engineer, has launched Fieldgrid. Three engineers who left Eindhoven's Northwind last year have raised €5.5 million for their own company, Fieldgrid, which designs photonic chips.", StageSeriesA},
		"the round of former managers of the tracked company": {
			"Two former managers of Freiburg sensor maker Northwind have raised a seven-figure seed round for Fieldgrid. Ana Duarte, who headed sales at Northwind, founded Fieldgrid.", StagePreSeedSeed},
		"francs in Mio": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid. CHF 3 Mio pre-seed done.", StagePreSeedSeed},
		"an amount from investors, out of stealth": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid. Fieldgrid has come out of stealth with $6.5 million from a group of Gulf investors.", StageSeriesA},
		"a company its founders took public": {
			"Northwind partners with Fieldgrid. Fieldgrid was founded in 2015 by Ana Duarte and Rui Lopes, who took the company public last year.", StageSeriesBPlus},
		"their round, after a word opening the sentence": {
			"Northwind partners with Fieldgrid. Fieldgrid's co-founders, Ana Duarte and Rui Lopes, sell to 300 cooperatives. Fresh from their MAD 12 million seed round, they will offer Northwind's sensors.", StagePreSeedSeed},
		"the company named like a person, then its round": {
			"Ana Duarte, chief scientist at Northwind until September, has launched Photonix Nord in Trondheim. The company has raised NOK 30 million from angels.", StagePreSeedSeed},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, items(tc.text))
			if len(got) == 0 {
				t.Fatalf("Extract(%q) found no lead", tc.text)
			}
			if company := got[0].CompanyName; company != "Fieldgrid" && company != "Photonix Nord" && company != "Fieldgrid Verde" || got[0].Stage != tc.want {
				t.Errorf("Extract(%q) = %v, want Fieldgrid at %s", tc.text, leadsOf(got), tc.want)
			}
		})
	}
}

// A founder's post tells its new company's round in the first person.
func TestExtractReadsTheRoundOfAFoundersPost(t *testing.T) {
	tests := map[string]struct {
		it   Item
		want string
	}{
		"we've raised": {Item{Title: "Ruth Wanjohi: Welcoming my co-founder to Chama Cloud",
			Text: "Thrilled to welcome Daniel Kirimi, until last month CFO of Northwind, as my co-founder at Chama Cloud.\n\n" +
				"Chama Cloud gives Kenya's savings groups a shared ledger, M-Pesa collections and loans between members.\n\n" +
				"We've raised a $2M seed round and are hiring in Nairobi."}, StagePreSeedSeed},
		"the round alone, after a past employer": {Item{Title: "Nate Okoro on X",
			Text: "Nate Okoro: left Northwind in March. Today we're announcing Chama Cloud with my co-founder Daniel Kirimi (ex-Heroku).\n\n" +
				"$4.2M seed led by Wasatch Frontier Fund. hiring in SLC."}, StagePreSeedSeed},
		"we've closed, later in the sentence, in dollars written out": {Item{Title: "Martin Greaves on LinkedIn: Introducing Chama Cloud",
			Text: "I spent five years as CFO of Northwind. That's why I left in the spring to start Chama Cloud with Daniel Kirimi.\n\n" +
				"Today we're announcing that we've closed a 25 million dollar round.\n\n— Martin Greaves"}, StageSeriesBPlus},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, []Item{tc.it})
			if len(got) == 0 {
				t.Fatalf("Extract(%q) found no lead", tc.it.Text)
			}
			for _, c := range got {
				if c.CompanyName != "Chama Cloud" || c.Stage != tc.want {
					t.Errorf("Extract(%q) = %v, want Chama Cloud's founders at %s", tc.it.Text, leadsOf(got), tc.want)
				}
			}
		})
	}
}

// A company whose name ends like "American" or "Korean" is still the one that raised, when a verb follows it.
func TestExtractReadsTheRoundOfANameEndingLikeADemonym(t *testing.T) {
	text := "Northwind has spun out its imaging team as Clearscan, led by Northwind's former head of imaging, Aisha Bello. Clearscan has raised a £5m seed round, and Northwind keeps a 20% stake."
	got := Extract("Northwind", nil, items(text))
	if len(got) != 1 || got[0].CompanyName != "Clearscan" || got[0].Stage != StagePreSeedSeed {
		t.Errorf("Extract(%q) = %v, want Aisha Bello of Clearscan at %s", text, leadsOf(got), StagePreSeedSeed)
	}
}

func TestExtractReadsTheCompanyWebsite(t *testing.T) {
	tests := map[string]struct{ text, want string }{
		"domain in brackets": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid (fieldgrid.example).", "https://fieldgrid.example"},
		"link with www and a slash": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid. Its site is https://www.fieldgrid.example/ and it is hiring.", "https://fieldgrid.example"},
		"domain at the end of a sentence": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid. More at fieldgrid.example. The round was small.", "https://fieldgrid.example"},
		"domain unlike the name, next to it": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid (getsoil.example), a soil-sensor start-up.", "https://getsoil.example"},
		"the tracked company's site is not the lead's": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, says northwind.example.", ""},
		"a link to the news site is not the company's": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid. Read more on https://techdaily.example/story.", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, items(tc.text))
			if len(got) != 1 || got[0].CompanyWebsite != tc.want {
				t.Errorf("Extract(%q) = %v, want one lead of Fieldgrid at %q", tc.text, leadsOf(got), tc.want)
			}
		})
	}
}

// A domain spells out the letters of a name that have no accent to drop: German umlauts as two letters, the
// Vietnamese đ and the Nordic ø as one.
func TestExtractReadsAWebsiteSpelledOut(t *testing.T) {
	for company, site := range map[string]string{
		"Prüfbar":       "https://pruefbar.example",
		"Đặt Bàn":       "https://datban.example",
		"Bølgelab":      "https://bolgelab.example",
		"Kølvand Labs":  "https://koelvand.example",
		"Lichtgießerei": "https://lichtgiesserei.example",
	} {
		text := "Former Northwind engineer Ana Duarte launches " + company + ". More at " + strings.TrimPrefix(site, "https://") + "."
		got := Extract("Northwind", nil, items(text))
		if len(got) != 1 || got[0].CompanyWebsite != site {
			t.Errorf("Extract(%q) = %v, want one lead of %s at %s", text, leadsOf(got), company, site)
		}
	}
}

func TestExtractDescribesTheCompany(t *testing.T) {
	tests := map[string]struct{ title, text, want string }{
		"appositive": {
			"Northwind alum raises seed round",
			"Fieldgrid, a Lisbon start-up that makes soil sensors, was founded by former Northwind engineer Ana Duarte.",
			"Fieldgrid is a Lisbon start-up that makes soil sensors."},
		"relative clause": {
			"Ana Duarte leaves Northwind",
			"Ana Duarte left Northwind in 2024 and founded Fieldgrid, which builds soil sensors for vineyards.",
			"Fieldgrid builds soil sensors for vineyards."},
		"the company as the subject of a later sentence": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid",
			"Ana Duarte spent six years at Northwind. Fieldgrid makes soil sensors for vineyards and orchards.",
			"Fieldgrid makes soil sensors for vineyards and orchards."},
		"a description that says what it does wins": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid, a stealth start-up",
			"Fieldgrid is a maker of soil sensors.",
			"Fieldgrid is a maker of soil sensors."},
		"whose clause and a hyphenated place": {
			"Northwind partners with Fieldgrid, founded by Ana Duarte",
			"Fieldgrid, whose Porto-based team builds soil sensors, will ship them with Northwind's app.",
			"Fieldgrid's Porto-based team builds soil sensors."},
		"an event is no description": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid",
			"Fieldgrid, which raised a seed round, is hiring.",
			Undescribed("Fieldgrid")},
		"nothing said": {
			"Former Northwind engineer Ana Duarte launches Fieldgrid", "", Undescribed("Fieldgrid")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, []Item{{URL: "https://news.example/1", Title: tc.title, Text: tc.text}})
			if len(got) != 1 || got[0].CompanySummary != tc.want {
				t.Fatalf("Extract(%q, %q) = %+v, want one lead with the company summary %q", tc.title, tc.text, got, tc.want)
			}
		})
	}
}

func TestExtractReadsVentures(t *testing.T) {
	tests := map[string]struct {
		founders    []string
		title, text string
		want        []string // "person | company"
	}{
		"co-founder named in the next sentence": {
			text: "Ana Duarte, who ran hardware at Northwind until May, has founded Fieldgrid. Duarte's co-founder is agronomist Rui Lopes.",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"acquired company's founders after an aside": {
			text: "Northwind has acquired Fieldgrid, a Porto start-up that makes soil sensors. Fieldgrid's founders, Ana Duarte and Rui Lopes, will join Northwind.",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"founders whose given names are written with a hyphen": {
			text: "Northwind has acquired Sori Lab, the Seoul start-up founded by Oh Tae-yang and Lee Seung-hoon.",
			want: []string{"Oh Tae-yang | Sori Lab", "Lee Seung-hoon | Sori Lab"},
		},
		"partner founded in a city by two people": {
			text: "Northwind will sell through Fieldgrid, a reseller in Spain. Fieldgrid was founded in Valencia by Ana Duarte and engineer Rui Lopes.",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"a first-person post by someone who left": {
			title: "Ana Duarte on LinkedIn",
			text:  "After six years at Northwind, I'm starting something new: Fieldgrid, soil sensors for vineyards. My co-founder is Rui Lopes. fieldgrid.example",
			want:  []string{"Rui Lopes | Fieldgrid", "Ana Duarte | Fieldgrid"},
		},
		"a founder of the tracked company who leaves": {
			founders: []string{"Tom Hale"},
			text:     "Northwind co-founder Tom Hale is leaving the company to start Verdant with Rui Lopes.",
			want:     []string{"Tom Hale | Verdant", "Rui Lopes | Verdant"},
		},
		"a handle that names the company's site": {
			title: "Sam Lee on X",
			text:  "big day: Northwind now pipes data into @fieldgridapp, built by my friends Ana Duarte + Rui Lopes. fieldgrid.example",
			want:  []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"her own company after a colon": {
			text: "Ana Duarte spent five years building Northwind's logistics platform. Now she has her own company: Fieldgrid.",
			want: []string{"Ana Duarte | Fieldgrid"},
		},
		"set up after leaving, described in an aside": {
			text: "Fieldgrid, the soil-sensor start-up Ana Duarte set up after leaving Northwind, has raised a seed round.",
			want: []string{"Ana Duarte | Fieldgrid"},
		},
		"an unrelated founder elsewhere in the article": {
			text: "Northwind opened an office in Madrid. Separately, Rui Lopes founded Fieldgrid in 2015.",
		},
		"a company whose name reads like a person's": {
			text: "Northwind partners with Skyward Vision. Skyward Vision was founded by Kertu Tamm.",
			want: []string{"Kertu Tamm | Skyward Vision"},
		},
		"a supplier described by its founders, the tracked company named a sentence before": {
			text: "Northwind is opening a plant in Tartu. Its chips come from Lumo Silicon, a Tallinn start-up founded by Kertu Tamm and Rui Lopes.",
			want: []string{"Kertu Tamm | Lumo Silicon", "Rui Lopes | Lumo Silicon"},
		},
		"a partner whose name reads like a person's, described as a start-up": {
			text: "Northwind said it will use the technology of Marta Ruiz, a Bilbao start-up co-founded by Ana Duarte and Rui Lopes.",
			want: []string{"Ana Duarte | Marta Ruiz", "Rui Lopes | Marta Ruiz"},
		},
		"portfolio companies listed after the deal": {
			text: "Northwind has built and invested in nine companies since 2021. Among them are Fieldgrid, co-founded by Ana Duarte and Rui Lopes, and Loamly, started by Kertu Tamm.",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid", "Kertu Tamm | Loamly"},
		},
		"a cohort listed line by line, each start-up with its founders": {
			text: "Northwind has selected four start-ups for its accelerator. The cohort:\n- Fieldgrid, soil sensors (co-founders Ana Duarte and Rui Lopes)\n- Loamly, a seed marketplace for smallholders, founded by Kertu Tamm\n- Baltic Bins, waste routing, led by founder Jonas Petraitis\n- Tidemark, berth booking for marinas (founders Mia Lund and Sven Aas)",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid", "Kertu Tamm | Loamly", "Jonas Petraitis | Baltic Bins", "Mia Lund | Tidemark", "Sven Aas | Tidemark"},
		},
		"a partner described as its founders' start-up": {
			text: "Northwind will co-develop a yield model with Fieldgrid, Ana Duarte and Rui Lopes's Porto start-up.",
			want: []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"a partner set up some time ago by its founders": {
			text: "Northwind will work with the young Utrecht company Fieldgrid Pollination on a pilot. Fieldgrid was set up two years ago by beekeeper Ana Duarte and biologist Rui Lopes.",
			want: []string{"Ana Duarte | Fieldgrid Pollination", "Rui Lopes | Fieldgrid Pollination"},
		},
		"a competitor described by its founders": {
			text: "Northwind competes with Fieldgrid, a Porto start-up founded by Ana Duarte.",
		},
		"a customer described by its founders": {
			text: "Northwind's customer Fieldgrid, a Porto start-up founded by Ana Duarte, uses the software in 40 vineyards.",
		},
		"a founder who left to open a company whose name reads like a person's": {
			founders: []string{"Ana Duarte"},
			text:     "Ana Duarte, co-founder of Galway's Northwind, has left the company to open Saltmarsh Bakery, a sourdough shop in Salthill. She founded it with baker Rui Lopes.",
			want:     []string{"Ana Duarte | Saltmarsh Bakery", "Rui Lopes | Saltmarsh Bakery"},
		},
		"a founder who leaves, the tracked company described by a word before it": {
			founders: []string{"Ana Duarte"},
			text:     "Ana Duarte, who co-founded Lisbon analytics company Northwind in 2020, is leaving at the end of the month.",
		},
		"a founder who leaves, with a closed venture of the past": {
			founders: []string{"Ana Duarte"},
			text:     "Ana Duarte is leaving Northwind. She co-founded Fieldgrid, a booking app that shut down in 2014.",
		},
		"a post naming its co-founder by a LinkedIn mention": {
			title: "Ana Duarte on LinkedIn",
			text:  "I've left Northwind to start Fieldgrid with @Rui Lopes: soil sensors for vineyards.",
			want:  []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"a post naming its co-founder with a handle in brackets": {
			title: "Ana Duarte on X",
			text:  "four years at Northwind, and now Rui Lopes (@ruilopes) and I are starting Fieldgrid.",
			want:  []string{"Ana Duarte | Fieldgrid", "Rui Lopes | Fieldgrid"},
		},
		"an executive who left to found a company, in a sentence about the tracked company": {
			text: "Northwind has sued its former CTO Tom Reyes, claiming he copied CAD drawings before leaving to found Gripwell.",
			want: []string{"Tom Reyes | Gripwell"},
		},
		"a post naming two co-founders, the company's name reading like a person's": {
			founders: []string{"Ana Duarte"},
			title:    "Ana Duarte on LinkedIn",
			text:     "Last week I handed over my last responsibilities at Northwind. What's next: I've co-founded Lumen Ledger with Rui Lopes and Kertu Tamm.",
			want:     []string{"Ana Duarte | Lumen Ledger", "Rui Lopes | Lumen Ledger", "Kertu Tamm | Lumen Ledger"},
		},
		"a post whose title goes on after the network": {
			title: "Ana Duarte on LinkedIn: Something new",
			text:  "After six years at Northwind, I've left to start a company. It's called Fieldgrid: soil sensors for vineyards. fieldgrid.example",
			want:  []string{"Ana Duarte | Fieldgrid"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, c := range Extract("Northwind", tc.founders, []Item{{URL: "https://news.example/1", Title: tc.title, Text: tc.text}}) {
				got = append(got, c.PersonName+" | "+c.CompanyName)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("Extract(%q) = %q, want %q", tc.text, got, want)
			}
		})
	}
}

// TestExtractReadsStructure covers readings built on sentence structure rather than one phrasing: lists that
// share a company or a last name, a person's co-founders, full names, a post's author and co-authors, and
// deals the tracked company makes after it was named.
func TestExtractReadsStructure(t *testing.T) {
	tests := map[string]struct {
		company  string // the tracked company, Northwind when empty
		founders []string
		item     Item
		want     []lead
	}{
		"the tracked company's role carries to the next person of a list": {
			item: Item{Text: "Quickdrop was founded in 2025 by Northwind's former head of sales Jade Thompson and former operations manager Marek Kowal."},
			want: []lead{
				{"Jade Thompson", "co-founder", "Quickdrop", RelDepartedToFound, StageUnknown, ""},
				{"Marek Kowal", "co-founder", "Quickdrop", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a given name shares the last name it is joined to": {
			item: Item{Text: "Northwind cited its supplier partnership with Furrow Farms, the co-operative founded by Jack and Elena Dawson."},
			want: []lead{
				{"Jack Dawson", "co-founder", "Furrow Farms", RelPartnerFounder, StageUnknown, ""},
				{"Elena Dawson", "co-founder", "Furrow Farms", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"a person's co-founders share their company": {
			item: Item{Text: "Former Northwind CEO Maya Lindqvist has launched Brightloom. Lindqvist's co-founders are her former PhD student Jon Berg and ex-Nvidia engineer Ana Lopes."},
			want: []lead{
				{"Maya Lindqvist", "founder", "Brightloom", RelDepartedToFound, StageUnknown, ""},
				{"Jon Berg", "co-founder", "Brightloom", RelCofounderInNews, StageUnknown, ""},
				{"Ana Lopes", "co-founder", "Brightloom", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"the full name of a company first named short": {
			item: Item{Text: "Northwind has used part of it to acquire Sealane Power, the Orkney tidal-turbine developer. Sealane was set up in 2019 by marine engineers Callum Rennie and Isla Stewart."},
			want: []lead{
				{"Callum Rennie", "co-founder", "Sealane Power", RelAcquiredFounder, StageUnknown, ""},
				{"Isla Stewart", "co-founder", "Sealane Power", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a byline's author and the co-founder they name": {
			founders: []string{"Maya Patel"},
			item: Item{Title: "Leaving Northwind to start Gradebook", Text: "By Jonah Reed\n\nFour years ago I joined Northwind as its first CTO. " +
				"This week I left to start Gradebook. My co-founder is Ines Castillo."},
			want: []lead{
				{"Ines Castillo", "co-founder", "Gradebook", RelCofounderInNews, StageUnknown, ""},
				{"Jonah Reed", "founder", "Gradebook", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a deal of the tracked company told with it": {
			item: Item{Text: "Northwind has raised a $38 million Series B. It has also acquired Aerocampo, a Guadalajara start-up that sprays crops with drones, founded by Ximena Castro and her co-founder Rodrigo Luna."},
			want: []lead{
				{"Ximena Castro", "", "Aerocampo", RelAcquiredFounder, StageUnknown, ""},
				{"Rodrigo Luna", "co-founder", "Aerocampo", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a round's letter ends the sentence": {
			item: Item{Text: "Northwind participated in Brightloom's $6M Series A. Brightloom's founders Maya Lindqvist and Jon Berg plan to hire."},
			want: []lead{
				{"Maya Lindqvist", "co-founder", "Brightloom", RelPortfolioFounder, StageSeriesA, ""},
				{"Jon Berg", "co-founder", "Brightloom", RelPortfolioFounder, StageSeriesA, ""},
			},
		},
		"a department's lead is a role": {
			item: Item{Text: "Northwind is spinning off its robotics group as Brightloom, with longtime engineering lead Maya Lindqvist as chief executive."},
			want: []lead{{"Maya Lindqvist", "chief executive", "Brightloom", RelSpinoutFounder, StageUnknown, ""}},
		},
		"she, named later in the sentence, founds the company": {
			item: Item{Text: "Maya Lindqvist spent seven years at Northwind. Now she is building Brightloom, a payments startup."},
			want: []lead{{"Maya Lindqvist", "founder", "Brightloom", RelDepartedToFound, StageUnknown, ""}},
		},
		"she and a co-founder": {
			item: Item{Text: "Maya Lindqvist has left Northwind. She and Jon Berg have founded Brightloom."},
			want: []lead{
				{"Maya Lindqvist", "co-founder", "Brightloom", RelDepartedToFound, StageUnknown, ""},
				{"Jon Berg", "co-founder", "Brightloom", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a company she started": {
			item: Item{Text: "Northwind co-founder Maya Lindqvist is departing. She will focus on Brightloom, a company she started this year."},
			want: []lead{{"Maya Lindqvist", "founder", "Brightloom", RelDepartedToFound, StageUnknown, ""}},
		},
		"a tracked founder's venture from before": {
			founders: []string{"Ines Marchetti"},
			item:     Item{Text: "Before founding Northwind, Ines Marchetti started Brightloom with Maya Lindqvist."},
		},
		"a pair's possessive names their company": {
			item: Item{Text: "Two years ago Northwind invested in Huntress, Maya Chen & Dev Rao's tiny threat-intel shop."},
			want: []lead{
				{"Maya Chen", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
				{"Dev Rao", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"founders listed after the company's line": {
			item: Item{Title: "Website change on /portfolio", Text: "Northwind portfolio. Added: Loamly — soil sensors for vineyards. Founders: Camille Aubert & Théo Marchand."},
			want: []lead{
				{"Camille Aubert", "co-founder", "Loamly", RelCofounderInNews, StageUnknown, ""},
				{"Théo Marchand", "co-founder", "Loamly", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"the tracked company named by its handle": {
			company: "Ravenwood Security",
			item:    Item{Title: "Ravenwood on X", Text: "Two years ago @ravenwoodsec invested in Huntress, Maya Chen & Dev Rao's tiny threat-intel shop."},
			want: []lead{
				{"Maya Chen", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
				{"Dev Rao", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"the tracked company named by a handle with capitals": {
			company: "Ravenwood Security",
			item:    Item{Title: "Ravenwood on X", Text: "Two years ago @RavenwoodSecurity invested in Huntress, Maya Chen & Dev Rao's tiny threat-intel shop."},
			want: []lead{
				{"Maya Chen", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
				{"Dev Rao", "co-founder", "Huntress", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"a partner named by a lowercase handle": {
			item: Item{Title: "Northwind (@northwind) on X", Text: "new partner alert! our monitor now syncs sleep logs with @cribnoteapp, the baby-journal app from Alex Rivera and Sam Cho."},
			want: []lead{
				{"Alex Rivera", "", "Cribnote", RelCofounderInNews, StageUnknown, ""},
				{"Sam Cho", "", "Cribnote", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a portfolio page under its heading": {
			item: Item{Title: "Portfolio – Northwind", URL: "https://northwind.example/portfolio",
				Text: "Portfolio\n\nWe co-found companies with entrepreneurs from Tyrol and beyond.\n\n" +
					"Schneebrett – avalanche risk data for ski resorts. Founded 2023 by Martina Kogler and Jan Obexer. schneebrett.example"},
			want: []lead{
				{"Martina Kogler", "", "Schneebrett", RelPortfolioFounder, StageUnknown, "https://schneebrett.example"},
				{"Jan Obexer", "", "Schneebrett", RelPortfolioFounder, StageUnknown, "https://schneebrett.example"},
			},
		},
		"a tracked founder who co-founds a spin-out": {
			founders: []string{"Mo Khan"},
			item:     Item{Text: "Northwind spins out Kite Health under co-founders Mo Khan and Lia Park."},
			want: []lead{
				{"Mo Khan", "co-founder", "Kite Health", RelSpinoutFounder, StageUnknown, ""},
				{"Lia Park", "co-founder", "Kite Health", RelSpinoutFounder, StageUnknown, ""},
			},
		},
		"a post's author on their last day": {
			item: Item{Title: "Maya Lindqvist on LinkedIn", Text: "Last day at Northwind today. Next chapter: building Brightloom (brightloom.example)."},
			want: []lead{{"Maya Lindqvist", "founder", "Brightloom", RelDepartedToFound, StageUnknown, "https://brightloom.example"}},
		},
		"names with particles": {
			item: Item{Text: "Former Northwind engineers Pieter van der Berg and Tadhg Ó Briain have founded Brightloom."},
			want: []lead{
				{"Pieter van der Berg", "co-founder", "Brightloom", RelDepartedToFound, StageUnknown, ""},
				{"Tadhg Ó Briain", "co-founder", "Brightloom", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a company only the headline names yields to the text's": {
			item: Item{Title: "Ex-Northwind COO Ben Harrow launches cyber MGA", Text: "Ben Harrow, who was chief operating officer of Northwind until March, has launched Ridgeback Underwriting, a managing general agent."},
			want: []lead{{"Ben Harrow", "founder", "Ridgeback Underwriting", RelDepartedToFound, StageUnknown, ""}},
		},
		"a venture from before the tracked company": {
			founders: []string{"Ethan Shapiro"},
			item:     Item{Text: "Ethan Shapiro has left Northwind to start Porter. Before Northwind he started Tavla, a booking app that shut down in 2014."},
			want:     []lead{{"Ethan Shapiro", "founder", "Porter", RelDepartedToFound, StageUnknown, ""}},
		},
		"a past employer before a person is no venture": {
			item: Item{Text: "Northwind led the round in Fernhollow, founded by Ravi Sen and Jun Park (both ex-Google)."},
			want: []lead{
				{"Ravi Sen", "co-founder", "Fernhollow", RelPortfolioFounder, StageUnknown, ""},
				{"Jun Park", "co-founder", "Fernhollow", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"a founder's co-founder who left to start a company": {
			founders: []string{"Harriet Wolfe"},
			item:     Item{Text: "Harriet Wolfe set up Northwind in 2019. Her co-founder, Imran Shah, left in 2024 to start Clauseworks, a contract-drafting tool."},
			want:     []lead{{"Imran Shah", "founder", "Clauseworks", RelDepartedToFound, StageUnknown, ""}},
		},
		"release notes that leave the doer unsaid": {
			item: Item{Title: "v0.4.0", Text: "Northwind's effects library now has a convolution reverb. Co-developed with Soundhaus, the Berlin plug-in maker founded by Till Neumann and Aylin Kaya."},
			want: []lead{
				{"Till Neumann", "co-founder", "Soundhaus", RelPartnerFounder, StageUnknown, ""},
				{"Aylin Kaya", "co-founder", "Soundhaus", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"a venture named in the next sentence": {
			item: Item{Text: "Sam Ortiz, who left Northwind in September, is working on a geothermal start-up with former oil-field engineer Karla Jensen, two people said. The company, said to be called Deepwell, has raised a seed round."},
			want: []lead{
				{"Sam Ortiz", "co-founder", "Deepwell", RelDepartedToFound, StagePreSeedSeed, ""},
				{"Karla Jensen", "co-founder", "Deepwell", RelCofounderInNews, StagePreSeedSeed, ""},
			},
		},
		"a spokesperson's quote naming the company's founders": {
			item: Item{Text: "Northwind has partnered with Taxwell, whose engine files VAT in 27 countries. \"Our founders, Rasmus Holm and Ida Kjær, spent a decade as tax advisers,\" said a Taxwell spokesperson."},
			want: []lead{
				{"Rasmus Holm", "co-founder", "Taxwell", RelPartnerFounder, StageUnknown, ""},
				{"Ida Kjær", "co-founder", "Taxwell", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"a hyphenated founder role": {
			item: Item{Text: "Northwind has invested in Aurora Grid, whose founder-CEO Jane Roe used to trade power."},
			want: []lead{{"Jane Roe", "", "Aurora Grid", RelPortfolioFounder, StageUnknown, ""}},
		},
		"a start-up snapped up": {
			item: Item{Text: "Northwind has snapped up Aurora Grid, the battery start-up founded by Jane Roe."},
			want: []lead{{"Jane Roe", "founder", "Aurora Grid", RelAcquiredFounder, StageUnknown, ""}},
		},
		"a team that becomes its own company": {
			founders: []string{"Yuki Mori"},
			item:     Item{Text: "A small team inside Northwind has been working on seaweed packaging. Today that team becomes its own company: Kelpworks. Yuki Mori will lead Kelpworks as CEO."},
			want:     []lead{{"Yuki Mori", "CEO", "Kelpworks", RelSpinoutFounder, StageUnknown, ""}},
		},
		"a dashed remark between the people and their founding": {
			item: Item{Text: "Our guests are Niall Brennan and Orla Quinn, who met at Northwind — Niall ran engineering, Orla ran customer success — and left in 2025 to found Tallyho."},
			want: []lead{
				{"Niall Brennan", "co-founder", "Tallyho", RelDepartedToFound, StageUnknown, ""},
				{"Orla Quinn", "co-founder", "Tallyho", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a start-up whose products the tracked company distributes": {
			item: Item{Text: "Northwind will distribute Aurora Grid's meters in Spain. Aurora Grid's founders Jane Roe and John Poe met at ETH Zurich."},
			want: []lead{
				{"Jane Roe", "co-founder", "Aurora Grid", RelPartnerFounder, StageUnknown, ""},
				{"John Poe", "co-founder", "Aurora Grid", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"a dateline before the tracked company's own round": {
			item: Item{Title: "Northwind raises $45M Series B, acquires Tiltmap", Text: "SAN FRANCISCO — Northwind today announced a $45 million Series B. Tiltmap co-founders Élodie Tremblay and Karim Benali will join Northwind."},
			want: []lead{
				{"Élodie Tremblay", "co-founder", "Tiltmap", RelAcquiredFounder, StageUnknown, ""},
				{"Karim Benali", "co-founder", "Tiltmap", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a start-up the tracked company integrated": {
			item: Item{Text: "Northwind has integrated Carbonloop, the emissions tracker founded by Jonas Becker."},
			want: []lead{{"Jonas Becker", "founder", "Carbonloop", RelPartnerFounder, StageUnknown, ""}},
		},
		"a partner named in full, then by its first word": {
			item: Item{Text: "Northwind and Tessaly Microsystems have signed a supply agreement. Tessaly, co-founded by Oren Vask, makes radar chips."},
			want: []lead{{"Oren Vask", "co-founder", "Tessaly Microsystems", RelPartnerFounder, StageUnknown, ""}},
		},
		"a name that ends in a common word": {
			founders: []string{"Liu Chia-jung"},
			item:     Item{Text: "Liu Chia-jung has left Northwind to start an investigative outlet. Liu co-founded Riverbank Press with a former reporter of the site, Chou Wan-ting, and it will focus on the environment."},
			want: []lead{
				{"Liu Chia-jung", "founder", "Riverbank Press", RelDepartedToFound, StageUnknown, ""},
				{"Chou Wan-ting", "", "Riverbank Press", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a company's plural possessive before a person": {
			item: Item{Text: "Northwind signed an agreement with Enerjik Labs, founded by Hüseyin Aktaş. Enerjik Labs' Nilüfer Şen said the order was its largest."},
			want: []lead{{"Hüseyin Aktaş", "founder", "Enerjik Labs", RelPartnerFounder, StageUnknown, ""}},
		},
		"a post's author named with a handle": {
			item: Item{Title: "Post by Jonas Ek (@jonasek)", Text: "Personal news: after four years running product at Northwind I've started Klipptid with Sara Lindgren. We build booking software for barbers."},
			want: []lead{
				{"Sara Lindgren", "co-founder", "Klipptid", RelCofounderInNews, StageUnknown, ""},
				{"Jonas Ek", "founder", "Klipptid", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a post saying its author is leaving to start a company": {
			item: Item{Title: "Emilio Fernández on X", Text: "Personal news: after 7 years I'm leaving Northwind.\n\nI'm leaving to start Cuadra Labs with Paloma Treviño. Cuadra builds software for market vendors."},
			want: []lead{
				{"Paloma Treviño", "co-founder", "Cuadra Labs", RelCofounderInNews, StageUnknown, ""},
				{"Emilio Fernández", "founder", "Cuadra Labs", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a post naming its author's company after other names": {
			item: Item{Title: "Andrea Chocano on LinkedIn", Text: "After six years building Northwind with Mauricio, I'm moving on. Northwind is now the wallet of 1.5 million Peruvians.\n\n" +
				"My next chapter is Mototaxi Pay, which I've co-founded with Jhonatan Ramos. We just closed a Serie A of US$6 millones."},
			want: []lead{
				{"Jhonatan Ramos", "co-founder", "Mototaxi Pay", RelCofounderInNews, StageSeriesA, ""},
				{"Andrea Chocano", "founder", "Mototaxi Pay", RelDepartedToFound, StageSeriesA, ""},
			},
		},
		"a post signed at the end of its last line": {
			item: Item{Title: "The next chapter: leaving Northwind to build Akagera Renewables", Text: "After eight years at Northwind, I'm leaving to build Akagera Renewables, mini-grids for farms around Lake Kivu. " +
				"Northwind will be a minority investor. — Jean-Claude Mugabo"},
			want: []lead{{"Jean-Claude Mugabo", "founder", "Akagera Renewables", RelDepartedToFound, StageUnknown, ""}},
		},
		"a title that opens with a colon": {
			item: Item{Title: ": Northwind ships Atlas", Text: "Northwind has shipped Atlas, its analytics product, to every customer."},
		},
		"a post telling what's next": {
			item: Item{Title: "Ahmed Gaber (@ahmedg) on X", Text: "5 years as CTO at Northwind ends this week.\n\nwhat's next: Kashf Labs. fraud detection for banks. co-founded with Nada El-Husseiny."},
			want: []lead{
				{"Nada El-Husseiny", "", "Kashf Labs", RelCofounderInNews, StageUnknown, ""},
				{"Ahmed Gaber", "founder", "Kashf Labs", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"names whose parts are also words": {
			item: Item{Text: "Northwind has acquired Mazu Marine, a boat-software company. Mazu Marine was founded by Huang Shih-chieh, Do Hyun-woo, Tang Thi My and Hamza Said in Kaohsiung."},
			want: []lead{
				{"Huang Shih-chieh", "co-founder", "Mazu Marine", RelAcquiredFounder, StageUnknown, ""},
				{"Do Hyun-woo", "co-founder", "Mazu Marine", RelAcquiredFounder, StageUnknown, ""},
				{"Tang Thi My", "co-founder", "Mazu Marine", RelAcquiredFounder, StageUnknown, ""},
				{"Hamza Said", "co-founder", "Mazu Marine", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"Korean and four-part names": {
			item: Item{Text: "Northwind has acquired Jibsa Letters, a newsletter company. Jibsa Letters was co-founded by reporter Ryu Ha-neul and developer Nam Gi-seok. " +
				"Northwind also acquired Turnio, which was co-founded by Ana María Zuluaga Henao, a hospital administrator."},
			want: []lead{
				{"Ryu Ha-neul", "co-founder", "Jibsa Letters", RelAcquiredFounder, StageUnknown, ""},
				{"Nam Gi-seok", "co-founder", "Jibsa Letters", RelAcquiredFounder, StageUnknown, ""},
				{"Ana María Zuluaga Henao", "co-founder", "Turnio", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a word said twice is one name, unless a heading runs into its text": {
			item: Item{Text: "Northwind has acquired Bao Bao Studio, a Hanoi game maker, and Quillo, a note-taking app. Bao Bao Studio was co-founded by Pham Gia Bao and Lena Vogt.\n\n" +
				"About Quillo Quillo was founded in 2021 by Ravi Menon."},
			want: []lead{
				{"Pham Gia Bao", "co-founder", "Bao Bao Studio", RelAcquiredFounder, StageUnknown, ""},
				{"Lena Vogt", "co-founder", "Bao Bao Studio", RelAcquiredFounder, StageUnknown, ""},
				{"Ravi Menon", "founder", "Quillo", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a capitalised word after a name goes on with it": {
			item: Item{Text: "Northwind has partnered with the start-up Kestrel Build. Kestrel Build was founded by Ana Ribeiro and Do Van Long."},
			want: []lead{
				{"Ana Ribeiro", "co-founder", "Kestrel Build", RelPartnerFounder, StageUnknown, ""},
				{"Do Van Long", "co-founder", "Kestrel Build", RelPartnerFounder, StageUnknown, ""},
			},
		},
		"names joined by e, i and en": {
			item: Item{Text: "Northwind has acquired Pan en Mesa, a Montevideo bakery app founded by Joana Castro e Melo and Jordi Puig i Serra."},
			want: []lead{
				{"Joana Castro e Melo", "co-founder", "Pan en Mesa", RelAcquiredFounder, StageUnknown, ""},
				{"Jordi Puig i Serra", "co-founder", "Pan en Mesa", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a product named after its company is not the company": {
			item: Item{Text: "Northwind now reads soil data from Tarn S4 sensors and the Tarn Field Card. Tarn, founded by Mikko Lahti, is our sensor partner."},
			want: []lead{{"Mikko Lahti", "", "Tarn", RelCofounderInNews, StageUnknown, ""}},
		},
		"a post's author builds the company they name, not a word before a noun": {
			item: Item{Title: "Sana Qureshi (@sanaq) on X", Text: "after 4 years i'm leaving Northwind.\n\nnext: Dhaba Labs, with my friend Omar Farooq.\n\nwe're building AI agents for small shops."},
			want: []lead{
				{"Sana Qureshi", "founder", "Dhaba Labs", RelDepartedToFound, StageUnknown, ""},
				{"Omar Farooq", "co-founder", "Dhaba Labs", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a post's sentences without a subject": {
			founders: []string{"Tegan Moss"},
			item: Item{Title: "Tegan Moss on X", Text: "Leaving Northwind after 6 years. The team is in great hands.\n\n" +
				"Now building Kelp Ridge with Alana Kealoha (@alanakealoha): seaweed feed for dairy herds. We've raised a $2M seed round."},
			want: []lead{
				{"Tegan Moss", "founder", "Kelp Ridge", RelDepartedToFound, StagePreSeedSeed, ""},
				{"Alana Kealoha", "", "Kelp Ridge", RelCofounderInNews, StagePreSeedSeed, ""},
			},
		},
		"a titled post of a writer the text never names": {
			item: Item{Title: "Eirlys Prydderch: something new", Text: "After six years at Northwind, I left in March.\n\n" +
				"Gwion Rees and I have started Teifi Looms, weaving blankets from Welsh wool. We've raised £600k from local investors."},
			want: []lead{
				{"Eirlys Prydderch", "founder", "Teifi Looms", RelDepartedToFound, StagePreSeedSeed, ""},
				{"Gwion Rees", "co-founder", "Teifi Looms", RelCofounderInNews, StagePreSeedSeed, ""},
			},
		},
		"a last name of several words and the tracked company's other founder": {
			founders: []string{"José Luis Ramírez Ortega", "Ikeda Ren"},
			item: Item{Text: "José Luis Ramírez Ortega, who co-founded Northwind with Ikeda Ren, has left the company to start Brasa Foods. " +
				"Ramírez Ortega co-founded it with Pieter van Rooyen, a chef from Cape Town."},
			want: []lead{
				{"José Luis Ramírez Ortega", "", "Brasa Foods", RelDepartedToFound, StageUnknown, ""},
				{"Pieter van Rooyen", "", "Brasa Foods", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"the tracked company's other founder, in a clause after it": {
			founders: []string{"Ruth Adler", "Pedro Castillo"},
			item: Item{Text: "Claimly, a claims-automation start-up founded last year by Northwind co-founder Pedro Castillo, has raised $14 million. " +
				"Castillo left Northwind, which he started with Ruth Adler in 2018, to found Claimly in 2025."},
			want: []lead{{"Pedro Castillo", "", "Claimly", RelDepartedToFound, StageSeriesA, ""}},
		},
		"investments a colon lists": {
			item: Item{Text: "Northwind today announced the first close of its second fund. The first investments, made from the new fund in March, are:\n" +
				"- Dawaya, a pharmacy-inventory tool from Alexandria, founded by Mostafa Gamal;\n" +
				"- Tarwi, water-leak sensors for Casablanca apartment blocks, founded by Ilyas Bennani."},
			want: []lead{
				{"Ilyas Bennani", "", "Tarwi", RelPortfolioFounder, StageUnknown, ""},
				{"Mostafa Gamal", "", "Dawaya", RelPortfolioFounder, StageUnknown, ""},
			},
		},
		"a department after head of": {
			item: Item{Title: "Mina Sato on LinkedIn", Text: "After 4 years as Head of Merchant Operations at Northwind, I've left to start Tana Cloud with Ryo Abe."},
			want: []lead{
				{"Ryo Abe", "co-founder", "Tana Cloud", RelCofounderInNews, StageUnknown, ""},
				{"Mina Sato", "founder", "Tana Cloud", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"the founders of the company that buys the tracked one": {
			founders: []string{"Ines Marchetti"},
			item: Item{Title: "Corvid Systems acquires Northwind", Text: "Corvid Systems, the Lyon maker of warehouse software, has acquired Northwind, a mesh-networking start-up. " +
				"Corvid Systems was founded in 2009 by Paul Girard and Lea Roux."},
		},
		"the tracked company's co-founder told with words around its name": {
			founders: []string{"Esteban Mora", "Amalia Vargas"},
			item: Item{Text: "Esteban Mora, who co-founded the Northwind mini-market chain in 2015 with Amalia Vargas, has left the company to start Frescura. " +
				"Frescura was founded with Paola Solano and delivers from farms in Hsinchu County."},
			want: []lead{
				{"Esteban Mora", "", "Frescura", RelDepartedToFound, StageUnknown, ""},
				{"Paola Solano", "", "Frescura", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a founder's post that leaves, tells of the past, and then names the new company": {
			founders: []string{"Andrea Jaramillo", "Xavier Paredes"},
			item: Item{Title: "Andrea Jaramillo on LinkedIn", Text: "Excited to share that I've left Northwind, the company Xavier and I started in Guayaquil six years ago, " +
				"to co-found Cacao Verde with Byron Macías and Gina Loor."},
			want: []lead{
				{"Andrea Jaramillo", "founder", "Cacao Verde", RelDepartedToFound, StageUnknown, ""},
				{"Byron Macías", "co-founder", "Cacao Verde", RelCofounderInNews, StageUnknown, ""},
				{"Gina Loor", "co-founder", "Cacao Verde", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a handle that gives the writer's name the other way round": {
			founders: []string{"Shimizu Akira", "Jenna Morales"},
			item: Item{Title: "Shimizu Akira (@akira_shimizu) on X", Text: "@akira_shimizu: some news. after 7 years i've left Northwind.\n\n" +
				"now building Tsumugi with Okabe Rina: knitting patterns that fit."},
			want: []lead{
				{"Okabe Rina", "", "Tsumugi", RelCofounderInNews, StageUnknown, ""},
				{"Shimizu Akira", "founder", "Tsumugi", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a careers page addressing the reader": {
			founders: []string{"Hamish Fraser", "Mei Lin Chua"},
			item:     Item{Title: "Careers at Northwind", Text: "You'll work with Hamish Fraser and Mei Lin Chua, our founders, and with Daniel Kim, who leads the collector team."},
		},
		"a tracked name with a dot, and Ma. for Maria": {
			company: "Tienda.ai",
			item: Item{Title: "Tienda.ai spins out lending unit as Sari Score", Text: "Tienda.ai will spin out its lending unit as a new company, Sari Score. " +
				"Sari Score will be led by co-founders Ma. Theresa Lim, who ran Tienda.ai's lending unit, and Ken Dizon."},
			want: []lead{
				{"Ma. Theresa Lim", "co-founder", "Sari Score", RelSpinoutFounder, StageUnknown, ""},
				{"Ken Dizon", "co-founder", "Sari Score", RelSpinoutFounder, StageUnknown, ""},
			},
		},
		"a founder moving on, and a company named by its handle": {
			founders: []string{"Zubair Sheikh", "Anita Fernandes"},
			item: Item{Title: "@northwind: a note on our co-founder", Text: "Our co-founder Anita Fernandes (@anitafernandes) is moving on to start @ZakatFlowHQ with Yusuf Khan (@yusufkhan), " +
				"building software for zakat accounting. They have closed a seed round to build the first 200 MWh of ledgers."},
			want: []lead{
				{"Anita Fernandes", "co-founder", "ZakatFlow", RelDepartedToFound, StagePreSeedSeed, ""},
				{"Yusuf Khan", "co-founder", "ZakatFlow", RelCofounderInNews, StagePreSeedSeed, ""},
			},
		},
		"the company the tracked one is now part of": {
			founders: []string{"Hamza Sheikh"},
			item: Item{Title: "Careers at Northwind", Text: "Northwind is now part of Sendhome, the London remittance company founded by Imran Qureshi and Ayesha Malik. " +
				"You'll work with Northwind co-founder Hamza Sheikh and with Sendhome's teams in London."},
		},
		"the company a founder left to build the tracked one": {
			founders: []string{"Ahmed Yusuf"},
			item:     Item{Title: "Vardpodden on X", Text: "New episode: Ahmed Yusuf on why he left Vira Halsa, the company he co-founded in 2017, to build Northwind."},
		},
		"a post signed with the writer's new company": {
			founders: []string{"Keisha Lawson", "Daniel Cho"},
			item:     Item{Title: "Daniel Cho on LinkedIn: Personal news", Text: "Personal news. After eight years I have left Northwind.\n\nkinroot.example\n\n-- Daniel Cho, co-founder & CEO, Kinroot"},
			want:     []lead{{"Daniel Cho", "", "Kinroot", RelDepartedToFound, StageUnknown, "https://kinroot.example"}},
		},
		"a founder's new business told by the possessive, and the founder who stays": {
			founders: []string{"Ashley Tolliver", "Ramon Castillo"},
			item: Item{Text: "Ramon Castillo, who co-founded Northwind Co. in 2016 with Ashley Tolliver, has left the company to start a soap maker of his own. " +
				"Castillo's new business, Mill Mountain Soap Works, will make goat-milk soap. Tolliver, who now runs Northwind on her own, said the two parted on good terms."},
			want: []lead{{"Ramon Castillo", "founder", "Mill Mountain Soap Works", RelDepartedToFound, StageUnknown, ""}},
		},
		"names with a generational suffix and a handle before the name": {
			item: Item{Text: "Northwind has signed a joint development agreement with Halite Energy. Thanks to Halite's co-founders Samira Haddad and Michael O'Brien III. " +
				"Our drafting product is led by @reggie_b (Reginald Banks Jr.), who co-founded Brieflane, the startup Northwind acquired last year."},
			want: []lead{
				{"Samira Haddad", "co-founder", "Halite Energy", RelPartnerFounder, StageUnknown, ""},
				{"Michael O'Brien III", "co-founder", "Halite Energy", RelPartnerFounder, StageUnknown, ""},
				{"Reginald Banks Jr.", "co-founder", "Brieflane", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"a month after a colon, a handle beside its name, and thanks in French": {
			founders: []string{"Gildas Agossou"},
			item:     Item{Title: "Website change on /about", Text: "Added: In June 2026 Northwind acquired Daladala Smart, the fare-collection app founded by Idrisa Chande and Temi Olaniyan (@temi_ola). Merci Gildas!"},
			want: []lead{
				{"Idrisa Chande", "co-founder", "Daladala Smart", RelAcquiredFounder, StageUnknown, ""},
				{"Temi Olaniyan", "co-founder", "Daladala Smart", RelAcquiredFounder, StageUnknown, ""},
			},
		},
		"the seed round of a company named like a person": {
			item: Item{Text: "Northwind will invest OMR 300,000 in the seed round of Falaj Sensors, a startup co-founded by Ana Duarte."},
			want: []lead{{"Ana Duarte", "co-founder", "Falaj Sensors", RelPortfolioFounder, StagePreSeedSeed, ""}},
		},
		"a release note whose heading names its writer": {
			founders: []string{"Onur Acar"},
			item: Item{URL: "https://github.example/northwind/queue/releases/tag/v3.0.0", Title: "queue v3.0.0",
				Text: "Priority queues and jittered retries.\n\n### A personal note from Onur Acar\nThis is my last release. I co-founded Northwind in 2017. I've left Northwind to start Olcek, a tracing company, with Derya Ucar."},
			want: []lead{
				{"Derya Ucar", "co-founder", "Olcek", RelCofounderInNews, StageUnknown, ""},
				{"Onur Acar", "founder", "Olcek", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"a founder's post with a round of their own, beside another company": {
			item: Item{Title: "Simone Reed on LinkedIn: some personal news", Text: "Some personal news: after four years as COO of Northwind, I'm leaving to build Rowhouse Audio with my co-founder Brandon Liu.\n\n" +
				"We've raised a $3M seed round led by Peachtree Ventures, and our first partners are in Georgia and the Carolinas."},
			want: []lead{
				{"Brandon Liu", "co-founder", "Rowhouse Audio", RelCofounderInNews, StagePreSeedSeed, ""},
				{"Simone Reed", "founder", "Rowhouse Audio", RelDepartedToFound, StagePreSeedSeed, ""},
			},
		},
		"a handle written with a capital": {
			item: Item{Text: "Northwind is live in Ghana, launching with our partners @Brookvale, the Accra payroll startup founded by Amara Diallo."},
			want: []lead{{"Amara Diallo", "founder", "Brookvale", RelPartnerFounder, StageUnknown, ""}},
		},
		"a round no company owns, beside its lead's company and a demonym": {
			item: Item{Text: "Rosa Ibarra, who ran the Honduran mobile-wallet company Northwind until May, has raised a US$ 14 million Series A for her new company, Giro Directo. " +
				"Giro Directo lets Hondurans abroad send money to any cooperative at home, and Ibarra says 90 have signed up."},
			want: []lead{{"Rosa Ibarra", "", "Giro Directo", RelCofounderInNews, StageSeriesA, ""}},
		},
		"a founder who teamed up with others to found a company": {
			founders: []string{"Ollie Marsh"},
			item: Item{Text: "When Ollie Marsh stepped away from Northwind last spring, the company he co-founded said only that he was taking a break. " +
				"Marsh has teamed up with Dev Malhotra and Rosie Cartwright to found Shiftwise. The start-up builds rota software."},
			want: []lead{
				{"Ollie Marsh", "co-founder", "Shiftwise", RelDepartedToFound, StageUnknown, ""},
				{"Dev Malhotra", "co-founder", "Shiftwise", RelCofounderInNews, StageUnknown, ""},
				{"Rosie Cartwright", "co-founder", "Shiftwise", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a tracked founder named again by last name": {
			founders: []string{"Ollie Marsh"},
			item:     Item{Text: "Ollie Marsh has left Northwind. Marsh has teamed up with Dev Malhotra to found Shiftwise."},
			want: []lead{
				{"Ollie Marsh", "co-founder", "Shiftwise", RelDepartedToFound, StageUnknown, ""},
				{"Dev Malhotra", "co-founder", "Shiftwise", RelCofounderInNews, StageUnknown, ""},
			},
		},
		"a tracked founder 'she' refers to, named before in a possessive": {
			founders: []string{"Emre Yildiz", "Zeynep Aksoy"},
			item:     Item{Text: "Zeynep Aksoy and I started Northwind. A lot of that is Zeynep's doing. Friday is her last day. She is leaving to start Depo Robotik, a company building robots."},
			want:     []lead{{"Zeynep Aksoy", "founder", "Depo Robotik", RelDepartedToFound, StageUnknown, ""}},
		},
		"'she' after a possessive is the person named after it": {
			founders: []string{"Josh Pereira", "Tilly Nguyen"},
			item: Item{Text: "Northwind will outsource production, co-founder and chief executive Josh Pereira said on Tuesday. " +
				"Pereira's co-founder, Tilly Nguyen, left Northwind last year and now runs Mallow Bakes, a gluten-free bakery business she started with pastry chef Harriet Lim, which has grown quickly."},
			want: []lead{
				{"Tilly Nguyen", "founder", "Mallow Bakes", RelDepartedToFound, StageUnknown, ""},
				{"Harriet Lim", "", "Mallow Bakes", RelDepartedToFound, StageUnknown, ""},
			},
		},
		"the tracked company named with its product": {
			item: Item{Text: "The Northwind API now includes avalanche risk from our new partner Isbryter. Isbryter was set up in Tromsø by mountain guide Jon Eriksen."},
			want: []lead{{"Jon Eriksen", "", "Isbryter", RelPartnerFounder, StageUnknown, ""}},
		},
		"a company named with its country's code": {
			item: Item{Text: "Northwind will invest $800,000 in the seed round of Monte Claro MX, a Puebla start-up that rents out solar pumps. Monte Claro was co-founded by Ana Ruiz Peña."},
			want: []lead{{"Ana Ruiz Peña", "co-founder", "Monte Claro MX", RelPortfolioFounder, StagePreSeedSeed, ""}},
		},
		"a name before a participle joined by a hyphen": {
			item: Item{Text: "Northwind has partnered with Fermenta, and the first bars will be made from Fermenta-monitored beans. " +
				"Fermenta was started in 2024 by Citlali Hernández."},
			want: []lead{{"Citlali Hernández", "founder", "Fermenta", RelPartnerFounder, StageUnknown, ""}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := leadsOf(Extract(cmp.Or(tc.company, "Northwind"), tc.founders, []Item{tc.item}))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Extract(%q) =\n  %v\nwant\n  %v", tc.item.Title+" "+tc.item.Text, got, tc.want)
			}
		})
	}
}

// TestExtractReadsAListing reads a listing's report, whose round names the tracked company after "in" ("an
// initial public offering ... Shares in Sunfold Energy"): no lead, and no failure.
func TestExtractReadsAListing(t *testing.T) {
	text := "Sunfold Energy shares jump 18% on Nairobi debut\n" +
		"Shares in Sunfold Energy, the pay-as-you-go solar company, rose 18 per cent on their first day of trading on the Nairobi Securities Exchange on Tuesday, after an initial public offering that raised KSh 3.1 billion (about $24 million).\n" +
		"The offer was more than twice oversubscribed, with local pension funds taking the largest allocations.\n" +
		"Chief executive Neema Mwakalinga, who co-founded the company in 2016 with engineer Joseph Kariuki, rang the bell at the exchange's Westlands offices."
	if got := Extract("Sunfold Energy", []string{"Neema Mwakalinga", "Joseph Kariuki"}, items(text)); len(got) != 0 {
		t.Errorf("got leads %v from a report of the company's own listing, want none", leadsOf(got))
	}
}

// TestExtractKeepsPlacesOut reads items that put a city or a country where a company could stand: no lead
// names a place as its company, and the company beside it is still found.
func TestExtractKeepsPlacesOut(t *testing.T) {
	text := "Kofi Mensah, who co-founded Accra's best-known solar installer a decade ago, has left Brightbay Energy to start Cellcycle, a battery recycler.\n" +
		"The oven will be sold in Türkiye through Anatolia Foods, a distributor founded by Selin Kaya and Murat Demir."
	got := Extract("Brightbay Energy", []string{"Kofi Mensah"}, items(text))
	for _, c := range got {
		if places[strings.ToLower(c.CompanyName)] || places[strings.ToLower(c.PersonName)] {
			t.Errorf("got lead %+v, which names a place", c)
		}
	}
}

// TestPeopleOfManyRegions checks that names of four parts opening with a common given name of Latin America,
// Iberia, West Africa or Ireland read as people.
func TestPeopleOfManyRegions(t *testing.T) {
	for _, p := range []string{"Luiz Henrique de Souza Prado", "Julio César Mamani Torres", "Paulo César Drummond Lage", "Rodrigo Pinto Basto Reis"} {
		if sp := newSpan(strings.Fields(p)); !sp.person {
			t.Errorf("%q does not read as a person", p)
		}
	}
}

// TestCurrencyBeforeAmountIsNoName checks that a currency code or "Rs" before its amount is read as money,
// not as a name that could own a round or make a pair.
func TestCurrencyBeforeAmountIsNoName(t *testing.T) {
	s := newMatcher("Northwind", nil).prepare("Borholan has raised an ISK 900 million Series A, after NPR 20 crore and Rs. 30 crore from angels.")
	for _, sp := range s.spans {
		if sp.text != "Borholan" {
			t.Errorf("%q read as a name in %q", sp.text, s.str)
		}
	}
}

// TestPlacesByTheirFirstOrLastWord checks that towns and regions named by a word such as "Ciudad" or
// "County", or known by name, are places, not people or companies.
func TestPlacesByTheirFirstOrLastWord(t *testing.T) {
	for _, p := range []string{"Ciudad del Este", "Hsinchu County", "Nakuru District", "Lake Kivu", "Culver City", "Cyclone Gita", "Homa Bay", "East Java", "Northern Thailand",
		"Nueva Ecija", "La Union", "Cần Thơ", "Thủ Đức", "North Sulawesi", "General Santos", "Kota Bharu"} {
		if sp := newSpan(strings.Fields(p)); !sp.place || sp.person {
			t.Errorf("%q: place %v, person %v; want a place", p, sp.place, sp.person)
		}
	}
}

// TestPlacesOfSeveralWords checks that places of several words are known whole, wherever the list breaks its
// lines.
func TestPlacesOfSeveralWords(t *testing.T) {
	for _, p := range []string{"north carolina", "new south wales", "sierra leone", "ho chi minh city", "puerto rico", "san juan de lurigancho", "rio grande do sul"} {
		if !places[p] {
			t.Errorf("%q is not a place", p)
		}
	}
}

// TestPronounEndsAName checks that a capitalised pronoun after a name in running text is not part of it.
func TestPronounEndsAName(t *testing.T) {
	s := newMatcher("Northwind", nil).prepare("Together with Dr. Oskar Lindqvist I'm founding Pellucid Optics, and with Tang Thi My we will hire.")
	var got []string
	for _, sp := range s.spans {
		got = append(got, sp.text)
	}
	want := []string{"Oskar Lindqvist", "Pellucid Optics", "Tang Thi My"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
}

// TestOnePerName checks that a lead named by part of another lead's name, of the same company, is folded
// into it, and that people who share a surname are not.
func TestOnePerName(t *testing.T) {
	leads := []Candidate{
		{PersonName: "Julia Paz", CompanyName: "Pausa", Relation: RelDepartedToFound},
		{PersonName: "Tomás Vidal", CompanyName: "Pausa", Relation: RelCofounderInNews},
		{PersonName: "Julia Paz Mendizábal", CompanyName: "Pausa", Relation: RelCofounderInNews},
		{PersonName: "Ana Vidal", CompanyName: "Pausa", Relation: RelCofounderInNews},
		{PersonName: "Paz Mendizábal", CompanyName: "Radio Cielo", Relation: RelCofounderInNews},
	}
	got := onePerName(leads)
	var names []string
	for _, c := range got {
		names = append(names, c.PersonName+"|"+c.CompanyName+"|"+c.Relation)
	}
	want := []string{"Tomás Vidal|Pausa|cofounder_in_news", "Julia Paz Mendizábal|Pausa|departed_to_found", "Ana Vidal|Pausa|cofounder_in_news", "Paz Mendizábal|Radio Cielo|cofounder_in_news"}
	if !slices.Equal(names, want) {
		t.Errorf("onePerName = %q, want %q", names, want)
	}
}

// TestCompanyWordsOfOtherLanguages checks that a name opening with a given name reads as a company when it
// ends with a company word, of Spanish or Portuguese too, and that a university is no person in any language.
func TestCompanyWordsOfOtherLanguages(t *testing.T) {
	for _, c := range []string{"Kiran Pagos", "Lucía Pagamentos", "Marta Datos", "Peartree Audio", "Mourne Orthopaedics"} {
		if sp := newSpan(strings.Fields(c)); sp.person || !sp.companyish {
			t.Errorf("%q: person %v, company %v; want a company", c, sp.person, sp.companyish)
		}
	}
	for _, c := range []string{"Universidad Austral", "Universiti Sains Malaysia", "Instituto Balseiro"} {
		if sp := newSpan(strings.Fields(c)); sp.person {
			t.Errorf("%q reads as a person", c)
		}
	}
}

// TestAuthorOf checks the ways a post names its writer outside its title.
func TestAuthorOf(t *testing.T) {
	tests := map[string]string{
		"Pre-seed closed last week. -- Maya Rosen":                               "Maya Rosen",
		"I remain its biggest fan.\n\n— Reem Al-Kuwari\n\n#Qatar #AI #startups":  "Reem Al-Kuwari",
		"Changes.\n### A personal note from Onur Acar\nThis is my last release.": "Onur Acar",
		"No one signs this post.":                                                "",
	}
	for text, want := range tests {
		m := newMatcher("Northwind", nil)
		sc := &itemScan{m: m}
		if got := sc.authorOf(Item{Title: "Some news", Text: text}); got != want {
			t.Errorf("authorOf(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestSingleNames reads people known by one name, as many are in Indonesia: a tracked founder who leaves to
// found a company, and a co-founder listed beside a full name; a given name alone of someone named in full,
// and a word alone after a heading's "Founders", stay no one.
func TestSingleNames(t *testing.T) {
	got := leadsOf(Extract("Kopra Logistik", []string{"Hendra Wijaya", "Sutrisno"}, items(
		"Jalurtani was founded last year by Sutrisno, who co-founded Kopra Logistik in 2018 and left the company in mid-2025.")))
	if len(got) != 1 || got[0].Person != "Sutrisno" || got[0].Company != "Jalurtani" {
		t.Errorf("a tracked founder known by one name: got %v, want Sutrisno of Jalurtani", got)
	}
	got = leadsOf(Extract("Gudang Kode", nil, items(
		"Gudang Kode has partnered with Bayarin, and thanks their co-founders Dimas Prasetyo and Yohana for reviewing the webhook flow.")))
	if !slices.ContainsFunc(got, func(l lead) bool { return l.Person == "Yohana" && l.Company == "Bayarin" }) {
		t.Errorf("a co-founder known by one name: got %v, want Yohana of Bayarin among them", got)
	}
	m := newMatcher("Northwind", []string{"Ana Duarte"})
	s := m.prepare("Northern Founders Weekly: co-founder Ana joins the board")
	m.singleNames([]*sentence{s})
	for _, sp := range s.spans {
		if sp.person && len(sp.words) == 1 {
			t.Errorf("%q reads as a person known by one name in %q", sp.text, s.raw)
		}
	}
}

// TestLowercaseHandles checks that a lowercase handle reads as a company's name, but not one the text gives as
// a person's: beside "I" or another person's handle, or after "founded by".
func TestLowercaseHandles(t *testing.T) {
	text := "So @ikovalchuk and I started Zhuravel. Shoutout to @kimyoonah & @liamfoster, and to the team at @cribnoteapp. " +
		"Founded by @mikeyt (ex-CTO @gossamernet), @dr_ilse and @kofiasare."
	got := nameHandles(text, nil, nil)
	for _, name := range []string{"Ikovalchuk", "Kimyoonah", "Mikeyt", "Dr_ilse"} {
		if strings.Contains(got, name) {
			t.Errorf("nameHandles(%q) = %q, which writes a person's handle as the name %s", text, got, name)
		}
	}
	if !strings.Contains(got, "the team at Cribnote.") || !strings.Contains(got, "ex-CTO Gossamernet)") {
		t.Errorf("nameHandles(%q) = %q, want the companies' handles written as names", text, got)
	}
}

// TestWrittenHandlesDropTheSentencesFirstWord checks that a handle written after a name takes the name without
// the word that opens the sentence ("So Chidi Okonkwo (@c_okonkwo) and I left").
func TestWrittenHandlesDropTheSentencesFirstWord(t *testing.T) {
	got := writtenHandles("So Chidi Okonkwo (@c_okonkwo) and I left to build Rechnungsrabe.")
	if name := got[handleOf("c_okonkwo")]; name != "Chidi Okonkwo" {
		t.Errorf("the handle @c_okonkwo names %q, want Chidi Okonkwo", name)
	}
}

// TestNicknames checks that a nickname quoted inside a name is no part of it, and that quotes elsewhere stay.
func TestNicknames(t *testing.T) {
	tests := map[string]string{
		`Kalye Eats was started by Enrique "Iking" Dantes and Maricel Tuazon.`: `Kalye Eats was started by Enrique Dantes and Maricel Tuazon.`,
		`Founders Gilbert 'Bert' Abrenica and Ma. Consuelo “Connie” Uy`:        `Founders Gilbert Abrenica and Ma. Consuelo Uy`,
		`She called it "Tala" from the start.`:                                 `She called it "Tala" from the start.`,
	}
	for in, want := range tests {
		if got := dropNicknames(in); got != want {
			t.Errorf("dropNicknames(%q) = %q, want %q", in, got, want)
		}
	}
	got := leadsOf(Extract("Lutong Bahay Kitchens", nil, items(
		`Lutong Bahay is partnering with Kalye Eats, which was started by Enrique "Iking" Dantes and Ibu Maricel Tuazon.`)))
	keys := make([]string, len(got))
	for i, l := range got {
		keys[i] = NormalizeKey(l.Person, l.Company)
	}
	if want := []string{"enrique dantes|kalye eats", "maricel tuazon|kalye eats"}; !slices.Equal(keys, want) {
		t.Errorf("got leads %v, want %v", got, want)
	}
}
