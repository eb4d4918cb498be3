// Package batch coalesces concurrent calls of one operation into batches, so that one round trip to a server
// answers many callers. A call goes out at once while fewer than InFlight batches are running; otherwise it waits
// for the next batch, which takes every call queued by then. Alone, a call costs what it did; under load, the
// round trips (and the server's work per call) fall with the number of callers.
package batch

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"
)

// Func does the work of a batch: it answers qs in order, or fails them all with an error.
type Func[Q, R any] func(ctx context.Context, qs []Q) ([]R, error)

// Batcher coalesces the calls of Do into calls of a Func.
type Batcher[Q, R any] struct {
	fn       Func[Q, R]
	inFlight int
	maxSize  int
	timeout  time.Duration

	mu      sync.Mutex
	queue   []*call[Q, R]
	running int
}

type call[Q, R any] struct {
	ctx  context.Context
	q    Q
	r    R
	err  error
	done chan struct{}
}

// Config sets up a Batcher.
type Config struct {
	// InFlight is how many batches may run at once; at least 1.
	InFlight int
	// MaxSize bounds the calls of one batch; at least 1.
	MaxSize int
	// Timeout bounds a batch whose callers set no deadline; a batch ends no later than its last caller's
	// deadline.
	Timeout time.Duration
}

// New returns a Batcher of fn.
func New[Q, R any](fn Func[Q, R], cfg Config) *Batcher[Q, R] {
	return &Batcher[Q, R]{fn: fn, inFlight: max(cfg.InFlight, 1), maxSize: max(cfg.MaxSize, 1), timeout: cfg.Timeout}
}

// Do answers q in a batch. It returns early with ctx's error when ctx ends first; the batch goes on for the
// other callers.
func (b *Batcher[Q, R]) Do(ctx context.Context, q Q) (R, error) {
	c := &call[Q, R]{ctx: ctx, q: q, done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, c)
	if b.running < b.inFlight {
		b.running++
		// Yielding once lets the callers that are ready to run join this batch: under load the batches grow
		// (and the round trips per call fall) at the cost of a scheduler pass; alone, a call goes on at once.
		b.mu.Unlock()
		runtime.Gosched()
		b.mu.Lock()
		// Another batch that ended meanwhile may have taken the queue, this call with it.
		if calls := b.take(); len(calls) > 0 {
			b.mu.Unlock()
			b.run(calls, true)
		} else {
			b.running--
			b.mu.Unlock()
		}
	} else {
		b.mu.Unlock()
	}
	select {
	case <-c.done:
		return c.r, c.err
	case <-ctx.Done():
		var zero R
		return zero, ctx.Err()
	}
}

// take removes the next batch from the queue; b.mu is held. Calls whose callers have given up (their context
// ended, so Do has returned) are dropped, so that a server that hangs does not pile up work for later.
func (b *Batcher[Q, R]) take() []*call[Q, R] {
	live := b.queue[:0]
	for _, c := range b.queue {
		if c.ctx.Err() == nil {
			live = append(live, c)
		}
	}
	clear(b.queue[len(live):])
	n := min(len(live), b.maxSize)
	calls := make([]*call[Q, R], n)
	copy(calls, live)
	b.queue = append(live[:0], live[n:]...)
	return calls
}

// run answers calls, then the calls queued meanwhile, until none wait. The caller that started the batch (inline)
// hands the next one to a new goroutine, so that it returns with its own answer at once; that goroutine goes on
// from batch to batch while calls keep coming, so that sustained load does not start (and grow the stack of) a
// goroutine per batch.
func (b *Batcher[Q, R]) run(calls []*call[Q, R], inline bool) {
	for {
		b.answer(calls)
		b.mu.Lock()
		calls = b.take()
		if len(calls) == 0 {
			b.running--
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
		if inline {
			go b.run(calls, false)
			return
		}
	}
}

// answer runs fn on calls and hands each its answer.
func (b *Batcher[Q, R]) answer(calls []*call[Q, R]) {
	ctx, cancel := b.context(calls)
	qs := make([]Q, len(calls))
	for i, c := range calls {
		qs[i] = c.q
	}
	rs, err := b.fn(ctx, qs)
	cancel()
	for i, c := range calls {
		if err == nil && i < len(rs) {
			c.r = rs[i]
		} else if err == nil {
			c.err = errShortAnswer
		} else {
			c.err = err
		}
		close(c.done)
	}
}

// context is the batch's context: the first caller's values, no cancellation, and the latest deadline of its
// callers, or the Batcher's timeout when a caller has none.
func (b *Batcher[Q, R]) context(calls []*call[Q, R]) (context.Context, context.CancelFunc) {
	var last time.Time
	for _, c := range calls {
		d, ok := c.ctx.Deadline()
		if !ok {
			last = time.Time{}
			break
		}
		if d.After(last) {
			last = d
		}
	}
	base := context.WithoutCancel(calls[0].ctx)
	if last.IsZero() {
		if b.timeout <= 0 {
			return context.WithCancel(base)
		}
		return context.WithTimeout(base, b.timeout)
	}
	return context.WithDeadline(base, last)
}

var errShortAnswer = errors.New("batch: fewer answers than calls")
