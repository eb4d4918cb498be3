package leadfind

import (
	"regexp"
	"slices"
	"strings"
)

var domainPattern = regexp.MustCompile(`^(?i)(https?://)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|ai|io|co|net|org|dev|app|tech|xyz|health|bio|de|uk|fr|eu|us|ca|so|sh|me|ly|vc|tv|gg|nl|se|ch|es|it|in|jp|au|cloud|studio|tools|systems|energy|finance|capital|ventures|world|global|one|labs|is|to|at|be|dk|fi|no|pl|il|sg|hk|nz|br|mx|run|inc|page|site|example|email|store|shop|farm|green|solar|eco|care|clinic|law|legal|agency|media|news|design|digital|software|technology|network|works|company|group|ltd|gmbh|fm|ac|ie|pt|gr|cz|sk|hu|ro|ee|lv|lt|lu|kr|tw|za|ng|ke|ae|sa|tr|ar|cl|pe))(?:[/?#].*)?$`)

// site is a web origin mentioned in an item, with the label that names its owner.
type site struct {
	origin string
	label  string
}

// linkPattern matches a link with its scheme, whatever its top-level domain.
var linkPattern = regexp.MustCompile(`^(?i)(https?://)((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})\.?(?::\d+)?(?:[/?#].*)?$`)

// websites lists the web origins an item mentions, including its own address.
func websites(it Item) []site {
	var out []site
	for _, text := range []string{it.Text, it.Title, it.URL} {
		for field := range strings.FieldsSeq(text) {
			if st, ok := siteOf(field); ok {
				out = append(out, st)
			}
		}
	}
	return out
}

// siteOf reads a link or a domain name written in text ("https://www.aurora.ai/", "(aurora.ai)", an
// e-mail address) as a web origin.
func siteOf(field string) (site, bool) {
	field = strings.TrimLeft(field, `([<{"'“‘`)
	field = strings.TrimRight(field, `)]>},;:!?"'”’.`)
	if at := strings.LastIndexByte(field, '@'); at >= 0 {
		field = field[at+1:]
	}
	if !strings.Contains(field, ".") {
		return site{}, false
	}
	m := domainPattern.FindStringSubmatch(field)
	if m == nil {
		if m = linkPattern.FindStringSubmatch(field); m == nil {
			return site{}, false
		}
	}
	host := strings.TrimPrefix(strings.ToLower(m[2]), "www.")
	scheme := strings.ToLower(m[1])
	if scheme == "" {
		scheme = "https://"
	}
	labels := strings.Split(host, ".")
	label := labels[len(labels)-2]
	if len(labels) >= 3 {
		switch label {
		case "co", "com", "org", "net", "ac":
			label = labels[len(labels)-3]
		}
	}
	return site{origin: scheme + host, label: strings.ReplaceAll(label, "-", "")}, true
}

// websiteOf returns the origin among sites whose name matches company, as "aurora.ai" or
// "getaurora.com" match Aurora, or "" when there is none.
func websiteOf(company string, m *matcher, sites []site) string {
	var names []string
	for _, spelling := range domainSpellings(company) {
		words := strings.Fields(normalizeCompany(spelling))
		if len(words) == 0 {
			continue
		}
		names = append(names, strings.Join(words, ""))
		for n := len(words) - 1; n >= 1; n-- {
			if prefix := strings.Join(words[:n], ""); len(prefix) >= 4 {
				names = append(names, prefix)
			}
		}
	}
	tracked := strings.ReplaceAll(m.normName, " ", "")
	for _, s := range sites {
		if s.label == tracked {
			continue
		}
		for _, n := range names {
			if n == tracked {
				continue
			}
			switch s.label {
			case n, "get" + n, "try" + n, "use" + n, "join" + n, "hello" + n, n + "hq", n + "app", n + "labs", n + "ai", n + "inc", n + "io",
				n + "andco", n + "co", n + "group", n + "team":
				return s.origin
			}
		}
	}
	return ""
}

// domainSpellings returns a company's name as a domain may spell its letters: as written (accents are dropped
// later), and with the letters that have no accent to drop written out, the German way ("Prüfbar" as
// pruefbar) and the plain way ("Đặt Bàn" as datban, "Søvn" as sovn).
func domainSpellings(company string) []string {
	out := []string{company}
	for _, r := range []*strings.Replacer{germanLetters, plainLetters} {
		if s := r.Replace(company); s != company && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

var (
	germanLetters = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue", "ß", "ss", "ø", "oe", "Ø", "Oe",
		"æ", "ae", "Æ", "Ae", "å", "aa", "Å", "Aa")
	plainLetters = strings.NewReplacer("đ", "d", "Đ", "D", "ð", "d", "ø", "o", "Ø", "O", "ł", "l", "Ł", "L", "ß", "ss", "æ", "ae",
		"Æ", "Ae", "œ", "oe", "Œ", "Oe", "ı", "i")
)

// namedSites records, for each company the sentence names right before a link or domain ("Fieldgrid
// (fieldgrid.example)", "Fieldgrid, at https://fieldgrid.example/"), that address, keeping the first one
// found for a company.
func (s *sentence) namedSites(out map[string]string) {
	for i, t := range s.toks {
		if t.span >= 0 || !strings.Contains(t.text, ".") {
			continue
		}
		st, ok := siteOf(t.text)
		if !ok {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-4; j-- {
			p := s.toks[j]
			if p.span >= 0 {
				if !s.spans[p.span].person {
					k := normalizeCompany(p.text)
					if _, seen := out[k]; !seen {
						out[k] = st.origin
					}
				}
				break
			}
			if p.form == "T" || !siteJoiners[p.form] {
				break
			}
		}
	}
}

// siteJoiners are the words that can stand between a company and its address.
var siteJoiners = wordSet(`( , : at on via website site web online is 's`)
