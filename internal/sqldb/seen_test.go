package sqldb_test

import (
	"context"
	"testing"
	"time"

	"radar"
	"radar/internal/sqldb/storetest"
)

func TestReadPositions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org, other := newOrg(t, db, "acme"), newOrg(t, db, "other")
		e := newEntity(org.ID, "northwind", time.Now())
		if err := db.CreateEntity(ctx, e, nil, nil); err != nil {
			t.Fatal(err)
		}
		base := time.Now().Add(-time.Hour)
		var sigs []*radar.Signal
		for i := range 3 {
			sigs = append(sigs, finishRun(t, db, org.ID, e, base.Add(time.Duration(i)*time.Minute), "run", 1))
		}

		if pos, err := db.ReadPosition(ctx, org.ID, "key-1"); err != nil || pos != nil {
			t.Fatalf("position before any mark = %v, %v; want none", pos, err)
		}
		got, err := db.MarkSeen(ctx, org.ID, "key-1", sigs[1].CreatedAt)
		if err != nil || !got.Equal(sigs[1].CreatedAt.Time) {
			t.Fatalf("mark = %v, %v; want %v", got, err, sigs[1].CreatedAt)
		}
		// Backwards is refused: the stored position is answered.
		if got, err = db.MarkSeen(ctx, org.ID, "key-1", sigs[0].CreatedAt); err != nil || !got.Equal(sigs[1].CreatedAt.Time) {
			t.Errorf("earlier mark = %v, %v; want the position kept at %v", got, err, sigs[1].CreatedAt)
		}
		pos, err := db.ReadPosition(ctx, org.ID, "key-1")
		if err != nil || pos == nil || !pos.Equal(sigs[1].CreatedAt.Time) {
			t.Fatalf("position = %v, %v", pos, err)
		}
		list, err := db.Signals(ctx, radar.SignalFilter{OrgID: org.ID, SeenThrough: pos})
		if err != nil || len(list) != 1 || list[0].ID != sigs[2].ID {
			t.Errorf("unseen signals = %d, %v; want only the newest", len(list), err)
		}
		if n, err := db.CountAlerts(ctx, radar.AlertFilter{OrgID: org.ID, SeenThrough: pos}, 100); err != nil || n != 1 {
			t.Errorf("unseen alerts = %d, %v; want 1", n, err)
		}
		// Positions are per reader and per organisation.
		if pos, _ := db.ReadPosition(ctx, org.ID, "key-2"); pos != nil {
			t.Errorf("another reader has a position: %v", pos)
		}
		if pos, _ := db.ReadPosition(ctx, other.ID, "key-1"); pos != nil {
			t.Errorf("the reader has a position in another organisation: %v", pos)
		}
	})
}
