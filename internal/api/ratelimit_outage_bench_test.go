package api_test

import (
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/ratelimit"
	"radar/internal/sqldb"
)

// BenchmarkRateLimitStoreDown reads an entity through the whole handler with in-process counters and with
// the counters in a Redis nothing answers for (a closed port), as the radar command uses it, behind the circuit
// breaker: an outage should cost what no Redis costs.
func BenchmarkRateLimitStoreDown(b *testing.B) {
	stores := map[string]func(b *testing.B) ratelimit.Store{
		"memory": func(*testing.B) ratelimit.Store { return ratelimit.NewMemory(nil) },
		"redis-down": func(b *testing.B) ratelimit.Store {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			opts, err := ratelimit.ParseRedisURL("redis://" + addr + "/0")
			if err != nil {
				b.Fatal(err)
			}
			client := redis.NewClient(opts)
			b.Cleanup(func() { client.Close() })
			return ratelimit.NewBreaker(ratelimit.NewRedis(client), ratelimit.BreakerConfig{Logger: slog.New(slog.DiscardHandler)})
		},
	}
	for _, name := range []string{"memory", "redis-down"} {
		b.Run(name, func(b *testing.B) {
			store := stores[name](b)
			env := apitest.StartWith(b, sqldb.SQLite, apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) {
				cfg.Limiter = ratelimit.New(ratelimit.Config{Store: store, Buckets: apitest.Unlimited(), Logger: slog.New(slog.DiscardHandler)})
			}})
			key := env.Key(b, env.OrgA)
			e := env.InsertEntity(b, env.OrgA, "Northwind", time.Now())
			for b.Loop() {
				serve(b, env, http.MethodGet, "/api/v1/tracker/"+e.ID, key, nil, http.StatusOK)
			}
		})
	}
}
