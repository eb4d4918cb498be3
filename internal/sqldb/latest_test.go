package sqldb_test

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// finishRun starts and finishes a run of e whose signal is created at, and returns the signal.
func finishRun(t *testing.T, db *sqldb.DB, org string, e *radar.Entity, at time.Time, summary string, evidence int) *radar.Signal {
	t.Helper()
	ctx := context.Background()
	args := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
	if _, err := db.StartRun(ctx, args, radar.NewTime(at.Add(-time.Second))); err != nil {
		t.Fatalf("start run: %v", err)
	}
	rep := runReport(org, e, args.RunID, at)
	rep.Signal.Summary = summary
	rep.Signal.Analysis = "Analysis of " + summary
	rep.Signal.Findings = []radar.Finding{{Type: radar.TypeFunding, Severity: "high", Title: summary}}
	published := radar.NewTime(at.Add(-time.Hour))
	rep.Signal.Evidence = nil
	for i := range evidence {
		rep.Signal.Evidence = append(rep.Signal.Evidence, radar.Evidence{URL: "https://news.example/" + uuid.NewString(),
			Title: "Item " + string(rune('A'+i)), Source: "news", Type: "article", PublishedAt: &published})
	}
	if written, err := db.FinishRun(ctx, rep); err != nil || !written {
		t.Fatalf("finish run: written=%v err=%v", written, err)
	}
	return rep.Signal
}

// forgetLatestSignals empties the stored latest signal of every entity, as rows written before it was stored.
func forgetLatestSignals(t *testing.T, engine, url string) {
	t.Helper()
	ctx := context.Background()
	const q = `UPDATE entities SET latest_signal = ''`
	if engine == sqldb.SQLite {
		raw, err := sql.Open("sqlite", strings.TrimPrefix(url, "sqlite:"))
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer raw.Close()
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("forget latest signals: %v", err)
		}
		return
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, q); err != nil {
		t.Fatalf("forget latest signals: %v", err)
	}
}

func TestEntityReadsCarryTheLatestSignalAndFoundersInOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		for _, name := range []string{"stored with the entity", "stored before entities kept it"} {
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				url := storetest.URL(t, engine)
				db, err := sqldb.Open(ctx, url, sqldb.Options{})
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				defer db.Close()
				org := engineOrg(t, db)
				e := trackedEntity(t, db, org, "northwind")
				quiet := trackedEntity(t, db, org, "quietco")

				e.Founders = []radar.Founder{
					{ID: uuid.NewString(), Name: `Zoë "Z" O'Neil`, LinkedinURL: "https://www.linkedin.com/in/zoe", GithubURL: "https://github.com/zoe"},
					e.Founders[1],
					{ID: uuid.NewString(), Name: "Ada Lovelace", TwitterURL: "https://x.com/ada"},
					e.Founders[0],
				}
				if err := db.UpdateEntity(ctx, e, nil, nil); err != nil {
					t.Fatalf("update founders: %v", err)
				}

				start := time.Now()
				first := finishRun(t, db, org, e, start, "Opened an office", 1)
				newest := finishRun(t, db, org, e, start.Add(2*time.Second), strings.Repeat("Raised a Series B. ", 30), 5)
				// A retried run that finishes late but happened before the newest one.
				finishRun(t, db, org, e, start.Add(time.Second), "Hired a CFO", 2)
				if name == "stored before entities kept it" {
					forgetLatestSignals(t, engine, url)
				}

				latest, err := db.LatestSignals(ctx, org, []string{e.ID, quiet.ID})
				if err != nil {
					t.Fatalf("latest signals: %v", err)
				}
				want := latest[e.ID]
				if want == nil || want.ID != newest.ID || want.ID == first.ID {
					t.Fatalf("latest signal from the signals table = %+v, want %s", want, newest.ID)
				}
				if len(want.Evidence) != radar.CompactEvidence || want.Analysis != "" || want.Findings != nil {
					t.Fatalf("latest signal from the signals table is not compact: %+v", want)
				}

				one, err := db.Entity(ctx, org, e.ID)
				if err != nil {
					t.Fatalf("entity: %v", err)
				}
				reads := map[string]*radar.Entity{"entity": one}
				for _, compact := range []bool{false, true} {
					list, err := db.Entities(ctx, radar.EntityFilter{OrgID: org, Compact: compact})
					if err != nil {
						t.Fatalf("entities: %v", err)
					}
					if len(list) != 2 || list[0].ID != quiet.ID || list[1].ID != e.ID {
						t.Fatalf("entities (compact %v) = %d rows, want quietco then northwind", compact, len(list))
					}
					if list[0].LatestSignal != nil || list[0].Founders == nil || len(list[0].Founders) != 2 {
						t.Errorf("quietco (compact %v): latest %+v, founders %+v; want no signal and its two founders",
							compact, list[0].LatestSignal, list[0].Founders)
					}
					if compact {
						reads["compact list"] = list[1]
					} else {
						reads["full list"] = list[1]
					}
				}
				for read, got := range reads {
					if !reflect.DeepEqual(got.LatestSignal, want) {
						t.Errorf("%s: latest signal = %+v, want %+v", read, got.LatestSignal, want)
					}
					if !reflect.DeepEqual(got.Founders, e.Founders) {
						t.Errorf("%s: founders = %+v, want %+v", read, got.Founders, e.Founders)
					}
				}
			})
		}
	})
}
