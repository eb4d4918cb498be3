package taxonomy

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Limits of the `classification` parameter.
const (
	MaxTerms      = 4
	MaxTermLength = 100 // characters
	// ResolveBudget bounds the time Resolve gives the classifier before falling back to text matching.
	ResolveBudget = 2 * time.Second
)

// Sentinel errors of ParseTerms; the returned errors wrap them with the offending count or term.
var (
	ErrTooManyTerms = fmt.Errorf("classification: at most %d terms", MaxTerms)
	ErrTermTooLong  = fmt.Errorf("classification: a term is at most %d characters", MaxTermLength)
)

// TermResolution reports what one term of the filter mapped to.
type TermResolution struct {
	Term    string       `json:"term"`
	Matches []Assignment `json:"matches"` // categories it mapped to, before descendant expansion
}

// Resolution is a parsed and resolved sector filter, serialised as the API's classificationResolution.
type Resolution struct {
	Terms []TermResolution `json:"terms"`
	// Paths lists every accepted category path, descendants of matched categories included, in
	// taxonomy order.
	Paths []string `json:"paths"`
	// DegradedToTextMatching is true when the classifier failed or timed out for at least one term and
	// that term was resolved by plain text matching against category names, synonyms and paths.
	DegradedToTextMatching bool `json:"degradedToTextMatching"`

	accept map[string]bool // normalised Paths, filled by Resolve
}

// ParseTerms splits the raw `classification` parameter on commas, trims the terms and drops empty ones.
// An empty parameter yields no terms; more than MaxTerms terms, or a term longer than MaxTermLength
// characters, is an error wrapping ErrTooManyTerms or ErrTermTooLong. Repeated terms (ignoring case)
// are kept once.
func ParseTerms(raw string) ([]string, error) {
	var terms []string
	for _, part := range strings.Split(raw, ",") {
		if part = strings.Join(strings.Fields(part), " "); part != "" {
			terms = append(terms, part)
		}
	}
	if len(terms) > MaxTerms {
		return nil, fmt.Errorf("%w, got %d", ErrTooManyTerms, len(terms))
	}
	var out []string
	for i, term := range terms {
		if n := utf8.RuneCountInString(term); n > MaxTermLength {
			return nil, fmt.Errorf("%w: term %d has %d", ErrTermTooLong, i+1, n)
		}
		if !slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, term) }) {
			out = append(out, term)
		}
	}
	return out, nil
}

// Resolve maps each term to categories with c (the built-in classifier when c is nil), giving it at
// most ResolveBudget in all. A term whose classification fails, or does not finish in time, is
// resolved by text matching against category names, synonyms and paths instead, and the resolution
// is marked DegradedToTextMatching. Category paths a classifier returns that are not in t are ignored.
func Resolve(ctx context.Context, t *Taxonomy, c Classifier, terms []string) Resolution {
	if c == nil {
		c = NewBuiltin(t)
	}
	ctx, cancel := context.WithTimeout(ctx, ResolveBudget)
	defer cancel()

	res := Resolution{Terms: make([]TermResolution, len(terms)), Paths: []string{}}
	failed := make([]bool, len(terms))
	var wg sync.WaitGroup
	for i, term := range terms {
		res.Terms[i].Term = term
		wg.Go(func() {
			matches, err := resolveWithin(ctx, c, term)
			if err != nil {
				failed[i] = true
				return
			}
			res.Terms[i].Matches = t.validate(matches)
		})
	}
	wg.Wait()

	accepted := make([]bool, len(t.cats))
	for i := range res.Terms {
		if failed[i] {
			res.DegradedToTextMatching = true
			res.Terms[i].Matches = t.textMatch(res.Terms[i].Term)
		}
		for _, m := range res.Terms[i].Matches {
			t.walk(t.byKey[pathKey(m.Path)], func(j int) { accepted[j] = true })
		}
	}
	res.accept = map[string]bool{}
	for i, ok := range accepted {
		if ok {
			res.Paths = append(res.Paths, t.cats[i].Path)
			res.accept[t.keys[i]] = true
		}
	}
	return res
}

// resolveWithin calls c.ResolveTerm and returns early with the context's error when the classifier
// does not honour cancellation; the classifier's goroutine then ends on its own.
func resolveWithin(ctx context.Context, c Classifier, term string) ([]Assignment, error) {
	type result struct {
		matches []Assignment
		err     error
	}
	done := make(chan result, 1)
	go func() {
		m, err := c.ResolveTerm(ctx, term)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.matches, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// validate keeps the assignments naming existing categories, spelled canonically, once each.
func (t *Taxonomy) validate(in []Assignment) []Assignment {
	out := []Assignment{}
	for _, a := range in {
		path, ok := t.Canonical(a.Path)
		if !ok || slices.ContainsFunc(out, func(b Assignment) bool { return b.Path == path }) {
			continue
		}
		out = append(out, Assignment{Path: path, Score: a.Score})
	}
	return out
}

// Matches reports whether any of a company's stored category paths falls within the filter: equal to
// an accepted path or below one, compared case-insensitively. A resolution without terms is no filter
// and accepts every company; one whose terms matched nothing accepts none.
func (r Resolution) Matches(companyPaths []string) bool {
	if len(r.Terms) == 0 {
		return true
	}
	accept := r.accept
	if accept == nil {
		accept = acceptSet(r.Paths)
	}
	for _, cp := range companyPaths {
		key := pathKey(cp)
		for {
			if accept[key] {
				return true
			}
			i := strings.LastIndexByte(key, '>')
			if i < 0 {
				break
			}
			key = key[:i]
		}
	}
	return false
}

// acceptSet returns the normalised keys of paths.
func acceptSet(paths []string) map[string]bool {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[pathKey(p)] = true
	}
	return set
}
