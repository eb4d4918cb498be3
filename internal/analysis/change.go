package analysis

import (
	"regexp"
	"slices"
	"strings"
)

// pageDiff is the crawler's summary of a changed page: the lines it gained and the lines it lost.
type pageDiff struct {
	added, removed []string
}

// parseDiff reads a change item's text, lines "Added: a; b" and "Removed: c"; text in neither form counts as
// added.
func parseDiff(text string) pageDiff {
	var d pageDiff
	into := &d.added
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case hasPrefixFold(line, "added:"):
			into, line = &d.added, line[len("added:"):]
		case hasPrefixFold(line, "removed:"):
			into, line = &d.removed, line[len("removed:"):]
		}
		for _, part := range strings.Split(line, "; ") {
			if part = strings.TrimSpace(part); part != "" {
				*into = append(*into, part)
			}
		}
	}
	return d
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

var (
	// boilerplateRe finds lines that are page furniture rather than content.
	boilerplateRe = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright|all rights reserved|cookie|privacy (?:policy|settings|preferences)|last updated|updated on|terms of (?:use|service)|skip to (?:main )?content|back to top|follow us|newsletter|subscribe|sign up for (?:updates|news|emails?)|\bgtag\b|google analytics|\b(?:UA|G)-[A-Z0-9-]{6,}|^(?:image|img|photo|alt)\s*:|\bimg_\d|^sort(?:ed)?(?: by)?\s*:|\bshowing \d+\s*(?:[-–]\s*\d+\s*)?of \d+|(?:office|opening|business) hours|^open (?:mon|tue|wed|thu|fri|sat|sun|daily)|all systems operational|degraded performance|^status\s*:|^["“'‘].{10,}["”'’]\s*[-–—]\s*\S)`)
	// materialRe finds amounts that matter when they change: prices, and percentages on a pricing page.
	materialRe = regexp.MustCompile(`(?i)[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:p|ct|usd|eur|gbp)\b`)
	percentRe  = regexp.MustCompile(`\d[\d.,]*\s?%`)
	// volatileRe finds the parts of a line that change without news: numbers, dates, times and weekdays.
	volatileRe  = regexp.MustCompile(`(?i)\d+(?:st|nd|rd|th|am|pm)?|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|today|yesterday|ago|minutes?|hours?|days?|weeks?|utc|gmt)\b`)
	wordSplitRe = regexp.MustCompile(`[^\pL\pN]+`)
)

// similarity says how much of a diff's wording its gained and lost lines share, as "none" (lines only gained
// or only lost), "low", "some" or "most": a reworded tagline, a fixed typo or a rotated list shares most of its
// words, a new pricing plan few.
func (d pageDiff) similarity() string {
	if len(d.added) == 0 || len(d.removed) == 0 {
		return "none"
	}
	words := func(lines []string) map[string]bool {
		m := make(map[string]bool)
		for _, l := range lines {
			for _, w := range wordSplitRe.Split(strings.ToLower(l), -1) {
				if len(w) > 1 {
					m[w] = true
				}
			}
		}
		return m
	}
	a, r := words(d.added), words(d.removed)
	both := 0
	for w := range a {
		if r[w] {
			both++
		}
	}
	union := len(a) + len(r) - both
	if union == 0 {
		return "most"
	}
	switch j := float64(both) / float64(union); {
	case j >= 0.6:
		return "most"
	case j >= 0.3:
		return "some"
	}
	return "low"
}

// cosmetic reports whether a diff changes nothing a reader would care about: every gained or lost line is
// page furniture (a copyright year, cookie text), or a line that reappears with only its numbers and dates
// changed or its words reordered (a counter, a date stamp, reordered navigation). Prices always matter, and
// on a pricing page percentages too.
func (d pageDiff) cosmetic(pricing bool) bool {
	if len(d.added) == 0 && len(d.removed) == 0 {
		return true
	}
	addedKeys := make([]string, len(d.added))
	for i, l := range d.added {
		addedKeys[i] = volatileKey(l, pricing)
	}
	removedKeys := make([]string, len(d.removed))
	for i, l := range d.removed {
		removedKeys[i] = volatileKey(l, pricing)
	}
	for i, l := range d.added {
		if !furniture(l) && !nearlyIn(addedKeys[i], removedKeys) {
			return false
		}
	}
	for i, l := range d.removed {
		if !furniture(l) && !nearlyIn(removedKeys[i], addedKeys) {
			return false
		}
	}
	return true
}

// nearlyIn reports whether some key of keys has nearly the same words as key: seven in ten in common (a fixed
// typo, a changed punctuation mark, one link more or less in a list), and no changed price.
func nearlyIn(key string, keys []string) bool {
	a := strings.Fields(key)
	for _, k := range keys {
		if k == key {
			return true
		}
		b := strings.Fields(k)
		common, material := 0, false
		for _, w := range a {
			switch {
			case slices.Contains(b, w):
				common++
			case strings.HasPrefix(w, "="):
				material = true // a price that changed
			}
		}
		if material {
			continue
		}
		union := len(a) + len(b) - common
		if union > 0 && float64(common)/float64(union) >= 0.7 {
			return true
		}
	}
	return false
}

// volatileKey reduces a line to its sorted words without numbers and dates, so that a counter that moved,
// a new date or a reordering leaves the key unchanged; amounts that matter are kept, as words of their own.
func volatileKey(line string, pricing bool) string {
	var kept []string
	keep := func(m string) string {
		kept = append(kept, "="+strings.Join(strings.Fields(m), ""))
		return " "
	}
	line = materialRe.ReplaceAllStringFunc(line, keep)
	if pricing {
		line = percentRe.ReplaceAllStringFunc(line, keep)
	}
	words := wordSplitRe.Split(strings.ToLower(volatileRe.ReplaceAllString(line, " ")), -1)
	words = append(slices.DeleteFunc(words, func(w string) bool { return w == "" }), kept...)
	slices.Sort(words)
	return strings.Join(words, " ")
}

// pricingPage reports whether a page address looks like a pricing page.
func pricingPage(rawURL string) bool {
	return pricingPathRe.MatchString(strings.ToLower(rawURL))
}

var pricingPathRe = regexp.MustCompile(`/(?:pricing|prices|price|plans|billing|fees|rates|tariffs?)\b`)

// furniture reports whether a changed line is page furniture: boilerplate that names no price.
func furniture(line string) bool {
	return boilerplateRe.MatchString(line) && !materialRe.MatchString(line)
}
