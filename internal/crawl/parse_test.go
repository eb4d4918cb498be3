package crawl

import (
	"net/url"
	"slices"
	"testing"
)

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestPageProfiles(t *testing.T) {
	r := &run{
		target: Target{CompanyName: "Skerry Cloud", Founders: []string{"Ana Folau", "Tilde Sørensen"}},
		names:  newNameMatcher("Skerry Cloud"),
	}
	tests := map[string]struct {
		html string
		want []Profile
	}{
		"footer company links": {
			`<footer><a href="https://x.com/skerryhq">X</a> <a href="https://uk.linkedin.com/company/skerry-cloud/?trk=foot">LinkedIn</a></footer>`,
			[]Profile{
				{FieldCompanyTwitter, "https://x.com/skerryhq", "p"},
				{FieldCompanyLinkedIn, "https://www.linkedin.com/company/skerry-cloud", "p"},
			},
		},
		"share and intent links are not profiles": {
			`<footer><a href="https://twitter.com/intent/tweet?text=hi">Tweet</a> <a href="https://x.com/share?url=a">Share</a>
			<a href="https://www.linkedin.com/shareArticle?mini=true">Share</a> <a href="https://www.linkedin.com/sharing/share-offsite/?url=a">Share</a></footer>`,
			nil,
		},
		"posts and repositories are not profiles": {
			`<footer><a href="https://x.com/skerryhq/status/123">Tweet</a> <a href="https://github.com/skerry/engine">Code</a></footer>`,
			nil,
		},
		"founder cards": {
			`<main><div class="card"><h3>Ana Folau</h3><p>CEO</p><a href="https://linkedin.com/in/anafolau?trk=x">LinkedIn</a> <a href="https://twitter.com/ana_f">Twitter</a></div>
			<div class="card"><h3>Tilde Sorensen</h3><a href="https://github.com/orgs/tilde">GitHub</a></div></main>`,
			[]Profile{
				{FounderField("Ana Folau", KindLinkedIn), "https://www.linkedin.com/in/anafolau", "p"},
				{FounderField("Ana Folau", KindTwitter), "https://twitter.com/ana_f", "p"},
				{FounderField("Tilde Sørensen", KindGitHub), "https://github.com/tilde", "p"},
			},
		},
		"someone who is not a founder": {
			`<main><div><h3>Jo Bloggs</h3><a href="https://www.linkedin.com/in/jobloggs">LinkedIn</a> <a href="https://x.com/jobloggs">X</a></div></main>`,
			nil,
		},
		"text naming both founders is not a card": {
			`<main><p>Ana Folau and Tilde Sørensen founded Skerry. <a href="https://x.com/someone">Say hi</a></p></main>`,
			nil,
		},
		"rel me marks the company": {
			`<p>Our code: <a rel="me noopener" href="https://github.com/skerry">GitHub</a></p>`,
			[]Profile{{FieldCompanyGitHub, "https://github.com/skerry", "p"}},
		},
		"handle carrying the company name": {
			`<p>Follow <a href="https://x.com/SkerryCloudHQ">us</a></p>`,
			[]Profile{{FieldCompanyTwitter, "https://x.com/SkerryCloudHQ", "p"}},
		},
		"a company page in a founder card is not the company's": {
			`<main><article><h2>Ana Folau</h2><p>Previously at <a href="https://www.linkedin.com/company/gannet-systems">Gannet</a></p></article></main>`,
			nil,
		},
		"card header is content, not page chrome": {
			`<main><article class="person"><header><h2>Ana Folau</h2><a href="https://x.com/anafolau">X</a></header></article></main>`,
			[]Profile{{FounderField("Ana Folau", KindTwitter), "https://x.com/anafolau", "p"}},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			d, err := parseDocument([]byte(tt.html), "text/html", mustURL(t, "https://skerry.example/team"))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.pageProfiles(d, "p"); !slices.Equal(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestClassifyLinks(t *testing.T) {
	tests := map[string]struct {
		url, text string
		want      string // LinkPage, LinkArticle, LinkFeed or "" for ignored
	}{
		"blog listing":             {"/blog", "Blog", LinkPage},
		"team by its text":         {"/who", "Meet the team", LinkPage},
		"careers":                  {"/careers/", "Careers", LinkPage},
		"unrelated page":           {"/pricing", "Pricing", ""},
		"article under blog":       {"/blog/launching-widgets", "Launching Widgets 2.0", LinkArticle},
		"dated article":            {"/2024/05/widgets", "Launching Widgets 2.0", LinkArticle},
		"read more is not a title": {"/blog/launching-widgets", "Read more", ""},
		"pagination":               {"/blog/page/2", "Older posts", LinkPage},
		"tag page":                 {"/news/tag/funding", "Funding news", LinkPage},
		"feed path":                {"/feed", "Subscribe", LinkFeed},
		"rss file":                 {"/news/rss.xml", "RSS", LinkFeed},
		"sitemap":                  {"/sitemap.xml", "Sitemap", ""},
		"pdf":                      {"/press/kit.pdf", "Press kit", ""},
		"another site":             {"https://elsewhere.example/blog", "Blog", ""},
		"www of the same site":     {"https://www.acme.example/about", "About", LinkPage},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			html := `<main><a href="` + tt.url + `">` + tt.text + `</a></main>`
			d, err := parseDocument([]byte(html), "text/html", mustURL(t, "https://acme.example/"))
			if err != nil {
				t.Fatal(err)
			}
			links := pageLinks(d, "acme.example")
			got := ""
			if len(links) == 1 {
				got = links[0].Kind
			}
			if len(links) > 1 || got != tt.want {
				t.Errorf("got %+v, want one link of kind %q", links, tt.want)
			}
		})
	}
}

func TestDiffSummary(t *testing.T) {
	tests := map[string]struct {
		old, new, want string
	}{
		"line added":       {"Jobs\nEngineer", "Jobs\nEngineer\nDesigner", "Added: Designer"},
		"line removed":     {"Jobs\nEngineer\nDesigner", "Jobs\nDesigner", "Removed: Engineer"},
		"line replaced":    {"We have 4 open roles.", "We have 7 open roles.", "Added: We have 7 open roles.\nRemoved: We have 4 open roles."},
		"repeated line":    {"a\nb", "a\nb\na", "Added: a"},
		"same lines moved": {"a\nb", "b\na", ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := diffSummary(tt.old, tt.new); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWebsiteURL(t *testing.T) {
	tests := map[string]struct {
		in, want string
	}{
		"bare host":           {"acme.example", "https://acme.example/"},
		"host and port":       {"acme.example:8080/home", "https://acme.example:8080/home"},
		"http kept":           {"HTTP://Acme.Example", "http://acme.example/"},
		"fragment dropped":    {" https://acme.example/#top ", "https://acme.example/"},
		"mail address":        {"mailto:hi@acme.example", ""},
		"credentials":         {"https://user:pw@acme.example/", ""},
		"other scheme":        {"ftp://acme.example/", ""},
		"empty":               {"", ""},
		"javascript pseudo":   {"javascript:alert(1)", ""},
		"host with no scheme": {"www.acme.example/about", "https://www.acme.example/about"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			u, err := websiteURL(tt.in)
			got := ""
			if err == nil {
				got = u.String()
			}
			if got != tt.want {
				t.Errorf("got %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

func TestNameMatcher(t *testing.T) {
	tests := map[string]struct {
		name, text string
		want       bool
	}{
		"whole name":              {"Tallowmere Robotics", "Tallowmere Robotics raises €18M", true},
		"distinctive part":        {"Tallowmere Robotics", "a fleet of Tallowmere robots", true},
		"ampersand spelled out":   {"Fennick & Vale", "Cheese from Fennick and Vale", true},
		"accents ignored":         {"Café Lumière", "CAFE LUMIERE opens", true},
		"part of a word":          {"Acme Labs", "Acmeville news", false},
		"generic word alone":      {"Driftpoint Data", "data infrastructure news", false},
		"only one word of a pair": {"Fennick & Vale", "Vale of Glamorgan", false},
		"the first word alone":    {"Tessaro Insurance", "Tessaro's Series D values embedded insurer at €1.1bn", true},
		"a pair's first word":     {"Fennick & Vale", "Fennick Road was closed", false},
		"an everyday first word":  {"Blue Bottle Coffee", "a blue sky over the bay", false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := newNameMatcher(tt.name).mentions(tt.text); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
