package sqldb_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// trackedEntity creates an entity the way the service does and returns it as stored.
func trackedEntity(t *testing.T, db *sqldb.DB, orgID, name string) *radar.Entity {
	t.Helper()
	now := time.Now()
	id, _ := uuid.NewV7()
	e := &radar.Entity{
		ID: id.String(), OrgID: orgID, CompanyName: name, CompanyWebsite: "https://" + name + ".example/",
		Founders:      []radar.Founder{{ID: uuid.NewString(), Name: "Ada " + name}, {ID: uuid.NewString(), Name: "Bo " + name}},
		ThingsToTrack: "funding", AlertEmails: []string{"a@example.com"}, EmailAlertsEnabled: true, CadenceDays: 7,
		Status: radar.StatusOK, Tags: []string{}, Sectors: []string{}, Stage: radar.StageUnknown,
		EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
		CreatedAt: radar.NewTime(now), UpdatedAt: radar.NewTime(now),
	}
	if err := db.CreateEntity(context.Background(), e, nil, nil); err != nil {
		t.Fatalf("create entity: %v", err)
	}
	got, err := db.Entity(context.Background(), orgID, e.ID)
	if err != nil {
		t.Fatalf("read entity: %v", err)
	}
	return got
}

func engineOrg(t *testing.T, db *sqldb.DB) string {
	t.Helper()
	o := &radar.Org{ID: uuid.NewString(), Slug: "org-" + uuid.NewString()[:8], Name: "Org", CreatedAt: radar.NewTime(time.Now())}
	if err := db.CreateOrg(context.Background(), o); err != nil {
		t.Fatalf("create org: %v", err)
	}
	return o.ID
}

func TestEnrichmentFillsOnlyEmptyFields(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")

		got, done, err := db.BeginEnrichment(ctx, org, e.ID)
		if err != nil || done || got.EnrichmentStatus != radar.EnrichRunning {
			t.Fatalf("begin: status=%v done=%v err=%v", got, done, err)
		}
		// A client sets the company LinkedIn page and a founder's GitHub profile while enrichment runs.
		got.CompanyLinkedinURL = "https://www.linkedin.com/company/client-set"
		got.Founders[0].GithubURL = "https://github.com/client-set"
		if err := db.UpdateEntity(ctx, got, nil, nil); err != nil {
			t.Fatalf("update: %v", err)
		}

		now := radar.NewTime(time.Now())
		run := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		err = db.FinishEnrichment(ctx, org, e.ID, radar.Enrichment{
			Status:             radar.EnrichPartial,
			CompanyLinkedinURL: "https://www.linkedin.com/company/found",
			CompanyTwitterURL:  "https://x.com/northwind",
			Founders: []radar.FounderProfiles{
				{FounderID: e.Founders[0].ID, LinkedinURL: "https://www.linkedin.com/in/ada", GithubURL: "https://github.com/found"},
			},
			Sectors:  []string{"Software", "Software > Developer tools"},
			FirstRun: &run,
		}, now)
		if err != nil {
			t.Fatalf("finish: %v", err)
		}
		got, err = db.Entity(ctx, org, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ name, got, want string }{
			{"enrichmentStatus", got.EnrichmentStatus, radar.EnrichPartial},
			{"companyLinkedinUrl", got.CompanyLinkedinURL, "https://www.linkedin.com/company/client-set"},
			{"companyTwitterUrl", got.CompanyTwitterURL, "https://x.com/northwind"},
			{"founders[0].githubUrl", got.Founders[0].GithubURL, "https://github.com/client-set"},
			{"founders[0].linkedinUrl", got.Founders[0].LinkedinURL, "https://www.linkedin.com/in/ada"},
			{"founders[1].linkedinUrl", got.Founders[1].LinkedinURL, ""},
		} {
			if c.got != c.want {
				t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
			}
		}
		if !slices.Equal(got.Sectors, []string{"Software", "Software > Developer tools"}) {
			t.Errorf("sectors = %v", got.Sectors)
		}
		if got.RunningSince == nil {
			t.Errorf("runningSince not set with the first run enqueued")
		}
		found, err := db.FindExistingEntity(ctx, org, []string{"profile:x.com/northwind"})
		if err != nil || found.ID != e.ID {
			t.Errorf("find by enriched profile: %v, %v", found, err)
		}
		if list, _ := db.Entities(ctx, radar.EntityFilter{OrgID: org, Sectors: []string{"Software > Developer tools"}}); len(list) != 1 {
			t.Errorf("sector filter found %d entities, want 1", len(list))
		}
		if _, done, err := db.BeginEnrichment(ctx, org, e.ID); err != nil || !done {
			t.Errorf("begin again: done=%v err=%v, want done", done, err)
		}
	})
}

