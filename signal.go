package radar

import (
	"context"
	"unicode/utf8"
)

// Signal types.
const (
	TypeFunding          = "funding"
	TypeAcquisition      = "acquisition"
	TypeExecutiveChange  = "executive_change"
	TypeFounderDeparture = "founder_departure"
	TypeNewVenture       = "new_venture"
	TypeTeamGrowth       = "team_growth"
	TypeContraction      = "contraction"
	TypeProductLaunch    = "product_launch"
	TypePartnership      = "partnership"
	TypeExpansion        = "expansion"
	TypeLegal            = "legal"
	TypeRecognition      = "recognition"
	TypeOpenSource       = "open_source"
	TypeWebsiteChange    = "website_change"
	TypeOther            = "other"
	TypeNoChange         = "no_change"
)

// SignalTypes lists every signal type.
var SignalTypes = []string{TypeFunding, TypeAcquisition, TypeExecutiveChange, TypeFounderDeparture,
	TypeNewVenture, TypeTeamGrowth, TypeContraction, TypeProductLaunch, TypePartnership, TypeExpansion,
	TypeLegal, TypeRecognition, TypeOpenSource, TypeWebsiteChange, TypeOther, TypeNoChange}

// Severities, lowest first.
var Severities = []string{"low", "medium", "high", "critical"}

// Recommendations.
var Recommendations = []string{"reach_out", "review", "monitor", "no_action"}

// CompactSummaryLen and CompactEvidence bound the compact view of signals and leads.
const (
	CompactSummaryLen = 300
	CompactEvidence   = 3
)

// Evidence is a source item that backs a finding.
type Evidence struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Source      string `json:"source"`
	Type        string `json:"type,omitempty"`
	PublishedAt *Time  `json:"publishedAt,omitempty"`
}

// Finding is one classified new item of a run.
type Finding struct {
	Type      string   `json:"type"`
	Severity  string   `json:"severity"`
	Title     string   `json:"title"`
	URL       string   `json:"url"`
	Source    string   `json:"source"`
	AmountUSD float64  `json:"amountUsd,omitempty"`
	Amount    string   `json:"amount,omitempty"`
	Round     string   `json:"round,omitempty"`
	People    []string `json:"people,omitempty"`
	Negated   bool     `json:"negated,omitempty"`
}

// SourceHealth is the state of one source of an entity after a run.
type SourceHealth struct {
	Source              string `json:"source"`
	OK                  bool   `json:"ok"`
	Error               string `json:"error,omitempty"`
	ConsecutiveFailures int    `json:"consecutiveFailures"`
}

// Quiet reports whether the signal is of a run that found nothing: its type is no_change.
func (s Signal) Quiet() bool { return s.Type == TypeNoChange }

// NothingChecked reports whether no source of the signal's run could be read (full view only: the compact view
// has no sources).
func (s Signal) NothingChecked() bool {
	for _, h := range s.Sources {
		if h.OK {
			return false
		}
	}
	return len(s.Sources) > 0
}

// Signal is the analysed result of one tracker run.
type Signal struct {
	ID             string         `json:"id"`
	OrgID          string         `json:"-"`
	EntityID       string         `json:"entityId"`
	CompanyName    string         `json:"companyName"`
	RunID          string         `json:"runId"`
	Type           string         `json:"type"`
	Severity       string         `json:"severity"`
	Recommendation string         `json:"recommendation"`
	NeedsAttention bool           `json:"needsAttention"`
	Summary        string         `json:"summary"`
	Analysis       string         `json:"analysis,omitempty"`
	Evidence       []Evidence     `json:"evidence"`
	Findings       []Finding      `json:"findings,omitempty"`
	Sources        []SourceHealth `json:"sources,omitempty"`
	Analyser       string         `json:"analyser"`
	CreatedAt      Time           `json:"createdAt"`
}

// Compact returns the compact view of s: summary cut to CompactSummaryLen characters, at most
// CompactEvidence evidence links, no analysis, findings or sources.
func (s Signal) Compact() Signal {
	s.Summary = Truncate(s.Summary, CompactSummaryLen)
	if len(s.Evidence) > CompactEvidence {
		s.Evidence = s.Evidence[:CompactEvidence]
	}
	s.Analysis, s.Findings, s.Sources = "", nil, nil
	return s
}

