package ratelimit

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Config.
const (
	DefaultTimeout      = 50 * time.Millisecond
	DefaultWarnInterval = time.Minute
	DefaultPrefix       = "radar:rl:"
)

// ttlMargin keeps a counter alive a little past its window so replicas whose clocks lag still find it.
const ttlMargin = 5 * time.Second

// Config configures a Limiter; zero fields take their defaults.
type Config struct {
	// Store holds the counters; default an in-process Memory on Now.
	Store Store
	// Buckets by name; default Defaults().
	Buckets map[string]Bucket
	// Now is the clock; windows are fixed clock windows numbered now.Unix()/Bucket.WindowSeconds(). Default time.Now.
	Now func() time.Time
	// Timeout bounds the store calls of one Allow or Status; default DefaultTimeout.
	Timeout time.Duration
	// Logger receives a warning at most once per WarnInterval while the store fails; default slog.Default().
	Logger *slog.Logger
	// WarnInterval spaces the store-failure warnings; default DefaultWarnInterval.
	WarnInterval time.Duration
	// OnStoreError, when set, is called on every store failure.
	OnStoreError func()
	// OnDenied, when set, is called with the bucket that ran out on every denied request (REST and MCP alike).
	OnDenied func(bucket string)
	// Prefix starts every counter key; default DefaultPrefix.
	Prefix string
	// Reserve is the most hits of one bucket counted in a shared store at once, to be handed out in process
	// (see reservations); default DefaultReserve, 1 counts every hit in the store. A Memory store counts hit by hit.
	Reserve int
}

// Limiter decides whether an API key's request fits its budgets. It fails open: when the store errs or
// times out the request is allowed, and counting resumes as soon as the store answers again.
type Limiter struct {
	store        Store
	buckets      map[string]Bucket
	now          func() time.Time
	timeout      time.Duration
	logger       *slog.Logger
	warnInterval time.Duration
	onStoreError func()
	onDenied     func(bucket string)
	prefix       string
	reserve      int64
	reserved     *reservations // nil when every hit is counted in the store

	failing  atomic.Bool
	mu       sync.Mutex
	lastWarn time.Time
}

// New returns a Limiter for cfg.
func New(cfg Config) *Limiter {
	l := &Limiter{
		store:        cfg.Store,
		buckets:      cfg.Buckets,
		now:          cfg.Now,
		timeout:      cfg.Timeout,
		logger:       cfg.Logger,
		warnInterval: cfg.WarnInterval,
		onStoreError: cfg.OnStoreError,
		onDenied:     cfg.OnDenied,
		prefix:       cfg.Prefix,
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.store == nil {
		l.store = NewMemory(l.now)
	}
	if l.buckets == nil {
		l.buckets = Defaults()
	}
	if l.timeout <= 0 {
		l.timeout = DefaultTimeout
	}
	if l.logger == nil {
		l.logger = slog.Default()
	}
	if l.warnInterval <= 0 {
		l.warnInterval = DefaultWarnInterval
	}
	if l.prefix == "" {
		l.prefix = DefaultPrefix
	}
	l.reserve = int64(cfg.Reserve)
	if l.reserve <= 0 {
		l.reserve = DefaultReserve
	}
	if l.reserve > 1 && !l.InProcess() {
		l.reserved = &reservations{}
	}
	return l
}

// InProcess reports whether the counts stay in the process (a Memory store), so that counting costs no round trip.
func (l *Limiter) InProcess() bool {
	_, ok := l.store.(*Memory)
	return ok
}

// storeContext bounds the store's calls by the Limiter's timeout. A Memory store answers at once, and its calls
// go without the timer (3 % of the CPU of a listed page on SQLite). The bound does not hang on ctx's
// cancellation: a count that short need not stop when the client goes, and a context hung on the request's would
// be registered with it and removed again on every request.
func (l *Limiter) storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if l.InProcess() {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), l.timeout)
}

// BucketStatus is one bucket's state for an API key in the current window.
type BucketStatus struct {
	Bucket    Bucket
	Remaining int
	// ResetAfter is the time until the current window ends.
	ResetAfter time.Duration
	// Unknown reports that the store could not be read; Remaining then shows the full limit.
	Unknown bool
}

