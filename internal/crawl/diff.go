package crawl

import "strings"

// maxSummary bounds a website-change summary.
const maxSummary = 600

// diffSummary says briefly which lines a page gained and lost, as "Added: a; b" and
// "Removed: c" on lines of their own. It is empty when the two texts have the same lines.
func diffSummary(oldText, newText string) string {
	added := lineDiff(newText, oldText)
	removed := lineDiff(oldText, newText)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "Added: "+strings.Join(added, "; "))
	}
	if len(removed) > 0 {
		parts = append(parts, "Removed: "+strings.Join(removed, "; "))
	}
	return truncate(strings.Join(parts, "\n"), maxSummary)
}

// lineDiff returns the lines of a that b lacks, counting repeated lines, in a's order.
func lineDiff(a, b string) []string {
	have := make(map[string]int)
	for _, l := range strings.Split(b, "\n") {
		have[strings.TrimSpace(l)]++
	}
	var out []string
	for _, l := range strings.Split(a, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if have[l] > 0 {
			have[l]--
			continue
		}
		out = append(out, l)
	}
	return out
}
