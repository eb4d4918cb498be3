package tracker_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"radar"
	"radar/internal/crawl"
	"radar/internal/fetch"
	"radar/internal/mail"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
	"radar/internal/tracker"
)

var news = []simweb.Event{
	event("ledgerwyn", -30*day, simweb.KindFunding, "Ledgerwyn raises $20M Series A",
		"Ledgerwyn has raised a $20M Series A led by Harbourline Capital to bring its cash forecasting to more banks."),
	event("ledgerwyn", time.Hour, simweb.KindProductLaunch, "Ledgerwyn launches 13-week cash forecasts for accountants",
		"Accountants can now share a live 13-week cash forecast with every client from one Ledgerwyn workspace."),
	event("corvimesh", -20*day, simweb.KindFunding, "Corvimesh raises $9M seed round",
		"Corvimesh has raised a $9M seed round led by Ironvale Partners."),
	event("brackenvolt", -10*day, simweb.KindFunding, "Brackenvolt raises $6M seed round",
		"Brackenvolt has raised a $6M seed round to build its first grid-scale sodium-ion pilot."),
	event("tallowmere", -5*day, simweb.KindFounderDeparture, "Co-founder Oskar Brandvold leaves Tallowmere Robotics to start Kestrelgrip",
		"Oskar Brandvold, co-founder and CTO of Tallowmere Robotics, is leaving to found Kestrelgrip, a start-up building soft robotic grippers for food handling. Kestrelgrip is raising a pre-seed round."),
}

func hasEvidence(s *radar.Signal, title string) bool {
	return slices.ContainsFunc(s.Evidence, func(ev radar.Evidence) bool { return strings.Contains(ev.Title, title) })
}

func TestFirstRunAndLaterRuns(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		v.start(v.config())
		c := v.company("ledgerwyn")
		ent := v.track(c, withRecipients("ada@fund.example", "bo@fund.example"),
			withRules("Tell me about funding rounds. Tell me about product launches."))

		sigs := v.runs(ent.ID, 1)
		got := v.entity(ent.ID)
		if got.EnrichmentStatus != radar.EnrichReady {
			t.Errorf("enrichmentStatus = %q, want ready", got.EnrichmentStatus)
		}
		if got.CompanyLinkedinURL != c.LinkedIn || got.CompanyGithubURL != c.GitHub || got.Founders[0].LinkedinURL != c.Founders[0].LinkedIn {
			t.Errorf("profiles = %q, %q, %q; want %q, %q, %q", got.CompanyLinkedinURL, got.CompanyGithubURL, got.Founders[0].LinkedinURL,
				c.LinkedIn, c.GitHub, c.Founders[0].LinkedIn)
		}
		if got.LastScrapedAt == nil || got.NextRunAt == nil || !strings.HasPrefix(got.ScrapeHealthReason, "ok") {
			t.Errorf("after the first run: lastScrapedAt=%v nextRunAt=%v reason=%q", got.LastScrapedAt, got.NextRunAt, got.ScrapeHealthReason)
		}
		if got.Stage != radar.StageSeriesA || len(got.Sectors) == 0 {
			t.Errorf("stage = %q, sectors = %v; want series_a and some sectors", got.Stage, got.Sectors)
		}
		s := sigs[0]
		if s.Type != radar.TypeFunding || !hasEvidence(s, "$20M Series A") {
			t.Errorf("first signal: type %q, evidence %+v; want funding with the Series A article", s.Type, s.Evidence)
		}
		alerts := v.alerts(ent.ID)
		if len(alerts) != 1 || alerts[0].Outcome != radar.OutcomeSent || alerts[0].SignalID != s.ID || len(alerts[0].RuleEvaluations) != 2 {
			t.Fatalf("alerts = %+v", alerts)
		}
		eventually(t, "the first e-mail", func() bool { return v.outbox(ent.ID)[0].Status == radar.OutboxSent })
		msgs := v.smtp.Messages()
		if len(msgs) != 1 {
			t.Fatalf("%d e-mails, want 1", len(msgs))
		}
		if !slices.Equal(msgs[0].To, []string{"ada@fund.example", "bo@fund.example"}) {
			t.Errorf("recipients = %v", msgs[0].To)
		}
		if subj := msgs[0].Subject(); !strings.Contains(subj, "Ledgerwyn") || !strings.Contains(subj, "funding") {
			t.Errorf("subject = %q", subj)
		}
		if a := v.alerts(ent.ID)[0]; a.SentAt == nil {
			t.Errorf("alert sentAt not set after delivery")
		}

		// Nothing new: a no_change signal, no e-mail.
		v.refresh(ent.ID)
		sigs = v.runs(ent.ID, 2)
		if sigs[0].Type != radar.TypeNoChange || v.alerts(ent.ID)[0].Outcome != radar.OutcomeNoMatch {
			t.Errorf("run without news: type %q, outcome %q; want no_change, no_match", sigs[0].Type, v.alerts(ent.ID)[0].Outcome)
		}

		// A launch is published: the next run reports it alone.
		v.clock.Advance(2 * time.Hour)
		v.refresh(ent.ID)
		sigs = v.runs(ent.ID, 3)
		if sigs[0].Type != radar.TypeProductLaunch || !hasEvidence(sigs[0], "13-week cash forecasts") || hasEvidence(sigs[0], "Series A") {
			t.Errorf("run after the launch: type %q, evidence %+v", sigs[0].Type, sigs[0].Evidence)
		}
		eventually(t, "the second e-mail", func() bool { return len(v.smtp.Messages()) == 2 })
	})
}

