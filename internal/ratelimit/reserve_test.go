package ratelimit_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/ratelimit"
)

// reads is one read bucket of limit hits a minute.
func reads(limit int) map[string]ratelimit.Bucket {
	return map[string]ratelimit.Bucket{ratelimit.Read: {Name: ratelimit.Read, Limit: limit, Window: time.Minute}}
}

// replica is a Limiter on the shared Redis store of a test, counting the calls that reach Redis.
func replica(t *testing.T, shared *counting, prefix string, buckets map[string]ratelimit.Bucket, clk *clock) *ratelimit.Limiter {
	t.Helper()
	return ratelimit.New(ratelimit.Config{Store: shared, Prefix: prefix, Buckets: buckets, Now: clk.Now, Timeout: 5 * time.Second})
}

func TestReservationsDecideLikeEveryHitCounted(t *testing.T) {
	client := testRedis(t)
	shared := &counting{Store: ratelimit.NewRedis(client)}
	clk := newClock(base.Add(12 * time.Second))
	lim := replica(t, shared, uniquePrefix(t, client), reads(600), clk)
	exact := ratelimit.New(ratelimit.Config{Buckets: reads(600), Now: clk.Now})
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
			if calls := shared.calls.Load(); calls > 600/8 {
				t.Errorf("600 hits and a status asked Redis %d times, want at most %d", calls, 600/8)
			}
		}
	}
}

