package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"radar"
)

// This file keeps webhook endpoints, the events queued for them and the log of their delivery attempts. Events
// are queued by the transaction that produces them (a run's, an enrichment's, an e-mail's), with their jobs.

const webhookColumns = `w.id, w.org_id, w.url, w.kind, w.events, w.enabled, w.secret, w.prev_secret, w.prev_secret_until,
	w.failing_since, w.disabled_reason, w.created_at, w.updated_at`

func scanWebhook(r row) (*radar.WebhookEndpoint, error) {
	var (
		w                  radar.WebhookEndpoint
		events             string
		prevUntil, failing sql.NullInt64
		created, updated   int64
	)
	err := r.Scan(&w.ID, &w.OrgID, &w.URL, &w.Kind, &events, &w.Enabled, &w.Secret, &w.PreviousSecret, &prevUntil,
		&failing, &w.DisabledReason, &created, &updated)
	if err != nil {
		return nil, err
	}
	w.PreviousSecretExpiresAt, w.FailingSince = timePtr(prevUntil), timePtr(failing)
	w.CreatedAt, w.UpdatedAt = radar.TimeFromMicros(created), radar.TimeFromMicros(updated)
	w.Events = []string{}
	if err := unmarshalText(events, &w.Events); err != nil {
		return nil, err
	}
	return &w, nil
}

// CreateWebhook stores a new endpoint.
func (db *DB) CreateWebhook(ctx context.Context, w *radar.WebhookEndpoint) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `INSERT INTO webhook_endpoints (id, org_id, url, kind, events, enabled, secret, prev_secret,
			prev_secret_until, failing_since, disabled_reason, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, '', NULL, NULL, '', $8, $8)`,
			w.ID, w.OrgID, w.URL, w.Kind, jsonText(w.Events), w.Enabled, w.Secret, w.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: create webhook: %w", err)
		}
		return nil
	})
}

// Webhook reads one endpoint of orgID.
func (db *DB) Webhook(ctx context.Context, orgID, id string) (*radar.WebhookEndpoint, error) {
	return webhook(ctx, db.eng.reader(), orgID, id)
}

func webhook(ctx context.Context, q querier, orgID, id string) (*radar.WebhookEndpoint, error) {
	w, err := scanWebhook(q.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhook_endpoints w WHERE w.id = $1 AND w.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: webhook: %w", err)
	}
	return w, nil
}

// Webhooks lists the endpoints of orgID, newest first.
func (db *DB) Webhooks(ctx context.Context, orgID string) ([]*radar.WebhookEndpoint, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT `+webhookColumns+` FROM webhook_endpoints w WHERE w.org_id = $1
		ORDER BY w.created_at DESC, w.id DESC`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: webhooks: %w", err)
	}
	defer rs.Close()
	out := []*radar.WebhookEndpoint{}
	for rs.Next() {
		w, err := scanWebhook(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: webhooks: %w", err)
		}
		out = append(out, w)
	}
	return out, rs.Err()
}

// UpdateWebhook writes the URL, kind, events and enabled flag of w; enabling an endpoint forgets its failures.
func (db *DB) UpdateWebhook(ctx context.Context, w *radar.WebhookEndpoint, now radar.Time) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE webhook_endpoints SET url = $1, kind = $2, events = $3,
			failing_since = CASE WHEN $4 AND NOT enabled THEN NULL ELSE failing_since END,
			disabled_reason = CASE WHEN $4 THEN '' ELSE disabled_reason END,
			enabled = $4, updated_at = $5 WHERE id = $6 AND org_id = $7`,
			w.URL, w.Kind, jsonText(w.Events), w.Enabled, now.Micros(), w.ID, w.OrgID)
		if err != nil {
			return fmt.Errorf("sqldb: update webhook: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		return nil
	})
}

