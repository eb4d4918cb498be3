package sqldb_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// finishTypedRun finishes a run of e at at whose signal has type typ, and returns the signal.
func finishTypedRun(t *testing.T, db *sqldb.DB, org string, e *radar.Entity, at time.Time, typ string) *radar.Signal {
	t.Helper()
	ctx := context.Background()
	args := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
	if _, err := db.StartRun(ctx, args, radar.NewTime(at.Add(-time.Second))); err != nil {
		t.Fatalf("start run: %v", err)
	}
	rep := runReport(org, e, args.RunID, at)
	rep.Signal.Type, rep.Signal.Summary = typ, typ+" at "+at.Format(time.RFC3339Nano)
	rep.Outbox, rep.Alert.Outcome = nil, radar.OutcomeNoMatch
	if written, err := db.FinishRun(ctx, rep); err != nil || !written {
		t.Fatalf("finish run: written=%v err=%v", written, err)
	}
	return rep.Signal
}

// execRaw runs a statement on the database behind url, outside the store.
func execRaw(t *testing.T, engine, url, q string) {
	t.Helper()
	ctx := context.Background()
	if engine == sqldb.SQLite {
		raw, err := sql.Open("sqlite", strings.TrimPrefix(url, "sqlite:"))
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer raw.Close()
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestChangedFilterAndLatestChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		url := storetest.URL(t, engine)
		db, err := sqldb.Open(ctx, url, sqldb.Options{})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer db.Close()
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		never := trackedEntity(t, db, org, "stillco")

		start := time.Now()
		var changed, quiet []string // newest first
		for i, typ := range []string{radar.TypeNoChange, radar.TypeFunding, radar.TypeNoChange, radar.TypeNoChange,
			radar.TypeOther, radar.TypeNoChange} {
			s := finishTypedRun(t, db, org, e, start.Add(time.Duration(i)*time.Second), typ)
			if typ == radar.TypeNoChange {
				quiet = append([]string{s.ID}, quiet...)
			} else {
				changed = append([]string{s.ID}, changed...)
			}
		}
		finishTypedRun(t, db, org, never, start, radar.TypeNoChange)

		yes, no := true, false
		ids := func(sigs []*radar.Signal) []string {
			out := []string{}
			for _, s := range sigs {
				out = append(out, s.ID)
			}
			return out
		}
		for name, tc := range map[string]struct {
			changed *bool
			want    []string
		}{"true": {&yes, changed}, "false": {&no, quiet}} {
			sigs, err := db.Signals(ctx, radar.SignalFilter{OrgID: org, EntityID: e.ID, Changed: tc.changed})
			if err != nil {
				t.Fatalf("signals: %v", err)
			}
			if got := ids(sigs); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("signals changed=%s: %v, want %v", name, got, tc.want)
			}
			alerts, err := db.Alerts(ctx, radar.AlertFilter{OrgID: org, EntityID: e.ID, Changed: tc.changed})
			if err != nil {
				t.Fatalf("alerts: %v", err)
			}
			if len(alerts) != len(tc.want) {
				t.Errorf("alerts changed=%s: %d, want %d", name, len(alerts), len(tc.want))
			}
			for i, a := range alerts {
				if i < len(tc.want) && a.SignalID != tc.want[i] {
					t.Errorf("alerts changed=%s: #%d is of signal %s, want %s", name, i, a.SignalID, tc.want[i])
				}
			}
			n, err := db.CountSignals(ctx, radar.SignalFilter{OrgID: org, Changed: tc.changed}, 1000)
			if err != nil {
				t.Fatalf("count signals: %v", err)
			}
			if want := len(tc.want) + map[string]int{"true": 0, "false": 1}[name]; n != want {
				t.Errorf("count signals changed=%s: %d, want %d", name, n, want)
			}
			n, err = db.CountAlerts(ctx, radar.AlertFilter{OrgID: org, EntityID: e.ID, Changed: tc.changed}, 2)
			if err != nil || n != 2 {
				t.Errorf("count alerts changed=%s up to 2: %d (err %v), want 2", name, n, err)
			}
		}
		latest, err := db.Alerts(ctx, radar.AlertFilter{OrgID: org, Changed: &yes, LatestPerEntity: true})
		if err != nil || len(latest) != 1 || latest[0].SignalID != changed[0] {
			t.Errorf("latest changed alert per entity = %+v (err %v), want northwind's signal %s only", latest, err, changed[0])
		}

		for _, legacy := range []bool{false, true} {
			if legacy {
				execRaw(t, engine, url, `UPDATE entities SET latest_change = ''`)
			}
			list, err := db.Entities(ctx, radar.EntityFilter{OrgID: org, Compact: true})
			if err != nil {
				t.Fatalf("entities: %v", err)
			}
			for _, got := range list {
				switch got.ID {
				case e.ID:
					if got.LatestChange == nil || got.LatestChange.ID != changed[0] || got.LatestSignal.ID != quiet[0] {
						t.Errorf("legacy %v: northwind latest change %+v, latest signal %s; want %s and %s", legacy,
							got.LatestChange, got.LatestSignal.ID, changed[0], quiet[0])
					}
				case never.ID:
					if got.LatestChange != nil || got.LatestSignal == nil {
						t.Errorf("legacy %v: stillco latest change %+v, want none", legacy, got.LatestChange)
					}
				}
			}
			one, err := db.Entity(ctx, org, e.ID)
			if err != nil || one.LatestChange == nil || one.LatestChange.ID != changed[0] || one.LatestChange.Type != radar.TypeOther {
				t.Errorf("legacy %v: entity latest change %+v (err %v), want %s", legacy, one.LatestChange, err, changed[0])
			}
		}
	})
}

