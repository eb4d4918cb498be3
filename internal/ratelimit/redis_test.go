package ratelimit_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/ratelimit"
	"radar/internal/simweb"
)

func TestRedisKeyAndExpiry(t *testing.T) {
	client := testRedis(t)
	prefix := uniquePrefix(t, client)
	now := base.Add(12 * time.Second)
	lim := ratelimit.New(ratelimit.Config{Store: ratelimit.NewRedis(client), Prefix: prefix, Now: func() time.Time { return now },
		Timeout: 5 * time.Second, Reserve: 1})
	ctx := context.Background()
	lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write)
	lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write)

	tests := map[string]struct {
		bucket string
		window time.Duration
	}{
		"write":  {ratelimit.Write, time.Minute},
		"create": {ratelimit.Create, time.Hour},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			key := prefix + "key1:" + tt.bucket + ":" + strconv.FormatInt(now.Unix()/int64(tt.window/time.Second), 10)
			if got, err := client.Get(ctx, key).Result(); err != nil || got != "2" {
				t.Errorf("GET %s = %q, %v, want \"2\"", key, got, err)
			}
			ttl, err := client.TTL(ctx, key).Result()
			if err != nil || ttl <= tt.window-5*time.Second || ttl > tt.window+10*time.Second {
				t.Errorf("TTL %s = %v, %v, want about %v", key, ttl, err, tt.window)
			}
		})
	}
}

// closedAddr returns a free loopback port that nothing listens on yet, for a test that listens on it later.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// redisAt returns a counter-store client for addr, as ParseRedisURL configures it.
func redisAt(t *testing.T, addr string) *redis.Client {
	t.Helper()
	opts, err := ratelimit.ParseRedisURL("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	t.Cleanup(func() { client.Close() })
	return client
}

func TestRedisDownFailsOpen(t *testing.T) {
	clk := newClock(base)
	var logs syncBuffer
	var storeErrors atomic.Int64
	lim := ratelimit.New(ratelimit.Config{
		Store:        ratelimit.NewRedis(redisAt(t, simweb.RefusedAddr)),
		Now:          clk.Now,
		Logger:       slog.New(slog.NewTextHandler(&logs, nil)),
		OnStoreError: func() { storeErrors.Add(1) },
	})
	ctx := context.Background()
	for i := range 5 {
		d := lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write)
		if !d.Allowed || !d.FailedOpen {
			t.Errorf("Allow %d: Allowed=%v FailedOpen=%v, want allowed and failed open", i+1, d.Allowed, d.FailedOpen)
		}
		clk.Add(10 * time.Second)
	}
	if got := storeErrors.Load(); got != 5 {
		t.Errorf("OnStoreError called %d times, want 5", got)
	}
	if got := logs.count("level=WARN"); got != 1 {
		t.Errorf("warnings within one interval = %d, want 1; log:\n%s", got, logs.buf.String())
	}

	clk.Add(time.Minute)
	lim.Allow(ctx, "key1", ratelimit.Read)
	if got := logs.count("level=WARN"); got != 2 {
		t.Errorf("warnings after the interval passed = %d, want 2", got)
	}

	for _, st := range lim.Status(ctx, "key1") {
		if !st.Unknown || st.Remaining != st.Bucket.Limit {
			t.Errorf("Status %s: unknown %v remaining %d, want unknown with the full limit %d", st.Bucket.Name, st.Unknown, st.Remaining, st.Bucket.Limit)
		}
	}
}