// RotateWebhookSecret makes secret the endpoint's signing secret; the replaced one signs too until prevUntil.
func (db *DB) RotateWebhookSecret(ctx context.Context, orgID, id, secret string, prevUntil, now radar.Time) (*radar.WebhookEndpoint, error) {
	var w *radar.WebhookEndpoint
	err := db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE webhook_endpoints SET prev_secret = secret, prev_secret_until = $1, secret = $2,
			updated_at = $3 WHERE id = $4 AND org_id = $5`, prevUntil.Micros(), secret, now.Micros(), id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: rotate webhook secret: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		w, err = webhook(ctx, q, orgID, id)
		return err
	})
	return w, err
}

// DeleteWebhook deletes an endpoint with its queued events and its log.
func (db *DB) DeleteWebhook(ctx context.Context, orgID, id string) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `DELETE FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: delete webhook: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		return nil
	})
}

// QueueWebhookMessage stores m for its endpoint and inserts its delivery job in the same transaction.
func (db *DB) QueueWebhookMessage(ctx context.Context, m *radar.WebhookMessage) error {
	return db.tx(ctx, func(q querier, tx any) error {
		if _, err := webhook(ctx, q, m.OrgID, m.EndpointID); err != nil {
			return err
		}
		return db.insertWebhookMessages(ctx, q, tx, []*radar.WebhookMessage{m})
	})
}

func (db *DB) insertWebhookMessages(ctx context.Context, q querier, tx any, ms []*radar.WebhookMessage) error {
	if len(ms) == 0 {
		return nil
	}
	jobs := make([]radar.JobArgs, len(ms))
	for i, m := range ms {
		_, err := q.Exec(ctx, `INSERT INTO webhook_messages (id, org_id, endpoint_id, event_type, payload, status, attempts, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, 0, $7)`,
			m.ID, m.OrgID, m.EndpointID, m.EventType, string(m.Payload), radar.WebhookMessagePending, m.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: queue webhook message: %w", err)
		}
		jobs[i] = radar.WebhookArgs{OrgID: m.OrgID, MessageID: m.ID}
	}
	return db.enqueueAttempts(ctx, q, jobs, radar.WebhookMaxAttempts)
}

// NewWebhookMessageID returns a new webhook-id.
func NewWebhookMessageID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return "msg_" + uuid.NewString()
	}
	return "msg_" + id.String()
}

// emitWebhooks queues events of orgID for every enabled endpoint subscribed to them, inside the transaction
// that produced them.
func (db *DB) emitWebhooks(ctx context.Context, q querier, tx any, orgID string, at radar.Time, events ...radar.WebhookEvent) error {
	if len(events) == 0 {
		return nil
	}
	rs, err := q.Query(ctx, `SELECT id, events FROM webhook_endpoints WHERE org_id = $1 AND enabled = $2`, orgID, true)
	if err != nil {
		return fmt.Errorf("sqldb: emit webhooks: %w", err)
	}
	type endpoint struct {
		id     string
		events []string
	}
	var eps []endpoint
	for rs.Next() {
		var (
			ep   endpoint
			text string
		)
		if err := rs.Scan(&ep.id, &text); err != nil {
			rs.Close()
			return fmt.Errorf("sqldb: emit webhooks: %w", err)
		}
		if err := unmarshalText(text, &ep.events); err != nil {
			rs.Close()
			return err
		}
		eps = append(eps, ep)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return fmt.Errorf("sqldb: emit webhooks: %w", err)
	}
	if len(eps) == 0 {
		return nil
	}
	var ms []*radar.WebhookMessage
	for _, ev := range events {
		var body []byte
		for _, ep := range eps {
			if !slices.Contains(ep.events, ev.Type) {
				continue
			}
			if body == nil {
				if body, err = json.Marshal(radar.WebhookPayload{Type: ev.Type, Timestamp: at, Version: radar.WebhookPayloadVersion, Data: ev.Data}); err != nil {
					return fmt.Errorf("sqldb: emit webhooks: %w", err)
				}
			}
			ms = append(ms, &radar.WebhookMessage{ID: NewWebhookMessageID(), OrgID: orgID, EndpointID: ep.id,
				EventType: ev.Type, Payload: body, CreatedAt: at})
		}
	}
	return db.insertWebhookMessages(ctx, q, tx, ms)
}