// Truncate cuts s to at most n characters (runes), ending with an ellipsis when cut.
func Truncate(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	end := 0
	for range n - 1 {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	return s[:end] + "…"
}

// SignalFilter selects signals of one organisation, newest first.
type SignalFilter struct {
	OrgID          string
	EntityID       string
	Sectors        []string
	Since, Until   *Time
	NeedsAttention *bool
	Type           string
	Severity       string
	Recommendation string
	Q              string
	// Changed keeps only runs that found something (true: type is not no_change) or only quiet runs (false);
	// nil keeps both.
	Changed *bool
	// SeenThrough, when set, keeps only signals created after it: those a reader has not seen.
	SeenThrough *Time
	Page        Page
}

// Alert outcomes.
const (
	// OutcomeSent: rules matched and the e-mail went out (sentAt says when).
	OutcomeSent = "sent"
	// OutcomeNoMatch: no rule matched.
	OutcomeNoMatch = "no_match"
	// OutcomeDisabled: e-mail alerts are off, for the company (emailAlertsEnabled false or paused) or for the
	// installation (no mail server configured: the e-mail is kept in the outbox); never sent.
	OutcomeDisabled = "disabled"
	// OutcomeFailed: delivery was tried and failed after retries.
	OutcomeFailed = "failed"
	// OutcomeAll is the filter value that keeps every outcome.
	OutcomeAll = "all"
)

// Outcomes lists every stored alert outcome.
var Outcomes = []string{OutcomeSent, OutcomeNoMatch, OutcomeDisabled, OutcomeFailed}

// RuleEvaluation is the verdict of one policy rule on one run.
type RuleEvaluation struct {
	RuleID   string   `json:"ruleId"`
	Sentence string   `json:"sentence"`
	Matched  bool     `json:"matched"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence"`
}

// Alert says whether a run e-mailed the recipients, and why.
type Alert struct {
	ID              string           `json:"id"`
	OrgID           string           `json:"-"`
	EntityID        string           `json:"entityId"`
	CompanyName     string           `json:"companyName"`
	SignalID        string           `json:"signalId"`
	Outcome         string           `json:"outcome"`
	Reason          string           `json:"reason"`
	Recipients      []string         `json:"recipients"`
	Subject         string           `json:"subject,omitempty"`
	RuleEvaluations []RuleEvaluation `json:"ruleEvaluations,omitempty"`
	SentAt          *Time            `json:"sentAt" nullable:"true"`
	CreatedAt       Time             `json:"createdAt"`
}

// Compact returns the compact view of a: no rule evaluations.
func (a Alert) Compact() Alert {
	a.RuleEvaluations = nil
	return a
}

// AlertFilter selects alerts of one organisation, newest first.
type AlertFilter struct {
	OrgID           string
	EntityID        string
	Sectors         []string
	Since, Until    *Time
	Outcome         string
	LatestPerEntity bool
	// Changed keeps only alerts of runs that found something (true: their signal is not no_change) or only those
	// of quiet runs (false); nil keeps both.
	Changed *bool
	// SeenThrough, when set, keeps only alerts created after it: those a reader has not seen.
	SeenThrough *Time
	Page        Page
}

// Run is one tracker run of an entity.
type Run struct {
	ID         string `json:"id"`
	OrgID      string `json:"-"`
	EntityID   string `json:"entityId"`
	Trigger    string `json:"trigger"`
	StartedAt  Time   `json:"startedAt"`
	FinishedAt *Time  `json:"finishedAt" nullable:"true"`
}

// OutboxMessage is an alert e-mail, sent or kept.
type OutboxMessage struct {
	ID        string   `json:"id"`
	OrgID     string   `json:"-"`
	AlertID   string   `json:"alertId"`
	EntityID  string   `json:"entityId"`
	To        []string `json:"to"`
	Subject   string   `json:"subject"`
	Text      string   `json:"text"`
	HTML      string   `json:"html"`
	Status    string   `json:"status"`
	Attempts  int      `json:"attempts"`
	LastError string   `json:"lastError,omitempty"`
	SentAt    *Time    `json:"sentAt" nullable:"true"`
	CreatedAt Time     `json:"createdAt"`
}

// SignalStore keeps signals and alerts.
type SignalStore interface {
	Signal(ctx context.Context, orgID, id string) (*Signal, error)
	Signals(ctx context.Context, f SignalFilter) ([]*Signal, error)
	Alert(ctx context.Context, orgID, id string) (*Alert, error)
	Alerts(ctx context.Context, f AlertFilter) ([]*Alert, error)
	// CountSignals and CountAlerts count what the filter selects (its Page ignored), up to limit.
	CountSignals(ctx context.Context, f SignalFilter, limit int) (int, error)
	CountAlerts(ctx context.Context, f AlertFilter, limit int) (int, error)
	// LatestSignals returns the compact view (Signal.Compact) of the newest signal of each of the entities,
	// by entity id.
	LatestSignals(ctx context.Context, orgID string, entityIDs []string) (map[string]*Signal, error)
}
