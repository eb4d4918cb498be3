package ratelimit_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/ratelimit"
	"radar/internal/simweb"
)

// counting counts the calls that reach a Store.
type counting struct {
	ratelimit.Store
	calls atomic.Int64
}

func (c *counting) Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	c.calls.Add(1)
	return c.Store.Incr(ctx, key, n, ttl)
}

func (c *counting) Peek(ctx context.Context, key string) (int64, error) {
	c.calls.Add(1)
	return c.Store.Peek(ctx, key)
}

func (c *counting) Decr(ctx context.Context, key string) error {
	c.calls.Add(1)
	return c.Store.Decr(ctx, key)
}

func TestBreakerOpensSkipsRedisAndCloses(t *testing.T) {
	backend := testRedis(t)
	prefix := uniquePrefix(t, backend)
	px := apitest.NewProxy(t, backend.Options().Addr)
	shared := &counting{Store: ratelimit.NewRedis(redisAt(t, px.Addr()))}
	clk := newClock(base)
	var mu sync.Mutex
	var changes []bool
	br := ratelimit.NewBreaker(shared, ratelimit.BreakerConfig{
		Failures: 3, Interval: time.Second, MaxInterval: 4 * time.Second, Now: clk.Now,
		Logger:   slog.New(slog.DiscardHandler),
		OnChange: func(open bool) { mu.Lock(); changes = append(changes, open); mu.Unlock() },
	})
	// Every hit asks the store (Reserve 1), so that the calls reaching Redis are the breaker's alone.
	lim := ratelimit.New(ratelimit.Config{Store: br, Prefix: prefix, Now: clk.Now, Timeout: 5 * time.Second,
		Logger: slog.New(slog.DiscardHandler), Reserve: 1})
	ctx := context.Background()
	allow := func() ratelimit.Decision { return lim.Allow(ctx, "key1", ratelimit.Read) }

	if d := allow(); d.FailedOpen || d.Remaining != 599 {
		t.Fatalf("with Redis up: FailedOpen=%v remaining %d, want counted with 599 left", d.FailedOpen, d.Remaining)
	}

	px.Down()
	for i := range 3 {
		if d := allow(); !d.FailedOpen {
			t.Fatalf("failure %d: FailedOpen=%v, want the request allowed uncounted", i+1, d.FailedOpen)
		}
	}
	if !br.Open() {
		t.Fatal("breaker closed after 3 failures in a row, want open")
	}
	calls := shared.calls.Load()
	for i := range 50 {
		d := allow()
		if d.FailedOpen || d.Remaining != 599-i {
			t.Fatalf("request %d while open: FailedOpen=%v remaining %d, want counted locally with %d left", i+1, d.FailedOpen, d.Remaining, 599-i)
		}
	}
	if got := shared.calls.Load() - calls; got != 0 {
		t.Errorf("Redis was asked %d times while the breaker was open, want 0", got)
	}

	// After the interval one request probes; Redis is still down, so the next interval is twice as long.
	clk.Add(time.Second)
	allow()
	if got := shared.calls.Load() - calls; got != 1 {
		t.Errorf("calls to Redis after the interval = %d, want 1 probe", got)
	}
	clk.Add(time.Second)
	allow()
	if got := shared.calls.Load() - calls; got != 1 {
		t.Errorf("calls to Redis one interval after a failed probe = %d, want still 1 (the wait doubled)", got)
	}
	clk.Add(time.Second)
	allow()
	if got := shared.calls.Load() - calls; got != 2 {
		t.Errorf("calls to Redis two intervals after a failed probe = %d, want 2", got)
	}
	if !br.Open() {
		t.Fatal("breaker closed while Redis is down")
	}

	px.Up()
	clk.Add(4 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for br.Open() {
		if time.Now().After(deadline) {
			t.Fatal("breaker still open 10 s after Redis came back")
		}
		allow()
		clk.Add(4 * time.Second)
	}
	calls = shared.calls.Load()
	if d := allow(); d.FailedOpen {
		t.Errorf("after closing: FailedOpen, want counted in Redis")
	}
	if got := shared.calls.Load() - calls; got != 1 {
		t.Errorf("calls to Redis after closing = %d, want 1", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(changes) != 2 || !changes[0] || changes[1] {
		t.Errorf("state changes = %v, want [true false] (opened once, closed once)", changes)
	}
}

func TestBreakerIntervalIsCapped(t *testing.T) {
	shared := &counting{Store: ratelimit.NewRedis(redisAt(t, simweb.RefusedAddr))}
	clk := newClock(base)
	br := ratelimit.NewBreaker(shared, ratelimit.BreakerConfig{
		Failures: 1, Interval: time.Second, MaxInterval: 4 * time.Second, Now: clk.Now, Logger: slog.New(slog.DiscardHandler),
	})
	ctx := context.Background()
	br.Incr(ctx, "k", 1, time.Minute)
	// Probes at 1, 3 (1+2), 7 (3+4), 11 (7+4): the wait stops growing at 4 s.
	var probes []int
	for s := 1; s <= 11; s++ {
		clk.Add(time.Second)
		before := shared.calls.Load()
		br.Incr(ctx, "k", 1, time.Minute)
		if shared.calls.Load() > before {
			probes = append(probes, s)
		}
	}
	want := []int{1, 3, 7, 11}
	if len(probes) != len(want) {
		t.Fatalf("probes at seconds %v, want %v", probes, want)
	}
	for i := range want {
		if probes[i] != want[i] {
			t.Fatalf("probes at seconds %v, want %v", probes, want)
		}
	}
}

func TestBreakerIgnoresCallersThatLeave(t *testing.T) {
	shared := &counting{Store: ratelimit.NewRedis(redisAt(t, simweb.RefusedAddr))}
	br := ratelimit.NewBreaker(shared, ratelimit.BreakerConfig{Failures: 2, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 5 {
		br.Incr(ctx, "k", 1, time.Minute)
	}
	if br.Open() {
		t.Error("breaker opened on calls whose callers had gone, want closed")
	}
}

func TestUndo(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func(now func() time.Time) store) {
		clk := newClock(base)
		lim := open(clk.Now).limiter(nil, clk)
		ctx := context.Background()
		lim.Allow(ctx, "key1", ratelimit.Write)
		d := lim.Allow(ctx, "key1", ratelimit.Write, ratelimit.Create)
		lim.Undo(ctx, "key1", d)
		got := map[string]int{}
		for _, s := range lim.Status(ctx, "key1") {
			got[s.Bucket.Name] = s.Remaining
		}
		if got[ratelimit.Write] != 119 || got[ratelimit.Create] != 200 {
			t.Errorf("after two counts and one undo: write %d create %d left, want 119 and 200", got[ratelimit.Write], got[ratelimit.Create])
		}
		// An undo after the window ended leaves the new window alone.
		d = lim.Allow(ctx, "key1", ratelimit.Write)
		clk.Add(time.Minute)
		lim.Allow(ctx, "key1", ratelimit.Write)
		lim.Undo(ctx, "key1", d)
		for _, s := range lim.Status(ctx, "key1") {
			if s.Bucket.Name == ratelimit.Write && s.Remaining != 119 {
				t.Errorf("undo of the last window: write %d left in the new one, want 119", s.Remaining)
			}
		}
	})
}
