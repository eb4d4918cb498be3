package taxonomy

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isStopword reports whether w is a function word, dropped before matching: it carries no sector meaning.
func isStopword(w []byte) bool {
	switch string(w) {
	case "a", "about", "across", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "being",
		"but", "by", "can", "could", "do", "does", "each", "etc", "every", "for", "from", "get", "has", "have",
		"he", "help", "helps", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just",
		"let", "lets", "make", "makes", "may", "me", "might", "more", "most", "must", "my", "not", "of", "on",
		"one", "only", "or", "other", "our", "out", "over", "own", "per", "same", "she", "should", "so", "such",
		"than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through", "to",
		"up", "us", "use", "used", "uses", "using", "very", "via", "vs", "was", "way", "we", "were", "what",
		"when", "where", "which", "while", "who", "why", "will", "with", "would", "you", "your", "based",
		"focused", "related":
		return true
	}
	return false
}

// isStemException reports whether w ends in "s" without being a plural, or must stay distinct from
// its singular.
func isStemException(w []byte) bool {
	switch string(w) {
	case "news", "series", "species", "lens", "always", "perhaps", "saas", "paas", "iaas", "faas", "cpaas",
		"ucaas", "ccaas", "ios", "sms", "gps", "aws", "securities":
		return true
	}
	return false
}

// stem reduces an English plural to its singular so "payments" and "payment" compare equal.
// It rewrites w in place and returns the shortened slice.
func stem(w []byte) []byte {
	n := len(w)
	if n < 4 || w[n-1] != 's' || isStemException(w) {
		return w
	}
	switch {
	case bytes.HasSuffix(w, []byte("ies")) && n > 4:
		w[n-3] = 'y'
		return w[:n-2]
	case bytes.HasSuffix(w, []byte("sses")), bytes.HasSuffix(w, []byte("xes")), bytes.HasSuffix(w, []byte("ches")),
		bytes.HasSuffix(w, []byte("shes")), bytes.HasSuffix(w, []byte("zzes")):
		return w[:n-2]
	case bytes.HasSuffix(w, []byte("ss")), bytes.HasSuffix(w, []byte("us")), bytes.HasSuffix(w, []byte("is")):
		return w
	}
	return w[:n-1]
}

// stemString is stem for a string.
func stemString(w string) string {
	return string(stem([]byte(w)))
}

// isWordRune reports whether r belongs inside a word; hyphens and apostrophes are handled by the tokenizer.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// scanTokens splits s into lowercase, singular, meaningful tokens and calls fn for each in order; the
// slice passed to fn is valid only during the call. Hyphenated words split into their parts, except
// that a one-character part joins its neighbour ("e-commerce" -> "ecommerce", "k-12" -> "k12");
// possessive "'s" is dropped.
func scanTokens(s string, fn func(tok []byte)) {
	var buf []byte
	start := -1
	for i := 0; i <= len(s); {
		r, size := rune(0), 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		inChunk := i < len(s) && (isWordRune(r) || r == '-' || r == '\'' || r == '\u2019')
		if inChunk && start < 0 {
			start = i
		}
		if !inChunk && start >= 0 {
			buf = emitChunk(s[start:i], buf, fn)
			start = -1
		}
		i += size
	}
}

// tokenize is scanTokens with tokens as strings.
func tokenize(s string, fn func(tok string)) {
	scanTokens(s, func(tok []byte) { fn(string(tok)) })
}

// emitChunk handles one run of word characters, hyphens and apostrophes.
func emitChunk(chunk string, buf []byte, fn func([]byte)) []byte {
	chunk = strings.TrimFunc(chunk, func(r rune) bool { return r == '-' || r == '\'' || r == '\u2019' })
	for _, suffix := range []string{"'s", "'S", "\u2019s", "\u2019S"} {
		if len(chunk) > len(suffix) && strings.HasSuffix(chunk, suffix) {
			chunk = chunk[:len(chunk)-len(suffix)]
		}
	}
	if !strings.Contains(chunk, "-") {
		return emitWord(chunk, "", buf, fn)
	}
	parts := strings.Split(chunk, "-")
	carry := ""
	for i, part := range parts {
		if part == "" {
			continue
		}
		if utf8.RuneCountInString(part) == 1 && len(parts) > 1 {
			if i+1 < len(parts) {
				carry += part
				continue
			}
			if i > 0 {
				continue // joined to the previous part below
			}
		}
		next := ""
		if i+2 == len(parts) && utf8.RuneCountInString(parts[i+1]) == 1 {
			next = parts[i+1]
		}
		buf = emitWord(carry+part, next, buf, fn)
		carry = ""
	}
	if carry != "" {
		buf = emitWord(carry, "", buf, fn)
	}
	return buf
}

// emitWord lowercases word+suffix, removes apostrophes and calls fn unless the result is a stopword or
// shorter than two characters.
func emitWord(word, suffix string, buf []byte, fn func([]byte)) []byte {
	buf = buf[:0]
	runes := 0
	for _, part := range [2]string{word, suffix} {
		for _, r := range part {
			if r == '\'' || r == '\u2019' {
				continue
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			runes++
		}
	}
	if runes < 2 || isStopword(buf) {
		return buf
	}
	fn(stem(buf))
	return buf
}

// tokens returns the tokens of s as a slice.
func tokens(s string) []string {
	var out []string
	tokenize(s, func(t string) { out = append(out, t) })
	return out
}

// editDistance returns the optimal-string-alignment distance between a and b (insertions, deletions,
// substitutions and adjacent transpositions), or max+1 once it is certain to exceed max.
// scratch must hold at least 3*(len(b)+1) ints.
func editDistance(a, b []rune, max int, scratch []int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	w := len(b) + 1
	prev2, prev, cur := scratch[:w], scratch[w:2*w], scratch[2*w:3*w]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
