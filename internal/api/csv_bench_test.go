package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// discardWriter is a response writer that drops the body, as a client reading it would.
type discardWriter struct {
	header http.Header
	n      atomic.Int64
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(int)     {}
func (w *discardWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return len(p), nil
}

// seedSignals writes signals from+1 to to of one company (made by the first call) straight into the database.
func seedSignals(b *testing.B, env *apitest.Env, from, to int) {
	if from == 0 {
		env.InsertEntity(b, env.OrgA, "Exportco", time.Now())
	}
	var entityID string
	if err := env.SQL(b).QueryRowContext(context.Background(), `SELECT id FROM entities WHERE company_name = 'Exportco'`).Scan(&entityID); err != nil {
		b.Fatalf("seed signals: %v", err)
	}
	series := `WITH RECURSIVE n(i) AS (SELECT $4 + 1 UNION ALL SELECT i + 1 FROM n WHERE i < $5)`
	attention := "1"
	if env.Engine == sqldb.Postgres {
		series, attention = `WITH n(i) AS (SELECT generate_series($4::int + 1, $5::int))`, "true"
	}
	q := series + ` INSERT INTO signals (id, org_id, entity_id, run_id, company_name, type, severity, recommendation,
		needs_attention, summary, analysis, evidence, findings, sources, analyser, created_at)
		SELECT 'sig-' || i, $1, $2, 'run-' || i, 'Exportco', 'funding', 'high', 'reach_out', ` + attention + `,
		'Exportco raised a Series A, led by a fund, to hire engineers in Berlin.', '',
		'[{"url":"https://news.example/a","title":"Series A","source":"news"}]', '[]', '[]', 'builtin', CAST($3 AS BIGINT) + i FROM n`
	if _, err := env.SQL(b).ExecContext(context.Background(), q, env.OrgA.ID, entityID, time.Now().UnixMicro(), from, to); err != nil {
		b.Fatalf("seed signals: %v", err)
	}
	if _, err := env.SQL(b).ExecContext(context.Background(), "ANALYZE"); err != nil {
		b.Fatalf("analyze: %v", err)
	}
}

// BenchmarkCSVExport exports 10,000 and then 100,000 signals as CSV. It reports the bytes allocated per row and
// the peak heap in use while the export runs, also as growth over the heap before it: the export reads and
// writes a page at a time, so the growth stays the same for ten times the rows instead of growing with them.
// The time per export shows whether each page is a seek of the index (linear in the rows) or a scan from the
// newest row (quadratic).
func BenchmarkCSVExport(b *testing.B) {
	benchEngines(b, func(b *testing.B, env *apitest.Env, key string) {
		seeded := 0
		for _, rows := range []int{10_000, 100_000} {
			seedSignals(b, env, seeded, rows)
			seeded = rows
			b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) { benchExport(b, env, key, rows) })
		}
	})
}

func benchExport(b *testing.B, env *apitest.Env, key string, rows int) {
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		var peak atomic.Uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			var m runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
			}
		})
		req := httptest.NewRequest(http.MethodGet, "/api/v1/signals", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Accept", "text/csv")
		w := &discardWriter{header: http.Header{}}
		env.Server.ServeHTTP(w, req)
		close(stop)
		wg.Wait()
		runtime.ReadMemStats(&after)
		if w.n.Load() < int64(rows)*100 {
			b.Fatalf("exported %d bytes, want every row", w.n.Load())
		}
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(rows), "alloc-B/row")
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(max(peak.Load(), before.HeapInuse)-before.HeapInuse)/(1<<20), "heap-growth-MiB")
		b.ReportMetric(float64(w.n.Load())/(1<<20), "body-MiB")
	}
}
