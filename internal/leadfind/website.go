package leadfind

import (
	"regexp"
	"strings"
)

var domainPattern = regexp.MustCompile(`^(?i)(https?://)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|ai|io|co|net|org|dev|app|tech|xyz|health|bio|de|uk|fr|eu|us|ca|so|sh|me|ly|vc|tv|gg|nl|se|ch|es|it|in|jp|au|cloud|studio|tools|systems|energy|finance|capital|ventures|world|global|one|labs|is|to|at|be|dk|fi|no|pl|il|sg|hk|nz|br|mx|run|inc|page|site))(?:[/?#].*)?$`)

// site is a web origin mentioned in an item, with the label that names its owner.
type site struct {
	origin string
	label  string
}

// websites lists the web origins an item mentions, including its own address.
func websites(it Item) []site {
	var out []site
	for _, text := range []string{it.Text, it.Title, it.URL} {
		for field := range strings.FieldsSeq(text) {
			field = strings.TrimLeft(field, `([<{"'“‘`)
			field = strings.TrimRight(field, `)]>},;:!?"'”’.`)
			if at := strings.LastIndexByte(field, '@'); at >= 0 {
				field = field[at+1:]
			}
			if !strings.Contains(field, ".") {
				continue
			}
			m := domainPattern.FindStringSubmatch(field)
			if m == nil {
				continue
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
			out = append(out, site{origin: scheme + host, label: strings.ReplaceAll(label, "-", "")})
		}
	}
	return out
}

// websiteOf returns the origin among sites whose name matches company, as "aurora.ai" or
// "getaurora.com" match Aurora, or "" when there is none.
func websiteOf(company string, m *matcher, sites []site) string {
	words := strings.Fields(normalizeCompany(company))
	if len(words) == 0 {
		return ""
	}
	names := []string{strings.Join(words, "")}
	if len(words) > 1 && len(words[0]) >= 4 {
		names = append(names, words[0])
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
			case n, "get" + n, "try" + n, "use" + n, "join" + n, "hello" + n, n + "hq", n + "app", n + "labs", n + "ai", n + "inc", n + "io":
				return s.origin
			}
		}
	}
	return ""
}
