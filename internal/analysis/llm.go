package analysis

import (
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

// Errors of the language-model analyser.
var (
	// ErrUpstream means the chat-completions endpoint could not be reached or answered with an error status.
	ErrUpstream = errors.New("language model unavailable")
	// ErrInvalidAnswer means the model answered, but not with a judgement that fits the contract.
	ErrInvalidAnswer = errors.New("invalid answer from language model")
)

// Limits that keep a prompt and an answer bounded.
const (
	llmMaxItems    = 40
	llmMaxItemText = 800
	llmTimeout     = 90 * time.Second
)

// llmAnalyser asks an OpenAI-compatible chat-completions endpoint to judge a run.
type llmAnalyser struct {
	client *llm.Client
}

// NewLLM returns an analyser that asks an OpenAI-compatible chat-completions endpoint to judge a run. url is
// the API base ("https://api.example.com/v1"), or the full address when it already ends in
// /chat/completions. A nil client gets a default with a timeout. The answer must be a JSON object whose
// type, severity, recommendation and rule ids are valid; otherwise Analyse fails with ErrInvalidAnswer.
func NewLLM(url, model, apiKey string, client *http.Client) Analyser {
	if client == nil {
		client = &http.Client{Timeout: llmTimeout}
	}
	return &llmAnalyser{client: &llm.Client{URL: url, Model: model, APIKey: apiKey, HTTP: client}}
}

// llmAnswer is the JSON the model is asked to produce.
type llmAnswer struct {
	Type           string `json:"type"`
	Severity       string `json:"severity"`
	Recommendation string `json:"recommendation"`
	NeedsAttention *bool  `json:"needsAttention"`
	Summary        string `json:"summary"`
	Analysis       string `json:"analysis"`
	Evaluations    []struct {
		RuleID   string   `json:"ruleId"`
		Matched  *bool    `json:"matched"`
		Reason   string   `json:"reason"`
		Evidence []string `json:"evidence"`
	} `json:"evaluations"`
}

// promptItem is an item as shown to the model, with the built-in classifier's reading as a hint.
type promptItem struct {
	Source    string `json:"source"`
	Kind      string `json:"kind"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Text      string `json:"text,omitempty"`
	Published string `json:"published,omitempty"`
	Hint      string `json:"classifierHint"`
}

type promptInput struct {
	Company        string       `json:"company"`
	Founders       []string     `json:"founders"`
	Items          []promptItem `json:"items"`
	OmittedItems   int          `json:"omittedItems,omitempty"`
	Rules          []Rule       `json:"rules"`
	SourceProblems []string     `json:"sourceProblems,omitempty"`
}

const systemPrompt = `You are the analyst of Radar, a service that tracks companies for investors. You receive the new items ` +
	`found about one company in one tracker run, and the investor's alert rules. Judge the run and answer with ` +
	`one JSON object and nothing else, with exactly these fields:
{"type": one of funding, acquisition, executive_change, founder_departure, new_venture, team_growth, contraction, ` +
	`product_launch, partnership, expansion, legal, recognition, open_source, website_change, other, no_change;
 "severity": one of low, medium, high, critical;
 "recommendation": one of reach_out, review, monitor, no_action;
 "needsAttention": true or false;
 "summary": one or two sentences on what happened;
 "analysis": a few short paragraphs of plain text explaining the judgement, suitable for an e-mail;
 "evaluations": one object per rule, in the order given: {"ruleId": the rule's id, "matched": true or false, ` +
	`"reason": why, in one sentence, "evidence": the URLs of the items that matched, taken from the items}}
Rules: type is the most significant event; denials ("denies rumours of layoffs", "no plans to raise") are not ` +
	`events and never match a rule; website_change is only for an item of kind "change" (a page diff) that ` +
	`announces no news, and a run whose only items are cosmetic page diffs is no_change; an article with no event ` +
	`is other; a rule with minAmountUsd only matches a stated amount at least that large; ` +
	`needsAttention is true when severity is high or critical or any rule matched. With no items, type is no_change.`

// itemKind names an item's kind for the prompt: an empty kind is an article.
func itemKind(kind string) string {
	if kind == "" {
		return ItemArticle
	}
	return kind
}

func (l *llmAnalyser) Analyse(ctx context.Context, in Input) (Result, error) {
	if len(in.Items) == 0 {
		return Builtin().Analyse(ctx, in)
	}
	findings := make([]Finding, 0, len(in.Items))
	for _, it := range in.Items {
		findings = append(findings, Classify(it, in.CompanyName, in.Founders))
	}
	prompt, err := json.Marshal(buildPrompt(in, findings))
	if err != nil {
		return Result{}, fmt.Errorf("llm %s: encode prompt: %w", l.client.Model, err)
	}
	content, err := l.complete(ctx, string(prompt))
	if err != nil {
		return Result{}, fmt.Errorf("llm %s: %w", l.client.Model, err)
	}
	res, err := parseAnswer(content, in)
	if err != nil {
		return Result{}, fmt.Errorf("llm %s: %w", l.client.Model, err)
	}
	res.Findings = findings
	res.Analyser = "llm:" + l.client.Model
	return res, nil
}

func buildPrompt(in Input, findings []Finding) promptInput {
	p := promptInput{
		Company: in.CompanyName, Founders: in.Founders, Rules: in.Policy.Rules, SourceProblems: in.SourceProblems,
		Items: []promptItem{},
	}
	if p.Founders == nil {
		p.Founders = []string{}
	}
	if p.Rules == nil {
		p.Rules = []Rule{}
	}
	for i, f := range findings {
		if i == llmMaxItems {
			p.OmittedItems = len(findings) - i
			break
		}
		hint := f.Type + ", " + f.Severity
		if f.Negated {
			hint += ", denied"
		}
		if f.Money != nil {
			hint += ", " + f.Money.String()
		}
		pi := promptItem{
			Source: f.Item.Source, Kind: itemKind(f.Item.Kind), URL: f.Item.URL, Title: truncate(f.Item.Title, 300),
			Text: truncate(f.Item.Text, llmMaxItemText), Hint: hint,
		}
		if !f.Item.Published.IsZero() {
			pi.Published = f.Item.Published.UTC().Format(time.RFC3339)
		}
		p.Items = append(p.Items, pi)
	}
	return p
}

// complete sends one chat-completions request and returns the answer's content.
func (l *llmAnalyser) complete(ctx context.Context, prompt string) (string, error) {
	content, err := l.client.JSON(ctx, systemPrompt, prompt)
	switch {
	case errors.Is(err, llm.ErrUnavailable):
		return "", fmt.Errorf("%w: %w", err, ErrUpstream)
	case errors.Is(err, llm.ErrInvalidAnswer):
		return "", fmt.Errorf("%w: %w", err, ErrInvalidAnswer)
	}
	return content, err
}

// parseAnswer checks the model's JSON against the contract's enums and the policy's rules.
func parseAnswer(content string, in Input) (Result, error) {
	var a llmAnswer
	dec := json.NewDecoder(strings.NewReader(content))
	if err := dec.Decode(&a); err != nil {
		return Result{}, fmt.Errorf("answer is not a JSON object: %w: %w", err, ErrInvalidAnswer)
	}
	if dec.More() {
		return Result{}, fmt.Errorf("answer has text after the JSON object: %w", ErrInvalidAnswer)
	}
	switch {
	case !slices.Contains(Types(), a.Type):
		return Result{}, fmt.Errorf("unknown type %q: %w", a.Type, ErrInvalidAnswer)
	case !slices.Contains(Severities(), a.Severity):
		return Result{}, fmt.Errorf("unknown severity %q: %w", a.Severity, ErrInvalidAnswer)
	case !slices.Contains(Recommendations(), a.Recommendation):
		return Result{}, fmt.Errorf("unknown recommendation %q: %w", a.Recommendation, ErrInvalidAnswer)
	case a.NeedsAttention == nil:
		return Result{}, fmt.Errorf("needsAttention missing: %w", ErrInvalidAnswer)
	case strings.TrimSpace(a.Summary) == "":
		return Result{}, fmt.Errorf("summary missing: %w", ErrInvalidAnswer)
	case strings.TrimSpace(a.Analysis) == "":
		return Result{}, fmt.Errorf("analysis missing: %w", ErrInvalidAnswer)
	case len(a.Evaluations) != len(in.Policy.Rules):
		return Result{}, fmt.Errorf("%d evaluations for %d rules: %w", len(a.Evaluations), len(in.Policy.Rules), ErrInvalidAnswer)
	}

	urls := make(map[string]bool, len(in.Items))
	for _, it := range in.Items {
		urls[it.URL] = true
	}
	byID := make(map[string]int, len(a.Evaluations))
	for i, e := range a.Evaluations {
		if _, dup := byID[e.RuleID]; dup {
			return Result{}, fmt.Errorf("rule %q evaluated twice: %w", e.RuleID, ErrInvalidAnswer)
		}
		byID[e.RuleID] = i
	}
	evals := make([]RuleEvaluation, 0, len(in.Policy.Rules))
	for _, r := range in.Policy.Rules {
		i, ok := byID[r.ID]
		if !ok {
			return Result{}, fmt.Errorf("rule %q not evaluated: %w", r.ID, ErrInvalidAnswer)
		}
		e := a.Evaluations[i]
		if e.Matched == nil || strings.TrimSpace(e.Reason) == "" {
			return Result{}, fmt.Errorf("rule %q: matched and reason are required: %w", r.ID, ErrInvalidAnswer)
		}
		evidence := []string{}
		for _, u := range e.Evidence {
			if !urls[u] {
				return Result{}, fmt.Errorf("rule %q: evidence %q is not one of the items: %w", r.ID, u, ErrInvalidAnswer)
			}
			if !slices.Contains(evidence, u) {
				evidence = append(evidence, u)
			}
		}
		evals = append(evals, RuleEvaluation{
			RuleID: r.ID, Sentence: r.Sentence, Matched: *e.Matched, Reason: strings.TrimSpace(e.Reason), Evidence: evidence,
		})
	}

	analysis := strings.TrimSpace(a.Analysis)
	var missing []string
	for _, p := range in.SourceProblems {
		if !strings.Contains(analysis, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		analysis += "\n\nSome sources had problems this run, so this picture may be incomplete: " +
			strings.Join(missing, "; ") + "."
	}
	return Result{
		Type: a.Type, Severity: a.Severity, Recommendation: a.Recommendation, NeedsAttention: *a.NeedsAttention,
		Summary: strings.TrimSpace(a.Summary), Analysis: analysis, Evaluations: evals,
	}, nil
}

// fallbackChain answers with a second analyser when the first one fails.
type fallbackChain struct {
	primary, secondary Analyser
}

// WithFallback returns an Analyser that asks primary and, when it fails or runs out of time, answers with
// fallback instead, saying why in Result.Fallback. The fallback runs even when ctx has expired, since that is
// how a slow primary fails.
func WithFallback(primary, fallback Analyser) Analyser {
	return fallbackChain{primary: primary, secondary: fallback}
}

func (f fallbackChain) Analyse(ctx context.Context, in Input) (Result, error) {
	res, err := f.primary.Analyse(ctx, in)
	if err == nil {
		return res, nil
	}
	res, ferr := f.secondary.Analyse(context.WithoutCancel(ctx), in)
	if ferr != nil {
		return Result{}, errors.Join(err, ferr)
	}
	res.Fallback = err.Error()
	return res, nil
}