// Decision is the outcome of Allow.
type Decision struct {
	Allowed bool
	// Bucket is the bucket that ran out when denied, or the one with the fewest hits left when allowed.
	Bucket     Bucket
	Remaining  int
	ResetAfter time.Duration
	// FailedOpen reports that the store failed and the request was allowed without counting.
	FailedOpen bool
	// Counted lists every bucket the request counted in, in the order asked; empty when FailedOpen.
	Counted []BucketStatus
	// at is when the hits were counted: Undo finds their windows by it.
	at time.Time
}

// Allow counts one hit for keyID on each named bucket, all of them even when one is exhausted, and reports
// whether the request may proceed. Names not configured are ignored; a request in no bucket is allowed.
func (l *Limiter) Allow(ctx context.Context, keyID string, buckets ...string) Decision {
	now := l.now()
	var (
		sctx   context.Context
		cancel context.CancelFunc
	)
	defer func() {
		if cancel != nil {
			cancel()
		}
	}()
	d := Decision{Allowed: true, Counted: make([]BucketStatus, 0, len(buckets)), at: now}
	for _, name := range buckets {
		b, ok := l.buckets[name]
		if !ok {
			continue
		}
		key := l.key(keyID, b, now)
		var c *reserved
		if l.reserves(b) {
			c = l.reserved.counter(key, windowEnd(b, now), now)
			if p, ok := c.take(); ok {
				d.count(b, p, now)
				continue
			}
		}
		if sctx == nil {
			sctx, cancel = l.storeContext(ctx)
		}
		hits := int64(1)
		if c != nil {
			hits = c.reserve(int64(b.Limit), l.reserve)
		}
		n, err := l.store.Incr(sctx, key, hits, b.Window+ttlMargin)
		if err != nil {
			if c != nil {
				c.failed()
			}
			if ctx.Err() == nil {
				l.storeFailed(err)
			}
			return Decision{Allowed: true, FailedOpen: true}
		}
		if c != nil {
			n = c.add(hits, n)
		}
		d.count(b, n, now)
	}
	if sctx != nil && len(d.Counted) > 0 {
		l.storeAnswered()
	}
	l.denied(d)
	return d
}

// AllowReserved is Allow for a request that every named bucket has a position reserved for in this process: it
// decides without asking the store. When a bucket has none, ok is false and nothing is counted.
func (l *Limiter) AllowReserved(keyID string, buckets ...string) (d Decision, ok bool) {
	if l.reserved == nil {
		return Decision{}, false
	}
	now := l.now()
	type taken struct {
		c *reserved
		p int64
	}
	var held [4]taken
	took := held[:0]
	d = Decision{Allowed: true, Counted: make([]BucketStatus, 0, len(buckets)), at: now}
	for _, name := range buckets {
		b, ok := l.buckets[name]
		if !ok {
			continue
		}
		var (
			c *reserved
			p int64
		)
		if l.reserves(b) {
			c = l.reserved.counter(l.key(keyID, b, now), windowEnd(b, now), now)
			p, ok = c.take()
		}
		if c == nil || !ok {
			for _, t := range took {
				t.c.giveBack(t.p)
			}
			return Decision{}, false
		}
		took = append(took, taken{c, p})
		d.count(b, p, now)
	}
	l.denied(d)
	return d, true
}

// reserves reports whether hits of bucket b are reserved: when a reservation can hold more than one hit.
func (l *Limiter) reserves(b Bucket) bool {
	return l.reserved != nil && min(l.reserve, int64(b.Limit)/40) > 1
}

// count adds to d bucket b's hit at position n of its window.
func (d *Decision) count(b Bucket, n int64, now time.Time) {
	s := status(b, n, now)
	d.Counted = append(d.Counted, s)
	switch over := n > int64(b.Limit); {
	case over && (d.Allowed || s.ResetAfter > d.ResetAfter):
		// Among exhausted buckets, name the one that frees up last: only then can a retry succeed.
		d.Allowed, d.Bucket, d.Remaining, d.ResetAfter = false, s.Bucket, s.Remaining, s.ResetAfter
	case d.Allowed && (len(d.Counted) == 1 || s.Remaining < d.Remaining):
		d.Bucket, d.Remaining, d.ResetAfter = s.Bucket, s.Remaining, s.ResetAfter
	}
}

