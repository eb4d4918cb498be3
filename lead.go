package radar

import "context"

// Lead decision statuses.
const (
	DecisionUnreviewed = "unreviewed"
	DecisionAccepted   = "accepted"
	DecisionRejected   = "rejected"
)

// LeadSource is the tracked company a lead was found around.
type LeadSource struct {
	EntityID    string `json:"entityId"`
	CompanyName string `json:"companyName"`
}

// LeadCompany is the company a lead founded or joined.
type LeadCompany struct {
	Name    string `json:"name"`
	Website string `json:"website,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// UndescribedCompany is a lead's company summary when the news it was found in does not say what the company
// does; a later sighting that does say replaces it.
func UndescribedCompany(company string) string {
	return "The news this lead was found in does not say what " + company + " does."
}

// LeadDecision is a user's verdict on a lead.
type LeadDecision struct {
	Status          string `json:"status"`
	DecidedAt       *Time  `json:"decidedAt" nullable:"true"`
	TrackedEntityID string `json:"trackedEntityId,omitempty"`
}

// Lead is a founder discovered around a tracked company.
type Lead struct {
	ID          string       `json:"id"`
	OrgID       string       `json:"-"`
	Key         string       `json:"-"`
	PersonName  string       `json:"personName"`
	PersonRole  string       `json:"personRole,omitempty"`
	LinkedinURL string       `json:"linkedinUrl,omitempty"`
	TwitterURL  string       `json:"twitterUrl,omitempty"`
	GithubURL   string       `json:"githubUrl,omitempty"`
	Company     LeadCompany  `json:"company"`
	Relation    string       `json:"relation"`
	Source      LeadSource   `json:"source"`
	Sector      string       `json:"sector"`
	Stage       string       `json:"stage"`
	Evidence    []Evidence   `json:"evidence"`
	Decision    LeadDecision `json:"decision"`
	CreatedAt   Time         `json:"createdAt"`
	UpdatedAt   Time         `json:"updatedAt"`
}

// Compact returns the compact view of l: company summary cut, at most CompactEvidence evidence links.
func (l Lead) Compact() Lead {
	l.Company.Summary = Truncate(l.Company.Summary, CompactSummaryLen)
	if len(l.Evidence) > CompactEvidence {
		l.Evidence = l.Evidence[:CompactEvidence]
	}
	return l
}

// LeadFilter selects leads of one organisation, newest first.
type LeadFilter struct {
	OrgID          string
	Decision       string
	SourceEntityID string
	Sectors        []string
	Stage          string
	Name           string
	Page           Page
}

// LeadStore keeps leads.
type LeadStore interface {
	Lead(ctx context.Context, orgID, id string) (*Lead, error)
	Leads(ctx context.Context, f LeadFilter) ([]*Lead, error)
	// DecideLead records a decision; trackedEntityID is kept when non-empty.
	DecideLead(ctx context.Context, orgID, id, status, trackedEntityID string, at Time) (*Lead, error)
}
