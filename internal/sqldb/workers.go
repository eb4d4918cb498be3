package sqldb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"radar"
)

// Defaults of WorkerOptions.
const (
	DefaultJobTimeout   = 5 * time.Minute
	DefaultRescueAfter  = 6 * time.Minute
	DefaultPollInterval = time.Second
)

// fetchCooldown is the least time between two fetches of a queue's jobs. A queue fetches when a worker is free,
// at most as many jobs as are free, so with one worker it works at most one job per fetchCooldown: River's
// default of 100 ms held a queue of quick jobs (a run whose website fails, say) to 10 a second whatever the
// CPU could do.
const fetchCooldown = 5 * time.Millisecond

// DefaultMaxWorkers is the default of WorkerOptions.MaxWorkers: half the CPUs Go may use, at least one, so that
// background work leaves the API at least half the machine however many jobs wait.
func DefaultMaxWorkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// The job queues. Enrichments and tracker runs, the long and heavy jobs of which a burst of creates inserts
// thousands, wait in QueueTracker; deliveries (e-mails, webhooks), digests and the scheduler in QueueDefault,
// so that they never wait behind them.
const (
	QueueTracker = "tracker"
	QueueDefault = river.QueueDefault
)

// queueOf is the queue of the jobs of kind.
func queueOf(kind string) string {
	switch kind {
	case radar.EnrichArgs{}.Kind(), radar.RunArgs{}.Kind():
		return QueueTracker
	}
	return QueueDefault
}

// WorkerOptions configure StartWorkers; zero fields take the defaults above.
type WorkerOptions struct {
	Workers  *river.Workers
	Periodic []*river.PeriodicJob
	// MaxWorkers bounds the jobs of each queue this process works at once: as many enrichments and runs, and as
	// many other jobs; default DefaultMaxWorkers(). The other jobs of a queue wait.
	MaxWorkers int
	// JobTimeout cancels a job's context after this long, unless its worker sets its own timeout; default the
	// shorter of DefaultJobTimeout and RescueAfter.
	JobTimeout time.Duration
	// RescueAfter is how long a job may seem running before it is presumed lost with a crashed process and
	// retried. A job is never rescued before its own timeout has passed, so it is at least JobTimeout.
	RescueAfter time.Duration
	// PollInterval is how often the queue is checked for new jobs without a notification (always on SQLite).
	PollInterval time.Duration
	// RetryDelay, when set, replaces River's exponential backoff between the attempts of a failed job.
	RetryDelay func(attempt int) time.Duration
	// OnJobFailed, when set, is told of every failed attempt of a job by its kind; final is true when the job
	// will not be tried again.
	OnJobFailed func(kind string, final bool)
	Logger      *slog.Logger
}

// WorkerPool is a running River client working the job queue of the database.
type WorkerPool struct {
	stop   func(context.Context) error
	cancel func(context.Context) error
}

// Stop stops fetching jobs and waits for the running ones to finish; when ctx ends first, it cancels them and
// waits for them to return.
func (p *WorkerPool) Stop(ctx context.Context) error {
	err := p.stop(ctx)
	if err == nil || ctx.Err() == nil {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return p.cancel(cctx)
}

// Abort cancels the running jobs at once and waits for them to return; River retries them later.
func (p *WorkerPool) Abort(ctx context.Context) error { return p.cancel(ctx) }

// StartWorkers starts a River client that works the jobs of o.Workers and, when this process is the leader
// among those sharing the database, inserts o.Periodic. On SQLite it shares the single writer connection; on
// PostgreSQL it uses the pool and listens for new jobs.
func (db *DB) StartWorkers(ctx context.Context, o WorkerOptions) (*WorkerPool, error) {
	if o.Workers == nil {
		return nil, errors.New("sqldb: start workers: no workers")
	}
	if o.MaxWorkers <= 0 {
		o.MaxWorkers = DefaultMaxWorkers()
	}
	if o.RescueAfter <= 0 {
		o.RescueAfter = DefaultRescueAfter
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = min(DefaultJobTimeout, o.RescueAfter)
	}
	o.RescueAfter = max(o.RescueAfter, o.JobTimeout)
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.Logger == nil {
		o.Logger = db.logger
	}
	cfg := &river.Config{
		Logger:       slog.New(demoted{o.Logger.Handler()}),
		Workers:      o.Workers,
		PeriodicJobs: o.Periodic,
		Queues: map[string]river.QueueConfig{
			QueueDefault: {MaxWorkers: o.MaxWorkers},
			QueueTracker: {MaxWorkers: o.MaxWorkers},
		},
		JobTimeout:           o.JobTimeout,
		RescueStuckJobsAfter: o.RescueAfter,
		FetchPollInterval:    o.PollInterval,
		FetchCooldown:        min(fetchCooldown, o.PollInterval),
		MaxAttempts:          maxAttempts,
	}
	if o.RetryDelay != nil {
		cfg.RetryPolicy = retryDelay(o.RetryDelay)
	}
	switch e := db.eng.(type) {
	case *sqliteEngine:
		return startRiver(ctx, riversqlite.New(e.writer), cfg, o.OnJobFailed)
	case *pgEngine:
		cfg.Schema = e.schema
		return startRiver(ctx, riverpgxv5.New(e.pool), cfg, o.OnJobFailed)
	}
	return nil, fmt.Errorf("sqldb: start workers: engine %s has no job queue", db.eng.name())
}

func startRiver[TTx any](ctx context.Context, d riverdriver.Driver[TTx], cfg *river.Config, onFailed func(string, bool)) (*WorkerPool, error) {
	c, err := river.NewClient(d, cfg)
	if err != nil {
		return nil, fmt.Errorf("sqldb: start workers: %w", err)
	}
	unsubscribe := func() {}
	if onFailed != nil {
		events, cancel := c.Subscribe(river.EventKindJobFailed)
		unsubscribe = cancel
		go func() {
			for ev := range events {
				onFailed(ev.Job.Kind, ev.Job.State == rivertype.JobStateDiscarded)
			}
		}()
	}
	if err := c.Start(ctx); err != nil {
		unsubscribe()
		return nil, fmt.Errorf("sqldb: start workers: %w", err)
	}
	// Closing the subscription after the client stopped ends the goroutine above.
	after := func(stop func(context.Context) error) func(context.Context) error {
		return func(ctx context.Context) error {
			err := stop(ctx)
			unsubscribe()
			return err
		}
	}
	return &WorkerPool{stop: after(c.Stop), cancel: after(c.StopAndCancel)}, nil
}

// retryDelay is a River retry policy waiting delay(attempt) after a job's failed attempt.
type retryDelay func(attempt int) time.Duration

func (f retryDelay) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(f(job.Attempt))
}
