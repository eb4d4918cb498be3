package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar"
	"radar/internal/api"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
	"radar/internal/tracker"
)

// unlimitedBuckets are the Partner API's buckets with limits no benchmark reaches, so every request is
// counted and allowed.
func unlimitedBuckets() map[string]ratelimit.Bucket {
	b := ratelimit.Defaults()
	for name, bucket := range b {
		bucket.Limit = 1 << 30
		b[name] = bucket
	}
	return b
}

// BenchmarkRateCheck measures a REST read through the whole API middleware with no rate limiter, with the
// in-process counters and, when RADAR_TEST_REDIS_URL is set, with Redis counters. Each iteration sends the
// same request through every variant in turn, so that the load of the machine weighs on all alike; the
// reported medians and their differences are what the rate check adds to a request.
func BenchmarkRateCheck(b *testing.B) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "radar.db"), sqldb.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := service.New(service.Config{Store: db, BaseURL: "http://radar.test", Secret: []byte(randomHex(32)), Compile: tracker.Compile})
	org, err := svc.CreateOrg(ctx, "bench", "")
	if err != nil {
		b.Fatal(err)
	}
	key, err := svc.CreateKey(ctx, org.ID, "bench", []string{radar.ScopeTrackerRead}, 0)
	if err != nil {
		b.Fatal(err)
	}

	type variant struct {
		name  string
		srv   *api.Server
		times []time.Duration
	}
	variants := []*variant{
		{name: "none", srv: api.New(api.Config{Service: svc})},
		{name: "memory", srv: api.New(api.Config{Service: svc, Limiter: ratelimit.New(ratelimit.Config{Buckets: unlimitedBuckets()})})},
	}
	if u := os.Getenv(RedisEnv); u != "" {
		opts, err := ratelimit.ParseRedisURL(u)
		if err != nil {
			b.Fatal(err)
		}
		client := redis.NewClient(opts)
		defer client.Close()
		lim := ratelimit.New(ratelimit.Config{
			Store: ratelimit.NewRedis(client), Buckets: unlimitedBuckets(), Prefix: "radar:bench:" + randomHex(4) + ":",
			Timeout: time.Second,
		})
		variants = append(variants, &variant{name: "redis", srv: api.New(api.Config{Service: svc, Limiter: lim})})
	} else {
		b.Logf("set %s to measure Redis counters too", RedisEnv)
	}

	for b.Loop() {
		for _, v := range variants {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/tracker?limit=25&view=compact", nil)
			req.Header.Set("Authorization", "Bearer "+key.Secret)
			w := httptest.NewRecorder()
			start := time.Now()
			v.srv.ServeHTTP(w, req)
			v.times = append(v.times, time.Since(start))
			if w.Code != http.StatusOK {
				b.Fatalf("%s: GET /api/v1/tracker: %d %s", v.name, w.Code, w.Body)
			}
		}
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds()) / 1e3
	}
	base := median(variants[0].times)
	b.ReportMetric(base, "none-µs")
	for _, v := range variants[1:] {
		m := median(v.times)
		b.ReportMetric(m, v.name+"-µs")
		b.ReportMetric(m-base, v.name+"-added-µs")
	}
}
