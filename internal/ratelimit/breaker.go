package ratelimit

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Defaults of BreakerConfig.
const (
	DefaultBreakerFailures    = 3
	DefaultBreakerInterval    = time.Second
	DefaultBreakerMaxInterval = 30 * time.Second
)

// BreakerConfig configures NewBreaker; zero fields take their defaults.
type BreakerConfig struct {
	// Local counts while the breaker is open; default an in-process Memory on Now.
	Local Store
	// Failures in a row of the shared store open the breaker; default DefaultBreakerFailures.
	Failures int
	// Interval is how long the breaker first stays open; each failed probe doubles it up to MaxInterval.
	// Defaults DefaultBreakerInterval and DefaultBreakerMaxInterval.
	Interval, MaxInterval time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// OnChange, when set, is called with the new state each time the breaker opens or closes.
	OnChange func(open bool)
	// Logger receives a line on each change; default slog.Default().
	Logger *slog.Logger
}

// Breaker is a Store in front of a shared one (Redis) that stops asking it while it fails. After Failures
// failed calls in a row it opens: for Interval every call goes to the Local store, at in-process cost, then one
// call probes the shared store. A probe that succeeds closes the breaker; one that fails opens it again for
// twice as long, up to MaxInterval. The calls that fail before it opens return their errors, so the Limiter
// fails open for them and reports them.
type Breaker struct {
	shared, local Store
	failures      int
	interval, max time.Duration
	now           func() time.Time
	onChange      func(open bool)
	logger        *slog.Logger

	mu        sync.Mutex
	failed    int
	open      bool
	probing   bool
	openUntil time.Time
	wait      time.Duration
}

// NewBreaker returns a Breaker in front of shared, closed.
func NewBreaker(shared Store, cfg BreakerConfig) *Breaker {
	b := &Breaker{shared: shared, local: cfg.Local, failures: cfg.Failures, interval: cfg.Interval,
		max: cfg.MaxInterval, now: cfg.Now, onChange: cfg.OnChange, logger: cfg.Logger}
	if b.now == nil {
		b.now = time.Now
	}
	if b.local == nil {
		b.local = NewMemory(b.now)
	}
	if b.failures <= 0 {
		b.failures = DefaultBreakerFailures
	}
	if b.interval <= 0 {
		b.interval = DefaultBreakerInterval
	}
	if b.max <= 0 {
		b.max = DefaultBreakerMaxInterval
	}
	b.max = max(b.max, b.interval)
	if b.logger == nil {
		b.logger = slog.Default()
	}
	return b
}

// Open reports whether the breaker is open: counts go to the local store.
func (b *Breaker) Open() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.open
}

// Incr implements Store.
func (b *Breaker) Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	shared, probe := b.route()
	if !shared {
		return b.local.Incr(ctx, key, n, ttl)
	}
	n, err := b.shared.Incr(ctx, key, n, ttl)
	b.done(ctx, probe, err)
	return n, err
}

// Peek implements Store.
func (b *Breaker) Peek(ctx context.Context, key string) (int64, error) {
	shared, probe := b.route()
	if !shared {
		return b.local.Peek(ctx, key)
	}
	n, err := b.shared.Peek(ctx, key)
	b.done(ctx, probe, err)
	return n, err
}

// Decr implements Store.
func (b *Breaker) Decr(ctx context.Context, key string) error {
	shared, probe := b.route()
	if !shared {
		return b.local.Decr(ctx, key)
	}
	err := b.shared.Decr(ctx, key)
	b.done(ctx, probe, err)
	return err
}

// route says whether a call goes to the shared store, and whether it is the probe of an open breaker.
func (b *Breaker) route() (shared, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return true, false
	}
	if b.probing || b.now().Before(b.openUntil) {
		return false, false
	}
	b.probing = true
	return true, true
}

// done records the outcome of a call to the shared store. A call whose caller went away says nothing about
// the store.
func (b *Breaker) done(ctx context.Context, probe bool, err error) {
	gone := err != nil && errors.Is(ctx.Err(), context.Canceled)
	b.mu.Lock()
	var changed, open bool
	wait := b.wait
	switch {
	case probe && gone:
		b.probing = false
	case probe && err == nil:
		b.probing, b.open, b.failed, b.wait = false, false, 0, 0
		changed = true
	case probe:
		b.probing = false
		b.wait = min(b.wait*2, b.max)
		b.openUntil = b.now().Add(b.wait)
		wait = b.wait
	case err == nil:
		b.failed = 0
	case gone || b.open:
	default:
		b.failed++
		if b.failed >= b.failures {
			b.open, b.wait, b.openUntil = true, b.interval, b.now().Add(b.interval)
			changed, open, wait = true, true, b.interval
		}
	}
	b.mu.Unlock()
	if !changed {
		return
	}
	if open {
		b.logger.Warn("rate limit store failing, counting in process for a while", "failures", b.failures, "retry_in", wait, "error", err)
	} else {
		b.logger.Info("rate limit store answers again, counting in it")
	}
	if b.onChange != nil {
		b.onChange(open)
	}
}
