package taxonomy

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func matchPaths(as []Assignment) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Path
	}
	return out
}

func TestBuiltinResolveTerm(t *testing.T) {
	c := NewBuiltin(Default())
	tests := map[string]struct {
		term string
		want []string // exact matches, best first
	}{
		"broad sector":             {"fintech", []string{"Financial Services > Fintech"}},
		"broad sector healthcare":  {"healthcare", []string{"Healthcare"}},
		"broad sector climate":     {"climate", []string{"Climate & Energy"}},
		"case":                     {"FinTech", []string{"Financial Services > Fintech"}},
		"plural":                   {"payment", []string{"Financial Services > Fintech > Payments"}},
		"multi-word":               {"developer tools", []string{"Software > Developer Tools"}},
		"narrow":                   {"b2b payments", []string{"Financial Services > Fintech > Payments > B2B Payments"}},
		"word order":               {"payments b2b", []string{"Financial Services > Fintech > Payments > B2B Payments"}},
		"stopwords":                {"AI for radiology", []string{"Healthcare > Medtech > Medical Imaging"}},
		"qualified narrows":        {"fintech lending", []string{"Financial Services > Fintech > Lending"}},
		"descriptive term":         {"checkout", []string{"Financial Services > Fintech > Payments"}},
		"typo":                     {"fintec", []string{"Financial Services > Fintech"}},
		"transposition":            {"paymnets", []string{"Financial Services > Fintech > Payments"}},
		"two typos in a long word": {"cybrsecurty", []string{"Software > Cybersecurity"}},
		"split word":               {"fin tech", []string{"Financial Services > Fintech"}},
		"joined words":             {"cyberinsurance", []string{"Financial Services > Insurance > Insurtech > Cyber Insurance"}},
		"hyphenated":               {"e-commerce", []string{"Consumer > E-commerce"}},
		"extra unknown word":       {"biotech startups in berlin", []string{"Healthcare > Biotech"}},
		"generic word with sector": {"fintech software", []string{"Financial Services > Fintech"}},
		"generic sector name":      {"software", []string{"Software"}},
		"generic words only widen": {"software platform", []string{"Software"}},
		"generic platform":         {"platform", []string{}},
		"generic services":         {"services", []string{}},
		"generic company":          {"company", []string{}},
		"generic solutions":        {"solutions", []string{}},
		"generic several":          {"digital solutions company", []string{}},
		"nothing matches":          {"underwater basket weaving", []string{}},
		"only stopwords":           {"for the", []string{}},
		"two sectors":              {"climate fintech", []string{"Financial Services > Fintech", "Climate & Energy"}},
		"defence spelling":         {"defence", []string{"Government & Defense > Defense Tech"}},
		"abbreviation":             {"EV charging", []string{"Mobility & Transportation > Electric Vehicles > EV Charging"}},
		"possessive":               {"women's health", []string{"Healthcare > Digital Health > Women's Health"}},
		"verb phrasing":            {"companies building rockets", []string{"Space > Launch"}},
		"generic word left out":    {"AI startups", []string{"Artificial Intelligence"}},
		"siblings give way":        {"farming", []string{"Food & Agriculture > Agtech"}},
		"ambiguous word":           {"banking", []string{"Financial Services > Fintech > Digital Banking", "Financial Services > Fintech > Banking Infrastructure"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := c.ResolveTerm(context.Background(), tc.term)
			if err != nil {
				t.Fatal(err)
			}
			if paths := matchPaths(got); !slices.Equal(paths, tc.want) {
				t.Errorf("ResolveTerm(%q) = %v, want %v", tc.term, got, tc.want)
			}
			for _, a := range got {
				if a.Score < TermThreshold || a.Score > 1 {
					t.Errorf("ResolveTerm(%q): %q scored %v, want within [%v, 1]", tc.term, a.Path, a.Score, TermThreshold)
				}
			}
		})
	}
}

// A term made of generic words must never map to a large share of the taxonomy.
func TestGenericTermsStayNarrow(t *testing.T) {
	tx := Default()
	for _, term := range []string{"software", "saas", "platform", "tech", "services", "solutions", "company", "digital platform", "software solutions", "b2b"} {
		res := Resolve(context.Background(), tx, nil, []string{term})
		if len(res.Paths) > tx.Len()/4 {
			t.Errorf("%q accepted %d of %d categories, want at most a quarter", term, len(res.Paths), tx.Len())
		}
	}
}

