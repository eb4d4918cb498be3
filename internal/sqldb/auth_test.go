package sqldb_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// Requests read their keys concurrently, in shared queries: each gets its own key, with its
// own organisation, and an unknown id is not found.
func TestConcurrentKeyReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		orgs := []string{engineOrg(t, db), engineOrg(t, db)}
		keys := map[string]string{}
		for i := range 40 {
			k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: orgs[i%2], Name: "k", Scopes: []string{radar.ScopeTrackerRead},
				SecretHash: []byte{byte(i)}, CreatedAt: radar.NewTime(time.Now())}
			if err := db.CreateAPIKey(ctx, k); err != nil {
				t.Fatal(err)
			}
			keys[k.ID] = k.OrgID
		}
		var wg sync.WaitGroup
		for range 5 {
			for id, org := range keys {
				wg.Go(func() {
					k, err := db.APIKey(ctx, id)
					if err != nil || k.ID != id || k.OrgID != org {
						t.Errorf("APIKey(%s) = %+v, %v; want the key of %s", id, k, err, org)
					}
				})
				wg.Go(func() {
					if _, err := db.APIKey(ctx, "unknown"+id[7:]); !errors.Is(err, radar.ErrNotFound) {
						t.Errorf("unknown key: err = %v, want not found", err)
					}
				})
			}
		}
		wg.Wait()
	})
}

// The sessions that read keys plan the key query once: every request runs it.
func TestKeyReadsUseGenericPlans(t *testing.T) {
	if !slices.Contains(storetest.Engines(), sqldb.Postgres) {
		t.Skip("PostgreSQL only; set " + storetest.PostgresEnv)
	}
	db := storetest.Open(t, sqldb.Postgres)
	v, err := sqldb.KeyReaderSetting(context.Background(), db, "plan_cache_mode")
	if err != nil || v != "force_generic_plan" {
		t.Errorf("plan_cache_mode of the key reader = %q, %v; want force_generic_plan", v, err)
	}
}

// A batch of key reads looks each key up in the primary key's index, however few keys there are. With a few
// hundred keys PostgreSQL found a scan of the whole table cheaper, and every batch compared each key's id with
// every id asked: most of the database's CPU under a load of reads.
func TestKeyReadsSeekTheIndex(t *testing.T) {
	if !slices.Contains(storetest.Engines(), sqldb.Postgres) {
		t.Skip("PostgreSQL only; set " + storetest.PostgresEnv)
	}
	ctx := context.Background()
	url := storetest.URL(t, sqldb.Postgres)
	db, err := sqldb.Open(ctx, url, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	org := engineOrg(t, db)
	var ids []string
	for i := range 300 {
		k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: org, Name: "k", Scopes: []string{radar.ScopeTrackerRead},
			SecretHash: []byte{byte(i)}, CreatedAt: radar.NewTime(time.Now())}
		if err := db.CreateAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, k.ID)
	}
	if _, err := rawSQL(t, url).ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	plan, err := sqldb.KeyStatesPlan(ctx, db, ids[:9], []string{org})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plan, `"Seq Scan"`) {
		t.Fatalf("the key read scans a table:\n%s", plan)
	}
}

// A key read again is read whole: what a process keeps of it never hides a revocation or a change written by
// another process on the same database, a recorded use (which APIKeys lists) changes nothing of it, and a key
// read many times at once, in shared queries, comes back the same to each caller.
func TestKeyReadsSeeOtherProcesses(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		url := storetest.URL(t, engine)
		open := func() *sqldb.DB {
			db, err := sqldb.Open(ctx, url, sqldb.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		reader, writer := open(), open()
		org := &radar.Org{ID: uuid.NewString(), Slug: "org-" + uuid.NewString()[:8], Name: "Northwind Capital", CreatedAt: radar.NewTime(time.Now())}
		if err := writer.CreateOrg(ctx, org); err != nil {
			t.Fatal(err)
		}
		expires := radar.NewTime(time.Now().Add(time.Hour))
		k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: org.ID, Name: "reader", Scopes: []string{radar.ScopeLeadsRead, radar.ScopeTrackerRead},
			SecretHash: []byte("hash"), ExpiresAt: &expires, CreatedAt: radar.NewTime(time.Now())}
		if err := writer.CreateAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
		read := func() *radar.APIKey {
			t.Helper()
			got, err := reader.APIKey(ctx, k.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.OrgID != org.ID || got.OrgSlug != org.Slug || got.OrgName != org.Name || got.Name != k.Name ||
				!slices.Equal(got.Scopes, k.Scopes) || string(got.SecretHash) != "hash" || got.ExpiresAt == nil ||
				got.ExpiresAt.Micros() != expires.Micros() || got.CreatedAt.Micros() != k.CreatedAt.Micros() {
				t.Fatalf("APIKey = %+v, want %+v of %+v", got, k, org)
			}
			return got
		}
		first := read()
		if again := read(); again.RevokedAt != nil || again.LastUsedAt != nil || again.Changes != first.Changes {
			t.Fatalf("a second read differs: %+v, then %+v", first, again)
		}

		trackedEntity(t, writer, org.ID, "northwind")
		last := read().Changes
		if last <= first.Changes {
			t.Errorf("change count %d after another process's write, was %d", last, first.Changes)
		}
		used := radar.NewTime(time.Now())
		if err := writer.TouchAPIKey(ctx, k.ID, used); err != nil {
			t.Fatal(err)
		}
		if got := read(); got.RevokedAt != nil || got.Changes != last {
			t.Errorf("a recorded use changed the key read: %+v", got)
		}
		if keys, err := reader.APIKeys(ctx, org.ID); err != nil || len(keys) != 1 || keys[0].LastUsedAt == nil || keys[0].LastUsedAt.Micros() != used.Micros() {
			t.Errorf("APIKeys after a use by another process: %+v, %v; want last use %v", keys, err, used)
		}

		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				got, err := reader.APIKey(ctx, k.ID)
				if err != nil || got.ID != k.ID || got.RevokedAt != nil {
					t.Errorf("concurrent read: %+v, %v", got, err)
				}
			})
			wg.Go(func() {
				if _, err := reader.APIKey(ctx, "unknown"+k.ID[7:]); !errors.Is(err, radar.ErrNotFound) {
					t.Errorf("unknown key: err = %v, want not found", err)
				}
			})
		}
		wg.Wait()

		if err := writer.RevokeAPIKey(ctx, org.ID, k.ID, radar.NewTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		if got := read(); got.RevokedAt == nil {
			t.Errorf("a key revoked by another process reads as not revoked")
		}
	})
}

