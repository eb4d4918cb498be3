package sqldb

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A connection that keeps its statements answers as one that prepares each anew: when a statement runs again
// while rows of it are still open, when a statement leaves the cache with its rows open, after a statement
// failed, and within transactions.
func TestKeptStatementsAnswerAsNew(t *testing.T) {
	ctx := context.Background()
	c, err := newStmtConnector("file:"+filepath.Join(t.TempDir(), "kept.db")+"?_pragma=journal_mode(WAL)", 2)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)`,
		`INSERT INTO t (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const byID = `SELECT v FROM t WHERE id >= ? ORDER BY id`
	values := func(q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	}, from int) []string {
		t.Helper()
		rs, err := q.QueryContext(ctx, byID, from)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			var v string
			if err := rs.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		if err := rs.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	same := func(got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("got %q, want %q", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("got %q, want %q", got, want)
			}
		}
	}

	// The same statement, run inside a transaction while its own rows are open, with other arguments.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	outer, err := tx.QueryContext(ctx, byID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for outer.Next() {
		var v string
		if err := outer.Scan(&v); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, v)
		if v == "a" {
			same(values(tx, 3), "c")
			// Two other statements push the open one out of a cache of two.
			for _, q := range []string{`SELECT 1`, `SELECT 2`} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	same(seen, "a", "b", "c")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	// A failed statement runs again, and then succeeds.
	const insert = `INSERT INTO t (id, v) VALUES (?, ?)`
	if _, err := db.ExecContext(ctx, insert, 4, "a"); err == nil {
		t.Fatal("a duplicate value was inserted")
	}
	if _, err := db.ExecContext(ctx, insert, 4, "d"); err != nil {
		t.Fatal(err)
	}
	same(values(db, 2), "b", "c", "d")
	same(values(db, 4), "d")
}
