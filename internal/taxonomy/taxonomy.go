// Package taxonomy holds Radar's company taxonomy and maps sector terms and company descriptions onto it.
//
// The taxonomy is a tree of categories such as "Financial Services > Fintech > Payments", each with
// synonyms and descriptive terms. Term resolution backs the `classification` (`sector`, `sectors`) list
// filter; company classification assigns stored category paths to tracked companies and leads.
package taxonomy

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
)

//go:embed taxonomy.txt
var embedded string

// PathSeparator joins the names of a category and its ancestors into a path.
const PathSeparator = " > "

// ErrInvalidTaxonomy reports a taxonomy file that cannot be parsed.
var ErrInvalidTaxonomy = errors.New("taxonomy: invalid taxonomy")

// Category is one node of the taxonomy.
type Category struct {
	Path     string   // full path, e.g. "Financial Services > Fintech > Payments"
	Name     string   // last path segment, e.g. "Payments"
	Parent   string   // parent path, empty for a top-level sector
	Synonyms []string // names a client may use for the category
	Terms    []string // words and phrases describing its companies
}

// Taxonomy is an immutable category tree with the index used for matching; it is safe for concurrent use.
type Taxonomy struct {
	cats     []Category
	byKey    map[string]int // normalised path -> category index
	keys     []string       // category index -> normalised path
	parent   []int          // -1 for top-level sectors
	children [][]int
	depth    []int
	ix       *index
}

// Default returns the taxonomy embedded in the binary. Each call parses it afresh, so callers should
// build it once at start-up and share it. It panics only if the embedded file is malformed, which the
// package's tests rule out.
func Default() *Taxonomy {
	t, err := Parse([]byte(embedded))
	if err != nil {
		panic(fmt.Sprintf("embedded taxonomy: %v", err))
	}
	return t
}

// Parse reads a taxonomy in the line format of the embedded file: "PATH | SYNONYMS | TERMS" per
// category, parents before children, "#" comments, "generic:" lines of low-weight words and "ignore:"
// lines of phrases whose words do not count as evidence in company descriptions.
func Parse(data []byte) (*Taxonomy, error) {
	t := &Taxonomy{byKey: map[string]int{}}
	var generic, ignore []string
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "generic:"); ok {
			generic = append(generic, splitList(rest)...)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "ignore:"); ok {
			ignore = append(ignore, splitList(rest)...)
			continue
		}
		if err := t.addLine(line); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrInvalidTaxonomy, n+1, err)
		}
	}
	if len(t.cats) == 0 {
		return nil, fmt.Errorf("%w: no categories", ErrInvalidTaxonomy)
	}
	t.ix = buildIndex(t, generic, ignore)
	return t, nil
}

// addLine parses one category line and links it to its parent.
func (t *Taxonomy) addLine(line string) error {
	fields := strings.Split(line, "|")
	if len(fields) > 3 {
		return errors.New("more than three fields")
	}
	segments := strings.Split(fields[0], ">")
	for i, s := range segments {
		segments[i] = strings.TrimSpace(s)
		if segments[i] == "" {
			return fmt.Errorf("empty segment in path %q", fields[0])
		}
	}
	c := Category{
		Path: strings.Join(segments, PathSeparator),
		Name: segments[len(segments)-1],
	}
	if len(fields) > 1 {
		c.Synonyms = splitList(fields[1])
	}
	if len(fields) > 2 {
		c.Terms = splitList(fields[2])
	}
	key := pathKey(c.Path)
	if _, dup := t.byKey[key]; dup {
		return fmt.Errorf("duplicate category %q", c.Path)
	}
	parent := -1
	if len(segments) > 1 {
		c.Parent = strings.Join(segments[:len(segments)-1], PathSeparator)
		p, ok := t.byKey[pathKey(c.Parent)]
		if !ok {
			return fmt.Errorf("category %q listed before its parent", c.Path)
		}
		parent = p
	}
	i := len(t.cats)
	t.cats = append(t.cats, c)
	t.byKey[key] = i
	t.keys = append(t.keys, key)
	t.parent = append(t.parent, parent)
	t.children = append(t.children, nil)
	t.depth = append(t.depth, len(segments)-1)
	if parent >= 0 {
		t.children[parent] = append(t.children[parent], i)
	}
	return nil
}

// splitList splits a comma-separated list, trimming items and dropping empty ones.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// pathKey normalises a path for lookup: case-insensitive, tolerant of spacing around separators.
func pathKey(path string) string {
	segments := strings.Split(path, ">")
	for i, s := range segments {
		segments[i] = strings.ToLower(strings.Join(strings.Fields(s), " "))
	}
	return strings.Join(segments, ">")
}

// Len returns the number of categories.
func (t *Taxonomy) Len() int { return len(t.cats) }

// Categories returns every category, parents before their children.
func (t *Taxonomy) Categories() []Category {
	out := make([]Category, len(t.cats))
	for i := range t.cats {
		out[i] = t.category(i)
	}
	return out
}

// Lookup returns the category with the given path, matched case-insensitively.
func (t *Taxonomy) Lookup(path string) (Category, bool) {
	i, ok := t.byKey[pathKey(path)]
	if !ok {
		return Category{}, false
	}
	return t.category(i), true
}

// category returns a copy of category i that shares no slices with the taxonomy.
func (t *Taxonomy) category(i int) Category {
	c := t.cats[i]
	c.Synonyms = slices.Clone(c.Synonyms)
	c.Terms = slices.Clone(c.Terms)
	return c
}

// Canonical returns the path as spelled in the taxonomy, or false when no category has it.
func (t *Taxonomy) Canonical(path string) (string, bool) {
	i, ok := t.byKey[pathKey(path)]
	if !ok {
		return "", false
	}
	return t.cats[i].Path, true
}

// Descendants returns the path itself and every path below it, parents first; nil for an unknown path.
func (t *Taxonomy) Descendants(path string) []string {
	i, ok := t.byKey[pathKey(path)]
	if !ok {
		return nil
	}
	var out []string
	t.walk(i, func(j int) { out = append(out, t.cats[j].Path) })
	return out
}

// walk calls fn for category i and all its descendants, depth first.
func (t *Taxonomy) walk(i int, fn func(int)) {
	fn(i)
	for _, c := range t.children[i] {
		t.walk(c, fn)
	}
}

// isAncestor reports whether category a is a strict ancestor of category d.
func (t *Taxonomy) isAncestor(a, d int) bool {
	for p := t.parent[d]; p >= 0; p = t.parent[p] {
		if p == a {
			return true
		}
	}
	return false
}
