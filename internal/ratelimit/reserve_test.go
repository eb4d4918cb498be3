package ratelimit_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/ratelimit"
)

// reads is one read bucket of limit hits a minute.
func reads(limit int) map[string]ratelimit.Bucket {
	return map[string]ratelimit.Bucket{ratelimit.Read: {Name: ratelimit.Read, Limit: limit, Window: time.Minute}}
}

// onRedis is the Redis of a test: its key prefix, a store on it that counts the calls reaching Redis, and a clock.
type onRedis struct {
	client *redis.Client
	shared *counting
	prefix string
	clk    *clock
}

func newOnRedis(t *testing.T, now time.Time) *onRedis {
	client := testRedis(t)
	return &onRedis{client: client, shared: &counting{Store: ratelimit.NewRedis(client)}, prefix: uniquePrefix(t, client), clk: newClock(now)}
}

// replica returns a Limiter with buckets on the test's Redis: every replica it returns shares the counters.
func (r *onRedis) replica(buckets map[string]ratelimit.Bucket) *ratelimit.Limiter {
	return ratelimit.New(ratelimit.Config{Store: r.shared, Prefix: r.prefix, Buckets: buckets, Now: r.clk.Now, Timeout: 5 * time.Second})
}

func TestReservationsDecideLikeEveryHitCounted(t *testing.T) {
	r := newOnRedis(t, base.Add(12*time.Second))
	lim := r.replica(reads(600))
	exact := ratelimit.New(ratelimit.Config{Buckets: reads(600), Now: r.clk.Now})
	ctx := context.Background()
	for i := 1; i <= 610; i++ {
		got, want := lim.Allow(ctx, "key1", ratelimit.Read), exact.Allow(ctx, "key1", ratelimit.Read)
		if got.Allowed != want.Allowed || got.Remaining != want.Remaining || got.FailedOpen {
			t.Fatalf("hit %d: allowed %v remaining %d failed open %v, want allowed %v remaining %d as counted hit by hit",
				i, got.Allowed, got.Remaining, got.FailedOpen, want.Allowed, want.Remaining)
		}
		switch i {
		case 300:
			if s := lim.Status(ctx, "key1")[0]; s.Remaining != 300 {
				t.Errorf("status after 300 hits: remaining %d, want 300 (reserved and unused hits are not shown as used)", s.Remaining)
			}
		case 600:
			if calls := r.shared.calls.Load(); calls > 600/8 {
				t.Errorf("600 hits and a status asked Redis %d times, want at most %d", calls, 600/8)
			}
		}
	}
}

func TestSmallLimitsAreCountedHitByHit(t *testing.T) {
	r := newOnRedis(t, base)
	lim := r.replica(reads(79))
	ctx := context.Background()
	for i := 1; i <= 30; i++ {
		if _, ok := lim.AllowReserved("key1", ratelimit.Read); ok {
			t.Fatalf("hit %d: a hit of a limit of 79 was reserved", i)
		}
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	if calls := r.shared.calls.Load(); calls != 30 {
		t.Errorf("30 hits of a limit of 79 asked Redis %d times, want 30", calls)
	}
}

func TestReplicasShareOneBudget(t *testing.T) {
	const limit = 800
	tests := map[string]struct {
		// toA says whether hit i goes to replica a; the others go to b.
		toA         func(i int) bool
		least, most int
	}{
		// Uneven, so that the replicas' reservations differ; both keep answering, so every hit reserved is used.
		"both keep answering": {toA: func(i int) bool { return i%3 != 0 }, least: limit, most: limit},
		// a's unused reservation counts as used for b: at most a fortieth of the limit.
		"one stops answering": {toA: func(i int) bool { return i < 100 && i%2 == 0 }, least: limit - limit/40, most: limit},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := newOnRedis(t, base)
			a, b := r.replica(reads(limit)), r.replica(reads(limit))
			ctx := context.Background()
			allowed := 0
			for i := range 2 * limit {
				lim := b
				if tt.toA(i) {
					lim = a
				}
				if d := lim.Allow(ctx, "key1", ratelimit.Read); d.Allowed {
					allowed++
				}
			}
			if allowed < tt.least || allowed > tt.most {
				t.Errorf("two replicas allowed %d of %d hits, want %d to %d", allowed, 2*limit, tt.least, tt.most)
			}
		})
	}
}

