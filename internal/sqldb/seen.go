package sqldb

import (
	"context"
	"fmt"

	"radar"
)

// seenCond keeps the items of alias created after seen, a reader's position, when it is set.
func seenCond(w *where, alias string, seen *radar.Time) {
	if seen != nil {
		w.add(alias+".created_at > %s", seen.Micros())
	}
}

// ReadPosition returns the reader's position, or nil when it has none.
func (db *DB) ReadPosition(ctx context.Context, orgID, reader string) (*radar.Time, error) {
	var us int64
	err := db.eng.reader().QueryRow(ctx, `SELECT seen_through FROM read_positions WHERE org_id = $1 AND reader = $2`, orgID, reader).Scan(&us)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: read position: %w", err)
	}
	t := radar.TimeFromMicros(us)
	return &t, nil
}

// MarkSeen moves the reader's position forwards to through; a position further already stays.
func (db *DB) MarkSeen(ctx context.Context, orgID, reader string, through radar.Time) (radar.Time, error) {
	var us int64
	err := db.tx(ctx, func(q querier, _ any) error {
		return q.QueryRow(ctx, `INSERT INTO read_positions (org_id, reader, seen_through) VALUES ($1, $2, $3)
			ON CONFLICT (org_id, reader) DO UPDATE SET seen_through = CASE
				WHEN excluded.seen_through > read_positions.seen_through THEN excluded.seen_through
				ELSE read_positions.seen_through END
			RETURNING seen_through`, orgID, reader, through.Micros()).Scan(&us)
	})
	if err != nil {
		return radar.Time{}, fmt.Errorf("sqldb: mark seen: %w", err)
	}
	return radar.TimeFromMicros(us), nil
}