func TestBuiltinClassifyCompany(t *testing.T) {
	c := NewBuiltin(Default())
	tests := map[string]struct {
		name, summary, text string
		want                string // best assignment; empty for none
	}{
		"payments": {"Ledgerly", "Payments infrastructure for online businesses",
			"Accept card payments, wallets and bank transfers at checkout. Our payment gateway handles acquiring, fraud checks and payouts to merchants in 40 countries.",
			"Financial Services > Fintech > Payments"},
		"radiology": {"Radiant Health AI", "AI that reads chest X-rays and CT scans for radiologists",
			"Our FDA-cleared software flags urgent findings in medical imaging so radiology departments can prioritise worklists. Trusted by 200 hospitals.",
			"Healthcare > Medtech > Medical Imaging"},
		"virtual power plant": {"Voltgrid", "Software for virtual power plants",
			"We aggregate home batteries, heat pumps and EV chargers to provide demand response and grid services to utilities.",
			"Climate & Energy > Grid & Energy Management"},
		"endpoint security": {"Shieldline", "Endpoint detection and response for mid-market companies",
			"Our EDR agent stops ransomware and malware on laptops and servers, with a 24/7 managed SOC.",
			"Software > Cybersecurity > Endpoint Security"},
		"data pipelines": {"Pipewise", "Open source data pipelines",
			"Ingest data from 300 connectors into your data warehouse with ELT and change data capture. Built for data engineers.",
			"Software > Data & Analytics > Data Integration & ETL"},
		"field robots": {"Harvest Robotics", "Autonomous harvesting robots for strawberry growers",
			"Computer vision guides our robots to pick ripe fruit in greenhouses, cutting labour costs for farms.",
			"Robotics > Field Robotics"},
		"contracts": {"Clausebase", "AI contract review for in-house legal teams",
			"Redline NDAs, extract clauses and manage obligations across your contract repository.",
			"Legal > Legal Tech > Contract Management"},
		"tutoring": {"Tutorly", "Online tutoring for students",
			"We connect students with expert tutors for test prep, SAT practice and homework help.",
			"Education > Tutoring & Test Prep"},
		"freight": {"Freightline", "Digital freight brokerage",
			"We match shippers with trucking carriers and offer instant quotes for truckload and LTL shipments.",
			"Logistics & Supply Chain > Freight & Trucking"},
		"earth observation": {"Orbitscope", "Earth observation satellites with synthetic aperture radar",
			"We deliver geospatial analytics and satellite imagery to insurers, governments and agriculture.",
			"Space > Earth Observation"},
		"alternative protein": {"Peaful", "Plant-based meat made from pea protein",
			"Our plant based burgers and sausages are sold in supermarkets across Europe. Delicious meat alternatives.",
			"Food & Agriculture > Food Tech > Alternative Proteins"},
		"recruiting": {"Hirewise", "Applicant tracking system for growing companies",
			"Recruiting software that helps teams source candidates, schedule interviews and hire faster.",
			"Human Resources > Recruiting & Talent Acquisition"},
		"mental health": {"Kindly Mind", "Online therapy and psychiatry",
			"Licensed therapists treat anxiety and depression by video. Mental health care covered by insurance.",
			"Healthcare > Digital Health > Mental Health"},
		"custody": {"Coinvault", "Institutional digital asset custody",
			"MPC wallets and key management for crypto funds and exchanges. Secure custody of bitcoin and ethereum.",
			"Crypto & Web3 > Wallets & Custody"},
		"construction": {"Buildstack", "Construction management software for general contractors",
			"Scheduling, estimating and job site reporting for builders.",
			"Real Estate > Proptech > Construction Tech"},
		"business lending": {"Lendflow", "Revenue-based financing for SaaS companies",
			"Get working capital in 24 hours without dilution. Non-dilutive capital for startups.",
			"Financial Services > Fintech > Lending > Business Lending"},
		"home insurance": {"Guardian Homes", "Home insurance for renters and homeowners",
			"Buy renters insurance and homeowners insurance online in minutes. Claims paid fast.",
			"Financial Services > Insurance > Insurtech > Property & Auto Insurance"},
		"design tool": {"Framewise", "Collaborative interface design tool",
			"Teams create, test and ship better designs from start to finish: whiteboards, prototyping and design systems.",
			"Software > Business Applications > Design & Creative Tools"},
		"foundation models": {"Northstar Labs", "AI research lab",
			"We train frontier large language models and release open weights models for developers.",
			"Artificial Intelligence > Foundation Models"},
		"nothing specific": {"Acme", "We are a company", "We build great products for our customers and partners.", ""},
		"empty":            {"", "", "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := c.ClassifyCompany(context.Background(), tc.name, tc.summary, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("got %v, want no categories", got)
				}
				return
			}
			if len(got) == 0 || got[0].Path != tc.want {
				t.Fatalf("got %v, want %q first", got, tc.want)
			}
			if len(got) > 3 {
				t.Errorf("got %d assignments, want at most 3", len(got))
			}
			for i, a := range got {
				if a.Score < CompanyThreshold || a.Score > 1 {
					t.Errorf("%q scored %v, want within [%v, 1]", a.Path, a.Score, CompanyThreshold)
				}
				if i > 0 && a.Score > got[i-1].Score {
					t.Errorf("got %v, want best first", got)
				}
				for _, b := range got {
					if a.Path != b.Path && slices.Contains(Default().Descendants(a.Path), b.Path) {
						t.Errorf("got both %q and its descendant %q, want only the more specific", a.Path, b.Path)
					}
				}
			}
		})
	}
}