func TestAlertOutcomes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		v.start(v.config())
		tests := []struct {
			name    string
			slug    string
			opts    []entityOption
			outcome string
		}{
			{"rules match", "ledgerwyn", []entityOption{withRecipients("match@fund.example")}, radar.OutcomeSent},
			{"rules match nothing", "corvimesh", []entityOption{withRecipients("nomatch@fund.example"), withRules("Tell me about lawsuits.")}, radar.OutcomeNoMatch},
			{"alerts turned off", "brackenvolt", []entityOption{withRecipients("off@fund.example"), withAlertsOff()}, radar.OutcomeDisabled},
		}
		ids := make([]string, len(tests))
		for i, tc := range tests {
			ids[i] = v.track(v.company(tc.slug), tc.opts...).ID
		}
		for i, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				v.runs(ids[i], 1)
				alerts := v.alerts(ids[i])
				if len(alerts) != 1 || alerts[0].Outcome != tc.outcome || alerts[0].Reason == "" {
					t.Fatalf("alerts = %+v, want one %s with a reason", alerts, tc.outcome)
				}
				if n := len(v.outbox(ids[i])); (n == 1) != (tc.outcome == radar.OutcomeSent) {
					t.Errorf("%d outbox messages for outcome %s", n, tc.outcome)
				}
			})
		}
		eventually(t, "the e-mail", func() bool { return len(v.smtp.Messages()) >= 1 })
		if msgs := v.smtp.Messages(); len(msgs) != 1 || !slices.Equal(msgs[0].To, []string{"match@fund.example"}) {
			t.Errorf("e-mails: %d, first to %v; want one to match@fund.example", len(msgs), msgs[0].To)
		}
	})
}

func TestEnrichmentStatus(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		v.start(v.config())
		tall := v.company("tallowmere")
		tests := []struct {
			name   string
			ent    *radar.Entity
			status string
			health string
		}{
			{"every profile found", v.track(v.company("ledgerwyn")), radar.EnrichReady, "ok"},
			{"some profiles unpublished", v.track(tall), radar.EnrichPartial, "ok"},
			{"website unreachable", v.trackSite("Gone Ltd", simweb.RefusedURL+"/", []string{"Ann Gone"}), radar.EnrichFailed, "degraded: website"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				v.runs(tc.ent.ID, 1)
				got := v.entity(tc.ent.ID)
				if got.EnrichmentStatus != tc.status || !strings.HasPrefix(got.ScrapeHealthReason, tc.health) {
					t.Errorf("enrichment %q, health %q; want %q, %q…", got.EnrichmentStatus, got.ScrapeHealthReason, tc.status, tc.health)
				}
			})
		}
		got := v.entity(tests[1].ent.ID)
		for i, f := range tall.Founders {
			if got.Founders[i].LinkedinURL != f.LinkedIn || got.Founders[i].TwitterURL != f.X || got.Founders[i].GithubURL != f.GitHub {
				t.Errorf("founder %s: got %+v, want the published profiles %+v", f.Name, got.Founders[i], f)
			}
		}
	})
}

