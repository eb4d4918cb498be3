package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"radar"
)

const (
	entityColumnsHead = `e.id, e.org_id, e.company_name, e.company_website, e.company_linkedin_url, e.company_twitter_url,
	e.company_github_url, e.company_summary, e.things_to_track, e.alert_emails, e.email_alerts_enabled, e.cadence_days,
	e.digest, e.status, e.tags, e.sectors, e.stage, `
	entityColumnsTail = `, e.enrichment_status, e.last_scraped_at, e.scrape_health_reason,
	e.next_run_at, e.running_since, e.created_at, e.updated_at, e.version`
	entityColumns = entityColumnsHead + `e.policy` + entityColumnsTail
	// compactEntityColumns read an empty policy, which the compact view does not show.
	compactEntityColumns = entityColumnsHead + `''` + entityColumnsTail
)

// entitySelect appends to cols the entity's latest signal, its latest change and its founders, for scanEntity.
func entitySelect(eng engine, cols string) string {
	return cols + `, e.latest_signal, e.latest_change, ` + eng.foundersJSON()
}

// unstored says which of an entity's latest signals are not stored with it yet and have to be read from the
// signals table.
type unstored struct{ signal, change bool }

func (u unstored) any() bool { return u.signal || u.change }

// noSignal is the stored latest signal of an entity that has none; an empty one is not known yet.
const noSignal = "null"

// scanEntity reads a row of entitySelect. It reports which of the entity's latest signals are not stored yet.
func scanEntity(r row) (*radar.Entity, unstored, error) {
	var (
		e                             radar.Entity
		emails, tags, sectors, policy string
		latest, change, founders      string
		scraped, next, running        sql.NullInt64
		created, updated              int64
		u                             unstored
	)
	err := r.Scan(&e.ID, &e.OrgID, &e.CompanyName, &e.CompanyWebsite, &e.CompanyLinkedinURL, &e.CompanyTwitterURL,
		&e.CompanyGithubURL, &e.CompanySummary, &e.ThingsToTrack, &emails, &e.EmailAlertsEnabled, &e.CadenceDays,
		&e.Digest, &e.Status, &tags, &sectors, &e.Stage, &policy, &e.EnrichmentStatus, &scraped, &e.ScrapeHealthReason,
		&next, &running, &created, &updated, &e.Version, &latest, &change, &founders)
	if err != nil {
		return nil, u, err
	}
	e.LastScrapedAt, e.NextRunAt, e.RunningSince = timePtr(scraped), timePtr(next), timePtr(running)
	e.CreatedAt, e.UpdatedAt = radar.TimeFromMicros(created), radar.TimeFromMicros(updated)
	e.AlertEmails, e.Tags, e.Sectors = []string{}, []string{}, []string{}
	for _, f := range []struct {
		s string
		v *[]string
	}{{emails, &e.AlertEmails}, {tags, &e.Tags}, {sectors, &e.Sectors}} {
		if err := unmarshalStrings(f.s, f.v); err != nil {
			return nil, u, err
		}
	}
	if policy != "" && policy != "null" {
		e.Policy = new(radar.Policy)
		if err := unmarshalText(policy, e.Policy); err != nil {
			return nil, u, err
		}
	}
	e.Founders = []radar.Founder{}
	if founders != "[]" {
		if err := unmarshalText(founders, &e.Founders); err != nil {
			return nil, u, err
		}
	}
	if e.LatestSignal, u.signal, err = storedSignal(latest, e.OrgID); err != nil {
		return nil, u, err
	}
	if e.LatestChange, u.change, err = storedSignal(change, e.OrgID); err != nil {
		return nil, u, err
	}
	return &e, u, nil
}

// storedSignal decodes a stored compact signal of an organisation's entity: nil for noSignal, and unknown for
// the empty value, which was never stored.
func storedSignal(text, orgID string) (s *radar.Signal, unknown bool, err error) {
	switch text {
	case "":
		return nil, true, nil
	case noSignal:
		return nil, false, nil
	}
	s = new(radar.Signal)
	if err := unmarshalText(text, s); err != nil {
		return nil, false, err
	}
	s.OrgID = orgID
	if s.Evidence == nil {
		s.Evidence = []radar.Evidence{}
	}
	return s, false, nil
}

