package sqldb_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// Requests read their keys concurrently (on PostgreSQL, in shared queries): each gets its own key, with its
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
