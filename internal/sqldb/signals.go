package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"radar"
)

const signalColumns = `x.id, x.org_id, x.entity_id, x.run_id, x.company_name, x.type, x.severity, x.recommendation,
	x.needs_attention, x.summary, x.analysis, x.evidence, x.findings, x.sources, x.analyser, x.created_at`

func scanSignal(r row) (*radar.Signal, error) {
	var (
		s                           radar.Signal
		evidence, findings, sources string
		created                     int64
	)
	err := r.Scan(&s.ID, &s.OrgID, &s.EntityID, &s.RunID, &s.CompanyName, &s.Type, &s.Severity, &s.Recommendation,
		&s.NeedsAttention, &s.Summary, &s.Analysis, &evidence, &findings, &sources, &s.Analyser, &created)
	if err != nil {
		return nil, err
	}
	s.CreatedAt = radar.TimeFromMicros(created)
	s.Evidence = []radar.Evidence{}
	if err := unmarshalText(evidence, &s.Evidence); err != nil {
		return nil, err
	}
	if err := unmarshalText(findings, &s.Findings); err != nil {
		return nil, err
	}
	if err := unmarshalText(sources, &s.Sources); err != nil {
		return nil, err
	}
	return &s, nil
}

// compactSignalColumns are the columns of the compact view of a signal: no analysis, findings or sources.
const compactSignalColumns = `x.id, x.org_id, x.entity_id, x.run_id, x.company_name, x.type, x.severity, x.recommendation,
	x.needs_attention, x.summary, x.evidence, x.analyser, x.created_at`

func scanCompactSignal(r row) (*radar.Signal, error) {
	var (
		s        radar.Signal
		evidence string
		created  int64
	)
	err := r.Scan(&s.ID, &s.OrgID, &s.EntityID, &s.RunID, &s.CompanyName, &s.Type, &s.Severity, &s.Recommendation,
		&s.NeedsAttention, &s.Summary, &evidence, &s.Analyser, &created)
	if err != nil {
		return nil, err
	}
	s.CreatedAt = radar.TimeFromMicros(created)
	if s.Evidence, err = unmarshalFirstEvidence(evidence, radar.CompactEvidence); err != nil {
		return nil, err
	}
	s = s.Compact()
	return &s, nil
}