// latestSignalText is the stored form of the compact view of s, the new signal of entityID's run runID.
func latestSignalText(s *radar.Signal, entityID, runID string) (string, error) {
	c := s.Compact()
	c.EntityID, c.RunID = entityID, runID
	if c.Evidence == nil {
		c.Evidence = []radar.Evidence{}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("sqldb: latest signal: %w", err)
	}
	return string(b), nil
}

// fillLatestSignals reads from the signals table the latest signals of the entities that do not store them,
// which were written before entities stored them; unknown holds what scanEntity reported for each entity.
func fillLatestSignals(ctx context.Context, q querier, orgID string, entities []*radar.Entity, unknown []unstored) error {
	var ids []string
	for i, e := range entities {
		if unknown[i].signal {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) > 0 {
		latest, err := latestSignals(ctx, q, orgID, ids)
		if err != nil {
			return err
		}
		for i, e := range entities {
			if unknown[i].signal {
				e.LatestSignal = latest[e.ID]
			}
		}
	}
	for i, e := range entities {
		if !unknown[i].change {
			continue
		}
		s, err := scanCompactSignal(q.QueryRow(ctx, `SELECT `+compactSignalColumns+` FROM signals x
			WHERE x.entity_id = $1 AND x.org_id = $2 AND x.type <> 'no_change' ORDER BY x.created_at DESC, x.id DESC LIMIT 1`, e.ID, orgID))
		if isNoRows(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sqldb: latest change: %w", err)
		}
		e.LatestChange = s
	}
	return nil
}

// digestOrOff stores an unset digest as off.
func digestOrOff(d string) string {
	if d == "" {
		return radar.DigestOff
	}
	return d
}

func policyText(p *radar.Policy) string {
	if p == nil {
		return ""
	}
	return jsonText(p)
}

// CreateEntity inserts e, its founders, identity keys and sectors, enqueues jobs and completes idem, in one
// transaction: on PostgreSQL one round trip. A new entity whose identity key another entity holds is
// radar.ErrDuplicate.
func (db *DB) CreateEntity(ctx context.Context, e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) error {
	stmts, keys, err := db.createStmts(e, jobs, idem)
	if err != nil {
		return err
	}
	err = db.eng.execBatch(ctx, stmts)
	var be *batchError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &be) && be.i >= keys[0] && be.i < keys[1] && isConstraint(be.err):
		return radar.ErrDuplicate
	case errors.As(err, &be) && be.i == 0:
		return fmt.Errorf("sqldb: create entity: %w", err)
	}
	return fmt.Errorf("sqldb: create entity: write its parts: %w", err)
}

