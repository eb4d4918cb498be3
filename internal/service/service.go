// Package service is Radar's application layer: every operation of the REST API, the MCP tools and the web UI
// passes through it, so that authorization, validation and organisation scoping happen once, the same way,
// on both storage engines.
package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"radar"
	"radar/internal/taxonomy"
)

// DraftEnricher finds the missing profiles of a draft company (the tracker engine).
type DraftEnricher interface {
	EnrichDraft(ctx context.Context, in radar.EntityInput) (radar.EntityInput, []radar.Found, error)
}

// Config holds what a Service needs.
type Config struct {
	Store   radar.Store
	BaseURL string
	// Secret signs cursors; replicas must share it.
	Secret []byte
	Clock  radar.Clock
	Logger *slog.Logger
	// Compile turns alert rules into a policy.
	Compile func(thingsToTrack string) radar.Policy
	// Taxonomy and Classifier resolve sector filters; the classifier may be an LLM that fails.
	Taxonomy   *taxonomy.Taxonomy
	Classifier taxonomy.Classifier
	Enricher   DraftEnricher
	// FetchAllowPrivate accepts websites the fetcher could only reach with RADAR_FETCH_ALLOW_PRIVATE (other
	// ports than 80 and 443, loopback and private addresses) and webhook endpoints at such addresses.
	FetchAllowPrivate bool
}

// Service implements Radar's operations.
type Service struct {
	store   radar.Store
	baseURL string
	cursors cursorSigner
	now     radar.Clock
	logger  *slog.Logger
	compile func(string) radar.Policy
	tax     *taxonomy.Taxonomy
	classes taxonomy.Classifier
	enrich  DraftEnricher
	// publicOnly refuses websites that the guarded fetcher can never fetch.
	publicOnly bool

	indexMu  sync.Mutex
	indexes  map[string]*orgIndex
	building map[string]chan struct{} // closed when the organisation's index build ends

	// touched holds, per key id, when its use was last recorded (an *atomic.Int64 of Unix nanoseconds).
	touched sync.Map
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Taxonomy == nil {
		cfg.Taxonomy = taxonomy.Default()
	}
	if cfg.Classifier == nil {
		cfg.Classifier = taxonomy.NewBuiltin(cfg.Taxonomy)
	}
	return &Service{
		store:      cfg.Store,
		baseURL:    cfg.BaseURL,
		cursors:    cursorSigner{key: cfg.Secret},
		now:        cfg.Clock,
		logger:     cfg.Logger,
		compile:    cfg.Compile,
		tax:        cfg.Taxonomy,
		classes:    cfg.Classifier,
		enrich:     cfg.Enricher,
		publicOnly: !cfg.FetchAllowPrivate,
		indexes:    map[string]*orgIndex{},
		building:   map[string]chan struct{}{},
	}
}

// Store exposes the store for the engine and the command line.
func (s *Service) Store() radar.Store { return s.store }

func (s *Service) nowTime() radar.Time { return radar.NewTime(s.now()) }

// BaseURL is the public address used in links.
func (s *Service) BaseURL() string { return s.baseURL }