// unmarshalFirstEvidence decodes at most n items of a stored JSON array of evidence, leaving the rest unread.
func unmarshalFirstEvidence(s string, n int) ([]radar.Evidence, error) {
	out := []radar.Evidence{}
	if s == "" || s == "[]" {
		return out, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		err := unmarshalText(s, &out)
		return out, err
	}
	for len(out) < n && dec.More() {
		var e radar.Evidence
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("sqldb: stored JSON: %w", err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Signal reads one signal.
func (db *DB) Signal(ctx context.Context, orgID, id string) (*radar.Signal, error) {
	s, err := scanSignal(db.eng.reader().QueryRow(ctx, `SELECT `+signalColumns+` FROM signals x WHERE x.id = $1 AND x.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: signal: %w", err)
	}
	return s, nil
}

// timeBounds adds since (inclusive) and until (exclusive) on alias.created_at.
func timeBounds(w *where, alias string, since, until *radar.Time) {
	if since != nil {
		w.add(alias+".created_at >= %s", since.Micros())
	}
	if until != nil {
		w.add(alias+".created_at < %s", until.Micros())
	}
}

// changedCond keeps runs that found something (changed true) or quiet runs (false) by col, the signal's type.
// The literal matches the partial indexes of migration 00005.
func changedCond(w *where, col string, changed *bool) {
	switch {
	case changed == nil:
	case *changed:
		w.conds = append(w.conds, col+" <> 'no_change'")
	default:
		w.conds = append(w.conds, col+" = 'no_change'")
	}
}

// signalWhere is the condition of f on signals aliased x, paging aside.
func signalWhere(f radar.SignalFilter) where {
	w := where{}
	w.add("x.org_id = %s", f.OrgID)
	if f.EntityID != "" {
		w.add("x.entity_id = %s", f.EntityID)
	}
	timeBounds(&w, "x", f.Since, f.Until)
	if f.NeedsAttention != nil {
		w.add("x.needs_attention = %s", *f.NeedsAttention)
	}
	if f.Type != "" {
		w.add("x.type = %s", f.Type)
	}
	if f.Severity != "" {
		w.add("x.severity = %s", f.Severity)
	}
	if f.Recommendation != "" {
		w.add("x.recommendation = %s", f.Recommendation)
	}
	if f.Q != "" {
		p := likePattern(f.Q)
		w.add(`(lower(x.summary) LIKE %[1]s ESCAPE '\' OR lower(x.analysis) LIKE %[1]s ESCAPE '\' OR lower(x.company_name) LIKE %[1]s ESCAPE '\')`, p)
	}
	changedCond(&w, "x.type", f.Changed)
	seenCond(&w, "x", f.SeenThrough)
	sectorCond(&w, "x.entity_id", f.Sectors)
	return w
}

// Signals lists signals, newest first.
func (db *DB) Signals(ctx context.Context, f radar.SignalFilter) ([]*radar.Signal, error) {
	w := signalWhere(f)
	w.page("x", f.Page)
	rs, err := db.eng.reader().Query(ctx, `SELECT `+signalColumns+` FROM signals x`+w.sql()+` ORDER BY x.created_at DESC, x.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: signals: %w", err)
	}
	defer rs.Close()
	var out []*radar.Signal
	for rs.Next() {
		s, err := scanSignal(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: signals: %w", err)
		}
		out = append(out, s)
	}
	return out, rs.Err()
}

// CountSignals counts the signals f selects, up to limit; its page is ignored.
func (db *DB) CountSignals(ctx context.Context, f radar.SignalFilter, limit int) (int, error) {
	w := signalWhere(f)
	n, err := db.count(ctx, `SELECT 1 FROM signals x`+w.sql(), w, limit)
	if err != nil {
		return 0, fmt.Errorf("sqldb: count signals: %w", err)
	}
	return n, nil
}

// count counts the rows of the query sel, whose arguments w holds, up to limit: it stops reading there.
func (db *DB) count(ctx context.Context, sel string, w where, limit int) (int, error) {
	var n int
	err := db.eng.reader().QueryRow(ctx, `SELECT count(*) FROM (`+sel+` LIMIT `+w.arg(limit)+`) c`, w.args...).Scan(&n)
	return n, err
}

// LatestSignals returns the compact view (radar.Signal.Compact) of the newest signal of each entity: it never
// reads analysis, findings or sources, which only the full view of a signal shows.
func (db *DB) LatestSignals(ctx context.Context, orgID string, entityIDs []string) (map[string]*radar.Signal, error) {
	return latestSignals(ctx, db.eng.reader(), orgID, entityIDs)
}

func latestSignals(ctx context.Context, q querier, orgID string, entityIDs []string) (map[string]*radar.Signal, error) {
	out := make(map[string]*radar.Signal, len(entityIDs))
	if len(entityIDs) == 0 {
		return out, nil
	}
	w := where{}
	w.add("x.org_id = %s", orgID)
	w.in("x.entity_id", entityIDs)
	w.conds = append(w.conds, `NOT EXISTS (SELECT 1 FROM signals y WHERE y.entity_id = x.entity_id
		AND (y.created_at > x.created_at OR (y.created_at = x.created_at AND y.id > x.id)))`)
	rs, err := q.Query(ctx, `SELECT `+compactSignalColumns+` FROM signals x`+w.sql(), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: latest signals: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		s, err := scanCompactSignal(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: latest signals: %w", err)
		}
		out[s.EntityID] = s
	}
	return out, rs.Err()
}

const alertColumns = `x.id, x.org_id, x.entity_id, x.signal_id, x.company_name, x.outcome, x.reason, x.recipients,
	x.subject, x.rule_evaluations, x.sent_at, x.created_at`

func scanAlert(r row) (*radar.Alert, error) {
	var (
		a                 radar.Alert
		recipients, evals string
		sent              sql.NullInt64
		created           int64
	)
	err := r.Scan(&a.ID, &a.OrgID, &a.EntityID, &a.SignalID, &a.CompanyName, &a.Outcome, &a.Reason, &recipients,
		&a.Subject, &evals, &sent, &created)
	if err != nil {
		return nil, err
	}
	a.SentAt, a.CreatedAt = timePtr(sent), radar.TimeFromMicros(created)
	a.Recipients, a.RuleEvaluations = []string{}, []radar.RuleEvaluation{}
	if err := unmarshalText(recipients, &a.Recipients); err != nil {
		return nil, err
	}
	if err := unmarshalText(evals, &a.RuleEvaluations); err != nil {
		return nil, err
	}
	return &a, nil
}

// Alert reads one alert.
func (db *DB) Alert(ctx context.Context, orgID, id string) (*radar.Alert, error) {
	a, err := scanAlert(db.eng.reader().QueryRow(ctx, `SELECT `+alertColumns+` FROM alerts x WHERE x.id = $1 AND x.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: alert: %w", err)
	}
	return a, nil
}

// alertWhere is the condition of f on alerts aliased x, paging aside.
func alertWhere(f radar.AlertFilter) where {
	w := where{}
	w.add("x.org_id = %s", f.OrgID)
	if f.EntityID != "" {
		w.add("x.entity_id = %s", f.EntityID)
	}
	timeBounds(&w, "x", f.Since, f.Until)
	if f.Outcome != "" && f.Outcome != radar.OutcomeAll {
		w.add("x.outcome = %s", f.Outcome)
	}
	changedCond(&w, "x.signal_type", f.Changed)
	seenCond(&w, "x", f.SeenThrough)
	sectorCond(&w, "x.entity_id", f.Sectors)
	if f.LatestPerEntity {
		// The newest alert of each entity among those the other filters keep.
		inner := "y.entity_id = x.entity_id AND (y.created_at > x.created_at OR (y.created_at = x.created_at AND y.id > x.id))"
		if f.Outcome != "" && f.Outcome != radar.OutcomeAll {
			inner += " AND y.outcome = x.outcome"
		}
		if f.Changed != nil {
			inner += " AND y.signal_type " + map[bool]string{true: "<>", false: "="}[*f.Changed] + " 'no_change'"
		}
		if f.Since != nil {
			inner += " AND y.created_at >= " + w.arg(f.Since.Micros())
		}
		if f.Until != nil {
			inner += " AND y.created_at < " + w.arg(f.Until.Micros())
		}
		w.conds = append(w.conds, "NOT EXISTS (SELECT 1 FROM alerts y WHERE "+inner+")")
	}
	return w
}

// Alerts lists alerts, newest first.
func (db *DB) Alerts(ctx context.Context, f radar.AlertFilter) ([]*radar.Alert, error) {
	w := alertWhere(f)
	w.page("x", f.Page)
	rs, err := db.eng.reader().Query(ctx, `SELECT `+alertColumns+` FROM alerts x`+w.sql()+` ORDER BY x.created_at DESC, x.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: alerts: %w", err)
	}
	defer rs.Close()
	var out []*radar.Alert
	for rs.Next() {
		a, err := scanAlert(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: alerts: %w", err)
		}
		out = append(out, a)
	}
	return out, rs.Err()
}

// CountAlerts counts the alerts f selects, up to limit; its page is ignored.
func (db *DB) CountAlerts(ctx context.Context, f radar.AlertFilter, limit int) (int, error) {
	w := alertWhere(f)
	n, err := db.count(ctx, `SELECT 1 FROM alerts x`+w.sql(), w, limit)
	if err != nil {
		return 0, fmt.Errorf("sqldb: count alerts: %w", err)
	}
	return n, nil
}