func TestSmallLimitsAreCountedHitByHit(t *testing.T) {
	client := testRedis(t)
	shared := &counting{Store: ratelimit.NewRedis(client)}
	clk := newClock(base)
	lim := replica(t, shared, uniquePrefix(t, client), reads(79), clk)
	ctx := context.Background()
	for i := 1; i <= 30; i++ {
		if _, ok := lim.AllowReserved("key1", ratelimit.Read); ok {
			t.Fatalf("hit %d: a hit of a limit of 79 was reserved", i)
		}
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	if calls := shared.calls.Load(); calls != 30 {
		t.Errorf("30 hits of a limit of 79 asked Redis %d times, want 30", calls)
	}
}

func TestReplicasShareOneBudget(t *testing.T) {
	const limit = 800
	client := testRedis(t)
	t.Run("both keep answering", func(t *testing.T) {
		shared := &counting{Store: ratelimit.NewRedis(client)}
		prefix, clk := uniquePrefix(t, client), newClock(base)
		a, b := replica(t, shared, prefix, reads(limit), clk), replica(t, shared, prefix, reads(limit), clk)
		ctx := context.Background()
		allowed := 0
		for i := range 2 * limit {
			lim := a
			if i%3 == 0 { // uneven, so the replicas' reservations differ
				lim = b
			}
			if d := lim.Allow(ctx, "key1", ratelimit.Read); d.Allowed {
				allowed++
			}
		}
		if allowed != limit {
			t.Errorf("two replicas allowed %d of %d hits, want %d", allowed, 2*limit, limit)
		}
	})
	t.Run("one stops answering", func(t *testing.T) {
		shared := &counting{Store: ratelimit.NewRedis(client)}
		prefix, clk := uniquePrefix(t, client), newClock(base)
		a, b := replica(t, shared, prefix, reads(limit), clk), replica(t, shared, prefix, reads(limit), clk)
		ctx := context.Background()
		allowed := 0
		for i := range 2 * limit {
			lim := b
			if i < 100 && i%2 == 0 {
				lim = a
			}
			if d := lim.Allow(ctx, "key1", ratelimit.Read); d.Allowed {
				allowed++
			}
		}
		if allowed > limit || allowed < limit-limit/40 {
			t.Errorf("allowed %d hits when one replica stopped answering, want at most %d and at least %d", allowed, limit, limit-limit/40)
		}
	})
}

func TestAllowReservedDecidesWithoutTheStore(t *testing.T) {
	client := testRedis(t)
	shared := &counting{Store: ratelimit.NewRedis(client)}
	clk := newClock(base)
	buckets := map[string]ratelimit.Bucket{
		ratelimit.Write:  {Name: ratelimit.Write, Limit: 400, Window: time.Minute},
		ratelimit.Create: {Name: ratelimit.Create, Limit: 79, Window: time.Hour}, // counted hit by hit
	}
	lim := replica(t, shared, uniquePrefix(t, client), buckets, clk)
	ctx := context.Background()
	if _, ok := lim.AllowReserved("key1", ratelimit.Write); ok {
		t.Fatal("AllowReserved before any hit: ok, want nothing reserved")
	}
	lim.Allow(ctx, "key1", ratelimit.Write) // reserves 1 and uses it
	lim.Allow(ctx, "key1", ratelimit.Write) // reserves 2, uses 1
	calls := shared.calls.Load()
	// A request in a bucket with nothing reserved takes nothing from the one that has a hit reserved.
	if _, ok := lim.AllowReserved("key1", ratelimit.Write, ratelimit.Create); ok {
		t.Fatal("AllowReserved of write and create: ok, want not (create has nothing reserved)")
	}
	d, ok := lim.AllowReserved("key1", ratelimit.Write)
	if !ok || !d.Allowed || d.Remaining != 397 || len(d.Counted) != 1 {
		t.Fatalf("AllowReserved of the reserved hit: ok %v allowed %v remaining %d counted %d, want ok, allowed, 397 left, 1 bucket",
			ok, d.Allowed, d.Remaining, len(d.Counted))
	}
	if got := shared.calls.Load() - calls; got != 0 {
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
	client := testRedis(t)
	shared := &counting{Store: ratelimit.NewRedis(client)}
	clk := newClock(base)
	lim := replica(t, shared, uniquePrefix(t, client), reads(600), clk)
	ctx := context.Background()
	for range 10 {
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	for _, id := range []string{"key2", "key3", "key4"} {
		lim.Allow(ctx, id, ratelimit.Read)
	}
	clk.Add(time.Minute)
	if d := lim.Allow(ctx, "key1", ratelimit.Read); d.Remaining != 599 {
		t.Errorf("first hit of the next window: remaining %d, want 599", d.Remaining)
	}
	if n := lim.Reserved(); n != 1 {
		t.Errorf("counters with reservations after a window ended: %d, want 1 (the new window's)", n)
	}
}

func TestConcurrentReservationsCountExactly(t *testing.T) {
	client := testRedis(t)
	shared := &counting{Store: ratelimit.NewRedis(client)}
	clk := newClock(base)
	lim := replica(t, shared, uniquePrefix(t, client), map[string]ratelimit.Bucket{
		ratelimit.Read: {Name: ratelimit.Read, Limit: 1500, Window: time.Hour}}, clk)
	ctx := context.Background()
	var allowed, failedOpen atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 40 {
				d, ok := lim.AllowReserved("key1", ratelimit.Read)
				if !ok {
					d = lim.Allow(ctx, "key1", ratelimit.Read)
				}
				if d.Allowed {
					allowed.Add(1)
				}
				if d.FailedOpen {
					failedOpen.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 1500 || failedOpen.Load() != 0 {
		t.Errorf("2,000 concurrent hits: allowed %d, failed open %d, want 1500 and 0", allowed.Load(), failedOpen.Load())
	}
}

func TestABurstReservesOneChunkAtATime(t *testing.T) {
	client := testRedis(t)
	prefix := uniquePrefix(t, client)
	clk := newClock(base.Add(12 * time.Second))
	lim := replica(t, &counting{Store: ratelimit.NewRedis(client)}, prefix, reads(800), clk)
	ctx := context.Background()
	for range 20 { // reservations of 1, 2, 4, 8 and 16 hits: the next is 16 again
		lim.Allow(ctx, "key1", ratelimit.Read)
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() { lim.Allow(ctx, "key1", ratelimit.Read) })
	}
	wg.Wait()
	counted, err := client.Get(ctx, prefix+"key1:read:"+strconv.FormatInt(clk.Now().Unix()/60, 10)).Int64()
	if err != nil {
		t.Fatal(err)
	}
	if unused := counted - 120; unused < 0 || unused > 15 {
		t.Errorf("Redis counts %d after 120 hits: %d reserved and unused, want at most 15 (one reservation of 16, less the hit that made it)", counted, unused)
	}
}
