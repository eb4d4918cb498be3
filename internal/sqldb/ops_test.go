package sqldb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// failingEnrich fails the enrichment of one entity and completes every other.
type failingEnrich struct {
	river.WorkerDefaults[radar.EnrichArgs]
	failFor string
}

func (w *failingEnrich) Work(_ context.Context, j *river.Job[radar.EnrichArgs]) error {
	if j.Args.EntityID == w.failFor {
		return errors.New("site unreachable")
	}
	return nil
}

func TestJobCountsFollowTheQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		var ids []string
		for _, name := range []string{"northwind", "contoso"} {
			id, _ := uuid.NewV7()
			now := radar.NewTime(time.Now())
			e := &radar.Entity{
				ID: id.String(), OrgID: org, CompanyName: name, CompanyWebsite: "https://" + name + ".example/",
				Founders: []radar.Founder{{ID: uuid.NewString(), Name: "Ada " + name}}, ThingsToTrack: "funding",
				AlertEmails: []string{"a@example.com"}, CadenceDays: 7, Status: radar.StatusOK, Tags: []string{},
				Sectors: []string{}, Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichQueued,
				ScrapeHealthReason: radar.HealthPending, CreatedAt: now, UpdatedAt: now,
			}
			jobs := []radar.JobArgs{radar.EnrichArgs{OrgID: org, EntityID: e.ID}}
			if err := db.CreateEntity(ctx, e, jobs, nil); err != nil {
				t.Fatalf("create entity: %v", err)
			}
			ids = append(ids, e.ID)
		}

		got, err := db.JobCounts(ctx)
		if err != nil {
			t.Fatalf("job counts: %v", err)
		}
		if got.ByState["available"] != 2 || got.ByState["running"] != 0 || got.FailedAttempts != 0 {
			t.Errorf("queued: got %+v, want 2 available, none running, no failed attempts", got)
		}
		if len(got.ByState) != 8 {
			t.Errorf("queued: got states %v, want all 8 River states", got.ByState)
		}

		workers := river.NewWorkers()
		river.AddWorker(workers, &failingEnrich{failFor: ids[0]})
		failed := make(chan string, 4)
		pool, err := db.StartWorkers(ctx, sqldb.WorkerOptions{
			Workers: workers, PollInterval: 20 * time.Millisecond,
			RetryDelay: func(int) time.Duration { return time.Hour },
			OnJobFailed: func(kind string, final bool) {
				if !final {
					failed <- kind
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Stop(ctx)
		deadline := time.Now().Add(20 * time.Second)
		for {
			got, err = db.JobCounts(ctx)
			if err != nil {
				t.Fatalf("job counts: %v", err)
			}
			if got.ByState["retryable"] == 1 && got.ByState["completed"] == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("worked: got %+v, want 1 retryable and 1 completed", got)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if got.ByState["available"] != 0 || got.FailedAttempts != 1 {
			t.Errorf("worked: got %+v, want none available and 1 failed attempt", got)
		}
		select {
		case kind := <-failed:
			if kind != "enrich" {
				t.Errorf("OnJobFailed told of a %q job, want enrich", kind)
			}
		case <-time.After(10 * time.Second):
			t.Error("OnJobFailed was not told of the failed attempt")
		}
	})
}
