package tracker_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/crawl"
	"radar/internal/fetch"
	"radar/internal/sqldb/storetest"
	"radar/internal/tracker"
)

// BenchmarkEnrichment measures the enrichment of one company of the simulated web (crawl, profiles, sectors,
// write).
func BenchmarkEnrichment(b *testing.B) {
	for _, engine := range storetest.Engines() {
		b.Run(engine, func(b *testing.B) {
			ctx := context.Background()
			v := newEnv(b, engine, news)
			e, err := tracker.New(v.config())
			if err != nil {
				b.Fatal(err)
			}
			c := v.company("ledgerwyn")
			for b.Loop() {
				ent := v.track(c)
				if err := e.Enrich(ctx, radar.EnrichArgs{OrgID: ent.OrgID, EntityID: ent.ID}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstRun measures a first tracker run of one company of the simulated web: every source read, every
// item new, analysis, signal, alert and e-mail written.
func BenchmarkFirstRun(b *testing.B) {
	for _, engine := range storetest.Engines() {
		b.Run(engine, func(b *testing.B) {
			ctx := context.Background()
			v := newEnv(b, engine, news)
			e, err := tracker.New(v.config())
			if err != nil {
				b.Fatal(err)
			}
			c := v.company("ledgerwyn")
			for b.Loop() {
				ent := v.track(c)
				run := radar.RunArgs{OrgID: ent.OrgID, EntityID: ent.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
				if err := e.Run(ctx, run); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fixtureSites serves many small company websites under /s/N/ of one local server: a home page linking a blog
// and an RSS feed with a few entries.
func fixtureSites(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if len(parts) < 2 || parts[0] != "s" {
			http.NotFound(w, r)
			return
		}
		n, base := parts[1], "/s/"+parts[1]+"/"
		switch strings.Join(parts[2:], "/") {
		case "":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<html><head><title>Company %[1]s</title><link rel="alternate" type="application/rss+xml" href="%[2]sfeed.xml"></head>
				<body><h1>Company %[1]s</h1><p>Company %[1]s builds payment software for small shops.</p>
				<a href="%[2]sblog">Blog</a> <a href="%[2]sabout">About us</a></body></html>`, n, base)
		case "blog", "about":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<html><head><title>Company %[1]s</title></head><body>
				<a href="%[2]sblog/seed">Company %[1]s raises $3M seed round</a>
				<a href="%[2]sblog/launch">Company %[1]s launches its card reader</a></body></html>`, n, base)
		case "feed.xml":
			w.Header().Set("Content-Type", "application/rss+xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Company %[1]s</title><link>%[2]s</link>
				<item><title>Company %[1]s raises $3M seed round</title><link>http://%[3]s%[2]sblog/seed</link><pubDate>Mon, 02 Nov 2026 09:00:00 GMT</pubDate>
				<description>Company %[1]s has raised a $3M seed round led by Alder Ventures.</description></item>
				<item><title>Company %[1]s launches its card reader</title><link>http://%[3]s%[2]sblog/launch</link><pubDate>Tue, 10 Nov 2026 09:00:00 GMT</pubDate>
				<description>The reader takes contactless payments.</description></item>
				</channel></rss>`, n, base, r.Host)
		default:
			http.NotFound(w, r)
		}
	}))
	b.Cleanup(srv.Close)
	return srv
}

var (
	dueEntities = flag.Int("dueruns.entities", 1000, "entities BenchmarkDueRuns makes due at once")
	dueWorkers  = flag.Int("dueruns.workers", 32, "jobs BenchmarkDueRuns works at once (radar serve: RADAR_JOB_WORKERS, default half the CPUs)")
)

// BenchmarkDueRuns measures the throughput of scheduled runs when -dueruns.entities entities (1,000) fall due
// at once, each run crawling a small local website over loopback with -dueruns.workers jobs at a time; it
// reports runs per second and, when its call of the scheduler claimed every entity, how long that call took to
// claim them and enqueue their jobs.
func BenchmarkDueRuns(b *testing.B) {
	entities := *dueEntities
	for _, engine := range storetest.Engines() {
		b.Run(engine, func(b *testing.B) {
			ctx := context.Background()
			v := newEnv(b, engine, nil)
			sites := fixtureSites(b)
			org := v.newOrg()
			now := radar.NewTime(v.clock.Now())
			next := radar.NewTime(now.Add(day))
			policy := tracker.Compile("Tell me about funding rounds.")
			for i := range entities {
				id, _ := uuid.NewV7()
				e := &radar.Entity{
					ID: id.String(), OrgID: org, CompanyName: fmt.Sprintf("Company %d", i), CompanyWebsite: fmt.Sprintf("%s/s/%d/", sites.URL, i),
					Founders:      []radar.Founder{{ID: uuid.NewString(), Name: fmt.Sprintf("Founder %d", i)}},
					ThingsToTrack: "Tell me about funding rounds.", Policy: &policy, AlertEmails: []string{"partner@fund.example"},
					EmailAlertsEnabled: true, CadenceDays: 7, Status: radar.StatusOK, Tags: []string{}, Sectors: []string{"Fintech"},
					Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichReady, ScrapeHealthReason: "ok",
					LastScrapedAt: &now, NextRunAt: &next, CreatedAt: now, UpdatedAt: now,
				}
				if err := v.db.CreateEntity(ctx, e, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
			cfg := v.config()
			cfg.Mailer = nil
			cfg.ScheduleEvery = time.Hour
			cfg.MaxWorkers = *dueWorkers
			cfg.PollInterval = 0 // radar serve's: the queue's throughput depends on it
			fetcher := fetch.New(fetch.Config{AllowPrivate: true, PerHostConcurrency: 64})
			cfg.Crawler = crawl.New(crawl.Config{Fetcher: fetcher})
			e := v.start(cfg)

			var runs int
			var elapsed, scheduling time.Duration
			claimedAll := true
			for b.Loop() {
				v.clock.Advance(8 * day)
				start := time.Now()
				n, err := e.Schedule(ctx)
				if err != nil {
					b.Fatal(err)
				}
				scheduling += time.Since(start)
				eventuallyWithin(b, 10*time.Minute, "the due runs", func() bool {
					jobs, err := v.db.JobCounts(ctx)
					if err != nil {
						b.Fatal(err)
					}
					s := jobs.ByState
					return s["available"]+s["running"]+s["retryable"]+s["scheduled"]+s["pending"] == 0
				})
				elapsed += time.Since(start)
				// The engine's own periodic scheduler may claim some of the due entities first; every one runs once.
				runs += entities
				claimedAll = claimedAll && n == entities
			}
			b.ReportMetric(float64(runs)/elapsed.Seconds(), "runs/s")
			if claimedAll {
				b.ReportMetric(float64(scheduling.Milliseconds())/float64(b.N), "schedule-ms")
			}
			b.StopTimer()
			sigs, err := v.db.Signals(ctx, radar.SignalFilter{OrgID: org})
			if err != nil || len(sigs) != runs {
				b.Fatalf("%d signals after %d runs: %v", len(sigs), runs, err)
			}
		})
	}
}
