package taxonomy

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"radar/internal/llm"
)

// Errors of the LLM classifier.
var (
	// ErrUnavailable reports that the chat endpoint could not be reached or answered with an error status.
	ErrUnavailable = errors.New("taxonomy: classifier unavailable")
	// ErrInvalidAnswer reports an answer that is not the requested JSON or names no existing category.
	ErrInvalidAnswer = errors.New("taxonomy: invalid classifier answer")
)

const (
	maxPromptText = 8000 // characters of website text sent for company classification
	llmTimeout    = 30 * time.Second
)

// llmClassifier asks an OpenAI-compatible chat completions endpoint to choose taxonomy paths.
type llmClassifier struct {
	t         *Taxonomy
	client    *llm.Client
	catalogue string
}

// NewLLM returns a classifier backed by an OpenAI-compatible chat completions endpoint. url is either
// the API base (".../v1") or the full ".../chat/completions" address; apiKey may be empty; a nil client
// means one with a 30-second timeout. Answers naming paths outside t are discarded, and an answer that
// names only such paths is an ErrInvalidAnswer.
func NewLLM(t *Taxonomy, url, model, apiKey string, client *http.Client) Classifier {
	if client == nil {
		client = &http.Client{Timeout: llmTimeout}
	}
	var b strings.Builder
	for _, c := range t.cats {
		b.WriteString(c.Path)
		if len(c.Synonyms) > 0 {
			b.WriteString(" (")
			b.WriteString(strings.Join(c.Synonyms, ", "))
			b.WriteString(")")
		}
		b.WriteByte('\n')
	}
	temperature := 0.0
	return &llmClassifier{
		t:         t,
		client:    &llm.Client{URL: url, Model: model, APIKey: apiKey, Temperature: &temperature, HTTP: client},
		catalogue: b.String(),
	}
}

const termPrompt = `You map an investor's sector term to categories of a company taxonomy.
Choose only category paths from the list below, copied exactly, without the synonyms in parentheses.
A broad sector name maps to its top category; choose a more specific category only when the term is specific.
Leave out weak or doubtful matches; if nothing fits, answer with an empty list.
Answer with JSON only: {"matches":[{"path":"<category path>","score":<0 to 1>}]}, at most 5 matches, best first.

Categories:
`

const companyPrompt = `You classify a company into a company taxonomy.
Choose only category paths from the list below, copied exactly, without the synonyms in parentheses.
Choose the most specific categories that clearly fit the company, at most 3, best first; if nothing fits, answer with an empty list.
Answer with JSON only: {"matches":[{"path":"<category path>","score":<0 to 1>}]}.

Categories:
`

// ClassifyCompany implements Classifier.
func (l *llmClassifier) ClassifyCompany(ctx context.Context, name, summary, text string) ([]Assignment, error) {
	if r := []rune(text); len(r) > maxPromptText {
		text = string(r[:maxPromptText])
	}
	user := fmt.Sprintf("Company name: %s\nSummary: %s\nWebsite text:\n%s", name, summary, text)
	return l.ask(ctx, companyPrompt, user, CompanyThreshold, maxAssignments)
}

// ResolveTerm implements Classifier.
func (l *llmClassifier) ResolveTerm(ctx context.Context, term string) ([]Assignment, error) {
	return l.ask(ctx, termPrompt, "Sector term: "+term, TermThreshold, maxTermMatches)
}

// ask sends one chat completion and turns its answer into validated assignments scoring at least
// threshold, best first, at most limit.
func (l *llmClassifier) ask(ctx context.Context, system, user string, threshold float64, limit int) ([]Assignment, error) {
	content, err := l.client.JSON(ctx, system+l.catalogue, user)
	switch {
	case errors.Is(err, llm.ErrUnavailable):
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	case errors.Is(err, llm.ErrInvalidAnswer):
		return nil, fmt.Errorf("%w: %w", ErrInvalidAnswer, err)
	case err != nil:
		return nil, fmt.Errorf("taxonomy: %w", err)
	}
	var answer struct {
		Matches []Assignment `json:"matches"`
	}
	if err := json.Unmarshal([]byte(llm.StripFence(content)), &answer); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidAnswer, err)
	}
	return l.t.checkAnswer(answer.Matches, threshold, limit)
}

// checkAnswer keeps the assignments that name existing categories, clamps scores to [0, 1], drops
// those below threshold and sorts the rest best first.
func (t *Taxonomy) checkAnswer(in []Assignment, threshold float64, limit int) ([]Assignment, error) {
	valid := t.validate(in)
	if len(in) > 0 && len(valid) == 0 {
		return nil, fmt.Errorf("%w: unknown category %q", ErrInvalidAnswer, in[0].Path)
	}
	out := []Assignment{}
	for _, a := range valid {
		a.Score = round(min(max(a.Score, 0), 1))
		if a.Score >= threshold {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b Assignment) int { return cmp.Compare(b.Score, a.Score) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
