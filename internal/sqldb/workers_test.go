package sqldb_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// boundWorker works enrichments slowly, counting how many run at once.
type boundWorker struct {
	river.WorkerDefaults[radar.EnrichArgs]
	running, most, done atomic.Int64
}

func (w *boundWorker) Work(ctx context.Context, _ *river.Job[radar.EnrichArgs]) error {
	n := w.running.Add(1)
	for m := w.most.Load(); n > m && !w.most.CompareAndSwap(m, n); m = w.most.Load() {
	}
	select {
	case <-time.After(5 * time.Millisecond):
	case <-ctx.Done():
	}
	w.running.Add(-1)
	w.done.Add(1)
	return nil
}

type mailWorker struct {
	river.WorkerDefaults[radar.MailArgs]
	got chan radar.MailArgs
}

func (w *mailWorker) Work(_ context.Context, j *river.Job[radar.MailArgs]) error {
	w.got <- j.Args
	return nil
}

// TestWorkersBound queues 1,000 enrichments, as a burst of creates does, and checks that the workers never work
// more of them at once than MaxWorkers, and that an e-mail queued after them is delivered while they wait.
func TestWorkersBound(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		const queued, bound = 1000, 2
		now := radar.NewTime(time.Now())
		create := func(i int, jobs ...radar.JobArgs) {
			e := &radar.Entity{
				ID: uuid.NewString(), OrgID: org, CompanyName: "Company " + strconv.Itoa(i),
				CompanyWebsite: "https://company-" + strconv.Itoa(i) + ".example/", Founders: []radar.Founder{},
				AlertEmails: []string{}, CadenceDays: 7, Status: radar.StatusOK, Tags: []string{}, Sectors: []string{},
				Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
				CreatedAt: now, UpdatedAt: now,
			}
			jobs = append(jobs, radar.EnrichArgs{OrgID: org, EntityID: e.ID, ThenRun: true})
			if err := db.CreateEntity(ctx, e, jobs, nil); err != nil {
				t.Fatalf("create %d: %v", i, err)
			}
		}
		for i := range queued {
			create(i)
		}
		mail := radar.MailArgs{OrgID: org, OutboxID: uuid.NewString()}
		create(queued, mail)

		enrich := &boundWorker{}
		mails := &mailWorker{got: make(chan radar.MailArgs, 1)}
		workers := river.NewWorkers()
		river.AddWorker(workers, enrich)
		river.AddWorker(workers, mails)
		pool, err := db.StartWorkers(ctx, sqldb.WorkerOptions{Workers: workers, MaxWorkers: bound, PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Stop(ctx)
		select {
		case got := <-mails.got:
			if got != mail {
				t.Errorf("delivered %+v, want %+v", got, mail)
			}
			if n := enrich.done.Load(); n >= queued {
				t.Errorf("the e-mail waited for all %d enrichments", n)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the e-mail was not delivered while enrichments waited")
		}
		deadline := time.Now().Add(30 * time.Second)
		for enrich.done.Load() < 100 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := enrich.done.Load(); n < 100 {
			t.Fatalf("only %d enrichments worked in 30 s", n)
		}
		if most := enrich.most.Load(); most > bound {
			t.Errorf("%d enrichments ran at once, want at most %d", most, bound)
		}
	})
}

// TestConcurrentCreates creates companies from many goroutines at once, two of them for each website: one of
// each pair is created whole, the other is radar.ErrDuplicate and leaves nothing behind, whatever else is
// written with it (SQLite commits concurrent creates together).
func TestConcurrentCreates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		const sites = 40
		now := radar.NewTime(time.Now())
		type result struct {
			site int
			e    *radar.Entity
			err  error
		}
		results := make(chan result, 2*sites)
		for i := range 2 * sites {
			go func() {
				site := i / 2
				e := &radar.Entity{
					ID: uuid.NewString(), OrgID: org, CompanyName: "Company " + strconv.Itoa(i),
					CompanyWebsite: "https://company-" + strconv.Itoa(site) + ".example/",
					Founders:       []radar.Founder{{ID: uuid.NewString(), Name: "Ada " + strconv.Itoa(i)}},
					AlertEmails:    []string{}, CadenceDays: 7, Status: radar.StatusOK, Tags: []string{}, Sectors: []string{"Software"},
					Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
					CreatedAt: now, UpdatedAt: now,
				}
				err := db.CreateEntity(ctx, e, []radar.JobArgs{radar.EnrichArgs{OrgID: org, EntityID: e.ID, ThenRun: true}}, nil)
				results <- result{site, e, err}
			}()
		}
		created := map[int]*radar.Entity{}
		for range 2 * sites {
			r := <-results
			switch {
			case r.err == nil:
				if created[r.site] != nil {
					t.Errorf("website %d: two companies created", r.site)
				}
				created[r.site] = r.e
			case errors.Is(r.err, radar.ErrDuplicate):
				if _, err := db.Entity(ctx, org, r.e.ID); !errors.Is(err, radar.ErrNotFound) {
					t.Errorf("website %d: the duplicate %s was stored (%v)", r.site, r.e.ID, err)
				}
			default:
				t.Errorf("website %d: %v", r.site, r.err)
			}
		}
		if len(created) != sites {
			t.Fatalf("%d websites have a company, want %d", len(created), sites)
		}
		for site, e := range created {
			got, err := db.Entity(ctx, org, e.ID)
			if err != nil {
				t.Fatalf("website %d: %v", site, err)
			}
			if got.CompanyName != e.CompanyName || len(got.Founders) != 1 || got.Founders[0].Name != e.Founders[0].Name {
				t.Errorf("website %d: stored %s with founders %+v, want %s with %+v", site, got.CompanyName, got.Founders, e.CompanyName, e.Founders)
			}
		}
		all, err := db.Entities(ctx, radar.EntityFilter{OrgID: org, Page: radar.Page{Limit: 100}})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != sites {
			t.Errorf("%d companies listed, want %d", len(all), sites)
		}
	})
}
