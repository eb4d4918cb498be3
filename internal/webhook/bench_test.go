package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// BenchmarkDeliveries queues 1,000 events for one endpoint, then starts the workers, and reports how many
// deliveries per second they make through the backlog, and how long each event waited from being queued to
// being delivered (p50, p99). The receiver answers 200 at once, so the figures are Radar's own: the queue, the
// store and signing. Run it with -benchtime 1x: later iterations queue while the workers already run.
func BenchmarkDeliveries(b *testing.B) {
	const queued = 1000
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			var (
				mu        sync.Mutex
				latencies []time.Duration
				done      = make(chan struct{}, queued)
			)
			h := startBench(b, engine, func(d time.Duration) {
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
				done <- struct{}{}
			})
			rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
			b.Cleanup(rcv.Close)
			now := radar.NewTime(time.Now())
			ep := &radar.WebhookEndpoint{ID: "0193a0b0-0000-7000-8000-0000000000b1", OrgID: h.env.OrgA.ID, URL: rcv.URL, Kind: "webhook",
				Events: []string{"webhook.test"}, Enabled: true, Secret: testSecret, CreatedAt: now, UpdatedAt: now}
			if err := h.env.DB.CreateWebhook(context.Background(), ep); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				latencies = latencies[:0]
				for range queued {
					m := &radar.WebhookMessage{ID: "msg_" + uuid.NewString(), OrgID: ep.OrgID, EndpointID: ep.ID, EventType: radar.EventWebhookTest,
						Payload:   []byte(`{"type":"webhook.test","timestamp":"2026-11-25T00:00:00.000000+00:00","version":1,"data":{}}`),
						CreatedAt: radar.NewTime(time.Now())}
					if err := h.env.DB.QueueWebhookMessage(context.Background(), m); err != nil {
						b.Fatal(err)
					}
				}
				start := time.Now()
				if i == 0 {
					h.work(b)
				}
				for range queued {
					select {
					case <-done:
					case <-time.After(time.Minute):
						b.Fatal("deliveries stalled")
					}
				}
				elapsed := time.Since(start)
				mu.Lock()
				slices.Sort(latencies)
				b.ReportMetric(float64(queued)/elapsed.Seconds(), "deliveries/s")
				b.ReportMetric(float64(latencies[len(latencies)/2].Milliseconds()), "p50-ms")
				b.ReportMetric(float64(latencies[len(latencies)*99/100].Milliseconds()), "p99-ms")
				mu.Unlock()
			}
		})
	}
}

// BenchmarkRunToReceiver measures, one run at a time, the time from the moment a run's transaction commits to
// the moment its signal.created delivery reaches the receiver, and reports the p50 and p99 over b.N runs. The
// workers poll the queue every 20 ms (PostgreSQL is also notified of new jobs).
func BenchmarkRunToReceiver(b *testing.B) {
	for _, engine := range []string{sqldb.SQLite, sqldb.Postgres} {
		b.Run(engine, func(b *testing.B) {
			h := startBench(b, engine, func(time.Duration) {})
			h.work(b)
			arrived := make(chan time.Time, 1)
			rcv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { arrived <- time.Now() }))
			b.Cleanup(rcv.Close)
			res := h.env.Do(b, http.MethodPost, "/api/v1/webhooks", h.key, map[string]any{"url": rcv.URL, "events": []string{"signal.created"}})
			if res.Status != http.StatusCreated {
				b.Fatalf("register: %s", res)
			}
			created := h.env.Do(b, http.MethodPost, "/api/v1/tracker", h.key, apitest.CreateBody("Northwind"))
			ent := created.Data()["id"].(string)
			var latencies []time.Duration
			b.ResetTimer()
			for range b.N {
				h.env.SeedQuietRun(b, h.env.OrgA, ent)
				committed := time.Now()
				select {
				case at := <-arrived:
					latencies = append(latencies, at.Sub(committed))
				case <-time.After(30 * time.Second):
					b.Fatal("no delivery")
				}
			}
			slices.Sort(latencies)
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(latencies[(len(latencies)-1)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