// WebhookMessage reads a queued message with its endpoint, counting the attempt that is about to start.
func (db *DB) WebhookMessage(ctx context.Context, orgID, id string) (*radar.WebhookMessage, *radar.WebhookEndpoint, error) {
	var (
		m  radar.WebhookMessage
		ep *radar.WebhookEndpoint
	)
	err := db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE webhook_messages SET attempts = attempts + 1 WHERE id = $1 AND org_id = $2`, id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: webhook message: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		var (
			payload string
			created int64
		)
		err = q.QueryRow(ctx, `SELECT id, org_id, endpoint_id, event_type, payload, status, attempts, created_at
			FROM webhook_messages WHERE id = $1`, id).
			Scan(&m.ID, &m.OrgID, &m.EndpointID, &m.EventType, &payload, &m.Status, &m.Attempts, &created)
		if err != nil {
			return fmt.Errorf("sqldb: webhook message: %w", err)
		}
		m.Payload, m.CreatedAt = radar.RawJSON(payload), radar.TimeFromMicros(created)
		ep, err = webhook(ctx, q, orgID, m.EndpointID)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return &m, ep, nil
}

// WebhookAttempt is the outcome of one delivery attempt, as the worker records it.
type WebhookAttempt struct {
	Delivery *radar.WebhookDelivery
	// Final is true when the message will not be tried again.
	Final bool
	// DisableBefore disables the endpoint when it has been failing since before this time.
	DisableBefore radar.Time
	// Reason is what a disabled endpoint shows.
	Reason string
}

// RecordWebhookAttempt logs a delivery attempt and updates its message and endpoint in one transaction: a
// success clears the endpoint's failures; a failure starts them, and when they began before DisableBefore the
// endpoint is disabled and a notice job for the organisation's owners is queued. It reports whether it
// disabled the endpoint.
func (db *DB) RecordWebhookAttempt(ctx context.Context, orgID string, a WebhookAttempt) (disabled bool, err error) {
	d := a.Delivery
	err = db.tx(ctx, func(q querier, tx any) error {
		var code sql.NullInt64
		if d.StatusCode != nil {
			code = sql.NullInt64{Int64: int64(*d.StatusCode), Valid: true}
		}
		_, err := q.Exec(ctx, `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, message_id, event_type, attempt,
			status_code, latency_ms, success, response, error, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			d.ID, orgID, d.EndpointID, d.MessageID, d.EventType, d.Attempt, code, d.LatencyMs, d.Success, d.Response,
			d.Error, d.AttemptedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: record webhook attempt: %w", err)
		}
		status := radar.WebhookMessagePending
		switch {
		case d.Success:
			status = radar.WebhookMessageDelivered
		case a.Final:
			status = radar.WebhookMessageFailed
		}
		if _, err := q.Exec(ctx, `UPDATE webhook_messages SET status = $1 WHERE id = $2`, status, d.MessageID); err != nil {
			return fmt.Errorf("sqldb: record webhook attempt: %w", err)
		}
		if d.Success {
			_, err := q.Exec(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1`, d.EndpointID)
			if err != nil {
				return fmt.Errorf("sqldb: record webhook attempt: %w", err)
			}
			return nil
		}
		if _, err := q.Exec(ctx, `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $1) WHERE id = $2`,
			d.AttemptedAt.Micros(), d.EndpointID); err != nil {
			return fmt.Errorf("sqldb: record webhook attempt: %w", err)
		}
		n, err := q.Exec(ctx, `UPDATE webhook_endpoints SET enabled = $1, disabled_reason = $2, updated_at = $3
			WHERE id = $4 AND enabled = $5 AND failing_since <= $6`,
			false, a.Reason, d.AttemptedAt.Micros(), d.EndpointID, true, a.DisableBefore.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: record webhook attempt: %w", err)
		}
		if disabled = n > 0; !disabled {
			return nil
		}
		return db.enqueue(ctx, q, []radar.JobArgs{radar.WebhookNoticeArgs{OrgID: orgID, EndpointID: d.EndpointID}})
	})
	return disabled, err
}

// SkipWebhookMessage gives up a message without an attempt (its endpoint was disabled meanwhile).
func (db *DB) SkipWebhookMessage(ctx context.Context, id string) error {
	return db.tx(ctx, func(q querier, _ any) error {
		if _, err := q.Exec(ctx, `UPDATE webhook_messages SET status = $1 WHERE id = $2`, radar.WebhookMessageFailed, id); err != nil {
			return fmt.Errorf("sqldb: skip webhook message: %w", err)
		}
		return nil
	})
}

// WebhookDeliveries lists the delivery attempts of an endpoint, newest first.
func (db *DB) WebhookDeliveries(ctx context.Context, f radar.WebhookDeliveryFilter) ([]*radar.WebhookDelivery, error) {
	w := where{}
	w.add("x.org_id = %s", f.OrgID)
	w.add("x.endpoint_id = %s", f.EndpointID)
	w.page("x", f.Page)
	rs, err := db.eng.reader().Query(ctx, `SELECT x.id, x.endpoint_id, x.message_id, x.event_type, x.attempt, x.status_code,
		x.latency_ms, x.success, x.response, x.error, x.created_at FROM webhook_deliveries x`+w.sql()+
		` ORDER BY x.created_at DESC, x.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: webhook deliveries: %w", err)
	}
	defer rs.Close()
	out := []*radar.WebhookDelivery{}
	for rs.Next() {
		var (
			d       radar.WebhookDelivery
			code    sql.NullInt64
			created int64
		)
		if err := rs.Scan(&d.ID, &d.EndpointID, &d.MessageID, &d.EventType, &d.Attempt, &code, &d.LatencyMs, &d.Success,
			&d.Response, &d.Error, &created); err != nil {
			return nil, fmt.Errorf("sqldb: webhook deliveries: %w", err)
		}
		if code.Valid {
			c := int(code.Int64)
			d.StatusCode = &c
		}
		d.AttemptedAt = radar.TimeFromMicros(created)
		d.CreatedAt = d.AttemptedAt
		out = append(out, &d)
	}
	return out, rs.Err()
}

