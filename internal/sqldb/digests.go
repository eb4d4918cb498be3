package sqldb

import (
	"context"
	"database/sql"
	"fmt"

	"radar"
)

// DigestSettings reads when the organisation sends its digests.
func (db *DB) DigestSettings(ctx context.Context, orgID string) (radar.DigestSettings, error) {
	var s radar.DigestSettings
	err := db.eng.reader().QueryRow(ctx, `SELECT digest_hour, digest_time_zone FROM orgs WHERE id = $1`, orgID).
		Scan(&s.Hour, &s.TimeZone)
	if isNoRows(err) {
		return s, radar.ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("sqldb: digest settings: %w", err)
	}
	return s, nil
}

// SetDigestSettings changes when the organisation sends its digests.
func (db *DB) SetDigestSettings(ctx context.Context, orgID string, s radar.DigestSettings) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE orgs SET digest_hour = $1, digest_time_zone = $2 WHERE id = $3`, s.Hour, s.TimeZone, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: set digest settings: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		return nil
	})
}

// DigestOrgs lists the organisations that have an entity with its digest on, with their settings.
func (db *DB) DigestOrgs(ctx context.Context) (map[string]radar.DigestSettings, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT o.id, o.digest_hour, o.digest_time_zone FROM orgs o
		WHERE EXISTS (SELECT 1 FROM entities e WHERE e.org_id = o.id AND e.digest <> 'off')`)
	if err != nil {
		return nil, fmt.Errorf("sqldb: digest orgs: %w", err)
	}
	defer rs.Close()
	out := map[string]radar.DigestSettings{}
	for rs.Next() {
		var (
			id string
			s  radar.DigestSettings
		)
		if err := rs.Scan(&id, &s.Hour, &s.TimeZone); err != nil {
			return nil, fmt.Errorf("sqldb: digest orgs: %w", err)
		}
		out[id] = s
	}
	return out, rs.Err()
}

// DigestEntities lists the organisation's entities whose digest is on.
func (db *DB) DigestEntities(ctx context.Context, orgID string) ([]radar.DigestEntity, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT id, company_name, alert_emails, digest FROM entities
		WHERE org_id = $1 AND digest <> 'off' ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: digest entities: %w", err)
	}
	defer rs.Close()
	var out []radar.DigestEntity
	for rs.Next() {
		var (
			e      radar.DigestEntity
			emails string
		)
		if err := rs.Scan(&e.ID, &e.CompanyName, &emails, &e.Digest); err != nil {
			return nil, fmt.Errorf("sqldb: digest entities: %w", err)
		}
		if err := unmarshalStrings(emails, &e.AlertEmails); err != nil {
			return nil, fmt.Errorf("sqldb: digest entities: %w", err)
		}
		out = append(out, e)
	}
	return out, rs.Err()
}

// DigestSignals lists the signals that found something (not no_change) of the entities, created after since and
// up to through, newest first.
func (db *DB) DigestSignals(ctx context.Context, orgID string, entityIDs []string, since, through radar.Time) ([]*radar.Signal, error) {
	if len(entityIDs) == 0 {
		return nil, nil
	}
	w := where{}
	w.add("x.org_id = %s", orgID)
	w.add("x.type <> 'no_change'")
	w.add("x.created_at > %s", since.Micros())
	w.add("x.created_at <= %s", through.Micros())
	w.in("x.entity_id", entityIDs)
	rs, err := db.eng.reader().Query(ctx, `SELECT `+signalColumns+` FROM signals x`+w.sql()+` ORDER BY x.created_at DESC, x.id DESC`, w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: digest signals: %w", err)
	}
	defer rs.Close()
	var out []*radar.Signal
	for rs.Next() {
		s, err := scanSignal(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: digest signals: %w", err)
		}
		out = append(out, s)
	}
	return out, rs.Err()
}