func TestLeadsFromNews(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		v.start(v.config())
		ent := v.track(v.company("tallowmere"))
		v.runs(ent.ID, 1)
		v.refresh(ent.ID)
		v.runs(ent.ID, 2)
		leads, err := v.db.Leads(context.Background(), radar.LeadFilter{OrgID: ent.OrgID, SourceEntityID: ent.ID})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(leads, func(l *radar.Lead) bool { return l.PersonName == "Oskar Brandvold" })
		j := slices.IndexFunc(leads, func(l *radar.Lead) bool { return l.PersonName == "Oskar Brandvold" && l != leads[i] })
		if i < 0 || j >= 0 {
			t.Fatalf("leads = %+v, want Oskar Brandvold once", leads)
		}
		l := leads[i]
		if l.Company.Name != "Kestrelgrip" || l.Source.CompanyName != "Tallowmere Robotics" || len(l.Evidence) == 0 ||
			l.Decision.Status != radar.DecisionUnreviewed || l.Stage != radar.StagePreSeedSeed {
			t.Errorf("lead = %+v", l)
		}
	})
}

func TestSchedulerRunsDueEntitiesOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		v := newEnv(t, engine, news)
		cfg := v.config()
		cfg.ScheduleEvery = time.Hour
		e := v.start(cfg)
		due := v.track(v.company("ledgerwyn"))
		paused := v.track(v.company("corvimesh"))
		v.runs(due.ID, 1)
		v.runs(paused.ID, 1)
		p := v.entity(paused.ID)
		p.Status = radar.StatusPaused
		if err := v.db.UpdateEntity(ctx, p, nil, nil); err != nil {
			t.Fatal(err)
		}

		if n, err := e.Schedule(ctx); err != nil || n != 0 {
			t.Fatalf("schedule before anything is due: %d, %v", n, err)
		}
		v.clock.Advance(8 * day)
		if n, err := e.Schedule(ctx); err != nil || n != 1 {
			t.Fatalf("schedule: %d, %v; want 1", n, err)
		}
		if n, err := e.Schedule(ctx); err != nil || n != 0 {
			t.Fatalf("schedule while the run is in progress: %d, %v; want 0", n, err)
		}
		v.runs(due.ID, 2)
		if got := v.entity(due.ID); !got.NextRunAt.After(v.clock.Now()) {
			t.Errorf("nextRunAt %s is not after now %s", got.NextRunAt, v.clock.Now())
		}
		if n := len(v.signals(paused.ID)); n != 1 {
			t.Errorf("paused entity has %d signals, want 1", n)
		}
		if n, err := e.Schedule(ctx); err != nil || n != 0 {
			t.Errorf("schedule after the run: %d, %v; want 0", n, err)
		}
	})
}

func TestPeriodicSchedule(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		cfg := v.config()
		cfg.ScheduleEvery = 50 * time.Millisecond
		v.start(cfg)
		ent := v.track(v.company("ledgerwyn"))
		v.runs(ent.ID, 1)
		v.clock.Advance(8 * day)
		v.runs(ent.ID, 2)
	})
}

func TestRepeatedRunJobWritesOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		v := newEnv(t, engine, news)
		e := v.start(v.config())
		ent := v.track(v.company("ledgerwyn"), withRules("Tell me about product launches."))
		v.runs(ent.ID, 1)
		v.clock.Advance(2 * time.Hour)

		// The same run enqueued twice, as a retried job would be.
		args := radar.RunArgs{OrgID: ent.OrgID, EntityID: ent.ID, RunID: "repeated-run", Trigger: radar.TriggerRefresh}
		if _, err := v.db.StartRefresh(ctx, ent.OrgID, ent.ID, radar.NewTime(v.clock.Now()), []radar.JobArgs{args, args}); err != nil {
			t.Fatal(err)
		}
		v.runs(ent.ID, 2)
		eventually(t, "the e-mail", func() bool {
			box := v.outbox(ent.ID)
			return len(box) == 1 && box[0].Status == radar.OutboxSent
		})
		if err := e.Run(ctx, args); err != nil {
			t.Fatalf("run again: %v", err)
		}
		box := v.outbox(ent.ID)
		if len(box) != 1 {
			t.Fatalf("%d outbox messages, want 1", len(box))
		}
		if err := e.Deliver(ctx, radar.MailArgs{OrgID: ent.OrgID, OutboxID: box[0].ID}, false); err != nil {
			t.Fatalf("deliver again: %v", err)
		}
		if n := len(v.signals(ent.ID)); n != 2 {
			t.Errorf("%d signals, want 2", n)
		}
		if n := len(v.alerts(ent.ID)); n != 2 {
			t.Errorf("%d alerts, want 2", n)
		}
		if n := len(v.smtp.Messages()); n != 1 {
			t.Errorf("%d e-mails, want 1", n)
		}
		// Were it sent again (a crash before the delivery was recorded), the copy would carry the same
		// Message-ID: the outbox message's.
		if got, want := v.smtp.Messages()[0].Header.Get("Message-Id"), "<"+mail.MessageID(box[0].ID, box[0].To, mail.DefaultFrom)+">"; got != want {
			t.Errorf("Message-ID %q, want %q", got, want)
		}
	})
}

