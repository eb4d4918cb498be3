package radar

import (
	"context"
	"encoding/json"
)

// JobArgs are the arguments of a background job; Kind names its worker.
type JobArgs interface{ Kind() string }

// EnrichArgs asks for the enrichment of an entity.
type EnrichArgs struct {
	OrgID    string `json:"orgId"`
	EntityID string `json:"entityId"`
	// ThenRun starts the first tracker run when enrichment is over.
	ThenRun bool `json:"thenRun"`
}

// Kind names the enrichment worker.
func (EnrichArgs) Kind() string { return "enrich" }

// RunArgs asks for one tracker run of an entity.
type RunArgs struct {
	OrgID    string `json:"orgId"`
	EntityID string `json:"entityId"`
	RunID    string `json:"runId"`
	Trigger  string `json:"trigger"`
}

// Kind names the run worker.
func (RunArgs) Kind() string { return "run" }

// Idempotency record states.
const (
	IdemInProgress = "in_progress"
	IdemDone       = "done"
)

// IdempotencyRecord remembers a request made with an Idempotency-Key for 24 hours.
type IdempotencyRecord struct {
	OrgID       string
	Key         string
	Scope       string // the operation: "create", "track:<lead id>"
	RequestHash string
	State       string
	EntityID    string
	StatusCode  int
	CreatedAt   Time
}

// IdempotencyStore keeps idempotency records.
type IdempotencyStore interface {
	// BeginIdempotent claims (orgID, key) for a request, or returns the record that already holds it
	// (claimed=false). A record older than expiry, or in progress since before stale, is taken over.
	BeginIdempotent(ctx context.Context, rec *IdempotencyRecord, expiry, stale Time) (existing *IdempotencyRecord, claimed bool, err error)
	// AbandonIdempotent forgets an in-progress claim after a failed request.
	AbandonIdempotent(ctx context.Context, orgID, key string) error
}

// Store is everything Radar keeps. SQLite and PostgreSQL implement it, and one conformance suite tests both.
type Store interface {
	AuthStore
	EntityStore
	IdempotencyStore
	SignalStore
	LeadStore
	WebhookStore
	ReadPositionStore
	// DataVersion changes whenever an entity of the organisation is created, changed by a client or deleted, so
	// that in-process indexes of names, websites and founders (the fuzzy lookup) know when to rebuild. Runs and
	// enrichment do not change it.
	DataVersion(ctx context.Context, orgID string) (int64, error)
	Ping(ctx context.Context) error
	Close() error
}

// RawJSON is a stored JSON document.
type RawJSON = json.RawMessage
