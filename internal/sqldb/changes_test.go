package sqldb_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// changeCounter reads an organisation's change count the way authentication does: with one of its keys.
func changeCounter(t *testing.T, db *sqldb.DB, orgID string) func() int64 {
	t.Helper()
	k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: orgID, Name: "reader", Scopes: []string{radar.ScopeTrackerRead},
		SecretHash: []byte("h"), CreatedAt: radar.NewTime(time.Now())}
	if err := db.CreateAPIKey(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return func() int64 {
		t.Helper()
		got, err := db.APIKey(context.Background(), k.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Changes
	}
}

// Every write to an organisation's companies, signals, alerts and leads moves its change count, and only its
// own: a list cached at one count must never outlive a change.
func TestEveryWriteMovesTheChangeCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org, other := engineOrg(t, db), engineOrg(t, db)
		count, otherCount := changeCounter(t, db, org), changeCounter(t, db, other)
		trackedEntity(t, db, other, "elsewhere")
		otherBefore := otherCount()

		last := count()
		step := func(name string, write func() error) {
			t.Helper()
			if err := write(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if now := count(); now <= last {
				t.Errorf("%s: change count %d, was %d: it did not move", name, now, last)
			} else {
				last = now
			}
		}
		now := time.Now()
		e := trackedEntity(t, db, org, "northwind")
		if count() <= last {
			t.Fatalf("create: change count did not move")
		}
		last = count()
		step("update", func() error {
			e.CompanySummary = "Wind tunnels"
			return db.UpdateEntity(ctx, e, nil, nil)
		})
		step("begin enrichment", func() error {
			_, _, err := db.BeginEnrichment(ctx, org, e.ID)
			return err
		})
		step("finish enrichment", func() error {
			return db.FinishEnrichment(ctx, org, e.ID, radar.Enrichment{Status: radar.EnrichReady, CompanyGithubURL: "https://github.com/northwind"}, radar.NewTime(now))
		})
		step("refresh", func() error {
			_, err := db.StartRefresh(ctx, org, e.ID, radar.NewTime(now), nil)
			return err
		})
		runID := uuid.NewString()
		step("start run", func() error {
			_, err := db.StartRun(ctx, radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: runID, Trigger: "manual"}, radar.NewTime(now))
			return err
		})
		rep := runReport(org, e, runID, now, newLead(org, e, "oskar|kestrelgrip", "https://news.example/o", now))
		step("finish run", func() error {
			_, err := db.FinishRun(ctx, rep)
			return err
		})
		if _, _, err := db.ClaimOutbox(ctx, org, rep.Outbox.ID, radar.NewTime(now), radar.NewTime(now.Add(-time.Minute))); err != nil {
			t.Fatal(err)
		}
		step("alert e-mail sent", func() error { return db.MarkOutboxSent(ctx, org, rep.Outbox.ID, radar.NewTime(now)) })
		rep2 := runReport(org, e, uuid.NewString(), now.Add(time.Second))
		step("second run", func() error {
			_, err := db.FinishRun(ctx, rep2)
			return err
		})
		step("alert e-mail given up", func() error {
			return db.MarkOutboxFailed(ctx, org, rep2.Outbox.ID, "550 no such user", true, "delivery failed")
		})
		step("failed run", func() error {
			return db.FailRun(ctx, radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString()}, "site unreachable", radar.NewTime(now))
		})
		step("scheduled run claimed", func() error {
			later := radar.NewTime(now.Add(30 * 24 * time.Hour))
			n, err := db.ClaimDueRuns(ctx, later, later, 10, func(orgID, entityID string) radar.JobArgs {
				return radar.RunArgs{OrgID: orgID, EntityID: entityID, RunID: uuid.NewString(), Trigger: "schedule"}
			})
			if err == nil && n == 0 {
				t.Errorf("no due run claimed")
			}
			return err
		})
		step("lead decided", func() error {
			_, err := db.DecideLead(ctx, org, rep.Leads[0].ID, radar.DecisionRejected, "", radar.NewTime(now))
			return err
		})
		step("delete", func() error { return db.DeleteEntity(ctx, org, e.ID) })

		if _, err := db.Entities(ctx, radar.EntityFilter{OrgID: org, Page: radar.Page{Limit: 10}}); err != nil {
			t.Fatal(err)
		}
		if count() != last {
			t.Errorf("a read moved the change count")
		}
		if got := otherCount(); got != otherBefore {
			t.Errorf("other organisation's change count moved from %d to %d", otherBefore, got)
		}
	})
}

// Concurrent writers of one organisation are all counted, whichever rows of the count they add to.
func TestConcurrentWritesAreAllCounted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		count := changeCounter(t, db, org)
		const n = 40
		entities := make([]*radar.Entity, n)
		for i := range entities {
			entities[i] = trackedEntity(t, db, org, "company"+uuid.NewString()[:8])
		}
		before := count()
		var wg sync.WaitGroup
		for _, e := range entities {
			wg.Go(func() {
				if _, err := db.FinishRun(ctx, runReport(org, e, uuid.NewString(), time.Now())); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got := count(); got != before+n {
			t.Errorf("change count %d after %d runs, want %d", got, n, before+n)
		}
	})
}