// blockingSite is a company website whose home page hangs until released, once free answers are used up.
type blockingSite struct {
	*httptest.Server
	free      atomic.Int32
	requested chan struct{}
	release   chan struct{}
}

func newBlockingSite(t *testing.T) *blockingSite {
	s := &blockingSite{requested: make(chan struct{}, 16), release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/blog/series-a":
			w.Write([]byte(`<html><head><title>Stillwater raises $15M Series A</title></head><body><article>
				<h1>Stillwater raises $15M Series A</h1><p>Stillwater has raised a $15M Series A led by Kestrel Partners.</p>
				</article></body></html>`))
			return
		case "/":
		default:
			http.NotFound(w, r)
			return
		}
		if s.free.Add(-1) < 0 {
			s.requested <- struct{}{}
			select {
			case <-s.release:
			case <-r.Context().Done():
				return
			}
		}
		w.Write([]byte(`<html><head><title>Stillwater</title></head><body><h2>News</h2>
			<ul><li><a href="/blog/series-a">Stillwater raises $15M Series A</a> <time datetime="2026-11-01">1 November 2026</time></li></ul>
			</body></html>`))
	}))
	t.Cleanup(s.Close)
	return s
}

func TestKilledWorkerRunCompletesOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		v := newEnv(t, engine, nil)
		site := newBlockingSite(t)
		site.free.Store(1) // the enrichment's read of the home page
		ent := v.trackSite("Stillwater", site.URL+"/", []string{"Ida Still"})
		ent = v.entity(ent.ID)

		// A first process takes the enrichment and the first run, and dies while the crawl hangs.
		first, err := tracker.New(v.config())
		if err != nil {
			t.Fatal(err)
		}
		if err := first.Start(ctx); err != nil {
			t.Fatal(err)
		}
		<-site.requested
		if got := v.entity(ent.ID); !radar.EnrichmentComplete(got.EnrichmentStatus) || got.RunningSince == nil {
			t.Fatalf("blocked before the run: enrichment %q, running since %v", got.EnrichmentStatus, got.RunningSince)
		}
		abortCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := first.Abort(abortCtx); err != nil {
			t.Fatalf("abort: %v", err)
		}
		if n := len(v.signals(ent.ID)); n != 0 {
			t.Fatalf("the killed run wrote %d signals", n)
		}

		// A new process picks the interrupted run up again and finishes it.
		close(site.release)
		v.start(v.config())
		sigs := v.runs(ent.ID, 1)
		if sigs[0].Type != radar.TypeFunding {
			t.Errorf("signal type %q, want funding", sigs[0].Type)
		}
		eventually(t, "the e-mail", func() bool { return len(v.smtp.Messages()) == 1 })
		if a := v.alerts(ent.ID); len(a) != 1 || a[0].Outcome != radar.OutcomeSent {
			t.Errorf("alerts = %+v", a)
		}
		if n := len(v.outbox(ent.ID)); n != 1 {
			t.Errorf("%d outbox messages, want 1", n)
		}
	})
}

// failingNews answers every news search with 503.
func failingNews(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/search?q={query}"
}

func TestFailingSourceIsReported(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		cfg := v.config()
		fetcher := fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second})
		cfg.Crawler = crawl.New(crawl.Config{Fetcher: fetcher, NewsFeedURL: failingNews(t), GitHubAPIURL: v.web.GitHubAPIURL()})
		v.start(cfg)
		ent := v.track(v.company("ledgerwyn"))
		for run := 1; run <= tracker.SourceFailureLimit; run++ {
			if run > 1 {
				v.refresh(ent.ID)
			}
			sig := v.runs(ent.ID, run)[0]
			i := slices.IndexFunc(sig.Sources, func(s radar.SourceHealth) bool { return s.Source == crawl.SourceNews })
			if i < 0 || sig.Sources[i].OK || sig.Sources[i].ConsecutiveFailures != run {
				t.Fatalf("run %d: sources %+v, want news failing %d times", run, sig.Sources, run)
			}
			reported := strings.Contains(sig.Analysis, "failing for 3 runs")
			if reported != (run == tracker.SourceFailureLimit) {
				t.Errorf("run %d: signal reports the failing source: %v\n%s", run, reported, sig.Analysis)
			}
		}
		if got := v.entity(ent.ID).ScrapeHealthReason; got != "degraded: news: HTTP 503, failing for 3 runs in a row" {
			t.Errorf("scrapeHealthReason = %q", got)
		}
	})
}

