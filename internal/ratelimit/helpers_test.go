package ratelimit_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/ratelimit"
)

// base is the start of an hour, so every test window holding base+offset is the same hour and minute.
var base = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// clock is a settable clock safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// syncBuffer collects log output written from any goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

// withWrite returns the default buckets with write's limit replaced, so another bucket runs out first.
func withWrite(limit int) map[string]ratelimit.Bucket {
	b := ratelimit.Defaults()
	b[ratelimit.Write] = ratelimit.Bucket{Name: ratelimit.Write, Limit: limit, Window: time.Minute}
	return b
}

// store is a counter store under test together with the key prefix the Limiter should use with it.
type store struct {
	ratelimit.Store
	prefix string
}

// limiter returns a Limiter on s with buckets (nil for the defaults) and clk, patient enough that a
// loaded machine does not make it fail open.
func (s store) limiter(buckets map[string]ratelimit.Bucket, clk *clock) *ratelimit.Limiter {
	return ratelimit.New(ratelimit.Config{Store: s, Prefix: s.prefix, Buckets: buckets, Now: clk.Now, Timeout: 5 * time.Second})
}

// forEachStore runs f against the memory store and against Redis at RADAR_TEST_REDIS_URL.
func forEachStore(t *testing.T, f func(t *testing.T, open func(now func() time.Time) store)) {
	t.Run("memory", func(t *testing.T) {
		f(t, func(now func() time.Time) store { return store{Store: ratelimit.NewMemory(now)} })
	})
	t.Run("redis", func(t *testing.T) {
		client := testRedis(t)
		f(t, func(func() time.Time) store {
			return store{Store: ratelimit.NewRedis(client), prefix: uniquePrefix(t, client)}
		})
	})
}

// testRedis connects to RADAR_TEST_REDIS_URL or skips the test.
func testRedis(tb testing.TB) *redis.Client {
	tb.Helper()
	url := os.Getenv("RADAR_TEST_REDIS_URL")
	if url == "" {
		tb.Skip("RADAR_TEST_REDIS_URL is not set; set it to a Redis 7 URL such as redis://127.0.0.1:6379/0 to run the Redis tests")
	}
	opts, err := ratelimit.ParseRedisURL(url)
	if err != nil {
		tb.Fatalf("ParseRedisURL(%q): %v", url, err)
	}
	client := redis.NewClient(opts)
	tb.Cleanup(func() { client.Close() })
	if err := client.Ping(context.Background()).Err(); err != nil {
		tb.Fatalf("ping redis at %s: %v", url, err)
	}
	return client
}

// uniquePrefix returns a key prefix no other test uses and deletes its keys when the test ends.
func uniquePrefix(tb testing.TB, client *redis.Client) string {
	prefix := "radar:rltest:" + rand.Text() + ":"
	tb.Cleanup(func() {
		ctx := context.Background()
		iter := client.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
	})
	return prefix
}
