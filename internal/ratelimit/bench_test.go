package ratelimit_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"radar/internal/ratelimit"
)

// unlimited are the default buckets with limits no benchmark reaches, so every Allow takes the full path.
func unlimited() map[string]ratelimit.Bucket {
	b := ratelimit.Defaults()
	for name, bucket := range b {
		bucket.Limit = 1 << 30
		b[name] = bucket
	}
	return b
}

func BenchmarkAllowMemory(b *testing.B) {
	lim := ratelimit.New(ratelimit.Config{Buckets: unlimited()})
	benchmarkAllow(b, lim)
}

func BenchmarkAllowRedis(b *testing.B) {
	client := testRedis(b)
	lim := ratelimit.New(ratelimit.Config{Store: ratelimit.NewRedis(client), Prefix: uniquePrefix(b, client), Buckets: unlimited()})
	benchmarkAllow(b, lim)
}

func benchmarkAllow(b *testing.B, lim *ratelimit.Limiter) {
	cases := map[string][]string{
		"read":   {ratelimit.Read},
		"create": {ratelimit.Create, ratelimit.Write},
	}
	for name, buckets := range cases {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			durations := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				d := lim.Allow(ctx, "bench", buckets...)
				durations = append(durations, time.Since(start))
				if d.FailedOpen {
					b.Fatal("store failed during the benchmark")
				}
			}
			reportP99(b, durations)
		})
		b.Run(name+"/parallel", func(b *testing.B) {
			ctx := context.Background()
			var mu sync.Mutex
			var all []time.Duration
			b.RunParallel(func(pb *testing.PB) {
				var durations []time.Duration
				for pb.Next() {
					start := time.Now()
					lim.Allow(ctx, "bench", buckets...)
					durations = append(durations, time.Since(start))
				}
				mu.Lock()
				all = append(all, durations...)
				mu.Unlock()
			})
			reportP99(b, all)
		})
	}
}

// reportP99 reports the 99th percentile of single Allow latencies in microseconds.
func reportP99(b *testing.B, durations []time.Duration) {
	if len(durations) == 0 {
		return
	}
	slices.Sort(durations)
	p99 := durations[(len(durations)*99)/100]
	b.ReportMetric(float64(p99.Nanoseconds())/1e3, "p99-µs")
}