// denied reports a denial of d to OnDenied.
func (l *Limiter) denied(d Decision) {
	if !d.Allowed && l.onDenied != nil {
		l.onDenied(d.Bucket.Name)
	}
}

// Undo takes back the hits a Decision of Allow counted for keyID, e.g. for an attempt that turned out to be one
// the budget should not pay for. Counters whose window has ended are left alone; a store failure is reported
// like Allow's and leaves the hits counted.
func (l *Limiter) Undo(ctx context.Context, keyID string, d Decision) {
	if len(d.Counted) == 0 {
		return
	}
	sctx, cancel := l.storeContext(ctx)
	defer cancel()
	for _, s := range d.Counted {
		if err := l.store.Decr(sctx, l.key(keyID, s.Bucket, d.at)); err != nil {
			if ctx.Err() == nil {
				l.storeFailed(err)
			}
			return
		}
	}
	l.storeAnswered()
}

// Status returns every configured bucket's state for keyID without counting a hit, ordered by window then name.
func (l *Limiter) Status(ctx context.Context, keyID string) []BucketStatus {
	now := l.now()
	sctx, cancel := l.storeContext(ctx)
	defer cancel()

	buckets := make([]Bucket, 0, len(l.buckets))
	for _, b := range l.buckets {
		buckets = append(buckets, b)
	}
	slices.SortFunc(buckets, func(a, b Bucket) int {
		return cmp.Or(cmp.Compare(a.Window, b.Window), cmp.Compare(a.Name, b.Name))
	})

	out := make([]BucketStatus, 0, len(buckets))
	failed := false
	for _, b := range buckets {
		s := status(b, 0, now)
		if !failed {
			key := l.key(keyID, b, now)
			n, err := l.store.Peek(sctx, key)
			switch {
			case err == nil:
				if l.reserved != nil {
					n = max(n-l.reserved.unused(key), 0)
				}
				s = status(b, n, now)
			case ctx.Err() == nil:
				l.storeFailed(err)
				failed = true
			default:
				failed = true
			}
		}
		s.Unknown = failed
		out = append(out, s)
	}
	if !failed && len(out) > 0 {
		l.storeAnswered()
	}
	return out
}

func (l *Limiter) key(keyID string, b Bucket, now time.Time) string {
	return l.prefix + keyID + ":" + b.Name + ":" + strconv.FormatInt(now.Unix()/b.WindowSeconds(), 10)
}

// status describes bucket b after n hits in the window holding now.
func status(b Bucket, n int64, now time.Time) BucketStatus {
	return BucketStatus{
		Bucket:     b,
		Remaining:  int(max(int64(b.Limit)-n, 0)),
		ResetAfter: windowEnd(b, now).Sub(now),
	}
}

// windowEnd is the end of bucket b's window holding now.
func windowEnd(b Bucket, now time.Time) time.Time {
	secs := b.WindowSeconds()
	return time.Unix((now.Unix()/secs+1)*secs, 0)
}

// storeFailed reports a store failure to OnStoreError and logs it, at most once per warn interval.
func (l *Limiter) storeFailed(err error) {
	if l.onStoreError != nil {
		l.onStoreError()
	}
	now := l.now()
	l.failing.Store(true)
	l.mu.Lock()
	warn := l.lastWarn.IsZero() || now.Sub(l.lastWarn) >= l.warnInterval
	if warn {
		l.lastWarn = now
	}
	l.mu.Unlock()
	if warn {
		l.logger.Warn("rate limit store unavailable, allowing requests uncounted", "error", err)
	}
}

// storeAnswered notes a successful store call and logs the recovery after failures.
func (l *Limiter) storeAnswered() {
	if l.failing.Load() && l.failing.CompareAndSwap(true, false) {
		l.logger.Info("rate limit store available again, counting resumed")
	}
}