// UpdateEntity writes the client's fields of e (never the engine's: enrichment, runs, sectors, stage), upserts
// its founders and removes the others, rewrites its identity keys, enqueues jobs and completes idem.
func (db *DB) UpdateEntity(ctx context.Context, e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) error {
	return db.tx(ctx, func(q querier, tx any) error {
		// The engine's columns (enrichment, runs, sectors, stage) are not the client's to write, and a profile
		// URL is never cleared, so that a concurrent enrichment or run is never undone.
		n, err := q.Exec(ctx, `UPDATE entities SET company_name = $1, company_website = $2,
			company_linkedin_url = CASE WHEN $3 = '' THEN company_linkedin_url ELSE $3 END,
			company_twitter_url = CASE WHEN $4 = '' THEN company_twitter_url ELSE $4 END,
			company_github_url = CASE WHEN $5 = '' THEN company_github_url ELSE $5 END,
			company_summary = $6, things_to_track = $7, alert_emails = $8, email_alerts_enabled = $9, cadence_days = $10,
			status = $11, tags = $12, policy = $13, updated_at = $14, version = version + 1, digest = $17
			WHERE id = $15 AND org_id = $16`,
			e.CompanyName, e.CompanyWebsite, e.CompanyLinkedinURL, e.CompanyTwitterURL, e.CompanyGithubURL, e.CompanySummary,
			e.ThingsToTrack, jsonText(e.AlertEmails), e.EmailAlertsEnabled, e.CadenceDays, e.Status, jsonText(e.Tags),
			policyText(e.Policy), e.UpdatedAt.Micros(), e.ID, e.OrgID, digestOrOff(e.Digest))
		if err != nil {
			return fmt.Errorf("sqldb: update entity: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		e.Version++
		if _, err := q.Exec(ctx, `DELETE FROM entity_keys WHERE entity_id = $1`, e.ID); err != nil {
			return fmt.Errorf("sqldb: update entity: %w", err)
		}
		ids := make([]string, 0, len(e.Founders))
		for _, f := range e.Founders {
			ids = append(ids, f.ID)
		}
		w := where{}
		w.add("entity_id = %s", e.ID)
		if len(ids) > 0 {
			ph := make([]string, len(ids))
			for i, id := range ids {
				ph[i] = w.arg(id)
			}
			w.conds = append(w.conds, "id NOT IN ("+strings.Join(ph, ", ")+")")
		}
		if _, err := q.Exec(ctx, `DELETE FROM founders`+w.sql(), w.args...); err != nil {
			return fmt.Errorf("sqldb: update founders: %w", err)
		}
		return db.writeEntityParts(ctx, q, e, jobs, idem)
	})
}

// writeEntityParts upserts the founders of an updated entity, inserts the identity keys no other entity holds,
// bumps the organisation's data version, enqueues jobs and completes the idempotency record.
func (db *DB) writeEntityParts(ctx context.Context, q querier, e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) error {
	for i, f := range e.Founders {
		_, err := q.Exec(ctx, upsertFounderSQL, f.ID, e.ID, i, f.Name, f.LinkedinURL, f.TwitterURL, f.GithubURL)
		if err != nil {
			return fmt.Errorf("sqldb: write founders: %w", err)
		}
	}
	for _, k := range radar.IdentityKeys(e) {
		if _, err := q.Exec(ctx, upsertKeySQL, e.OrgID, k, e.ID); err != nil {
			return fmt.Errorf("sqldb: write entity keys: %w", err)
		}
	}
	if err := bumpVersion(ctx, q, e.OrgID); err != nil {
		return err
	}
	if err := db.enqueue(ctx, q, jobs); err != nil {
		return err
	}
	if err := completeIdempotent(ctx, q, idem, e.ID); err != nil {
		return err
	}
	return db.changed(ctx, q, e.OrgID)
}

func bumpVersion(ctx context.Context, q querier, orgID string) error {
	if _, err := q.Exec(ctx, bumpVersionSQL, orgID); err != nil {
		return fmt.Errorf("sqldb: bump data version: %w", err)
	}
	return nil
}

// DataVersion returns a number that changes whenever the organisation's entities change.
func (db *DB) DataVersion(ctx context.Context, orgID string) (int64, error) {
	var v int64
	err := db.eng.reader().QueryRow(ctx, `SELECT version FROM org_versions WHERE org_id = $1`, orgID).Scan(&v)
	if isNoRows(err) {
		return 0, nil
	}
	return v, err
}

// Entity reads one entity with its founders and the compact view of its latest signal.
func (db *DB) Entity(ctx context.Context, orgID, id string) (*radar.Entity, error) {
	return db.entity(ctx, db.quickReader(), orgID, id)
}

func (db *DB) entity(ctx context.Context, q querier, orgID, id string) (*radar.Entity, error) {
	e, unknown, err := scanEntity(q.QueryRow(ctx, `SELECT `+db.entityCols+` FROM entities e WHERE e.id = $1 AND e.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: entity: %w", err)
	}
	if unknown.any() {
		if err := fillLatestSignals(ctx, q, orgID, []*radar.Entity{e}, []unstored{unknown}); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// FindExistingEntity returns the entity that holds one of the identity keys.
func (db *DB) FindExistingEntity(ctx context.Context, orgID string, keys []string) (*radar.Entity, error) {
	if len(keys) == 0 {
		return nil, radar.ErrNotFound
	}
	w := where{}
	w.add("org_id = %s", orgID)
	w.in("ident_key", keys)
	var id string
	err := db.eng.reader().QueryRow(ctx, `SELECT entity_id FROM entity_keys`+w.sql()+` ORDER BY entity_id LIMIT 1`, w.args...).Scan(&id)
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: find entity: %w", err)
	}
	return db.Entity(ctx, orgID, id)
}

// Entities lists entities, newest first, with their founders and the compact view of their latest signal.
func (db *DB) Entities(ctx context.Context, f radar.EntityFilter) ([]*radar.Entity, error) {
	w := where{}
	w.add("e.org_id = %s", f.OrgID)
	if f.Status != "" {
		w.add("e.status = %s", f.Status)
	}
	if f.Stage != "" {
		w.add("e.stage = %s", f.Stage)
	}
	if f.UpdatedAfter != nil {
		w.add("e.updated_at > %s", f.UpdatedAfter.Micros())
	}
	if f.IDs != nil {
		w.in("e.id", f.IDs)
	}
	sectorCond(&w, "e.id", f.Sectors)
	w.page("e", f.Page)
	cols := db.entityCols
	if f.Compact {
		cols = db.compactEntityCols
	}
	q := db.eng.reader()
	rs, err := q.Query(ctx, `SELECT `+cols+` FROM entities e`+w.sql()+` ORDER BY e.created_at DESC, e.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: entities: %w", err)
	}
	var (
		out, stale []*radar.Entity
		unknown    []unstored
	)
	for rs.Next() {
		e, u, err := scanEntity(rs)
		if err != nil {
			rs.Close()
			return nil, fmt.Errorf("sqldb: entities: %w", err)
		}
		out = append(out, e)
		if u.any() {
			stale, unknown = append(stale, e), append(unknown, u)
		}
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("sqldb: entities: %w", err)
	}
	if err := fillLatestSignals(ctx, q, f.OrgID, stale, unknown); err != nil {
		return nil, err
	}
	return out, nil
}

// sectorCond keeps rows whose entity has one of paths; nil paths means no filter.
func sectorCond(w *where, entityCol string, paths []string) {
	if paths == nil {
		return
	}
	if len(paths) == 0 {
		w.conds = append(w.conds, "1 = 0")
		return
	}
	ph := make([]string, len(paths))
	for i, p := range paths {
		ph[i] = w.arg(p)
	}
	w.conds = append(w.conds, "EXISTS (SELECT 1 FROM entity_sectors s WHERE s.entity_id = "+entityCol+" AND s.path IN ("+strings.Join(ph, ", ")+"))")
}

// DeleteEntity removes an entity and, by cascade, all of its history.
func (db *DB) DeleteEntity(ctx context.Context, orgID, id string) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `DELETE FROM entities WHERE id = $1 AND org_id = $2`, id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: delete entity: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		if _, err := q.Exec(ctx, `DELETE FROM idempotency WHERE org_id = $1 AND entity_id = $2`, orgID, id); err != nil {
			return fmt.Errorf("sqldb: delete entity: %w", err)
		}
		if err := bumpVersion(ctx, q, orgID); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
}

// staleRun is how long a run may seem in progress before a refresh may start another.
const staleRun = 30 * 60 * 1_000_000

// StartRefresh marks a run in progress and enqueues jobs.
func (db *DB) StartRefresh(ctx context.Context, orgID, id string, now radar.Time, jobs []radar.JobArgs) (*radar.Entity, error) {
	var before *radar.Entity
	err := db.tx(ctx, func(q querier, tx any) error {
		e, err := db.entity(ctx, q, orgID, id)
		if err != nil {
			return err
		}
		if e.Status == radar.StatusPaused {
			return radar.Errorf(radar.EEntityPaused, "entity %s is paused; resume it with PATCH {\"status\": \"ok\"} before refreshing", id)
		}
		if e.RunningSince != nil && now.Micros()-e.RunningSince.Micros() < staleRun {
			return radar.Errorf(radar.ERefreshInProgress, "a tracker run of entity %s is already in progress since %s", id, e.RunningSince)
		}
		before = e
		if _, err := q.Exec(ctx, `UPDATE entities SET running_since = $1, scrape_health_reason = $2 WHERE id = $3`,
			now.Micros(), radar.HealthRunning, id); err != nil {
			return fmt.Errorf("sqldb: start refresh: %w", err)
		}
		if err := db.enqueue(ctx, q, jobs); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
	return before, err
}