func TestDelivery(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		tests := []struct {
			name     string
			reject   int
			code     int
			noSMTP   bool
			status   string
			outcome  string
			received int
		}{
			{"temporary failure is retried", 1, 451, false, radar.OutboxSent, radar.OutcomeSent, 1},
			{"permanent failure gives up", 1, 550, false, radar.OutboxFailed, radar.OutcomeFailed, 0},
			{"no SMTP server keeps the e-mail", 0, 0, true, radar.OutboxKept, radar.OutcomeDisabled, 0},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				v := newEnv(t, engine, news)
				v.smtp.Reject(tc.reject, tc.code)
				cfg := v.config()
				if tc.noSMTP {
					cfg.Mailer = nil
				}
				v.start(cfg)
				ent := v.track(v.company("ledgerwyn"))
				v.runs(ent.ID, 1)
				var m *radar.OutboxMessage
				eventually(t, "the e-mail to settle", func() bool {
					m = v.outbox(ent.ID)[0]
					return m.Status != radar.OutboxPending && m.Status != radar.OutboxSending
				})
				a := v.alerts(ent.ID)[0]
				if m.Status != tc.status || a.Outcome != tc.outcome || len(v.smtp.Messages()) != tc.received {
					t.Errorf("outbox %s (attempts %d, %q), alert %s (%q), %d received; want %s, %s, %d",
						m.Status, m.Attempts, m.LastError, a.Outcome, a.Reason, len(v.smtp.Messages()), tc.status, tc.outcome, tc.received)
				}
				if (a.SentAt != nil) != (tc.outcome == radar.OutcomeSent) {
					t.Errorf("alert %s has sentAt %v", a.Outcome, a.SentAt)
				}
				if tc.noSMTP && !strings.Contains(a.Reason, "kept in the outbox: no mail server is configured") {
					t.Errorf("reason %q does not say why the e-mail was not sent", a.Reason)
				}
			})
		}
	})
}

func TestEnrichDraft(t *testing.T) {
	t.Parallel()
	v := newEnv(t, storetest.Engines()[0], nil)
	e, err := tracker.New(v.config())
	if err != nil {
		t.Fatal(err)
	}
	c := v.company("ledgerwyn")
	in := radar.EntityInput{CompanyName: c.Name, CompanyWebsite: c.Website, CompanyLinkedinURL: "https://www.linkedin.com/company/mine",
		Founders: []radar.FounderInput{{Name: c.Founders[0].Name}, {Name: c.Founders[1].Name}}}
	out, found, err := e.EnrichDraft(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out.CompanyLinkedinURL != "https://www.linkedin.com/company/mine" || out.CompanyTwitterURL != c.X || out.Founders[1].GithubURL != c.Founders[1].GitHub {
		t.Errorf("draft = %+v", out)
	}
	if in.Founders[1].GithubURL != "" {
		t.Errorf("the caller's draft was changed")
	}
	fields := make([]string, len(found))
	for i, f := range found {
		fields[i] = f.Field
		if f.URL == "" || f.Source == "" {
			t.Errorf("found %+v lacks its URL or source", f)
		}
	}
	want := []string{"companyTwitterUrl", "companyGithubUrl", "founders[0].linkedinUrl", "founders[0].twitterUrl",
		"founders[0].githubUrl", "founders[1].linkedinUrl", "founders[1].twitterUrl", "founders[1].githubUrl"}
	if !slices.Equal(fields, want) {
		t.Errorf("found fields %v, want %v", fields, want)
	}
	if n, err := v.db.JobCounts(context.Background()); err != nil || n.ByState["available"]+n.ByState["completed"] != 0 {
		t.Errorf("draft enrichment enqueued jobs: %+v, %v", n, err)
	}

	unreachable := radar.EntityInput{CompanyName: "Gone", CompanyWebsite: simweb.RefusedURL, Founders: []radar.FounderInput{{Name: "Ann"}}}
	out, found, err = e.EnrichDraft(context.Background(), unreachable)
	if err != nil || len(found) != 0 || out.CompanyWebsite != simweb.RefusedURL {
		t.Errorf("unreachable draft: %+v, %v, %v; want it unchanged", out, found, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := e.EnrichDraft(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled draft enrichment: err = %v", err)
	}
}
