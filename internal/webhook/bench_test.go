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
	"radar/internal/sqldb"
)

// BenchmarkDeliveries queues 1,000 events for one endpoint at once and reports how many deliveries per second
// the workers make, and the time from an event's creation to its arrival at the receiver (p50, p99). The
// receiver answers 200 at once, so the figures are Radar's own: the queue, the store and signing.
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
			for range b.N {
				latencies = latencies[:0]
				start := time.Now()
				for range queued {
					m := &radar.WebhookMessage{ID: "msg_" + uuid.NewString(), OrgID: ep.OrgID, EndpointID: ep.ID, EventType: radar.EventWebhookTest,
						Payload:   []byte(`{"type":"webhook.test","timestamp":"2026-11-25T00:00:00.000000+00:00","version":1,"data":{}}`),
						CreatedAt: radar.NewTime(time.Now())}
					if err := h.env.DB.QueueWebhookMessage(context.Background(), m); err != nil {
						b.Fatal(err)
					}
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