func TestAllowReservedDecidesWithoutTheStore(t *testing.T) {
	r := newOnRedis(t, base)
	lim := r.replica(map[string]ratelimit.Bucket{
		ratelimit.Write:  {Name: ratelimit.Write, Limit: 400, Window: time.Minute},
		ratelimit.Create: {Name: ratelimit.Create, Limit: 79, Window: time.Hour}, // counted hit by hit
	})
	ctx := context.Background()
	if _, ok := lim.AllowReserved("key1", ratelimit.Write); ok {
		t.Fatal("AllowReserved before any hit: ok, want nothing reserved")
	}
	lim.Allow(ctx, "key1", ratelimit.Write) // reserves 1 and uses it
	lim.Allow(ctx, "key1", ratelimit.Write) // reserves 2, uses 1
	calls := r.shared.calls.Load()
	// A request in a bucket with nothing reserved takes nothing from the one that has a hit reserved.
	if _, ok := lim.AllowReserved("key1", ratelimit.Write, ratelimit.Create); ok {
		t.Fatal("AllowReserved of write and create: ok, want not (create has nothing reserved)")
	}
	d, ok := lim.AllowReserved("key1", ratelimit.Write)
	if !ok || !d.Allowed || d.Remaining != 397 || len(d.Counted) != 1 {
		t.Fatalf("AllowReserved of the reserved hit: ok %v allowed %v remaining %d counted %d, want ok, allowed, 397 left, 1 bucket",
			ok, d.Allowed, d.Remaining, len(d.Counted))
	}
	if got := r.shared.calls.Load() - calls; got != 0 {
		t.Errorf("AllowReserved asked Redis %d times, want 0", got)
	}
	if _, ok := lim.AllowReserved("key1", ratelimit.Write); ok {
		t.Error("AllowReserved after the reserved hit was used: ok, want nothing reserved")
	}
	if d := lim.Allow(ctx, "key1", ratelimit.Write); d.Remaining != 396 {
		t.Errorf("next hit: remaining %d, want 396", d.Remaining)
	}
}

func TestReservationsOfEndedWindowsAreDropped(t *testing.T) {
	r := newOnRedis(t, base)
	lim := r.replica(reads(600))
	ctx := context.Background()
	for range 10 {
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	for _, id := range []string{"key2", "key3", "key4"} {
		lim.Allow(ctx, id, ratelimit.Read)
	}
	r.clk.Add(time.Minute)
	if d := lim.Allow(ctx, "key1", ratelimit.Read); d.Remaining != 599 {
		t.Errorf("first hit of the next window: remaining %d, want 599", d.Remaining)
	}
	if n := lim.Reserved(); n != 1 {
		t.Errorf("counters with reservations after a window ended: %d, want 1 (the new window's)", n)
	}
}

func TestABurstReservesOneChunkAtATime(t *testing.T) {
	r := newOnRedis(t, base.Add(12*time.Second))
	lim := r.replica(reads(800))
	ctx := context.Background()
	for range 20 { // reservations of 1, 2, 4, 8 and 16 hits: the next is 16 again
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() { lim.Allow(ctx, "key1", ratelimit.Read) })
	}
	wg.Wait()
	counted, err := r.client.Get(ctx, r.prefix+"key1:read:"+strconv.FormatInt(r.clk.Now().Unix()/60, 10)).Int64()
	if err != nil {
		t.Fatal(err)
	}
	if unused := counted - 120; unused < 0 || unused > 15 {
		t.Errorf("Redis counts %d after 120 hits: %d reserved and unused, want at most 15 (one reservation of 16, less the hit that made it)", counted, unused)
	}
}
