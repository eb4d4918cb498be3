package taxonomy

import (
	"context"
)

// Assignment is a category path with the confidence, in [0, 1], that it fits.
type Assignment struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
}

// Classifier maps sector terms and company descriptions to taxonomy categories.
type Classifier interface {
	// ClassifyCompany returns the most specific categories that fit a company, at most three, best first.
	ClassifyCompany(ctx context.Context, name, summary, text string) ([]Assignment, error)
	// ResolveTerm returns the categories a sector term names, best first, with weak matches dropped;
	// an empty result means nothing matched.
	ResolveTerm(ctx context.Context, term string) ([]Assignment, error)
}

// builtin is the deterministic classifier: idf-weighted word matching against the taxonomy.
type builtin struct {
	t *Taxonomy
}

// NewBuiltin returns the deterministic classifier over t; it never fails.
func NewBuiltin(t *Taxonomy) Classifier {
	return builtin{t: t}
}

// ClassifyCompany implements Classifier.
func (b builtin) ClassifyCompany(_ context.Context, name, summary, text string) ([]Assignment, error) {
	return b.t.classify(name, summary, text), nil
}

// ResolveTerm implements Classifier.
func (b builtin) ResolveTerm(_ context.Context, term string) ([]Assignment, error) {
	return b.t.resolveTerm(term), nil
}