func runReport(org string, e *radar.Entity, runID string, at time.Time, leads ...*radar.Lead) *radar.RunReport {
	now := radar.NewTime(at)
	sig := &radar.Signal{ID: uuid.NewString(), CompanyName: e.CompanyName, Type: radar.TypeFunding, Severity: "high",
		Recommendation: "reach_out", NeedsAttention: true, Summary: "Raised a Series A", Analyser: "builtin",
		Evidence: []radar.Evidence{{URL: "https://news.example/a", Title: "A", Source: "news"}}, CreatedAt: now}
	alert := &radar.Alert{ID: uuid.NewString(), CompanyName: e.CompanyName, Outcome: radar.OutcomeSent, Reason: "matched",
		Recipients: e.AlertEmails, Subject: "Northwind: funding", CreatedAt: now,
		RuleEvaluations: []radar.RuleEvaluation{{RuleID: "r1", Sentence: "funding", Matched: true}}}
	return &radar.RunReport{
		OrgID: org, EntityID: e.ID, RunID: runID, Signal: sig, Alert: alert,
		Outbox: &radar.OutboxMessage{ID: uuid.NewString(), To: e.AlertEmails, Subject: alert.Subject, Text: "t", HTML: "<p>h</p>",
			Status: radar.OutboxPending, CreatedAt: now},
		Leads:     leads,
		SeenItems: []string{"news:a", "feed:b"},
		Snapshots: []radar.PageSnapshot{{URL: e.CompanyWebsite, Data: radar.RawJSON(`{"hash":"h1"}`)}},
		Sources: []radar.SourceHealth{{Source: "website", OK: true},
			{Source: "news", OK: false, Error: "timeout", ConsecutiveFailures: 2}},
		HealthReason: "ok", Stage: radar.StageSeriesA, FinishedAt: now,
	}
}

func newLead(org string, e *radar.Entity, key, evidenceURL string, at time.Time) *radar.Lead {
	return &radar.Lead{ID: uuid.NewString(), OrgID: org, Key: key, PersonName: "Oskar",
		Company:  radar.LeadCompany{Name: "Kestrelgrip", Summary: radar.UndescribedCompany("Kestrelgrip")},
		Relation: "departed_to_found", Source: radar.LeadSource{EntityID: e.ID, CompanyName: e.CompanyName},
		Stage: radar.StageUnknown, Evidence: []radar.Evidence{{URL: evidenceURL}},
		CreatedAt: radar.NewTime(at), UpdatedAt: radar.NewTime(at)}
}

func TestRunWritesOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		args := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		start := time.Now()

		for range 2 {
			rs, err := db.StartRun(ctx, args, radar.NewTime(start))
			if err != nil || rs.Finished || rs.Entity.ID != e.ID || len(rs.Snapshots) != 0 {
				t.Fatalf("start run: %+v, %v", rs, err)
			}
		}
		got, _ := db.Entity(ctx, org, e.ID)
		if got.RunningSince == nil || got.ScrapeHealthReason != radar.HealthPending {
			t.Errorf("while running: runningSince=%v reason=%q", got.RunningSince, got.ScrapeHealthReason)
		}

		finished := start.Add(time.Second)
		rep := runReport(org, e, args.RunID, finished, newLead(org, e, "oskar|kestrelgrip", "https://news.example/a", finished))
		written, err := db.FinishRun(ctx, rep)
		if err != nil || !written {
			t.Fatalf("finish: written=%v err=%v", written, err)
		}
		again := runReport(org, e, args.RunID, finished.Add(time.Second))
		if written, err := db.FinishRun(ctx, again); err != nil || written {
			t.Fatalf("finish again: written=%v err=%v, want not written", written, err)
		}

		sigs, _ := db.Signals(ctx, radar.SignalFilter{OrgID: org, EntityID: e.ID})
		alerts, _ := db.Alerts(ctx, radar.AlertFilter{OrgID: org, EntityID: e.ID})
		box, _ := db.OutboxMessages(ctx, radar.OutboxFilter{OrgID: org})
		leads, _ := db.Leads(ctx, radar.LeadFilter{OrgID: org})
		if len(sigs) != 1 || len(alerts) != 1 || len(box) != 1 || len(leads) != 1 {
			t.Fatalf("got %d signals, %d alerts, %d e-mails, %d leads; want one of each", len(sigs), len(alerts), len(box), len(leads))
		}
		if alerts[0].SignalID != sigs[0].ID || box[0].AlertID != alerts[0].ID || box[0].Status != radar.OutboxPending {
			t.Errorf("links: alert.signalId=%s signal=%s outbox.alertId=%s status=%s", alerts[0].SignalID, sigs[0].ID, box[0].AlertID, box[0].Status)
		}
		got, _ = db.Entity(ctx, org, e.ID)
		wantNext := radar.NewTime(finished).Add(7 * 24 * time.Hour)
		if got.LastScrapedAt == nil || !got.LastScrapedAt.Equal(radar.NewTime(finished).Time) || got.RunningSince != nil ||
			got.NextRunAt == nil || !got.NextRunAt.Equal(wantNext) || got.ScrapeHealthReason != "ok" || got.Stage != radar.StageSeriesA {
			t.Errorf("after run: lastScrapedAt=%v nextRunAt=%v (want %v) runningSince=%v reason=%q stage=%q",
				got.LastScrapedAt, got.NextRunAt, wantNext, got.RunningSince, got.ScrapeHealthReason, got.Stage)
		}

		rs, err := db.StartRun(ctx, args, radar.NewTime(finished))
		if err != nil || !rs.Finished {
			t.Errorf("start of a finished run: finished=%v err=%v", rs != nil && rs.Finished, err)
		}
		next := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerSchedule}
		rs, err = db.StartRun(ctx, next, radar.NewTime(finished))
		if err != nil {
			t.Fatal(err)
		}
		if len(rs.Snapshots) != 1 || string(rs.Snapshots[0].Data) != `{"hash":"h1"}` {
			t.Errorf("snapshots = %+v", rs.Snapshots)
		}
		if s := rs.Sources["news"]; s.OK || s.ConsecutiveFailures != 2 || s.Error != "timeout" || !rs.Sources["website"].OK {
			t.Errorf("sources = %+v", rs.Sources)
		}
		seen, err := db.SeenItems(ctx, e.ID, []string{"news:a", "news:new", "feed:b"})
		if err != nil || !seen["news:a"] || !seen["feed:b"] || seen["news:new"] {
			t.Errorf("seen = %v, %v", seen, err)
		}

		// A later run finds the same lead in another article: one lead, both articles, the decision kept.
		if _, err := db.DecideLead(ctx, org, leads[0].ID, radar.DecisionAccepted, "", radar.NewTime(finished)); err != nil {
			t.Fatal(err)
		}
		later := finished.Add(time.Minute)
		rep = runReport(org, e, next.RunID, later, newLead(org, e, "oskar|kestrelgrip", "https://news.example/b", later))
		rep.Outbox = nil
		if _, err := db.FinishRun(ctx, rep); err != nil {
			t.Fatal(err)
		}
		leads, _ = db.Leads(ctx, radar.LeadFilter{OrgID: org})
		if len(leads) != 1 || len(leads[0].Evidence) != 2 || leads[0].Decision.Status != radar.DecisionAccepted {
			t.Errorf("merged lead: %d leads, %+v", len(leads), leads)
		}
		if want := radar.UndescribedCompany("Kestrelgrip"); len(leads) == 1 && leads[0].Company.Summary != want {
			t.Errorf("summary before any description = %q, want %q", leads[0].Company.Summary, want)
		}

		// A sighting that says what the company does replaces the placeholder; one that does not keeps it.
		described := "Kestrelgrip makes grippers for warehouse robots."
		for i, summary := range []string{described, radar.UndescribedCompany("Kestrelgrip")} {
			at := later.Add(time.Duration(i+1) * time.Minute)
			l := newLead(org, e, "oskar|kestrelgrip", "https://news.example/c", at)
			l.Company.Summary = summary
			rep = runReport(org, e, uuid.NewString(), at, l)
			rep.Outbox = nil
			if _, err := db.FinishRun(ctx, rep); err != nil {
				t.Fatal(err)
			}
			leads, _ = db.Leads(ctx, radar.LeadFilter{OrgID: org})
			if len(leads) != 1 || leads[0].Company.Summary != described {
				t.Errorf("after sighting %d: %d leads, summary %+v, want %q", i+1, len(leads), leads, described)
			}
		}

		if err := db.DeleteEntity(ctx, org, e.ID); err != nil {
			t.Fatal(err)
		}
		if seen, _ := db.SeenItems(ctx, e.ID, []string{"news:a"}); len(seen) != 0 {
			t.Errorf("seen items survive the entity: %v", seen)
		}
		if box, _ := db.OutboxMessages(ctx, radar.OutboxFilter{OrgID: org}); len(box) != 0 {
			t.Errorf("outbox survives the entity: %d", len(box))
		}
	})
}

func TestFailRunEndsTheRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		args := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		now := radar.NewTime(time.Now())
		if _, err := db.StartRun(ctx, args, now); err != nil {
			t.Fatal(err)
		}
		if err := db.FailRun(ctx, args, "failed: database unavailable", now); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Entity(ctx, org, e.ID)
		if got.RunningSince != nil || got.LastScrapedAt == nil || got.NextRunAt == nil || got.ScrapeHealthReason != "failed: database unavailable" {
			t.Errorf("after failed run: %+v", got)
		}
	})
}

func TestClaimDueRuns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		now := time.Now()
		ago := func(d time.Duration) time.Time { return now.Add(-d) }
		// Each entity's last run finished at lastRun (cadence 7 days); a run in progress started at running.
		cases := []struct {
			name             string
			paused           bool
			lastRun, running time.Time
			due              bool
		}{
			{name: "due", lastRun: ago(8 * 24 * time.Hour), due: true},
			{name: "due2", lastRun: ago(9 * 24 * time.Hour), due: true},
			{name: "due3", lastRun: ago(10 * 24 * time.Hour), due: true},
			{name: "lost-run", lastRun: ago(8 * 24 * time.Hour), running: ago(2 * time.Hour), due: true},
			{name: "paused", paused: true, lastRun: ago(8 * 24 * time.Hour)},
			{name: "later", lastRun: ago(time.Hour)},
			{name: "never-run"},
			{name: "running", lastRun: ago(8 * 24 * time.Hour), running: ago(time.Minute)},
		}
		byID := map[string]string{}
		for _, c := range cases {
			e := trackedEntity(t, db, org, c.name)
			byID[e.ID] = c.name
			if !c.lastRun.IsZero() {
				if _, err := db.FinishRun(ctx, runReport(org, e, uuid.NewString(), c.lastRun)); err != nil {
					t.Fatal(err)
				}
			}
			if !c.running.IsZero() {
				run := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerRefresh}
				if _, err := db.StartRun(ctx, run, radar.NewTime(c.running)); err != nil {
					t.Fatal(err)
				}
			}
			if c.paused {
				got, _ := db.Entity(ctx, org, e.ID)
				got.Status = radar.StatusPaused
				if err := db.UpdateEntity(ctx, got, nil, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		var claimed []string
		newRun := func(orgID, entityID string) radar.JobArgs {
			claimed = append(claimed, byID[entityID])
			return radar.RunArgs{OrgID: orgID, EntityID: entityID, RunID: uuid.NewString(), Trigger: radar.TriggerSchedule}
		}
		staleBefore := radar.NewTime(now.Add(-30 * time.Minute))
		total := 0
		for {
			n, err := db.ClaimDueRuns(ctx, radar.NewTime(now), staleBefore, 2, newRun)
			if err != nil {
				t.Fatal(err)
			}
			total += n
			if n < 2 {
				break
			}
		}
		slices.Sort(claimed)
		if want := []string{"due", "due2", "due3", "lost-run"}; total != 4 || !slices.Equal(claimed, want) {
			t.Errorf("claimed %d: %v, want %v", total, claimed, want)
		}
		if n, _ := db.ClaimDueRuns(ctx, radar.NewTime(now), staleBefore, 2, newRun); n != 0 {
			t.Errorf("second pass claimed %d, want 0", n)
		}
		for id, name := range byID {
			if name != "due" {
				continue
			}
			if got, _ := db.Entity(ctx, org, id); got.RunningSince == nil || got.ScrapeHealthReason != radar.HealthRunning {
				t.Errorf("claimed entity: runningSince=%v reason=%q", got.RunningSince, got.ScrapeHealthReason)
			}
		}
	})
}

