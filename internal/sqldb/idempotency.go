package sqldb

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"radar"
)

// BeginIdempotent claims (org, key) for a request or returns the record holding it.
func (db *DB) BeginIdempotent(ctx context.Context, rec *radar.IdempotencyRecord, expiry, stale radar.Time) (*radar.IdempotencyRecord, bool, error) {
	var (
		existing *radar.IdempotencyRecord
		claimed  bool
	)
	// Forget an expired record, or one abandoned in progress by a process that died; claim the key; read the
	// record holding it, which is ours when the claim succeeded.
	forget := stmt{`DELETE FROM idempotency WHERE org_id = $1 AND idem_key = $2
			AND (created_at < $3 OR (state = $4 AND created_at < $5))`,
		[]any{rec.OrgID, rec.Key, expiry.Micros(), radar.IdemInProgress, stale.Micros()}}
	claim := stmt{`INSERT INTO idempotency (org_id, idem_key, scope, request_hash, state, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (org_id, idem_key) DO NOTHING`,
		[]any{rec.OrgID, rec.Key, rec.Scope, rec.RequestHash, radar.IdemInProgress, rec.CreatedAt.Micros()}}
	holder := stmt{`SELECT org_id, idem_key, scope, request_hash, state, entity_id, status_code, created_at
			FROM idempotency WHERE org_id = $1 AND idem_key = $2`, []any{rec.OrgID, rec.Key}}
	var (
		r       radar.IdempotencyRecord
		created int64
	)
	scan := func(rw row) error {
		return rw.Scan(&r.OrgID, &r.Key, &r.Scope, &r.RequestHash, &r.State, &r.EntityID, &r.StatusCode, &created)
	}
	var err error
	if pg, ok := db.eng.(*pgEngine); ok {
		// One round trip: the three statements run in the batch's implicit transaction.
		b := &pgx.Batch{}
		for _, s := range []stmt{forget, claim, holder} {
			b.Queue(s.sql, s.args...)
		}
		br := pg.pool.SendBatch(ctx, b)
		var tag pgconn.CommandTag
		if _, err = br.Exec(); err == nil {
			if tag, err = br.Exec(); err == nil {
				claimed = tag.RowsAffected() == 1
				err = scan(br.QueryRow())
			}
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	} else {
		err = db.tx(ctx, func(q querier, _ any) error {
			if _, err := q.Exec(ctx, forget.sql, forget.args...); err != nil {
				return err
			}
			n, err := q.Exec(ctx, claim.sql, claim.args...)
			if err != nil {
				return err
			}
			if claimed = n == 1; claimed {
				return nil
			}
			return scan(q.QueryRow(ctx, holder.sql, holder.args...))
		})
	}
	if err == nil && !claimed {
		r.CreatedAt = radar.TimeFromMicros(created)
		existing = &r
	}
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
	_, err := q.Exec(ctx, completeIdemSQL, radar.IdemDone, entityID, rec.StatusCode, rec.OrgID, rec.Key)
	if err != nil {
		return fmt.Errorf("sqldb: complete idempotency: %w", err)
	}
	return nil
}