// Keys of several organisations read together, in one batch, each carry their own organisation's
// change count, and an organisation that has changed nothing yet counts 0.
func TestKeyReadsCountEachOrgsChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		busy, quiet := engineOrg(t, db), engineOrg(t, db)
		var keys []*radar.APIKey
		for i := range 6 {
			org := busy
			if i%2 == 1 {
				org = quiet
			}
			k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: org, Name: "k", Scopes: []string{radar.ScopeTrackerRead},
				SecretHash: []byte("hash"), CreatedAt: radar.NewTime(time.Now())}
			if err := db.CreateAPIKey(ctx, k); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k)
		}
		// readAll reads every key ten times from concurrent callers and reports each organisation's count,
		// failing when two reads of one organisation disagree.
		readAll := func() map[string]int64 {
			t.Helper()
			var (
				mu     sync.Mutex
				counts = map[string]int64{}
				wg     sync.WaitGroup
			)
			for range 10 {
				for _, k := range keys {
					wg.Go(func() {
						got, err := db.APIKey(ctx, k.ID)
						if err != nil {
							t.Errorf("read %s: %v", k.ID, err)
							return
						}
						mu.Lock()
						defer mu.Unlock()
						if got.OrgID != k.OrgID {
							t.Errorf("key %s read with organisation %s, want %s", k.ID, got.OrgID, k.OrgID)
						}
						if n, ok := counts[got.OrgID]; ok && n != got.Changes {
							t.Errorf("organisation %s read with counts %d and %d", got.OrgID, n, got.Changes)
						}
						counts[got.OrgID] = got.Changes
					})
				}
			}
			wg.Wait()
			return counts
		}
		before := readAll()
		if before[quiet] != 0 {
			t.Errorf("an organisation with no change counts %d, want 0", before[quiet])
		}
		trackedEntity(t, db, busy, "northwind")
		after := readAll()
		if after[busy] <= before[busy] {
			t.Errorf("changed organisation counts %d, was %d", after[busy], before[busy])
		}
		if after[quiet] != 0 {
			t.Errorf("unchanged organisation counts %d after another's write, want 0", after[quiet])
		}
	})
}

// The uses of many keys recorded at once, as after a start, each land on their own key.
func TestKeyUsesRecordedTogether(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		base := time.Now().Truncate(time.Second)
		want := map[string]int64{}
		var wg sync.WaitGroup
		for i := range 40 {
			k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: org, Name: "k", Scopes: []string{radar.ScopeTrackerRead},
				SecretHash: []byte("hash"), CreatedAt: radar.NewTime(base)}
			if err := db.CreateAPIKey(ctx, k); err != nil {
				t.Fatal(err)
			}
			at := radar.NewTime(base.Add(time.Duration(i) * time.Second))
			want[k.ID] = at.Micros()
			wg.Go(func() {
				if err := db.TouchAPIKey(ctx, k.ID, at); err != nil {
					t.Errorf("touch %s: %v", k.ID, err)
				}
			})
		}
		wg.Wait()
		keys, err := db.APIKeys(ctx, org)
		if err != nil || len(keys) != len(want) {
			t.Fatalf("keys: %d, %v; want %d", len(keys), err, len(want))
		}
		for _, k := range keys {
			if k.LastUsedAt == nil || k.LastUsedAt.Micros() != want[k.ID] {
				t.Errorf("key %s last used %v, want %d", k.ID, k.LastUsedAt, want[k.ID])
			}
		}
	})
}

// A request that has ended reads nothing, though its key and company reads are not interrupted once started.
func TestReadsOfAnEndedRequestFail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := trackedEntity(t, db, org, "northwind")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := db.APIKey(ctx, "abcdefghijkl"); !errors.Is(err, context.Canceled) {
			t.Errorf("key read of an ended request: %v, want canceled", err)
		}
		if _, err := db.Entity(ctx, org, e.ID); !errors.Is(err, context.Canceled) {
			t.Errorf("company read of an ended request: %v, want canceled", err)
		}
	})
}