func TestOutboxClaim(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		start := time.Now()
		rep := runReport(org, e, uuid.NewString(), start)
		if _, err := db.FinishRun(ctx, rep); err != nil {
			t.Fatal(err)
		}
		id := rep.Outbox.ID
		at := func(d time.Duration) radar.Time { return radar.NewTime(start.Add(d)) }

		m, claimed, err := db.ClaimOutbox(ctx, org, id, at(time.Second), at(-time.Minute))
		if err != nil || !claimed || m.Status != radar.OutboxSending || m.Attempts != 1 {
			t.Fatalf("first claim: %+v claimed=%v err=%v", m, claimed, err)
		}
		if _, claimed, _ := db.ClaimOutbox(ctx, org, id, at(2*time.Second), at(0)); claimed {
			t.Errorf("claimed while another job is sending")
		}
		m, claimed, err = db.ClaimOutbox(ctx, org, id, at(20*time.Minute), at(10*time.Minute))
		if err != nil || !claimed || m.Attempts != 2 {
			t.Fatalf("claim of a stale send: %+v claimed=%v err=%v", m, claimed, err)
		}
		if err := db.MarkOutboxFailed(ctx, org, id, "421 try later", false, ""); err != nil {
			t.Fatal(err)
		}
		m, _ = db.OutboxMessage(ctx, org, id)
		if m.Status != radar.OutboxPending || m.LastError != "421 try later" {
			t.Errorf("after a failed attempt: %+v", m)
		}
		if _, claimed, _ := db.ClaimOutbox(ctx, org, id, at(21*time.Minute), at(0)); !claimed {
			t.Fatalf("pending message not claimed")
		}
		if err := db.MarkOutboxSent(ctx, org, id, at(22*time.Minute)); err != nil {
			t.Fatal(err)
		}
		m, _ = db.OutboxMessage(ctx, org, id)
		a, _ := db.Alert(ctx, org, rep.Alert.ID)
		if m.Status != radar.OutboxSent || m.SentAt == nil || a.SentAt == nil || a.Outcome != radar.OutcomeSent {
			t.Errorf("after sending: outbox %+v, alert %+v", m, a)
		}
		if _, claimed, _ := db.ClaimOutbox(ctx, org, id, at(30*time.Minute), at(29*time.Minute)); claimed {
			t.Errorf("a sent message was claimed again")
		}
		if _, _, err := db.ClaimOutbox(ctx, engineOrg(t, db), id, at(0), at(0)); !errors.Is(err, radar.ErrNotFound) {
			t.Errorf("claim from another org: err = %v", err)
		}

		rep = runReport(org, e, uuid.NewString(), start.Add(time.Hour))
		if _, err := db.FinishRun(ctx, rep); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkOutboxFailed(ctx, org, rep.Outbox.ID, "550 no such user", true, "delivery failed: 550 no such user"); err != nil {
			t.Fatal(err)
		}
		a, _ = db.Alert(ctx, org, rep.Alert.ID)
		if a.Outcome != radar.OutcomeFailed || a.Reason != "delivery failed: 550 no such user" {
			t.Errorf("alert after final failure: %+v", a)
		}
		failed, _ := db.OutboxMessages(ctx, radar.OutboxFilter{OrgID: org, Status: radar.OutboxFailed})
		all, _ := db.OutboxMessages(ctx, radar.OutboxFilter{OrgID: org, EntityID: e.ID})
		if len(failed) != 1 || len(all) != 2 || all[0].ID != rep.Outbox.ID {
			t.Errorf("listing: %d failed, %d in all, newest %s", len(failed), len(all), all[0].ID)
		}
	})
}

type recordWorker struct {
	river.WorkerDefaults[radar.RunArgs]
	got chan radar.RunArgs
}

func (w *recordWorker) Work(_ context.Context, j *river.Job[radar.RunArgs]) error {
	w.got <- j.Args
	return nil
}

func TestWorkersRunJobsEnqueuedWithData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		w := &recordWorker{got: make(chan radar.RunArgs, 1)}
		workers := river.NewWorkers()
		river.AddWorker(workers, w)
		pool, err := db.StartWorkers(ctx, sqldb.WorkerOptions{Workers: workers, PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Stop(ctx)
		run := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		if err := db.FinishEnrichment(ctx, org, e.ID, radar.Enrichment{Status: radar.EnrichReady, FirstRun: &run}, radar.NewTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-w.got:
			if got != run {
				t.Errorf("worked %+v, want %+v", got, run)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the first run job was not worked")
		}
	})
}
