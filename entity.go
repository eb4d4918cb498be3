package radar

import "context"

// Entity status values.
const (
	StatusOK     = "ok"
	StatusPaused = "paused"
)

// Enrichment status values of Operation.EnrichmentStatus.
const (
	EnrichQueued  = "queued"
	EnrichRunning = "running"
	EnrichReady   = "ready"
	EnrichPartial = "partial"
	EnrichFailed  = "failed"
)

// Funding stages of entities and leads.
const (
	StagePreSeedSeed = "pre_seed_seed"
	StageSeriesA     = "series_a"
	StageSeriesBPlus = "series_b_plus"
	StageUnknown     = "unknown"
)

// Stages lists every stage value.
var Stages = []string{StagePreSeedSeed, StageSeriesA, StageSeriesBPlus, StageUnknown}

// Digest periods of Entity.Digest.
const (
	DigestOff    = "off"
	DigestDaily  = "daily"
	DigestWeekly = "weekly"
)

// DigestPeriods lists the values of Entity.Digest.
var DigestPeriods = []string{DigestOff, DigestDaily, DigestWeekly}

// Views of a resource.
const (
	ViewCompact = "compact"
	ViewFull    = "full"
)

// Health texts of Entity.ScrapeHealthReason while nothing has finished or something runs.
const (
	HealthPending = "pending: first run not finished"
	HealthRunning = "running: a tracker run is in progress"
)

// Founder is a person behind a tracked company.
type Founder struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	LinkedinURL string `json:"linkedinUrl,omitempty"`
	TwitterURL  string `json:"twitterUrl,omitempty"`
	GithubURL   string `json:"githubUrl,omitempty"`
}

// Entity is a tracked company.
type Entity struct {
	ID                 string    `json:"id"`
	OrgID              string    `json:"-"`
	CompanyName        string    `json:"companyName"`
	CompanyWebsite     string    `json:"companyWebsite"`
	CompanyLinkedinURL string    `json:"companyLinkedinUrl,omitempty"`
	CompanyTwitterURL  string    `json:"companyTwitterUrl,omitempty"`
	CompanyGithubURL   string    `json:"companyGithubUrl,omitempty"`
	CompanySummary     string    `json:"companySummary,omitempty"`
	Founders           []Founder `json:"founders"`
	ThingsToTrack      string    `json:"thingsToTrack"`
	AlertEmails        []string  `json:"alertEmails"`
	EmailAlertsEnabled bool      `json:"emailAlertsEnabled"`
	CadenceDays        int       `json:"cadenceDays"`
	// Digest is how often the recipients get a digest e-mail of the runs that found something: DigestOff,
	// DigestDaily or DigestWeekly.
	Digest  string   `json:"digest" enum:"off,daily,weekly"`
	Status  string   `json:"status"`
	Tags    []string `json:"tags"`
	Sectors []string `json:"sectors"`
	Stage   string   `json:"stage"`
	// Policy is the compiled form of ThingsToTrack (full view only).
	Policy             *Policy `json:"policy,omitempty"`
	EnrichmentStatus   string  `json:"enrichmentStatus"`
	LastScrapedAt      *Time   `json:"lastScrapedAt" nullable:"true"`
	ScrapeHealthReason string  `json:"scrapeHealthReason"`
	NextRunAt          *Time   `json:"nextRunAt" nullable:"true"`
	// RunningSince is set while a tracker run is in progress.
	RunningSince *Time `json:"-"`
	CreatedAt    Time  `json:"createdAt"`
	UpdatedAt    Time  `json:"updatedAt"`
	// LatestSignal is the compact view of the newest signal, when there is one.
	LatestSignal *Signal `json:"latestSignal"`
	// LatestChange is the compact view of the newest signal that found something (not no_change), when there
	// is one; the web UI shows it beside the last run.
	LatestChange *Signal `json:"-"`
	// Operation reports enrichment progress on single reads and creates.
	Operation *Operation `json:"-"`
	// Version counts writes of the entity.
	Version int64 `json:"-"`
}

// Operation is the enrichment progress of an entity, for clients to poll.
type Operation struct {
	EntityID                     string `json:"entityId"`
	PollURL                      string `json:"pollUrl"`
	EnrichmentStatus             string `json:"enrichmentStatus"`
	EnrichmentComplete           bool   `json:"enrichmentComplete"`
	SuggestedPollIntervalSeconds *int   `json:"suggestedPollIntervalSeconds"`
}

// EnrichmentComplete reports whether the enrichment status is final.
func EnrichmentComplete(status string) bool {
	return status == EnrichReady || status == EnrichPartial || status == EnrichFailed
}

// Policy is the governed form of an entity's alert rules.
type Policy struct {
	Version int          `json:"version"`
	Rules   []PolicyRule `json:"rules"`
}

// PolicyRule is one compiled alert rule.
type PolicyRule struct {
	ID           string   `json:"id"`
	Sentence     string   `json:"sentence"`
	Kind         string   `json:"kind"`
	Types        []string `json:"types"`
	Keywords     []string `json:"keywords"`
	People       []string `json:"people"`
	MinAmountUSD float64  `json:"minAmountUsd,omitempty"`
	MinSeverity  string   `json:"minSeverity,omitempty"`
}

// EntityFilter selects entities of one organisation, newest first.
type EntityFilter struct {
	OrgID        string
	Status       string
	Stage        string
	UpdatedAfter *Time
	// Sectors keeps entities having a sector path equal to or below one of these paths; nil means no filter,
	// an empty non-nil slice matches nothing.
	Sectors []string
	IDs     []string
	Page    Page
	// Compact leaves out what the compact view does not show: the entities come without their policy.
	Compact bool
}

// Page is a keyset position and a size: rows strictly older than (AfterCreated, AfterID) in the list order.
type Page struct {
	Limit        int
	AfterCreated int64
	AfterID      string
}

// EntityStore keeps tracked companies. Every method is scoped to an organisation and answers ErrNotFound
// for another organisation's id.
type EntityStore interface {
	// CreateEntity inserts e with its founders and enqueues jobs in one transaction. When idem is non-nil
	// the idempotency record is completed in the same transaction.
	CreateEntity(ctx context.Context, e *Entity, jobs []JobArgs, idem *IdempotencyRecord) error
	// UpdateEntity writes every field of e (founders replaced by e.Founders, by id), bumps its version,
	// and enqueues jobs, in one transaction. idem as in CreateEntity.
	UpdateEntity(ctx context.Context, e *Entity, jobs []JobArgs, idem *IdempotencyRecord) error
	Entity(ctx context.Context, orgID, id string) (*Entity, error)
	// FindExistingEntity returns the entity of orgID with the same normalised website, company profile URL
	// or founder profile URL as any of keys, or ErrNotFound.
	FindExistingEntity(ctx context.Context, orgID string, keys []string) (*Entity, error)
	Entities(ctx context.Context, f EntityFilter) ([]*Entity, error)
	// DeleteEntity removes the entity and all of its history.
	DeleteEntity(ctx context.Context, orgID, id string) error
	// StartRefresh marks a run in progress and enqueues jobs, failing with entity_paused or
	// refresh_in_progress; it returns the entity as it was before.
	StartRefresh(ctx context.Context, orgID, id string, now Time, jobs []JobArgs) (*Entity, error)
}
