package service_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// countingStore counts the reads of every company of an organisation, as the fuzzy index makes them, and can
// hold them until release is closed.
type countingStore struct {
	radar.Store
	reads   atomic.Int64
	release atomic.Pointer[chan struct{}]
}

func (s *countingStore) Entities(ctx context.Context, f radar.EntityFilter) ([]*radar.Entity, error) {
	if f.Compact && f.Page.AfterID == "" && f.IDs == nil && f.Status == "" {
		s.reads.Add(1)
		if release := s.release.Load(); release != nil {
			<-*release
		}
	}
	return s.Store.Entities(ctx, f)
}

// TestFuzzyIndexOfManyCompanies resolves the oldest and the newest of more companies than the index reads at a
// time, and builds an organisation's index once for lookups that arrive together.
func TestFuzzyIndexOfManyCompanies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		store := &countingStore{}
		env := apitest.StartWith(t, engine, apitest.Options{Store: func(s radar.Store) radar.Store {
			store.Store = s
			return store
		}})
		key := env.Key(t, env.OrgA)
		at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		const n = 1201 // more than two pages of the index build
		ids := make([]string, n)
		for i := range n {
			ids[i] = env.InsertEntity(t, env.OrgA, fmt.Sprintf("Company %04d", i), at.Add(time.Duration(i/3)*time.Second)).ID
		}
		resolve := func(query string) string {
			res := env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery="+url.QueryEscape(query), key, nil)
			r, _ := res.Object()["entityResolution"].(map[string]any)
			ent, _ := r["entity"].(map[string]any)
			id, _ := ent["id"].(string)
			if res.Status != http.StatusOK {
				t.Fatalf("%q: %d %s", query, res.Status, res.Body)
			}
			return id
		}
		for _, i := range []int{0, 1, 600, n - 1} {
			if got := resolve(fmt.Sprintf("Company %04d", i)); got != ids[i] {
				t.Errorf("Company %04d resolved to %s, want %s", i, got, ids[i])
			}
		}
		if got := store.reads.Load(); got != 1 {
			t.Errorf("index built %d times for one version of the companies, want once", got)
		}

		// A new company changes the version: eight lookups together build the index once, and all find it.
		fresh := env.InsertEntity(t, env.OrgA, "Quillfern Health", at.Add(time.Hour))
		store.reads.Store(0)
		release := make(chan struct{})
		store.release.Store(&release)
		var wg sync.WaitGroup
		got := make([]string, 8)
		for i := range got {
			wg.Go(func() { got[i] = resolve("quillfern health") })
		}
		for store.reads.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // the other lookups reach the build in progress
		close(release)
		wg.Wait()
		for i, id := range got {
			if id != fresh.ID {
				t.Errorf("lookup %d resolved to %q, want the new company %s", i, id, fresh.ID)
			}
		}
		if got := store.reads.Load(); got != 1 {
			t.Errorf("index built %d times by lookups arriving together, want once", got)
		}
	})
}
