// Package tracker is Radar's engine: background jobs that enrich tracked companies with their profiles, run
// the tracker over their websites, feeds, news and GitHub, and turn each run into a signal, an alert with its
// e-mail, and founder leads; and the scheduler that starts the runs that are due.
//
// Jobs live in the database's River queue and are inserted in the same transaction as the data that asks for
// them. Every job can run more than once (a retry, a rescued job of a crashed process): each one checks what
// is already written and writes its outcome in one transaction, so that a run never yields two signals and an
// alert never two e-mails.
package tracker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"radar"
	"radar/internal/analysis"
	"radar/internal/crawl"
	"radar/internal/leadfind"
	"radar/internal/mail"
	"radar/internal/sqldb"
	"radar/internal/taxonomy"
)

// Crawler reads a company's web presence; *crawl.Crawler is the implementation.
type Crawler interface {
	Run(ctx context.Context, t crawl.Target, prev map[string]crawl.Snapshot) crawl.Result
	Enrich(ctx context.Context, t crawl.Target) (crawl.Result, error)
}

// Mailer delivers e-mails; *mail.Sender is the implementation.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// LeadExtractor finds founder leads in the items of a run; leadfind.Extract is the implementation.
type LeadExtractor func(company string, founders []string, items []leadfind.Item) []leadfind.Candidate

// Defaults of Config.
const (
	DefaultScheduleEvery = time.Minute
	// SourceFailureLimit is how many runs in a row a source may fail before the signal reports it.
	SourceFailureLimit = 3
)

// Job time limits; a job running longer is cancelled and retried.
const (
	enrichTimeout   = 4 * time.Minute
	runTimeout      = 5 * time.Minute
	mailTimeout     = 2 * time.Minute
	scheduleTimeout = time.Minute
)

const (
	// staleRun is how long an entity may seem running before the scheduler presumes the run lost.
	staleRun = 30 * time.Minute
	// mailLease is how long a mail job's claim on an e-mail lasts before another job may send it.
	mailLease = 5 * time.Minute
	// scheduleBatch bounds the entities the scheduler claims in one transaction.
	scheduleBatch = 100
)

// Config wires an Engine. Store and Crawler are required; the rest have defaults.
type Config struct {
	Store   *sqldb.DB
	Crawler Crawler
	// Analyser judges runs; default analysis.Builtin().
	Analyser analysis.Analyser
	// Classifier assigns sectors; default the built-in classifier over taxonomy.Default().
	Classifier taxonomy.Classifier
	// Leads finds founder leads; default leadfind.Extract.
	Leads LeadExtractor
	// Mailer sends alert e-mails; nil keeps them in the outbox (no SMTP server configured).
	Mailer Mailer
	Clock  radar.Clock
	Logger *slog.Logger
	// BaseURL is the public address of Radar, for links in e-mails.
	BaseURL string

	// ScheduleEvery is how often the scheduler looks for due entities; default DefaultScheduleEvery.
	ScheduleEvery time.Duration
	// MaxWorkers, PollInterval, RescueAfter and RetryDelay tune the job queue (see sqldb.WorkerOptions):
	// MaxWorkers bounds the enrichments and runs worked at once, and as many other jobs (RADAR_JOB_WORKERS). A
	// job of a crashed process is retried after the longer of RescueAfter and its kind's time limit (runs: 5
	// minutes).
	MaxWorkers   int
	PollInterval time.Duration
	RescueAfter  time.Duration
	RetryDelay   func(attempt int) time.Duration
	// JobTimeout, when set, bounds every job instead of its kind's own limit, and RescueAfter defaults to a
	// fifth more than it (RADAR_JOB_TIMEOUT).
	JobTimeout time.Duration
	// OnJobFailed, when set, is told of every failed job attempt (the metrics hook here).
	OnJobFailed func(kind string, final bool)
	// AddWorkers, when set, registers the workers of other job kinds (webhook deliveries) and returns their
	// periodic jobs.
	AddWorkers func(*river.Workers) []*river.PeriodicJob
}

// Engine runs Radar's background jobs.
type Engine struct {
	cfg Config

	mu   sync.Mutex
	pool *sqldb.WorkerPool
}

