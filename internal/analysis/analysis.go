// Package analysis turns what a tracker run found into a signal: it compiles a company's plain-language
// alert rules into a policy, classifies each new item into a signal type, and judges the run as a whole.
//
// The built-in analyser is deterministic. It reads each item with a table of trigger phrases over the item's
// text, in which the company and its founders are replaced by tokens: per type, the strongest event about the
// company, and whether it is denied, unconfirmed, past, in the headline or another company's. An item model (a
// multinomial logistic regression over the item's stemmed words and word pairs, its source and form, those
// trigger hits, whether the sentences that hold them name the company or open with another name, and what its
// amounts are — a round, revenue, a deal's value, a grant, a prize — trained on testdata/eval/train-*.jsonl into
// model.txt) then types the item, so that phrasings the table does not know still count, and a phrase the table
// knows can be outweighed by what the rest of the item says. The model may call an item funding or an
// acquisition only when a current phrase of that type is about the company (else the runner-up type wins: a
// customer's round, revenue or a past round is no funding; the runner-up is the likeliest type the item affirms),
// a strong phrase about the company overrules the model's call of other news when the model gives the phrase's
// type at least a quarter of its belief, and when the headline reports its type beside a
// more significant event about the company, the more significant one is the type. A headline alone is too short for the model: its strongest phrase decides, the most significant
// when several are about as strong. Other news that denies an event is that event, denied. A GitHub item is
// an open-source release; a page diff whose changes are all cosmetic (dates, counters, page furniture) is no
// change, and other news in a page diff is a website change. The analysis text says what decided: the phrase,
// and the words and hits that weighed most for the type.
//
// Severity of a finding follows this table:
//
//	type               severity
//	funding            high when the amount is at least $10M or the round is Series B or later; medium otherwise
//	acquisition        critical when the company itself is acquired, merges or goes public; high when it buys another
//	executive_change   high when the CEO changes; medium for other executives and board seats
//	founder_departure  high
//	new_venture        high
//	team_growth        medium when headcount doubles or at least 20 roles open; low otherwise
//	contraction        critical when the company shuts down or becomes insolvent; high for layoffs and cuts;
//	                   medium for an office closure
//	product_launch     medium
//	partnership        medium
//	expansion          medium
//	legal              high for lawsuits, investigations, fines and charges; medium for settlements and the rest
//	recognition        low
//	open_source        low
//	website_change     low
//	other, no_change   low
//
// Three modifiers apply on top: a denied event ("denies rumours of layoffs", "no plans to raise") is marked
// Negated and rated low; an unconfirmed one ("reportedly", "in talks", "rumoured") is capped at medium with a
// low score; and a third-party item (news) that names neither the company nor a founder is capped at medium.
package analysis

import (
	"context"
	"slices"
	"time"

	"radar"
)

// Severities, from least to most serious.
const (
	SeverityLow      = "low"
	SeverityMedium   = "medium"
	SeverityHigh     = "high"
	SeverityCritical = "critical"
)

// Recommendations, from most to least urgent.
const (
	RecommendReachOut = "reach_out"
	RecommendReview   = "review"
	RecommendMonitor  = "monitor"
	RecommendNoAction = "no_action"
)

// Rule kinds: a typed rule matches findings by signal type, a keyword rule by words in the items.
const (
	KindTyped   = "typed"
	KindKeyword = "keyword"
)

// Types returns every signal type in the contract's order.
func Types() []string { return slices.Clone(radar.SignalTypes) }

// Severities returns every severity from low to critical.
func Severities() []string {
	return []string{SeverityLow, SeverityMedium, SeverityHigh, SeverityCritical}
}

// Recommendations returns every recommendation from the most to the least urgent.
func Recommendations() []string {
	return []string{RecommendReachOut, RecommendReview, RecommendMonitor, RecommendNoAction}
}

// SeverityRank orders severities: 1 for low up to 4 for critical, 0 for an unknown value.
func SeverityRank(severity string) int {
	switch severity {
	case SeverityLow:
		return 1
	case SeverityMedium:
		return 2
	case SeverityHigh:
		return 3
	case SeverityCritical:
		return 4
	}
	return 0
}

// Item kinds: a piece of content (an article page, a feed entry, a news result, a repository or release), or
// the diff of a page of the company's website that changed since the previous run.
const (
	ItemArticle = "article"
	ItemChange  = "change"
)

// Item is one newly seen piece of content from a source of a tracker run.
type Item struct {
	Source    string    // "website", "feed", "news", "github", ...
	Kind      string    // ItemArticle or ItemChange; empty is an article
	URL       string    // where the item was found
	Title     string    // headline, page or entry title
	Text      string    // paragraph or summary, may be empty
	Published time.Time // zero when unknown
}

// Money is an amount stated in an item, with a rough conversion to US dollars.
type Money struct {
	Amount   float64 // as stated, in units of Currency
	Currency string  // USD, EUR or GBP
	USD      float64 // rough conversion at fixed rates
}

// Finding is the classification of one item.
type Finding struct {
	Item      Item
	Type      string
	Severity  string
	Money     *Money   // funding or acquisition amount when stated
	Round     string   // "pre_seed", "seed", "series_a", "series_b", ... when stated
	People    []string // person names mentioned in the item, when detected
	Negated   bool     // the item denies the event ("denies rumours of layoffs"): kept, never counted
	Score     float64  // confidence 0..1
	Secondary []string // other signal types the item also reports, e.g. expansion in a funding story
	Reasons   []string // what decided the type: the matched phrase, words and trigger hits that weighed most
}

// Rule is one compiled alert rule.
type Rule struct {
	ID           string   `json:"id"`
	Sentence     string   `json:"sentence"`
	Types        []string `json:"types"`
	Keywords     []string `json:"keywords"`
	People       []string `json:"people"`
	MinAmountUSD float64  `json:"minAmountUsd,omitempty"`
	MinSeverity  string   `json:"minSeverity,omitempty"`
	Kind         string   `json:"kind"`
}

// Policy is the compiled form of a company's thingsToTrack.
type Policy struct {
	Rules []Rule `json:"rules"`
}

// Input is everything one tracker run hands to an analyser.
type Input struct {
	CompanyName    string
	Founders       []string
	Items          []Item // only the items new in this run
	Policy         Policy
	SourceProblems []string // e.g. "news: failing for 3 runs: timeout"
}

// RuleEvaluation says whether one rule matched in a run, and why.
type RuleEvaluation struct {
	RuleID   string   `json:"ruleId"`
	Sentence string   `json:"sentence"`
	Matched  bool     `json:"matched"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence"`
}

// Result is the signal of one tracker run.
type Result struct {
	Type           string
	Severity       string
	Recommendation string
	NeedsAttention bool
	Summary        string // one or two sentences on what happened
	Analysis       string // longer explanation, plain text for an e-mail
	Findings       []Finding
	Evaluations    []RuleEvaluation // one per policy rule, in order
	Analyser       string           // "builtin" or "llm:<model>"
	Fallback       string           // why the built-in analyser answered instead of the primary one
}

// Analyser judges a tracker run.
type Analyser interface {
	Analyse(ctx context.Context, in Input) (Result, error)
}
