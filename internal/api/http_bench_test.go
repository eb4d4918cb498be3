package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/ops"
	"radar/internal/ratelimit"
	"radar/internal/sqldb"
)

// The HTTP benchmarks send reads over a real loopback socket, through net/http's server and a keep-alive
// client, as a load generator does: 32 connections at once (16 per processor on two). Each read has a
// Ceiling twin: a bare net/http handler that answers the same bytes over the same kind of connection, so
// that the ratio of the two ns/op is the share of the ceiling the read reaches on the machine at hand.
// Wall time is shared with whatever else runs on the machine; cpu-ns/op, the process's CPU time per read
// (client and server), is steadier. The server is built as the binary builds it: request metrics, list cache metrics, the envelope listener,
// and on PostgreSQL the rate counters in Redis when RADAR_TEST_REDIS_URL is set.

const httpBenchParallelism = 16

// httpEnv serves the API of engine on loopback, with nEntities entities of org A (half of them with a run),
// and returns it with a key of org A.
func httpEnv(b *testing.B, engine string, nEntities int) (*apitest.Env, string, []string) {
	metrics := ops.New(ops.Config{})
	o := apitest.Options{Configure: func(env *apitest.Env, cfg *api.Config) {
		cfg.Observe, cfg.OnListCache = metrics.Observe, metrics.ListCache
		if engine == sqldb.Postgres {
			if u := os.Getenv("RADAR_TEST_REDIS_URL"); u != "" {
				opts, err := ratelimit.ParseRedisURL(u)
				if err != nil {
					b.Fatal(err)
				}
				client := redis.NewClient(opts)
				b.Cleanup(func() { client.Close() })
				cfg.Limiter = ratelimit.New(ratelimit.Config{
					Store: ratelimit.NewBreaker(ratelimit.NewRedis(client), ratelimit.BreakerConfig{Logger: slog.New(slog.DiscardHandler)}), Logger: slog.New(slog.DiscardHandler),
					Buckets: apitest.Unlimited(), Prefix: "radar:httpbench:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":",
				})
			}
		}
	}}
	env := apitest.StartWith(b, engine, o)
	key := env.Key(b, env.OrgA)
	ids := make([]string, 0, nEntities)
	for i := range nEntities {
		res := env.Do(b, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Company "+strconv.Itoa(i)))
		if res.Status != http.StatusCreated {
			b.Fatalf("create: %d %s", res.Status, res.Body)
		}
		var created struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(res.Body, &created); err != nil {
			b.Fatal(err)
		}
		if i%2 == 0 {
			env.SeedRun(b, env.OrgA, created.Data.ID)
		}
		ids = append(ids, created.Data.ID)
	}
	return env, key, ids
}

// benchClient is a keep-alive client with room for every connection of the benchmark.
func benchClient(b *testing.B) *http.Client {
	t := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		DisableCompression:  true,
	}
	b.Cleanup(t.CloseIdleConnections)
	return &http.Client{Transport: t}
}

// getLoop reads url in parallel until the benchmark ends, checking the status and draining the body.
func getLoop(b *testing.B, url, key string) {
	client := benchClient(b)
	b.SetParallelism(httpBenchParallelism)
	b.ReportAllocs()
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
		if err != nil {
			b.Error(err)
			return
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		for pb.Next() {
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("GET %s: %d", url, res.StatusCode)
				return
			}
		}
	})
	b.StopTimer()
	// CPU time per read, client and server together, of this process (PostgreSQL's and Redis's are not in it).
	if cpu1, ok := processCPU(); ok && cpuOK && b.N > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// ceiling serves body as the read at path answered it, from a bare handler, and reads it the same way.
func ceiling(b *testing.B, env *apitest.Env, path, key string) {
	res := env.Do(b, http.MethodGet, path, key, nil)
	if res.Status != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	body := bytes.Clone(res.Body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	b.Cleanup(srv.Close)
	b.SetBytes(int64(len(body)))
	getLoop(b, srv.URL+path, key)
}

func httpBench(b *testing.B, nEntities int, path func(ids []string) string) {
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			env, key, ids := httpEnv(b, engine, nEntities)
			p := path(ids)
			b.Run("Radar", func(b *testing.B) {
				res := env.Do(b, http.MethodGet, p, key, nil)
				b.SetBytes(int64(len(res.Body)))
				getLoop(b, env.URL+p, key)
			})
			b.Run("Ceiling", func(b *testing.B) { ceiling(b, env, p, key) })
		})
	}
}

func BenchmarkHTTPGetEntity(b *testing.B) {
	httpBench(b, 1, func(ids []string) string { return "/api/v1/tracker/" + ids[0] })
}

func BenchmarkHTTPListCompact(b *testing.B) {
	httpBench(b, 100, func([]string) string { return "/api/v1/tracker?limit=25" })
}

func BenchmarkHTTPListFull(b *testing.B) {
	httpBench(b, 100, func([]string) string { return "/api/v1/tracker?limit=25&view=full" })
}
