package sqldb

import (
	"context"
	"fmt"

	"radar"
)

// BeginIdempotent claims (org, key) for a request or returns the record holding it.
func (db *DB) BeginIdempotent(ctx context.Context, rec *radar.IdempotencyRecord, expiry, stale radar.Time) (*radar.IdempotencyRecord, bool, error) {
	var (
		existing *radar.IdempotencyRecord
		claimed  bool
	)
	err := db.tx(ctx, func(q querier, _ any) error {
		// Forget an expired record, or one abandoned in progress by a process that died.
		if _, err := q.Exec(ctx, `DELETE FROM idempotency WHERE org_id = $1 AND idem_key = $2
			AND (created_at < $3 OR (state = $4 AND created_at < $5))`,
			rec.OrgID, rec.Key, expiry.Micros(), radar.IdemInProgress, stale.Micros()); err != nil {
			return err
		}
		n, err := q.Exec(ctx, `INSERT INTO idempotency (org_id, idem_key, scope, request_hash, state, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (org_id, idem_key) DO NOTHING`,
			rec.OrgID, rec.Key, rec.Scope, rec.RequestHash, radar.IdemInProgress, rec.CreatedAt.Micros())
		if err != nil {
			return err
		}
		if n == 1 {
			claimed = true
			return nil
		}
		var (
			r       radar.IdempotencyRecord
			created int64
		)
		err = q.QueryRow(ctx, `SELECT org_id, idem_key, scope, request_hash, state, entity_id, status_code, created_at
			FROM idempotency WHERE org_id = $1 AND idem_key = $2`, rec.OrgID, rec.Key).
			Scan(&r.OrgID, &r.Key, &r.Scope, &r.RequestHash, &r.State, &r.EntityID, &r.StatusCode, &created)
		if err != nil {
			return err
		}
		r.CreatedAt = radar.TimeFromMicros(created)
		existing = &r
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("sqldb: idempotency: %w", err)
	}
	return existing, claimed, nil
}

// AbandonIdempotent forgets an in-progress claim.
func (db *DB) AbandonIdempotent(ctx context.Context, orgID, key string) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `DELETE FROM idempotency WHERE org_id = $1 AND idem_key = $2 AND state = $3`, orgID, key, radar.IdemInProgress)
		return err
	})
}

func completeIdempotent(ctx context.Context, q querier, rec *radar.IdempotencyRecord, entityID string) error {
	if rec == nil {
		return nil
	}
	_, err := q.Exec(ctx, `UPDATE idempotency SET state = $1, entity_id = $2, status_code = $3 WHERE org_id = $4 AND idem_key = $5`,
		radar.IdemDone, entityID, rec.StatusCode, rec.OrgID, rec.Key)
	if err != nil {
		return fmt.Errorf("sqldb: complete idempotency: %w", err)
	}
	return nil
}
