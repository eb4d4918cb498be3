package analysis

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxLiterals bounds the literal sets prefilter builds.
const maxLiterals = 256

// prefilter returns literal strings of which every match of pattern starts with one, so a text containing none
// of them cannot match and the regular expression need not run. It returns nil when no useful set exists.
func prefilter(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	set, _, ok := literals(re.Simplify())
	if !ok {
		return nil
	}
	return shortenLiterals(set, 6)
}

// shortenLiterals cuts each literal to at most n bytes and drops any that starts with another, which keeps
// the test "text contains one of them" just as safe and makes it cheaper. An empty literal voids the set.
func shortenLiterals(set []string, n int) []string {
	var out []string
	for _, s := range set {
		if s == "" {
			return nil
		}
		if len(s) > n {
			s = s[:n]
			for !utf8.ValidString(s) {
				s = s[:len(s)-1]
			}
		}
		out = append(out, s)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	kept := out[:0]
	for _, s := range out {
		if len(kept) > 0 && strings.HasPrefix(s, kept[len(kept)-1]) {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

// literals returns the strings a match of re can start with; exact means re matches exactly those strings.
func literals(re *syntax.Regexp) (set []string, exact, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false, false
		}
		return []string{string(re.Rune)}, true, true
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine:
		return []string{""}, true, true
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == 10 {
					return nil, false, false
				}
				out = append(out, string(r))
			}
		}
		return out, true, true
	case syntax.OpAlternate:
		exact = true
		for _, sub := range re.Sub {
			s, e, ok := literals(sub)
			if !ok || len(set)+len(s) > maxLiterals {
				return nil, false, false
			}
			set = append(set, s...)
			exact = exact && e
		}
		return set, exact, true
	case syntax.OpQuest:
		s, e, ok := literals(re.Sub[0])
		if !ok {
			return []string{""}, false, true
		}
		return append(s, ""), e, true
	case syntax.OpPlus:
		s, _, ok := literals(re.Sub[0])
		return s, false, ok
	case syntax.OpRepeat:
		if re.Min == 0 {
			return []string{""}, false, true
		}
		s, _, ok := literals(re.Sub[0])
		return s, false, ok
	case syntax.OpStar:
		return []string{""}, false, true
	case syntax.OpConcat:
		acc := []string{""}
		for _, sub := range re.Sub {
			s, e, ok := literals(sub)
			if !ok || len(acc)*len(s) > maxLiterals {
				return acc, false, true
			}
			acc = cross(acc, s)
			if !e {
				return acc, false, true
			}
		}
		return acc, true, true
	}
	return nil, false, false
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// mayMatch reports whether text contains one of the literals, or the set is empty and so proves nothing.
func mayMatch(text string, literals []string) bool {
	if len(literals) == 0 {
		return true
	}
	for _, l := range literals {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}

// pairSet is the set of the pairs of adjacent bytes of a text, hashed into 4096 bits: a literal with a pair
// the set lacks cannot be in the text, which is far cheaper to tell than looking for it.
type pairSet [64]uint64

func pairHash(a, b byte) uint { return (uint(a)<<6 ^ uint(b)) & 4095 }

func pairsOf(s string) *pairSet {
	var p pairSet
	for i := 0; i+1 < len(s); i++ {
		h := pairHash(s[i], s[i+1])
		p[h>>6] |= 1 << (h & 63)
	}
	return &p
}

// mayMatchPairs is mayMatch for a text whose pairs are ps.
func mayMatchPairs(text string, ps *pairSet, literals []string) bool {
	if len(literals) == 0 {
		return true
	}
	for _, l := range literals {
		if ps.mayHold(l) && strings.Contains(text, l) {
			return true
		}
	}
	return false
}

// mayHold reports whether every pair of adjacent bytes of l is in the set.
func (p *pairSet) mayHold(l string) bool {
	for i := 0; i+1 < len(l); i++ {
		h := pairHash(l[i], l[i+1])
		if p[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}
