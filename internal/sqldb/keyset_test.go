package sqldb_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// TestKeysetPageSeeksTheIndex checks that a page deep into a list starts where the previous page ended: the
// keyset condition is a range of the (org_id, created_at DESC, id DESC) index, not a filter applied to every
// newer row. A filter made an export of n rows read n²/2 index entries on PostgreSQL.
func TestKeysetPageSeeksTheIndex(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		url := storetest.URL(t, engine)
		db, err := sqldb.Open(ctx, url, sqldb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		raw := rawSQL(t, url)
		org := &radar.Org{ID: "org-keyset", Slug: "keyset", Name: "Keyset", CreatedAt: radar.TimeFromMicros(1)}
		if err := db.CreateOrg(ctx, org); err != nil {
			t.Fatal(err)
		}

		// 3,000 signals, three to each creation time, so that the id breaks the ties.
		const rows = 3000
		series, yes := `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $3)`, "1"
		if engine == sqldb.Postgres {
			series, yes = `WITH n(i) AS (SELECT generate_series(1, $3::int))`, "true"
		}
		seed := []string{
			`INSERT INTO entities (id, org_id, company_name, company_website, things_to_track, alert_emails,
				email_alerts_enabled, cadence_days, status, tags, sectors, stage, policy, enrichment_status,
				scrape_health_reason, created_at, updated_at, version)
				VALUES ('ent-keyset', $1, 'Keysetco', 'https://keyset.example/', '', '[]', ` + yes + `, 7, 'ok', '[]', '[]',
				'unknown', '{}', 'ready', 'ok', $2, $2, 1)`,
			series + ` INSERT INTO signals (id, org_id, entity_id, run_id, company_name, type, severity, recommendation,
				needs_attention, summary, analysis, evidence, findings, sources, analyser, created_at)
				SELECT 'sig-' || (10000 + i), $1, 'ent-keyset', 'run-' || i, 'Keysetco', 'funding', 'high', 'reach_out', ` + yes + `,
				'Keysetco raised a round.', '', '[]', '[]', '[]', 'builtin', CAST($2 AS BIGINT) + i / 3 FROM n`,
		}
		if _, err := raw.ExecContext(ctx, seed[0], org.ID, int64(1_700_000_000_000_000)); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.ExecContext(ctx, seed[1], org.ID, int64(1_700_000_000_000_000), rows); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}

		// Every row once, newest first, through pages of 100.
		var (
			page = radar.Page{Limit: 100}
			seen = map[string]bool{}
			last *radar.Signal
		)
		for {
			got, err := db.Signals(ctx, radar.SignalFilter{OrgID: org.ID, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got {
				if seen[s.ID] {
					t.Fatalf("%s on two pages", s.ID)
				}
				seen[s.ID] = true
				if last != nil && (s.CreatedAt.Micros() > last.CreatedAt.Micros() ||
					s.CreatedAt.Micros() == last.CreatedAt.Micros() && s.ID >= last.ID) {
					t.Fatalf("%s after %s: not newest first", s.ID, last.ID)
				}
				last = s
			}
			if len(got) < page.Limit {
				break
			}
			page.AfterCreated, page.AfterID = last.CreatedAt.Micros(), last.ID
		}
		if len(seen) != rows {
			t.Fatalf("paged through %d signals, want %d", len(seen), rows)
		}

		// Half way down: the scan reads the page's rows, not the 1,500 newer ones.
		mid := radar.Page{Limit: 100, AfterCreated: 1_700_000_000_000_000 + rows/2/3, AfterID: "sig-11500"}
		cond, args := sqldb.PageCondition("x", mid, 1)
		q := `SELECT x.id FROM signals x WHERE x.org_id = $1 AND ` + cond + ` ORDER BY x.created_at DESC, x.id DESC LIMIT 101`
		args = append([]any{org.ID}, args...)
		if engine == sqldb.Postgres {
			var plan string
			if err := raw.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+q, args...).Scan(&plan); err != nil {
				t.Fatal(err)
			}
			read, index := scanned(t, plan)
			if !strings.Contains(index, "signals_org") || read > 2*101 {
				t.Fatalf("the page read %d rows through %q, want at most %d through the org's index:\n%s", read, index, 2*101, plan)
			}
			return
		}
		rs, err := raw.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		var details []string
		for rs.Next() {
			var id, parent, unused int
			var detail string
			if err := rs.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			details = append(details, detail)
		}
		plan := strings.Join(details, "\n")
		if !strings.Contains(plan, "SEARCH x USING") || !strings.Contains(plan, "created_at") {
			t.Fatalf("the page is not a range of the index:\n%s", plan)
		}
	})
}

// scanned returns the rows the scan of signals in a PostgreSQL JSON plan produced or filtered out, and the
// index it used.
func scanned(t *testing.T, plan string) (int, string) {
	var doc []struct{ Plan planNode }
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) == 0 {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	var walk func(n planNode) (int, string, bool)
	walk = func(n planNode) (int, string, bool) {
		if n.Relation == "signals" {
			return n.ActualRows + n.RemovedByFilter, n.Index, true
		}
		for _, c := range n.Plans {
			if read, index, ok := walk(c); ok {
				return read, index, ok
			}
		}
		return 0, "", false
	}
	read, index, ok := walk(doc[0].Plan)
	if !ok {
		t.Fatalf("no scan of signals in the plan:\n%s", plan)
	}
	return read, index
}

type planNode struct {
	Relation        string     `json:"Relation Name"`
	Index           string     `json:"Index Name"`
	ActualRows      int        `json:"Actual Rows"`
	RemovedByFilter int        `json:"Rows Removed by Filter"`
	Plans           []planNode `json:"Plans"`
}

// rawSQL opens a plain connection to the database at url, closed when the test ends.
func rawSQL(t *testing.T, url string) *sql.DB {
	t.Helper()
	var db *sql.DB
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		var err error
		if db, err = sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)"); err != nil {
			t.Fatal(err)
		}
	} else {
		cfg, err := pgx.ParseConfig(url)
		if err != nil {
			t.Fatal(err)
		}
		db = stdlib.OpenDB(*cfg)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