func TestCallerGoneIsNotAStoreFailure(t *testing.T) {
	var storeErrors atomic.Int64
	var logs syncBuffer
	lim := ratelimit.New(ratelimit.Config{
		Store:        ratelimit.NewRedis(redisAt(t, simweb.RefusedAddr)),
		OnStoreError: func() { storeErrors.Add(1) },
		Logger:       slog.New(slog.NewTextHandler(&logs, nil)),
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := lim.Allow(ctx, "key1", ratelimit.Read)
	if !d.Allowed || !d.FailedOpen || storeErrors.Load() != 0 {
		t.Errorf("Allow with a cancelled request: Allowed=%v FailedOpen=%v store errors %d, want allowed, failed open, 0",
			d.Allowed, d.FailedOpen, storeErrors.Load())
	}
	if got := logs.count("level=WARN"); got != 0 {
		t.Errorf("warnings = %d, want 0", got)
	}
}

func TestRedisHangingFailsOpen(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	done := make(chan struct{})
	conns.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() {
				<-done
				c.Close()
			})
		}
	})
	t.Cleanup(func() {
		ln.Close()
		close(done)
		conns.Wait()
	})

	var storeErrors atomic.Int64
	lim := ratelimit.New(ratelimit.Config{
		Store:        ratelimit.NewRedis(redisAt(t, ln.Addr().String())),
		Timeout:      20 * time.Millisecond,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		OnStoreError: func() { storeErrors.Add(1) },
	})
	for i := range 3 {
		d := lim.Allow(context.Background(), "key1", ratelimit.Read)
		if !d.Allowed || !d.FailedOpen {
			t.Errorf("Allow %d: Allowed=%v FailedOpen=%v, want allowed after the timeout", i+1, d.Allowed, d.FailedOpen)
		}
	}
	if got := storeErrors.Load(); got != 3 {
		t.Errorf("OnStoreError called %d times, want 3", got)
	}
}

func TestRedisCountingResumes(t *testing.T) {
	backend := testRedis(t)
	addr := closedAddr(t)
	client := redisAt(t, addr)
	var logs syncBuffer
	lim := ratelimit.New(ratelimit.Config{
		Store:  ratelimit.NewRedis(client),
		Prefix: uniquePrefix(t, backend),
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	ctx := context.Background()
	if d := lim.Allow(ctx, "key1", ratelimit.Read); !d.FailedOpen {
		t.Fatalf("Allow with Redis down: FailedOpen=%v, want true", d.FailedOpen)
	}

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s again to bring Redis back: %v", addr, err)
	}
	proxy(t, ln, backend.Options().Addr)

	deadline := time.Now().Add(10 * time.Second)
	// A read that failed open after Redis came back may still have been counted there (its call went out
	// before the caller stopped waiting), so the first counted read may see those too, never more.
	late := 0
	for {
		d := lim.Allow(ctx, "key1", ratelimit.Read)
		if !d.FailedOpen {
			if !d.Allowed || d.Remaining > 599 || d.Remaining < 599-late {
				t.Errorf("first counted read: Allowed=%v remaining %d, want allowed with 599 left (%d reads failed open since Redis came back)", d.Allowed, d.Remaining, late)
			}
			break
		}
		late++
		if time.Now().After(deadline) {
			t.Fatal("still failing open 10s after Redis came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := logs.count("counting resumed"); got != 1 {
		t.Errorf("recovery messages = %d, want 1", got)
	}
}

// proxy forwards every connection accepted on ln to target until the test ends.
func proxy(t *testing.T, ln net.Listener, target string) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	track := func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		open = append(open, c)
	}
	wg.Go(func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			track(in)
			track(out)
			wg.Go(func() { io.Copy(out, in); out.Close() })
			wg.Go(func() { io.Copy(in, out); in.Close() })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
}

// Concurrent counts share pipelines, and each still gets its own count: n hits on one key come back as 1..n,
// each once, and every key expires.
func TestRedisConcurrentCounts(t *testing.T) {
	client := testRedis(t)
	prefix := uniquePrefix(t, client)
	store := ratelimit.NewRedis(client)
	ctx := context.Background()
	const hits = 300
	keys := []string{prefix + "a", prefix + "b", prefix + "c"}
	got := make([][]int64, len(keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range hits * len(keys) {
		wg.Go(func() {
			k := i % len(keys)
			n, err := store.Incr(ctx, keys[k], 1, time.Minute)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[k] = append(got[k], n)
			mu.Unlock()
		})
	}
	wg.Wait()
	for k, ns := range got {
		seen := make([]bool, hits+1)
		for _, n := range ns {
			if n < 1 || n > hits || seen[n] {
				t.Fatalf("key %s: count %d out of range or twice", keys[k], n)
			}
			seen[n] = true
		}
		if len(ns) != hits {
			t.Errorf("key %s: %d counts, want %d", keys[k], len(ns), hits)
		}
		if ttl, err := client.TTL(ctx, keys[k]).Result(); err != nil || ttl <= 0 || ttl > time.Minute {
			t.Errorf("key %s: TTL %v, %v", keys[k], ttl, err)
		}
	}
}