// OwnerEmails lists the e-mail addresses of the organisation's owners.
func (db *DB) OwnerEmails(ctx context.Context, orgID string) ([]string, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT email FROM users WHERE org_id = $1 AND role = $2 ORDER BY email`, orgID, "owner")
	if err != nil {
		return nil, fmt.Errorf("sqldb: owner emails: %w", err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var e string
		if err := rs.Scan(&e); err != nil {
			return nil, fmt.Errorf("sqldb: owner emails: %w", err)
		}
		out = append(out, e)
	}
	return out, rs.Err()
}

// CleanWebhookLog deletes the delivery attempts, and the messages no longer pending, made before before; it
// returns how many attempts it deleted.
func (db *DB) CleanWebhookLog(ctx context.Context, before radar.Time) (int64, error) {
	var n int64
	err := db.tx(ctx, func(q querier, _ any) error {
		var err error
		if n, err = q.Exec(ctx, `DELETE FROM webhook_deliveries WHERE created_at < $1`, before.Micros()); err != nil {
			return fmt.Errorf("sqldb: clean webhook log: %w", err)
		}
		if _, err = q.Exec(ctx, `DELETE FROM webhook_messages WHERE created_at < $1 AND status <> $2`,
			before.Micros(), radar.WebhookMessagePending); err != nil {
			return fmt.Errorf("sqldb: clean webhook log: %w", err)
		}
		return nil
	})
	return n, err
}

// runEvents are the webhook events of a finished run's signal: signal.created, and signal.changed when the run
// found something.
func runEvents(r *radar.RunReport) []radar.WebhookEvent {
	s := *r.Signal
	s.EntityID, s.RunID = r.EntityID, r.RunID
	events := []radar.WebhookEvent{{Type: radar.EventSignalCreated, Data: &s}}
	if !s.Quiet() {
		events = append(events, radar.WebhookEvent{Type: radar.EventSignalChanged, Data: &s})
	}
	return events
}

// emitAlert queues the webhook event of the alert whose e-mail is the outbox message outboxID.
func (db *DB) emitAlert(ctx context.Context, q querier, tx any, orgID, outboxID, event string, at radar.Time) error {
	a, err := scanAlert(q.QueryRow(ctx, `SELECT `+alertColumns+` FROM alerts x WHERE x.org_id = $1
		AND x.id = (SELECT alert_id FROM outbox WHERE id = $2)`, orgID, outboxID))
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqldb: emit alert event: %w", err)
	}
	return db.emitWebhooks(ctx, q, tx, orgID, at, radar.WebhookEvent{Type: event, Data: a})
}
