package radar

// Run triggers of RunArgs.Trigger.
const (
	TriggerFirst    = "first"
	TriggerRefresh  = "refresh"
	TriggerSchedule = "schedule"
)

// Outbox message statuses.
const (
	// OutboxPending waits for the mail job.
	OutboxPending = "pending"
	// OutboxSending is claimed by a mail job that is talking to the SMTP server.
	OutboxSending = "sending"
	OutboxSent    = "sent"
	// OutboxFailed gave up after the last delivery attempt.
	OutboxFailed = "failed"
	// OutboxKept is never sent because no SMTP server is configured.
	OutboxKept = "kept"
)

// MailArgs asks for the delivery of one outbox message.
type MailArgs struct {
	OrgID    string `json:"orgId"`
	OutboxID string `json:"outboxId"`
}

// Kind names the mail worker.
func (MailArgs) Kind() string { return "mail" }

// ScheduleArgs asks the scheduler to enqueue the runs of every due entity.
type ScheduleArgs struct{}

// Kind names the scheduler worker.
func (ScheduleArgs) Kind() string { return "schedule" }

// PageSnapshot is the copy of a page kept from the previous run, stored whole as the crawler wrote it, to
// detect changes and to ask for the page conditionally.
type PageSnapshot struct {
	URL  string
	Data RawJSON
}

// FounderProfiles are the profile links enrichment found for a stored founder.
type FounderProfiles struct {
	FounderID   string
	LinkedinURL string
	TwitterURL  string
	GithubURL   string
}

// Enrichment is what the enrichment of a stored entity learned. Profile fields fill only fields that are still
// empty when it is written, so that nothing a client set is overwritten.
type Enrichment struct {
	Status             string // EnrichReady, EnrichPartial or EnrichFailed
	CompanyLinkedinURL string
	CompanyTwitterURL  string
	CompanyGithubURL   string
	Founders           []FounderProfiles
	// Sectors replaces the entity's sector paths when non-nil.
	Sectors []string
	// FirstRun, when set, is enqueued in the same transaction and marks the entity as running.
	FirstRun *RunArgs
}

// RunStart is the state a tracker run begins from.
type RunStart struct {
	Entity *Entity
	// Finished reports that the run has finished already (a repeated job): nothing is left to do.
	Finished  bool
	Snapshots []PageSnapshot
	// Sources holds the state of each source after the previous run, by source name.
	Sources map[string]SourceHealth
}

// RunReport is everything a finished tracker run writes, in one transaction.
type RunReport struct {
	OrgID, EntityID, RunID string
	Signal                 *Signal
	Alert                  *Alert
	// Outbox is the alert e-mail, when the alert's outcome is sent; a pending one gets a mail job.
	Outbox *OutboxMessage
	Leads  []*Lead
	// SeenItems are the keys of the items to remember as seen.
	SeenItems []string
	// Snapshots replace the stored copies of the same URLs.
	Snapshots []PageSnapshot
	// Sources is the state of every source after this run.
	Sources      []SourceHealth
	HealthReason string
	// Stage replaces the entity's stage when not empty; Sectors replace its sectors when non-nil.
	Stage      string
	Sectors    []string
	FinishedAt Time
}

// OutboxFilter selects outbox messages of one organisation, newest first.
type OutboxFilter struct {
	OrgID    string
	EntityID string
	Status   string
	Page     Page
}
