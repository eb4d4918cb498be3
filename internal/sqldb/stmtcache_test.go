package sqldb

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

func TestStmtCacheKeepsAtMostSizeStatements(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(2)
	c := newStmtCache(db, 4)
	q := cachedQuerier{c}
	held, err := q.Query(ctx, `SELECT 0 UNION ALL SELECT 1`)
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i := range 20 {
				want := g*100 + i
				var got int
				if err := q.QueryRow(ctx, `SELECT `+strconv.Itoa(want)+` + $1`, 0).Scan(&got); err != nil {
					t.Errorf("query %d: %v", want, err)
					return
				}
				if got != want {
					t.Errorf("query %d: got %d", want, got)
				}
			}
		})
	}
	wg.Wait()
	if n := c.lru.Len(); n != 4 {
		t.Errorf("cached statements = %d, want 4", n)
	}
	var vals []int
	for held.Next() {
		var v int
		if err := held.Scan(&v); err != nil {
			t.Fatalf("scan rows of an evicted statement: %v", err)
		}
		vals = append(vals, v)
	}
	held.Close()
	if err := held.Err(); err != nil || len(vals) != 2 {
		t.Errorf("rows of an evicted statement = %v, %v; want [0 1]", vals, err)
	}
	if err := c.close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	var got int
	if err := q.QueryRow(ctx, `SELECT 7`).Scan(&got); err != nil || got != 7 {
		t.Errorf("query after close of the cache = %d, %v; want 7", got, err)
	}
	if n := c.lru.Len(); n != 0 {
		t.Errorf("cached statements after close = %d, want 0", n)
	}
}
