package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/app"
	"radar/internal/config"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// benchApp runs the whole program on engine, workers included, and returns its base address and a key; edit,
// when set, changes the configuration first.
func benchApp(b *testing.B, engine string, edit func(*config.Config)) (*app.App, string, string) {
	b.Helper()
	ctx := context.Background()
	cfg := &config.Config{Addr: "127.0.0.1:0", DatabaseURL: storetest.URL(b, engine)}
	if edit != nil {
		edit(cfg)
	}
	if err := cfg.Finish(); err != nil {
		b.Fatal(err)
	}
	a, err := app.Open(ctx, cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	a.RateLimits = apitest.Unlimited()
	if err := a.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close(context.Background()) })
	org, err := a.Service.CreateOrg(ctx, "fund", "Fund")
	if err != nil {
		b.Fatal(err)
	}
	k, err := a.Service.CreateKey(ctx, org.ID, "bench", []string{"tracker:read", "tracker:write"}, 0)
	if err != nil {
		b.Fatal(err)
	}
	return a, "http://" + a.Addr(), k.Secret
}

// latencies collects the durations of requests from several goroutines and reports their percentiles.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// do sends req, reads the answer and records how long it took; false when it failed or its status is not want.
func (l *latencies) do(b *testing.B, client *http.Client, req *http.Request, want int) bool {
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return false
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	l.add(time.Since(start))
	if res.StatusCode != want {
		b.Errorf("%s %s: %d", req.Method, req.URL.Path, res.StatusCode)
		return false
	}
	return true
}

func (l *latencies) report(b *testing.B) {
	if len(l.d) == 0 {
		return
	}
	slices.Sort(l.d)
	at := func(p float64) float64 { return float64(l.d[int(p*float64(len(l.d)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// benchClient is an HTTP client keeping a connection per concurrent caller, as a load generator does.
func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128, MaxConnsPerHost: 128}}
}

// BenchmarkCreateHTTP posts new companies to the running program over a loopback socket from 16 goroutines
// per core (32 on two cores), as the load test does with wrk: the workers enrich what is created meanwhile.
func BenchmarkCreateHTTP(b *testing.B) {
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			_, base, key := benchApp(b, engine, nil)
			client := benchClient()
			var n atomic.Int64
			var lat latencies
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					body, _ := json.Marshal(apitest.CreateBody(fmt.Sprintf("Company %d", n.Add(1))))
					req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/tracker", bytes.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+key)
					req.Header.Set("Content-Type", "application/json")
					if !lat.do(b, client, req, http.StatusCreated) {
						return
					}
				}
			})
			b.StopTimer()
			lat.report(b)
		})
	}
}

// post sends body to path and fails b unless the answer has status want.
func post(b *testing.B, client *http.Client, url, key string, body any, want int) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != want {
		b.Fatalf("POST %s: %d", url, res.StatusCode)
	}
}

// BenchmarkReadWhileEnriching reads one company from 32 goroutines while the workers are idle, and while 1,000
// just created companies wait for their enrichment and first run, with the default bound of job workers and
// with ten. Every company's website answers at once with 15 KB of text, so that the jobs keep the CPU busy.
func BenchmarkReadWhileEnriching(b *testing.B) {
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			page := "<html><head><title>A company</title></head><body>" +
				strings.Repeat("<p>We build developer tools. Our founders left Acme to raise a seed round.</p>\n", 200) + "</body></html>"
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, page)
			}))
			b.Cleanup(site.Close)
			for _, c := range []struct {
				name    string
				pending int
				workers int
			}{{"idle", 0, 0}, {"1000-pending", 1000, 0}, {"1000-pending-10-workers", 1000, 10}} {
				b.Run(c.name, func(b *testing.B) {
					_, base, key := benchApp(b, engine, func(cfg *config.Config) {
						cfg.FetchAllowPrivate, cfg.GitHubAPIURL, cfg.JobWorkers = true, site.URL, c.workers
					})
					client := benchClient()
					post(b, client, base+"/api/v1/tracker", key, apitest.CreateBody("Northwind"), http.StatusCreated)
					for i := range c.pending {
						body := apitest.CreateBody(fmt.Sprintf("Company %d", i))
						body["companyWebsite"] = fmt.Sprintf("%s/company-%d", site.URL, i)
						post(b, client, base+"/api/v1/tracker", key, body, http.StatusCreated)
					}
					req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/tracker?limit=1", nil)
					req.Header.Set("Authorization", "Bearer "+key)
					res, err := client.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					var page struct {
						Data []struct{ ID string } `json:"data"`
					}
					json.NewDecoder(res.Body).Decode(&page)
					res.Body.Close()
					if len(page.Data) != 1 {
						b.Fatal("no company listed")
					}
					url := base + "/api/v1/tracker/" + page.Data[0].ID
					var lat latencies
					b.SetParallelism(16)
					b.ResetTimer()
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							req, _ := http.NewRequest(http.MethodGet, url, nil)
							req.Header.Set("Authorization", "Bearer "+key)
							if !lat.do(b, client, req, http.StatusOK) {
								return
							}
						}
					})
					b.StopTimer()
					lat.report(b)
				})
			}
		})
	}
}
