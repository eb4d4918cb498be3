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
		"case and spaces":           {"  JANE   doe ", "aurora ROBOTICS", "jane doe|aurora robotics"},
		"Inc with period":           {"Jane Doe", "Aurora Robotics, Inc.", "jane doe|aurora robotics"},
		"GmbH":                      {"Jane Doe", "Aurora GmbH", "jane doe|aurora"},
		"Ltd and Limited":           {"Jane Doe", "Aurora Labs Limited", "jane doe|aurora labs"},
		"LLC":                       {"Jane Doe", "Aurora LLC", "jane doe|aurora"},
		"Corp.":                     {"Jane Doe", "Aurora Corp.", "jane doe|aurora"},
		"several legal suffixes":    {"Jane Doe", "Aurora Holdings Co. Ltd", "jane doe|aurora holdings"},
		"Labs is part of the name":  {"Jane Doe", "Beacon Labs", "jane doe|beacon labs"},
		"leading article":           {"Jane Doe", "The Browser Company", "jane doe|browser company"},
		"apostrophe and hyphen":     {"Mary-Kate O'Neil", "Kite", "mary kate oneil|kite"},
		"curly apostrophe":          {"Mary-Kate O’Neil", "Kite", "mary kate oneil|kite"},
		"accents":                   {"José Álvarez", "Señor Café", "jose alvarez|senor cafe"},
		"honorific and suffix":      {"Dr. Li Wei Jr.", "Kite", "li wei|kite"},
		"initials":                  {"J. R. Smith", "Kite", "j r smith|kite"},
		"punctuation in company":    {"Sam Lee", "Delta.AI", "sam lee|delta ai"},
		"legal word alone is kept":  {"Sam Lee", "Inc", "sam lee|inc"},
		"ampersand becomes a space": {"Sam Lee", "Smith & Nephew", "sam lee|smith nephew"},
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
		"seed round":             {"Aurora raised a $3M seed round.", StagePreSeedSeed},
		"pre-seed":               {"a $500k pre-seed", StagePreSeedSeed},
		"preseed":                {"closed its preseed", StagePreSeedSeed},
		"angel":                  {"backed by angel investors", StagePreSeedSeed},
		"series A":               {"raises $12M Series A", StageSeriesA},
		"series-a lower case":    {"its series-a funding", StageSeriesA},
		"series B":               {"a $40M Series B led by Acme", StageSeriesBPlus},
		"series D":               {"Series D extension", StageSeriesBPlus},
		"growth round":           {"a growth round from Acme", StageSeriesBPlus},
		"IPO":                    {"files for an IPO", StageSeriesBPlus},
		"went public":            {"the company went public in 2021", StageSeriesBPlus},
		"most advanced wins":     {"after a seed round in 2024 it raised a Series A", StageSeriesA},
		"amount only, under $5M": {"raised $2.5 million from investors", StagePreSeedSeed},
		"amount only, $5M":       {"Fieldgrid raised $5M.", StageSeriesA},
		"amount only, $10M":      {"raised $10M from investors", StageSeriesA},
		"amount only, $25M":      {"has raised US$25 million in funding", StageSeriesBPlus},
		"amount in thousands":    {"closed a $750k round", StagePreSeedSeed},
		"amount with separators": {"raised $4,500,000 from angels in Lisbon", StagePreSeedSeed},
		"euros at a rough rate":  {"raised €4.8M in funding", StageSeriesA},
		"pounds at a rough rate": {"secured £20m of investment", StageSeriesBPlus},
		"currency code":          {"raised EUR 3 million", StagePreSeedSeed},
		"currency named after":   {"raised 30 million euros", StageSeriesBPlus},
		"billion":                {"raised $1.2bn", StageSeriesBPlus},
		"round beats amount":     {"a $30M seed round", StagePreSeedSeed},
		"named seed round":       {"Fieldgrid closed a $2.5 million seed round.", StagePreSeedSeed},
		"valuation is no amount": {"is valued at $40M after raising money", StageUnknown},
		"revenue is no amount":   {"reached $12M in annual revenue after raising money", StageUnknown},
		"price is no amount":     {"sells sensors at $300 each, funded by grants", StageUnknown},
		"no funding words":       {"a $20M contract with the city", StageUnknown},
		"stock market listing":   {"plans a stock market listing next year", StageSeriesBPlus},
		"a series of":            {"a series of product launches", StageUnknown},
		"seedling is not seed":   {"a seedling nursery", StageUnknown},
		"revenue growth":         {"strong revenue growth", StageUnknown},
		"empty":                  {"", StageUnknown},
		"series without a round": {"a TV series about founders", StageUnknown},
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
		"the tracked company's round is not the lead's": {
			"Northwind raised a $30M Series B. Former Northwind engineer Ana Duarte launches Fieldgrid.", StageUnknown},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Extract("Northwind", nil, items(tc.text))
			if len(got) == 0 {
				t.Fatalf("Extract(%q) found no lead", tc.text)
			}
			if got[0].CompanyName != "Fieldgrid" || got[0].Stage != tc.want {
				t.Errorf("Extract(%q) = %v, want Fieldgrid at %s", tc.text, leadsOf(got), tc.want)
			}
		})
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
				{"Ines Castillo", "", "Gradebook", RelCofounderInNews, StageUnknown, ""},
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