// migrateAgain undoes migration 00005 and applies it again on the database behind url, as on a database whose
// runs were written before it.
func migrateAgain(t *testing.T, engine, url string) {
	t.Helper()
	ctx := context.Background()
	var (
		db      *sql.DB
		dialect goose.Dialect
		err     error
	)
	if engine == sqldb.SQLite {
		db, err = sql.Open("sqlite", strings.TrimPrefix(url, "sqlite:"))
		dialect = goose.DialectSQLite3
	} else {
		db, err = sql.Open("pgx", url)
		dialect = goose.DialectPostgres
	}
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer db.Close()
	p, err := goose.NewProvider(dialect, db, os.DirFS(filepath.Join("migrations", engine)))
	if err != nil {
		t.Fatalf("migrations: %v", err)
	}
	if _, err := p.DownTo(ctx, 4); err != nil {
		t.Fatalf("down to 4: %v", err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up: %v", err)
	}
}

func TestMigrationFindsChangesOfEarlierRuns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		url := storetest.URL(t, engine)
		db, err := sqldb.Open(ctx, url, sqldb.Options{})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		never := trackedEntity(t, db, org, "stillco")
		start := time.Now()
		found := finishTypedRun(t, db, org, e, start, radar.TypeFunding)
		finishTypedRun(t, db, org, e, start.Add(time.Second), radar.TypeNoChange)
		finishTypedRun(t, db, org, never, start, radar.TypeNoChange)
		db.Close()

		migrateAgain(t, engine, url)
		db, err = sqldb.Open(ctx, url, sqldb.Options{})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer db.Close()
		yes := true
		alerts, err := db.Alerts(ctx, radar.AlertFilter{OrgID: org, Changed: &yes})
		if err != nil || len(alerts) != 1 || alerts[0].SignalID != found.ID {
			t.Errorf("alerts of changed runs after the migration = %+v (err %v), want the funding run's only", alerts, err)
		}
		for _, id := range []string{e.ID, never.ID} {
			got, err := db.Entity(ctx, org, id)
			if err != nil {
				t.Fatalf("entity: %v", err)
			}
			if want := id == e.ID; (got.LatestChange != nil) != want || (want && got.LatestChange.ID != found.ID) {
				t.Errorf("%s: latest change %+v, want the funding signal: %v", got.CompanyName, got.LatestChange, want)
			}
		}
	})
}