func TestConcurrentUse(t *testing.T) {
	tx := Default()
	c := NewBuiltin(tx)
	done := make(chan []string)
	for range 8 {
		go func() {
			res := Resolve(context.Background(), tx, c, []string{"fintech", "farming", "cybrsecurty"})
			as, _ := c.ClassifyCompany(context.Background(), "Ledgerly", "Payments infrastructure", "checkout and payouts")
			done <- append(res.Paths, matchPaths(as)...)
		}()
	}
	first := <-done
	for range 7 {
		if got := <-done; !slices.Equal(got, first) {
			t.Errorf("concurrent calls disagree: %v and %v", got, first)
		}
	}
}

// Long website text must not dilute a clear summary, nor let one word repeated many times dominate.
func TestClassifyCompanyLongText(t *testing.T) {
	c := NewBuiltin(Default())
	text := ""
	for range 500 {
		text += "Our team loves coffee and long walks. We are hiring engineers in Lisbon. Game night every Friday! "
	}
	got, err := c.ClassifyCompany(context.Background(), "Paylane", "Payment processing and checkout for online merchants", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Path != "Financial Services > Fintech > Payments" {
		t.Errorf("got %v, want Payments first", got)
	}
}

// TestClassifyMisleadingWords covers words that name a sector in another sense: a company must not be
// placed in a sector on such a word.
func TestClassifyMisleadingWords(t *testing.T) {
	c := NewBuiltin(Default())
	tests := map[string]struct {
		summary string
		want    string // best assignment; empty for none
		never   string // no assignment may lie in this sector
	}{
		"mesh networking is not legal tech": {
			"Meshpoint builds mesh networking radios for off-grid sites; legal-grade audit trails record every link.",
			"Telecommunications > Wireless & 5G", "Legal"},
		"legal-grade logs are developer tools": {
			"Legal-grade audit trails for every deploy: hook it into your CI pipeline and every release is signed and traceable.",
			"Software > Developer Tools > DevOps & CI/CD", "Legal"},
		"cloud kitchens are not cloud infrastructure": {
			"We operate cloud kitchens that cook for delivery-only restaurant brands.",
			"Food & Agriculture > Food Tech > Food Delivery", "Software"},
		"one word is not enough": {
			"We help families save time.", "", "Consumer"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := c.ClassifyCompany(context.Background(), "", tc.summary, "")
			if err != nil {
				t.Fatal(err)
			}
			best := ""
			if len(got) > 0 {
				best = got[0].Path
			}
			if best != tc.want {
				t.Errorf("best %q, want %q (all %v)", best, tc.want, got)
			}
			for _, a := range got {
				if a.Path == tc.never || strings.HasPrefix(a.Path, tc.never+PathSeparator) {
					t.Errorf("assigned %q on a misleading word (all %v)", a.Path, got)
				}
			}
		})
	}
}

func TestParseIgnoreLine(t *testing.T) {
	data := "ignore: legal grade, bank-grade\nignore: solar powered\nLegal | legal, law | lawyers\n"
	tx, err := Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tx.ix.ignore); got != 3 {
		t.Fatalf("%d ignored phrases, want 3", got)
	}
	if got := tx.Len(); got != 1 {
		t.Errorf("%d categories, want 1: an ignore line is no category", got)
	}
}
