package sqldb_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// BenchmarkAPIKey reads a key with its organisation's change count, as every request does, from 32
// goroutines at once, each with a context that can be cancelled, as a request's is.
func BenchmarkAPIKey(b *testing.B) {
	for _, engine := range storetest.Engines() {
		b.Run(engine, func(b *testing.B) {
			db := storetest.Open(b, engine)
			o := &radar.Org{ID: uuid.NewString(), Slug: "bench", Name: "Bench", CreatedAt: radar.NewTime(time.Now())}
			if err := db.CreateOrg(context.Background(), o); err != nil {
				b.Fatal(err)
			}
			k := &radar.APIKey{ID: uuid.NewString()[:12], OrgID: o.ID, Name: "reader", Scopes: []string{radar.ScopeTrackerRead},
				SecretHash: []byte("h"), CreatedAt: radar.NewTime(time.Now())}
			if err := db.CreateAPIKey(context.Background(), k); err != nil {
				b.Fatal(err)
			}
			benchKeys(b, db, k.ID)
		})
	}
}

func benchKeys(b *testing.B, db *sqldb.DB, id string) {
	b.SetParallelism(16)
	b.ReportAllocs()
	cpu0, ok := processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ctx, cancel := context.WithCancel(context.Background())
			if _, err := db.APIKey(ctx, id); err != nil {
				b.Error(err)
			}
			cancel()
		}
	})
	b.StopTimer()
	if cpu1, ok1 := processCPU(); ok && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