// DigestOptOuts returns the recipients who unsubscribed from the organisation's digests.
func (db *DB) DigestOptOuts(ctx context.Context, orgID string) (map[string]bool, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT recipient FROM digest_optouts WHERE org_id = $1`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: digest opt-outs: %w", err)
	}
	defer rs.Close()
	out := map[string]bool{}
	for rs.Next() {
		var r string
		if err := rs.Scan(&r); err != nil {
			return nil, fmt.Errorf("sqldb: digest opt-outs: %w", err)
		}
		out[r] = true
	}
	return out, rs.Err()
}

// OptOutDigest records that recipient wants no more digests from the organisation; doing it again changes
// nothing.
func (db *DB) OptOutDigest(ctx context.Context, orgID, recipient string, now radar.Time) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `INSERT INTO digest_optouts (org_id, recipient, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (org_id, recipient) DO NOTHING`, orgID, recipient, now.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: opt out of digests: %w", err)
		}
		return nil
	})
}

// LastDigest returns the end of the period covered by the recipient's latest finished digest of the period
// kind; ok is false when there is none.
func (db *DB) LastDigest(ctx context.Context, orgID, recipient, period string) (through radar.Time, ok bool, err error) {
	var t sql.NullInt64
	err = db.eng.reader().QueryRow(ctx, `SELECT MAX(through) FROM digests
		WHERE org_id = $1 AND recipient = $2 AND period = $3 AND status <> $4`, orgID, recipient, period, radar.DigestSending).Scan(&t)
	if err != nil {
		return through, false, fmt.Errorf("sqldb: last digest: %w", err)
	}
	if !t.Valid {
		return through, false, nil
	}
	return radar.TimeFromMicros(t.Int64), true, nil
}

// ClaimDigest takes the digest k for building and sending: it is new, or another job took it before
// staleBefore and never finished. claimed is false when the digest is finished or another job holds it.
func (db *DB) ClaimDigest(ctx context.Context, k radar.DigestKey, since, through, now, staleBefore radar.Time) (claimed bool, err error) {
	err = db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `INSERT INTO digests (org_id, recipient, period, period_start, status, since, through, claimed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (org_id, recipient, period, period_start) DO NOTHING`,
			k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros(), radar.DigestSending, since.Micros(), through.Micros(), now.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: claim digest: %w", err)
		}
		if n == 1 {
			claimed = true
			return nil
		}
		n, err = q.Exec(ctx, `UPDATE digests SET since = $1, through = $2, claimed_at = $3
			WHERE org_id = $4 AND recipient = $5 AND period = $6 AND period_start = $7 AND status = $8
			AND (claimed_at IS NULL OR claimed_at < $9)`,
			since.Micros(), through.Micros(), now.Micros(), k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros(),
			radar.DigestSending, staleBefore.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: claim digest: %w", err)
		}
		claimed = n == 1
		return nil
	})
	return claimed, err
}

// FinishDigest records the outcome of a claimed digest: status DigestSent, DigestKept or DigestEmpty, how many
// runs it held, and its subject and text.
func (db *DB) FinishDigest(ctx context.Context, k radar.DigestKey, status string, items int, subject, text string, now radar.Time) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `UPDATE digests SET status = $1, items = $2, subject = $3, body_text = $4, sent_at = $5, claimed_at = NULL
			WHERE org_id = $6 AND recipient = $7 AND period = $8 AND period_start = $9`,
			status, items, subject, text, now.Micros(), k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: finish digest: %w", err)
		}
		return nil
	})
}

// ReleaseDigest gives up a claimed digest that could not be sent, so that the next job tries again.
func (db *DB) ReleaseDigest(ctx context.Context, k radar.DigestKey) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `UPDATE digests SET claimed_at = NULL
			WHERE org_id = $1 AND recipient = $2 AND period = $3 AND period_start = $4 AND status = $5`,
			k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros(), radar.DigestSending)
		if err != nil {
			return fmt.Errorf("sqldb: release digest: %w", err)
		}
		return nil
	})
}

// DigestStatus returns the status of digest k, or "" when there is none yet.
func (db *DB) DigestStatus(ctx context.Context, k radar.DigestKey) (string, error) {
	var s string
	err := db.eng.reader().QueryRow(ctx, `SELECT status FROM digests
		WHERE org_id = $1 AND recipient = $2 AND period = $3 AND period_start = $4`,
		k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros()).Scan(&s)
	if isNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sqldb: digest status: %w", err)
	}
	return s, nil
}