// New returns an Engine for cfg.
func New(cfg Config) (*Engine, error) {
	if cfg.Store == nil || cfg.Crawler == nil {
		return nil, errors.New("tracker: a store and a crawler are required")
	}
	if cfg.Analyser == nil {
		cfg.Analyser = analysis.Builtin()
	}
	if cfg.Classifier == nil {
		cfg.Classifier = taxonomy.NewBuiltin(taxonomy.Default())
	}
	if cfg.Leads == nil {
		cfg.Leads = leadfind.Extract
	}
	if s, ok := cfg.Mailer.(*mail.Sender); ok && s == nil {
		cfg.Mailer = nil
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ScheduleEvery <= 0 {
		cfg.ScheduleEvery = DefaultScheduleEvery
	}
	if cfg.JobTimeout > 0 && cfg.RescueAfter <= 0 {
		cfg.RescueAfter = cfg.JobTimeout + cfg.JobTimeout/5
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Engine{cfg: cfg}, nil
}

// NewAnalyser returns the built-in analyser or, when llmURL is set (RADAR_LLM_URL), the OpenAI-compatible
// model at llmURL with the built-in analyser answering whenever the model fails.
func NewAnalyser(llmURL, model, apiKey string, client *http.Client) analysis.Analyser {
	if strings.TrimSpace(llmURL) == "" {
		return analysis.Builtin()
	}
	return analysis.WithFallback(analysis.NewLLM(llmURL, model, apiKey, client), analysis.Builtin())
}

// Start starts working the job queue and, on the process that leads the queue, the scheduler. The workers
// outlive ctx; Stop ends them.
func (e *Engine) Start(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pool != nil {
		return errors.New("tracker: already started")
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &enrichWorker{e: e})
	river.AddWorker(workers, &runWorker{e: e})
	river.AddWorker(workers, &mailWorker{e: e})
	river.AddWorker(workers, &scheduleWorker{e: e})
	periodic := []*river.PeriodicJob{river.NewPeriodicJob(
		river.PeriodicInterval(e.cfg.ScheduleEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return radar.ScheduleArgs{}, &river.InsertOpts{MaxAttempts: 1}
		},
		&river.PeriodicJobOpts{ID: "schedule", RunOnStart: true},
	)}
	if e.cfg.AddWorkers != nil {
		periodic = append(periodic, e.cfg.AddWorkers(workers)...)
	}
	pool, err := e.cfg.Store.StartWorkers(context.WithoutCancel(ctx), sqldb.WorkerOptions{
		Workers: workers, Periodic: periodic, MaxWorkers: e.cfg.MaxWorkers, PollInterval: e.cfg.PollInterval,
		RescueAfter: e.cfg.RescueAfter, RetryDelay: e.cfg.RetryDelay, Logger: e.cfg.Logger, OnJobFailed: e.cfg.OnJobFailed,
	})
	if err != nil {
		return fmt.Errorf("tracker: %w", err)
	}
	e.pool = pool
	return nil
}

// Stop stops taking jobs and waits for the running ones; when ctx ends first, it cancels them (they are
// retried later, here or by another process).
func (e *Engine) Stop(ctx context.Context) error {
	e.mu.Lock()
	pool := e.pool
	e.pool = nil
	e.mu.Unlock()
	if pool == nil {
		return nil
	}
	return pool.Stop(ctx)
}

// Abort cancels the running jobs at once and waits for them to return; the queue retries them later, here or
// in another process.
func (e *Engine) Abort(ctx context.Context) error {
	e.mu.Lock()
	pool := e.pool
	e.pool = nil
	e.mu.Unlock()
	if pool == nil {
		return nil
	}
	return pool.Abort(ctx)
}

func (e *Engine) now() radar.Time { return radar.NewTime(e.cfg.Clock()) }

// timeout is a job kind's time limit: its own, or the configured one for every job.
func (e *Engine) timeout(own time.Duration) time.Duration {
	if e.cfg.JobTimeout > 0 {
		return e.cfg.JobTimeout
	}
	return own
}

func newID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// target is what the crawler reads for an entity.
func target(ent *radar.Entity) crawl.Target {
	names := make([]string, len(ent.Founders))
	for i, f := range ent.Founders {
		names[i] = f.Name
	}
	return crawl.Target{CompanyName: ent.CompanyName, Website: ent.CompanyWebsite, GitHubURL: ent.CompanyGithubURL, Founders: names}
}

// recordCtx outlives a cancelled job context just long enough to record what happened.
func recordCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

type enrichWorker struct {
	river.WorkerDefaults[radar.EnrichArgs]
	e *Engine
}

func (w *enrichWorker) Timeout(*river.Job[radar.EnrichArgs]) time.Duration {
	return w.e.timeout(enrichTimeout)
}

func (w *enrichWorker) Work(ctx context.Context, j *river.Job[radar.EnrichArgs]) error {
	err := w.e.Enrich(ctx, j.Args)
	if err != nil && j.Attempt >= j.MaxAttempts {
		rctx, cancel := recordCtx(ctx)
		defer cancel()
		return w.e.giveUpEnrichment(rctx, j.Args, err)
	}
	return err
}

type runWorker struct {
	river.WorkerDefaults[radar.RunArgs]
	e *Engine
}

func (w *runWorker) Timeout(*river.Job[radar.RunArgs]) time.Duration { return w.e.timeout(runTimeout) }

func (w *runWorker) Work(ctx context.Context, j *river.Job[radar.RunArgs]) error {
	err := w.e.Run(ctx, j.Args)
	if err != nil && j.Attempt >= j.MaxAttempts {
		w.e.cfg.Logger.Error("tracker run failed", "entity", j.Args.EntityID, "run", j.Args.RunID, "err", err)
		rctx, cancel := recordCtx(ctx)
		defer cancel()
		return w.e.cfg.Store.FailRun(rctx, j.Args, "failed: the run could not finish; the next scheduled run will try again", w.e.now())
	}
	return err
}

type mailWorker struct {
	river.WorkerDefaults[radar.MailArgs]
	e *Engine
}

func (w *mailWorker) Timeout(*river.Job[radar.MailArgs]) time.Duration {
	return w.e.timeout(mailTimeout)
}

func (w *mailWorker) Work(ctx context.Context, j *river.Job[radar.MailArgs]) error {
	return w.e.Deliver(ctx, j.Args, j.Attempt >= j.MaxAttempts)
}

type scheduleWorker struct {
	river.WorkerDefaults[radar.ScheduleArgs]
	e *Engine
}

func (w *scheduleWorker) Timeout(*river.Job[radar.ScheduleArgs]) time.Duration {
	return scheduleTimeout
}

func (w *scheduleWorker) Work(ctx context.Context, _ *river.Job[radar.ScheduleArgs]) error {
	n, err := w.e.Schedule(ctx)
	if n > 0 {
		w.e.cfg.Logger.Info("scheduled tracker runs", "count", n)
	}
	return err
}
