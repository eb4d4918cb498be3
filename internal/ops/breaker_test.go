package ops_test

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/ops"
	"radar/internal/ratelimit"
)

func TestMetricsShowTheRateLimitBreaker(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	opts, err := ratelimit.ParseRedisURL("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	defer client.Close()

	o := ops.New(ops.Config{})
	srv := httptest.NewServer(o)
	defer srv.Close()
	series := func() (open, opened, closed float64) {
		t.Helper()
		_, _, body := get(t, srv.URL+"/metrics")
		var ok [3]bool
		open, ok[0] = sample(body, "radar_ratelimit_breaker_open")
		opened, ok[1] = sample(body, `radar_ratelimit_breaker_transitions_total{to="open"}`)
		closed, ok[2] = sample(body, `radar_ratelimit_breaker_transitions_total{to="closed"}`)
		if ok != [3]bool{true, true, true} {
			t.Fatalf("breaker series present %v, want all three; body:\n%s", ok, body)
		}
		return open, opened, closed
	}
	if open, opened, closed := series(); open != 0 || opened != 0 || closed != 0 {
		t.Errorf("before any failure: open %v, opened %v, closed %v; want 0 0 0", open, opened, closed)
	}

	br := ratelimit.NewBreaker(ratelimit.NewRedis(client), ratelimit.BreakerConfig{
		Failures: 2, OnChange: o.BreakerChanged, Logger: slog.New(slog.DiscardHandler),
	})
	for range 2 {
		br.Incr(context.Background(), "k", 1, time.Minute)
	}
	if open, opened, closed := series(); open != 1 || opened != 1 || closed != 0 {
		t.Errorf("after the breaker opened: open %v, opened %v, closed %v; want 1 1 0", open, opened, closed)
	}
	o.BreakerChanged(false)
	if open, opened, closed := series(); open != 0 || opened != 1 || closed != 1 {
		t.Errorf("after it closed: open %v, opened %v, closed %v; want 0 1 1", open, opened, closed)
	}
}
