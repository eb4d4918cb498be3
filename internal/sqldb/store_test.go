package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

func newOrg(t *testing.T, db *sqldb.DB, slug string) *radar.Org {
	t.Helper()
	o := &radar.Org{ID: uuid.NewString(), Slug: slug, Name: slug, CreatedAt: radar.NewTime(time.Now())}
	if err := db.CreateOrg(context.Background(), o); err != nil {
		t.Fatalf("create org: %v", err)
	}
	return o
}

func newEntity(orgID, name string, at time.Time) *radar.Entity {
	id, _ := uuid.NewV7()
	return &radar.Entity{
		ID: id.String(), OrgID: orgID, CompanyName: name, CompanyWebsite: "https://" + name + ".example/",
		Founders:      []radar.Founder{{ID: uuid.NewString(), Name: "Ada " + name, LinkedinURL: "https://www.linkedin.com/in/ada-" + name}},
		ThingsToTrack: "funding", AlertEmails: []string{"a@example.com"}, EmailAlertsEnabled: true, CadenceDays: 7,
		Status: radar.StatusOK, Tags: []string{}, Sectors: []string{"Software"}, Stage: radar.StageUnknown,
		EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
		CreatedAt: radar.NewTime(at), UpdatedAt: radar.NewTime(at),
	}
}

func TestEntityLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org, other := newOrg(t, db, "acme"), newOrg(t, db, "other")
		e := newEntity(org.ID, "northwind", time.Now())
		jobs := []radar.JobArgs{radar.EnrichArgs{OrgID: org.ID, EntityID: e.ID, ThenRun: true}}
		if err := db.CreateEntity(ctx, e, jobs, nil); err != nil {
			t.Fatalf("create: %v", err)
		}
		got, err := db.Entity(ctx, org.ID, e.ID)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if got.CompanyName != "northwind" || len(got.Founders) != 1 || got.Founders[0].Name != "Ada northwind" || !got.EmailAlertsEnabled {
			t.Fatalf("read back %+v", got)
		}
		if !got.CreatedAt.Equal(e.CreatedAt.Time) {
			t.Errorf("createdAt = %s, want %s", got.CreatedAt, e.CreatedAt)
		}
		if _, err := db.Entity(ctx, other.ID, e.ID); !errors.Is(err, radar.ErrNotFound) {
			t.Errorf("other org read: err = %v, want not found", err)
		}
		found, err := db.FindExistingEntity(ctx, org.ID, []string{"profile:linkedin.com/in/ada-northwind"})
		if err != nil || found.ID != e.ID {
			t.Errorf("find by founder profile: %v, %v", found, err)
		}
		if _, err := db.FindExistingEntity(ctx, other.ID, radar.IdentityKeys(e)); !errors.Is(err, radar.ErrNotFound) {
			t.Errorf("find in other org: err = %v, want not found", err)
		}

		got.Founders = append(got.Founders, radar.Founder{ID: uuid.NewString(), Name: "Bob"})
		got.Founders[0].Name = "Ada Lovelace"
		got.Status = radar.StatusPaused
		if err := db.UpdateEntity(ctx, got, nil, nil); err != nil {
			t.Fatalf("update: %v", err)
		}
		got, _ = db.Entity(ctx, org.ID, e.ID)
		if len(got.Founders) != 2 || got.Founders[0].Name != "Ada Lovelace" || got.Status != radar.StatusPaused {
			t.Fatalf("after update %+v", got)
		}
		if _, err := db.StartRefresh(ctx, org.ID, e.ID, radar.NewTime(time.Now()), nil); radar.ErrorCode(err) != radar.EEntityPaused {
			t.Errorf("refresh paused: err = %v", err)
		}
		got.Status = radar.StatusOK
		if err := db.UpdateEntity(ctx, got, nil, nil); err != nil {
			t.Fatalf("update: %v", err)
		}
		if _, err := db.StartRefresh(ctx, org.ID, e.ID, radar.NewTime(time.Now()), []radar.JobArgs{radar.RunArgs{OrgID: org.ID, EntityID: e.ID, RunID: "r"}}); err != nil {
			t.Fatalf("refresh: %v", err)
		}
		if _, err := db.StartRefresh(ctx, org.ID, e.ID, radar.NewTime(time.Now()), nil); radar.ErrorCode(err) != radar.ERefreshInProgress {
			t.Errorf("second refresh: err = %v", err)
		}
		if err := db.DeleteEntity(ctx, other.ID, e.ID); !errors.Is(err, radar.ErrNotFound) {
			t.Errorf("delete from other org: err = %v", err)
		}
		if err := db.DeleteEntity(ctx, org.ID, e.ID); err != nil {
			t.Fatalf("delete: %v", err)
		}
		if _, err := db.Entity(ctx, org.ID, e.ID); !errors.Is(err, radar.ErrNotFound) {
			t.Errorf("read deleted: err = %v", err)
		}
	})
}

func TestEntityPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := newOrg(t, db, "acme")
		at := time.Now()
		for i := range 30 {
			// Three rows share each creation time.
			e := newEntity(org.ID, fmt.Sprintf("c%02d", i), at.Add(time.Duration(i/3)*time.Millisecond))
			if err := db.CreateEntity(ctx, e, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		seen := map[string]bool{}
		page := radar.Page{Limit: 4}
		var last *radar.Entity
		for {
			es, err := db.Entities(ctx, radar.EntityFilter{OrgID: org.ID, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				if seen[e.ID] {
					t.Fatalf("%s repeated", e.CompanyName)
				}
				seen[e.ID] = true
				if last != nil && (e.CreatedAt.After(last.CreatedAt.Time) || e.CreatedAt.Equal(last.CreatedAt.Time) && e.ID > last.ID) {
					t.Fatalf("%s after %s out of order", e.CompanyName, last.CompanyName)
				}
				last = e
			}
			if len(es) < page.Limit {
				break
			}
			page.AfterCreated, page.AfterID = last.CreatedAt.Micros(), last.ID
		}
		if len(seen) != 30 {
			t.Errorf("saw %d entities, want 30", len(seen))
		}
	})
}

func TestIdempotencyClaim(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := newOrg(t, db, "acme")
		now := radar.NewTime(time.Now())
		rec := &radar.IdempotencyRecord{OrgID: org.ID, Key: "key-12345", Scope: "create", RequestHash: "h1", CreatedAt: now}
		expiry, stale := radar.NewTime(now.Add(-24*time.Hour)), radar.NewTime(now.Add(-time.Minute))
		if _, claimed, err := db.BeginIdempotent(ctx, rec, expiry, stale); err != nil || !claimed {
			t.Fatalf("first claim: claimed=%v err=%v", claimed, err)
		}
		ex, claimed, err := db.BeginIdempotent(ctx, rec, expiry, stale)
		if err != nil || claimed || ex.State != radar.IdemInProgress {
			t.Fatalf("second claim: %+v claimed=%v err=%v", ex, claimed, err)
		}
		e := newEntity(org.ID, "northwind", time.Now())
		rec.StatusCode = 201
		if err := db.CreateEntity(ctx, e, nil, rec); err != nil {
			t.Fatal(err)
		}
		ex, claimed, err = db.BeginIdempotent(ctx, rec, expiry, stale)
		if err != nil || claimed || ex.State != radar.IdemDone || ex.EntityID != e.ID || ex.RequestHash != "h1" {
			t.Fatalf("after completion: %+v claimed=%v err=%v", ex, claimed, err)
		}
		later := radar.NewTime(now.Add(25 * time.Hour))
		if _, claimed, err := db.BeginIdempotent(ctx, rec, radar.NewTime(later.Add(-24*time.Hour)), stale); err != nil || !claimed {
			t.Fatalf("claim after expiry: claimed=%v err=%v", claimed, err)
		}
	})
}

func TestDataVersion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := newOrg(t, db, "acme")
		version := func() int64 {
			v, err := db.DataVersion(ctx, org.ID)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		v0 := version()
		e := newEntity(org.ID, "northwind", time.Now())
		if err := db.CreateEntity(ctx, e, nil, nil); err != nil {
			t.Fatal(err)
		}
		v1 := version()
		if v1 == v0 {
			t.Fatal("a create did not change the data version")
		}
		now := radar.NewTime(time.Now())
		run := radar.RunArgs{OrgID: org.ID, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		if _, err := db.StartRun(ctx, run, now); err != nil {
			t.Fatal(err)
		}
		if err := db.FailRun(ctx, run, "failed: test", now); err != nil {
			t.Fatal(err)
		}
		if version() != v1 {
			t.Error("a run changed the data version; the fuzzy index would be rebuilt after every run")
		}
		e.CompanyName = "Northwind Labs"
		if err := db.UpdateEntity(ctx, e, nil, nil); err != nil {
			t.Fatal(err)
		}
		v2 := version()
		if v2 == v1 {
			t.Error("a rename did not change the data version")
		}
		if err := db.DeleteEntity(ctx, org.ID, e.ID); err != nil {
			t.Fatal(err)
		}
		if version() == v2 {
			t.Error("a delete did not change the data version")
		}
	})
}
