package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"radar"
)

// This file holds the write side of the tracker engine: enrichment, runs, the scheduler's claim of due
// entities, and the outbox of alert e-mails. Every public method is one transaction.

// dayMicros is one day in the stored unit of time; the SQL spells it 86400000000.
const dayMicros = 24 * 60 * 60 * 1_000_000

// snapshotRetention is how long a page copy is kept after its page was last seen.
const snapshotRetention = 90 * dayMicros

// BeginEnrichment marks the enrichment of an entity running and returns the entity. done reports that its
// enrichment has finished already, so that a repeated job has nothing left to do.
func (db *DB) BeginEnrichment(ctx context.Context, orgID, id string) (e *radar.Entity, done bool, err error) {
	err = db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE entities SET enrichment_status = $1
			WHERE id = $2 AND org_id = $3 AND enrichment_status IN ($4, $1)`,
			radar.EnrichRunning, id, orgID, radar.EnrichQueued)
		if err != nil {
			return fmt.Errorf("sqldb: begin enrichment: %w", err)
		}
		if e, err = db.entity(ctx, q, orgID, id); err != nil {
			return err
		}
		if done = n == 0; done {
			return nil
		}
		return db.changed(ctx, q, orgID)
	})
	return e, done, err
}

// FinishEnrichment writes what enrichment learned: profile fields that are still empty, the sectors, the final
// enrichment status, and the first run when asked, in one transaction. Fields a client has set, even a moment
// ago, are kept.
func (db *DB) FinishEnrichment(ctx context.Context, orgID, id string, r radar.Enrichment, now radar.Time) error {
	return db.tx(ctx, func(q querier, tx any) error {
		n, err := q.Exec(ctx, `UPDATE entities SET enrichment_status = $1,
			company_linkedin_url = CASE WHEN company_linkedin_url = '' THEN $2 ELSE company_linkedin_url END,
			company_twitter_url = CASE WHEN company_twitter_url = '' THEN $3 ELSE company_twitter_url END,
			company_github_url = CASE WHEN company_github_url = '' THEN $4 ELSE company_github_url END,
			updated_at = $5, version = version + 1
			WHERE id = $6 AND org_id = $7`,
			r.Status, r.CompanyLinkedinURL, r.CompanyTwitterURL, r.CompanyGithubURL, now.Micros(), id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: finish enrichment: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		for _, f := range r.Founders {
			_, err := q.Exec(ctx, `UPDATE founders SET
				linkedin_url = CASE WHEN linkedin_url = '' THEN $1 ELSE linkedin_url END,
				twitter_url = CASE WHEN twitter_url = '' THEN $2 ELSE twitter_url END,
				github_url = CASE WHEN github_url = '' THEN $3 ELSE github_url END
				WHERE id = $4 AND entity_id = $5`,
				f.LinkedinURL, f.TwitterURL, f.GithubURL, f.FounderID, id)
			if err != nil {
				return fmt.Errorf("sqldb: finish enrichment: founders: %w", err)
			}
		}
		if r.Sectors != nil {
			if err := writeSectors(ctx, q, id, r.Sectors); err != nil {
				return err
			}
		}
		e, err := db.entity(ctx, q, orgID, id)
		if err != nil {
			return err
		}
		for _, k := range radar.IdentityKeys(e) {
			if _, err := q.Exec(ctx, `INSERT INTO entity_keys (org_id, ident_key, entity_id) VALUES ($1, $2, $3)
				ON CONFLICT (org_id, ident_key) DO NOTHING`, orgID, k, id); err != nil {
				return fmt.Errorf("sqldb: finish enrichment: keys: %w", err)
			}
		}
		if r.FirstRun != nil {
			if _, err := q.Exec(ctx, `UPDATE entities SET running_since = COALESCE(running_since, $1) WHERE id = $2`,
				now.Micros(), id); err != nil {
				return fmt.Errorf("sqldb: finish enrichment: %w", err)
			}
			if err := db.enqueue(ctx, q, []radar.JobArgs{*r.FirstRun}); err != nil {
				return err
			}
		}
		if err := db.emitWebhooks(ctx, q, tx, orgID, now, radar.WebhookEvent{Type: radar.EventEnrichmentCompleted, Data: e}); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
}

// writeSectors replaces the sector paths of an entity.
func writeSectors(ctx context.Context, q querier, entityID string, paths []string) error {
	if _, err := q.Exec(ctx, `UPDATE entities SET sectors = $1 WHERE id = $2`, jsonText(paths), entityID); err != nil {
		return fmt.Errorf("sqldb: write sectors: %w", err)
	}
	if _, err := q.Exec(ctx, `DELETE FROM entity_sectors WHERE entity_id = $1`, entityID); err != nil {
		return fmt.Errorf("sqldb: write sectors: %w", err)
	}
	for _, p := range paths {
		if _, err := q.Exec(ctx, `INSERT INTO entity_sectors (entity_id, path) VALUES ($1, $2) ON CONFLICT DO NOTHING`, entityID, p); err != nil {
			return fmt.Errorf("sqldb: write sectors: %w", err)
		}
	}
	return nil
}

// StartRun records the start of a tracker run once per run id, marks the entity running, and returns what the
// run needs: the entity, the previous page copies and the state of each source. A run that has finished already
// comes back with Finished set.
func (db *DB) StartRun(ctx context.Context, a radar.RunArgs, now radar.Time) (*radar.RunStart, error) {
	var rs *radar.RunStart
	err := db.tx(ctx, func(q querier, _ any) error {
		e, err := db.entity(ctx, q, a.OrgID, a.EntityID)
		if err != nil {
			return err
		}
		rs = &radar.RunStart{Entity: e, Sources: map[string]radar.SourceHealth{}}
		var one int
		err = q.QueryRow(ctx, `SELECT 1 FROM signals WHERE run_id = $1`, a.RunID).Scan(&one)
		if err == nil {
			rs.Finished = true
			return nil
		}
		if !isNoRows(err) {
			return fmt.Errorf("sqldb: start run: %w", err)
		}
		if _, err := q.Exec(ctx, `INSERT INTO runs (id, org_id, entity_id, run_trigger, started_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (id) DO NOTHING`, a.RunID, a.OrgID, a.EntityID, a.Trigger, now.Micros()); err != nil {
			return fmt.Errorf("sqldb: start run: %w", err)
		}
		if _, err := q.Exec(ctx, `UPDATE entities SET running_since = COALESCE(running_since, $1),
			scrape_health_reason = CASE WHEN last_scraped_at IS NULL THEN $2 ELSE $3 END
			WHERE id = $4`, now.Micros(), radar.HealthPending, radar.HealthRunning, a.EntityID); err != nil {
			return fmt.Errorf("sqldb: start run: %w", err)
		}
		if e.RunningSince == nil {
			e.RunningSince = &now
		}
		if rs.Snapshots, err = snapshots(ctx, q, a.EntityID); err != nil {
			return err
		}
		if rs.Sources, err = sourceStates(ctx, q, a.EntityID); err != nil {
			return err
		}
		return db.changed(ctx, q, a.OrgID)
	})
	return rs, err
}

func snapshots(ctx context.Context, q querier, entityID string) ([]radar.PageSnapshot, error) {
	rs, err := q.Query(ctx, `SELECT url, snapshot FROM page_snapshots WHERE entity_id = $1 ORDER BY url`, entityID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: snapshots: %w", err)
	}
	defer rs.Close()
	var out []radar.PageSnapshot
	for rs.Next() {
		var url, data string
		if err := rs.Scan(&url, &data); err != nil {
			return nil, fmt.Errorf("sqldb: snapshots: %w", err)
		}
		out = append(out, radar.PageSnapshot{URL: url, Data: radar.RawJSON(data)})
	}
	return out, rs.Err()
}

func sourceStates(ctx context.Context, q querier, entityID string) (map[string]radar.SourceHealth, error) {
	rs, err := q.Query(ctx, `SELECT source, ok, consecutive_failures, last_error FROM source_state WHERE entity_id = $1`, entityID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: source state: %w", err)
	}
	defer rs.Close()
	out := map[string]radar.SourceHealth{}
	for rs.Next() {
		var s radar.SourceHealth
		if err := rs.Scan(&s.Source, &s.OK, &s.ConsecutiveFailures, &s.Error); err != nil {
			return nil, fmt.Errorf("sqldb: source state: %w", err)
		}
		out[s.Source] = s
	}
	return out, rs.Err()
}

// seenBatch bounds the placeholders of one seen-items query.
const seenBatch = 500

// SeenItems returns which of keys an earlier run of the entity has recorded as seen.
func (db *DB) SeenItems(ctx context.Context, entityID string, keys []string) (map[string]bool, error) {
	seen := make(map[string]bool)
	for chunk := range slices.Chunk(keys, seenBatch) {
		w := where{}
		w.add("entity_id = %s", entityID)
		w.in("item_key", chunk)
		rs, err := db.eng.reader().Query(ctx, `SELECT item_key FROM seen_items`+w.sql(), w.args...)
		if err != nil {
			return nil, fmt.Errorf("sqldb: seen items: %w", err)
		}
		for rs.Next() {
			var k string
			if err := rs.Scan(&k); err != nil {
				rs.Close()
				return nil, fmt.Errorf("sqldb: seen items: %w", err)
			}
			seen[k] = true
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, fmt.Errorf("sqldb: seen items: %w", err)
		}
	}
	return seen, nil
}

// FinishRun writes a finished run in one transaction: its signal and alert, the alert e-mail with its mail
// job, the leads, the seen items, page copies and source states, and the entity's new state. It reports
// written=false, changing nothing, when the run had been written already by an earlier attempt of the job.
func (db *DB) FinishRun(ctx context.Context, r *radar.RunReport) (written bool, err error) {
	err = db.tx(ctx, func(q querier, tx any) error {
		var one int
		err := q.QueryRow(ctx, `SELECT 1 FROM entities WHERE id = $1 AND org_id = $2`, r.EntityID, r.OrgID).Scan(&one)
		if isNoRows(err) {
			return radar.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("sqldb: finish run: %w", err)
		}
		s := r.Signal
		latest, err := latestSignalText(s, r.EntityID, r.RunID)
		if err != nil {
			return err
		}
		n, err := q.Exec(ctx, `INSERT INTO signals (id, org_id, entity_id, run_id, company_name, type, severity, recommendation,
			needs_attention, summary, analysis, evidence, findings, sources, analyser, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
			ON CONFLICT (run_id) DO NOTHING`,
			s.ID, r.OrgID, r.EntityID, r.RunID, s.CompanyName, s.Type, s.Severity, s.Recommendation, s.NeedsAttention,
			s.Summary, s.Analysis, jsonText(s.Evidence), jsonText(s.Findings), jsonText(s.Sources), s.Analyser, s.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: finish run: signal: %w", err)
		}
		if n == 0 {
			return nil
		}
		written = true
		a := r.Alert
		_, err = q.Exec(ctx, `INSERT INTO alerts (id, org_id, entity_id, signal_id, run_id, company_name, outcome, reason,
			recipients, subject, rule_evaluations, sent_at, created_at, signal_type)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			a.ID, r.OrgID, r.EntityID, s.ID, r.RunID, a.CompanyName, a.Outcome, a.Reason, jsonText(a.Recipients),
			a.Subject, jsonText(a.RuleEvaluations), nullMicros(a.SentAt), a.CreatedAt.Micros(), s.Type)
		if err != nil {
			return fmt.Errorf("sqldb: finish run: alert: %w", err)
		}
		if m := r.Outbox; m != nil {
			_, err = q.Exec(ctx, `INSERT INTO outbox (id, org_id, alert_id, entity_id, recipients, subject, body_text, body_html,
				status, attempts, last_error, sent_at, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, '', NULL, $10)`,
				m.ID, r.OrgID, a.ID, r.EntityID, jsonText(m.To), m.Subject, m.Text, m.HTML, m.Status, m.CreatedAt.Micros())
			if err != nil {
				return fmt.Errorf("sqldb: finish run: outbox: %w", err)
			}
			if m.Status == radar.OutboxPending {
				if err := db.enqueue(ctx, q, []radar.JobArgs{radar.MailArgs{OrgID: r.OrgID, OutboxID: m.ID}}); err != nil {
					return err
				}
			}
		}
		events := runEvents(r)
		for _, l := range r.Leads {
			created, err := upsertLead(ctx, q, r.OrgID, l)
			if err != nil {
				return err
			}
			if created {
				events = append(events, radar.WebhookEvent{Type: radar.EventLeadFound, Data: l})
			}
		}
		if err := db.emitWebhooks(ctx, q, tx, r.OrgID, r.FinishedAt, events...); err != nil {
			return err
		}
		at := r.FinishedAt.Micros()
		var seen [][]any
		for _, k := range slices.Compact(slices.Sorted(slices.Values(r.SeenItems))) {
			seen = append(seen, []any{r.EntityID, k, at})
		}
		if err := insertRows(ctx, q, `INSERT INTO seen_items (entity_id, item_key, seen_at)`,
			`ON CONFLICT (entity_id, item_key) DO NOTHING`, seen); err != nil {
			return fmt.Errorf("sqldb: finish run: seen items: %w", err)
		}
		var pages [][]any
		byURL := map[string]int{}
		for _, p := range r.Snapshots {
			row := []any{r.EntityID, p.URL, string(p.Data), at}
			if i, ok := byURL[p.URL]; ok {
				pages[i] = row
				continue
			}
			byURL[p.URL] = len(pages)
			pages = append(pages, row)
		}
		if err := insertRows(ctx, q, `INSERT INTO page_snapshots (entity_id, url, snapshot, fetched_at)`,
			`ON CONFLICT (entity_id, url) DO UPDATE SET snapshot = excluded.snapshot, fetched_at = excluded.fetched_at`, pages); err != nil {
			return fmt.Errorf("sqldb: finish run: snapshots: %w", err)
		}
		if _, err := q.Exec(ctx, `DELETE FROM page_snapshots WHERE entity_id = $1 AND fetched_at < $2`,
			r.EntityID, at-snapshotRetention); err != nil {
			return fmt.Errorf("sqldb: finish run: snapshots: %w", err)
		}
		var sources [][]any
		bySource := map[string]int{}
		for _, h := range r.Sources {
			row := []any{r.EntityID, h.Source, h.OK, h.ConsecutiveFailures, h.Error, at}
			if i, ok := bySource[h.Source]; ok {
				sources[i] = row
				continue
			}
			bySource[h.Source] = len(sources)
			sources = append(sources, row)
		}
		if err := insertRows(ctx, q, `INSERT INTO source_state (entity_id, source, ok, consecutive_failures, last_error, updated_at)`,
			`ON CONFLICT (entity_id, source) DO UPDATE SET ok = excluded.ok, consecutive_failures = excluded.consecutive_failures,
			last_error = excluded.last_error, updated_at = excluded.updated_at`, sources); err != nil {
			return fmt.Errorf("sqldb: finish run: sources: %w", err)
		}
		if _, err := q.Exec(ctx, `UPDATE runs SET finished_at = $1 WHERE id = $2`, at, r.RunID); err != nil {
			return fmt.Errorf("sqldb: finish run: %w", err)
		}
		if _, err := q.Exec(ctx, `UPDATE entities SET last_scraped_at = $1, scrape_health_reason = $2,
			next_run_at = $1 + `+db.nextRun()+`, running_since = NULL,
			stage = CASE WHEN $3 = '' THEN stage ELSE $3 END, updated_at = $1, version = version + 1
			WHERE id = $4`, at, r.HealthReason, r.Stage, r.EntityID); err != nil {
			return fmt.Errorf("sqldb: finish run: entity: %w", err)
		}
		// A statement of its own, after the one that locked the entity's row, sees the signals of every run of
		// the entity that finished before, however close.
		if _, err := q.Exec(ctx, `UPDATE entities SET latest_signal = $1 WHERE id = $2
			AND NOT EXISTS (SELECT 1 FROM signals y WHERE y.entity_id = $2 AND (y.created_at > $3 OR (y.created_at = $3 AND y.id > $4)))`,
			latest, r.EntityID, s.CreatedAt.Micros(), s.ID); err != nil {
			return fmt.Errorf("sqldb: finish run: latest signal: %w", err)
		}
		if !s.Quiet() {
			if _, err := q.Exec(ctx, `UPDATE entities SET latest_change = $1 WHERE id = $2
				AND NOT EXISTS (SELECT 1 FROM signals y WHERE y.entity_id = $2 AND y.type <> 'no_change'
					AND (y.created_at > $3 OR (y.created_at = $3 AND y.id > $4)))`,
				latest, r.EntityID, s.CreatedAt.Micros(), s.ID); err != nil {
				return fmt.Errorf("sqldb: finish run: latest change: %w", err)
			}
		}
		if r.Sectors != nil {
			if err := writeSectors(ctx, q, r.EntityID, r.Sectors); err != nil {
				return err
			}
		}
		return db.changed(ctx, q, r.OrgID)
	})
	return written, err
}

// rowsPerInsert bounds the rows of one multi-row INSERT.
const rowsPerInsert = 100

// insertRows runs "head VALUES (…), (…) tail" over rows in chunks, one statement per chunk; rows of a chunk must
// not conflict with each other.
func insertRows(ctx context.Context, q querier, head, tail string, rows [][]any) error {
	for chunk := range slices.Chunk(rows, rowsPerInsert) {
		var (
			sb   strings.Builder
			args []any
		)
		sb.WriteString(head)
		sb.WriteString(" VALUES ")
		for i, row := range chunk {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteByte('(')
			for j, v := range row {
				if j > 0 {
					sb.WriteString(", ")
				}
				args = append(args, v)
				sb.WriteString("$" + strconv.Itoa(len(args)))
			}
			sb.WriteByte(')')
		}
		sb.WriteString(" ")
		sb.WriteString(tail)
		if _, err := q.Exec(ctx, sb.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// upsertLead inserts a lead, or merges the evidence, stage and blanks of the one with the same key, keeping
// its decision; a company summary that says what the company does replaces the stored one. created is true
// for a new lead.
func upsertLead(ctx context.Context, q querier, orgID string, l *radar.Lead) (created bool, err error) {
	n, err := q.Exec(ctx, `INSERT INTO leads (id, org_id, lead_key, person_name, person_role, linkedin_url, twitter_url,
		github_url, company_name, company_website, company_summary, relation, source_entity_id, source_company_name,
		sector, stage, evidence, decision_status, decided_at, tracked_entity_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, NULL, '', $19, $19)
		ON CONFLICT (org_id, lead_key) DO NOTHING`,
		l.ID, orgID, l.Key, l.PersonName, l.PersonRole, l.LinkedinURL, l.TwitterURL, l.GithubURL, l.Company.Name,
		l.Company.Website, l.Company.Summary, l.Relation, l.Source.EntityID, l.Source.CompanyName, l.Sector, l.Stage,
		jsonText(l.Evidence), radar.DecisionUnreviewed, l.CreatedAt.Micros())
	if err != nil {
		return false, fmt.Errorf("sqldb: upsert lead: %w", err)
	}
	if n > 0 {
		return true, nil
	}
	var (
		id, stage, evidenceText string
		evidence                []radar.Evidence
	)
	err = q.QueryRow(ctx, `SELECT id, stage, evidence FROM leads WHERE org_id = $1 AND lead_key = $2`, orgID, l.Key).
		Scan(&id, &stage, &evidenceText)
	if err != nil {
		return false, fmt.Errorf("sqldb: upsert lead: %w", err)
	}
	if err := unmarshalText(evidenceText, &evidence); err != nil {
		return false, err
	}
	for _, ev := range l.Evidence {
		if !slices.ContainsFunc(evidence, func(x radar.Evidence) bool { return x.URL == ev.URL }) {
			evidence = append(evidence, ev)
		}
	}
	if stageRank(l.Stage) > stageRank(stage) {
		stage = l.Stage
	}
	summary := l.Company.Summary
	if summary == radar.UndescribedCompany(l.Company.Name) {
		summary = ""
	}
	_, err = q.Exec(ctx, `UPDATE leads SET evidence = $1, stage = $2,
		person_role = CASE WHEN person_role = '' THEN $3 ELSE person_role END,
		company_website = CASE WHEN company_website = '' THEN $4 ELSE company_website END,
		sector = CASE WHEN sector = '' THEN $5 ELSE sector END,
		company_summary = CASE WHEN $6 = '' THEN company_summary ELSE $6 END,
		updated_at = $7 WHERE id = $8`,
		jsonText(evidence), stage, l.PersonRole, l.Company.Website, l.Sector, summary, l.UpdatedAt.Micros(), id)
	if err != nil {
		return false, fmt.Errorf("sqldb: upsert lead: %w", err)
	}
	return false, nil
}

// stageRank orders funding stages; unknown ranks lowest.
func stageRank(stage string) int {
	return slices.Index([]string{radar.StageUnknown, radar.StagePreSeedSeed, radar.StageSeriesA, radar.StageSeriesBPlus}, stage)
}

// FailRun ends a run that could not finish: the entity is no longer running, its health says why, and its next
// scheduled run follows the cadence. A run that has finished already is left as it is.
func (db *DB) FailRun(ctx context.Context, a radar.RunArgs, reason string, now radar.Time) error {
	return db.tx(ctx, func(q querier, _ any) error {
		var one int
		err := q.QueryRow(ctx, `SELECT 1 FROM signals WHERE run_id = $1`, a.RunID).Scan(&one)
		if err == nil {
			return nil
		}
		if !isNoRows(err) {
			return fmt.Errorf("sqldb: fail run: %w", err)
		}
		if _, err := q.Exec(ctx, `UPDATE runs SET finished_at = $1 WHERE id = $2`, now.Micros(), a.RunID); err != nil {
			return fmt.Errorf("sqldb: fail run: %w", err)
		}
		_, err = q.Exec(ctx, `UPDATE entities SET last_scraped_at = $1, scrape_health_reason = $2,
			next_run_at = $1 + `+db.nextRun()+`, running_since = NULL, updated_at = $1, version = version + 1
			WHERE id = $3 AND org_id = $4`, now.Micros(), reason, a.EntityID, a.OrgID)
		if err != nil {
			return fmt.Errorf("sqldb: fail run: %w", err)
		}
		return db.changed(ctx, q, a.OrgID)
	})
}

// ClaimDueRuns marks up to limit due entities running and enqueues a run job for each, made by newRun, in
// one transaction; it returns how many it claimed. An entity is due when its status is ok, its next run time
// has come, and no run is in progress (or the one in progress started before staleBefore and is presumed lost).
func (db *DB) ClaimDueRuns(ctx context.Context, now, staleBefore radar.Time, limit int, newRun func(orgID, entityID string) radar.JobArgs) (int, error) {
	claimed := 0
	err := db.tx(ctx, func(q querier, tx any) error {
		const idle = `status = 'ok' AND next_run_at <= $1 AND (running_since IS NULL OR running_since < $2)`
		rs, err := q.Query(ctx, `UPDATE entities SET running_since = $1, scrape_health_reason = $3
			WHERE id IN (SELECT id FROM entities WHERE `+idle+` ORDER BY next_run_at LIMIT $4) AND `+idle+`
			RETURNING org_id, id`, now.Micros(), staleBefore.Micros(), radar.HealthRunning, limit)
		if err != nil {
			return fmt.Errorf("sqldb: claim due runs: %w", err)
		}
		var (
			jobs []radar.JobArgs
			orgs []string
		)
		for rs.Next() {
			var orgID, id string
			if err := rs.Scan(&orgID, &id); err != nil {
				rs.Close()
				return fmt.Errorf("sqldb: claim due runs: %w", err)
			}
			jobs = append(jobs, newRun(orgID, id))
			orgs = append(orgs, orgID)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return fmt.Errorf("sqldb: claim due runs: %w", err)
		}
		claimed = len(jobs)
		if err := db.enqueue(ctx, q, jobs); err != nil {
			return err
		}
		return db.changed(ctx, q, orgs...)
	})
	return claimed, err
}

const outboxColumns = `x.id, x.org_id, x.alert_id, x.entity_id, x.recipients, x.subject, x.body_text, x.body_html, x.status,
	x.attempts, x.last_error, x.sent_at, x.created_at`

func scanOutbox(r row) (*radar.OutboxMessage, error) {
	var (
		m          radar.OutboxMessage
		recipients string
		sent       sql.NullInt64
		created    int64
	)
	err := r.Scan(&m.ID, &m.OrgID, &m.AlertID, &m.EntityID, &recipients, &m.Subject, &m.Text, &m.HTML, &m.Status,
		&m.Attempts, &m.LastError, &sent, &created)
	if err != nil {
		return nil, err
	}
	m.SentAt, m.CreatedAt = timePtr(sent), radar.TimeFromMicros(created)
	m.To = []string{}
	if err := unmarshalText(recipients, &m.To); err != nil {
		return nil, err
	}
	return &m, nil
}

// OutboxMessage reads one alert e-mail.
func (db *DB) OutboxMessage(ctx context.Context, orgID, id string) (*radar.OutboxMessage, error) {
	return outboxMessage(ctx, db.eng.reader(), orgID, id)
}

func outboxMessage(ctx context.Context, q querier, orgID, id string) (*radar.OutboxMessage, error) {
	m, err := scanOutbox(q.QueryRow(ctx, `SELECT `+outboxColumns+` FROM outbox x WHERE x.id = $1 AND x.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: outbox message: %w", err)
	}
	return m, nil
}

// OutboxMessages lists alert e-mails, newest first.
func (db *DB) OutboxMessages(ctx context.Context, f radar.OutboxFilter) ([]*radar.OutboxMessage, error) {
	w := where{}
	w.add("x.org_id = %s", f.OrgID)
	if f.EntityID != "" {
		w.add("x.entity_id = %s", f.EntityID)
	}
	if f.Status != "" {
		w.add("x.status = %s", f.Status)
	}
	w.page("x", f.Page)
	rs, err := db.eng.reader().Query(ctx, `SELECT `+outboxColumns+` FROM outbox x`+w.sql()+` ORDER BY x.created_at DESC, x.id DESC`+w.limit(f.Page), w.args...)
	if err != nil {
		return nil, fmt.Errorf("sqldb: outbox: %w", err)
	}
	defer rs.Close()
	var out []*radar.OutboxMessage
	for rs.Next() {
		m, err := scanOutbox(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: outbox: %w", err)
		}
		out = append(out, m)
	}
	return out, rs.Err()
}

// ClaimOutbox takes a pending alert e-mail for sending and counts the attempt. claimed is false when the
// message is no longer pending (sent, failed, kept) or another job is sending it since staleBefore or later;
// the message is returned either way.
func (db *DB) ClaimOutbox(ctx context.Context, orgID, id string, now, staleBefore radar.Time) (m *radar.OutboxMessage, claimed bool, err error) {
	err = db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE outbox SET status = $1, attempts = attempts + 1, claimed_at = $2
			WHERE id = $3 AND org_id = $4 AND (status = $5 OR (status = $1 AND claimed_at < $6))`,
			radar.OutboxSending, now.Micros(), id, orgID, radar.OutboxPending, staleBefore.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: claim outbox: %w", err)
		}
		claimed = n == 1
		m, err = outboxMessage(ctx, q, orgID, id)
		return err
	})
	return m, claimed, err
}

// MarkOutboxSent records the delivery of a claimed alert e-mail on the message and its alert.
func (db *DB) MarkOutboxSent(ctx context.Context, orgID, id string, now radar.Time) error {
	return db.tx(ctx, func(q querier, tx any) error {
		n, err := q.Exec(ctx, `UPDATE outbox SET status = $1, sent_at = $2, last_error = '', claimed_at = NULL
			WHERE id = $3 AND org_id = $4`, radar.OutboxSent, now.Micros(), id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: mark outbox sent: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		_, err = q.Exec(ctx, `UPDATE alerts SET sent_at = $1 WHERE id = (SELECT alert_id FROM outbox WHERE id = $2)`, now.Micros(), id)
		if err != nil {
			return fmt.Errorf("sqldb: mark outbox sent: %w", err)
		}
		if err := db.emitAlert(ctx, q, tx, orgID, id, radar.EventAlertSent, now); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
}

// MarkOutboxFailed records a failed delivery attempt. The message waits for another attempt, or, when final,
// is given up and its alert's outcome becomes failed with reason.
func (db *DB) MarkOutboxFailed(ctx context.Context, orgID, id, errText string, final bool, reason string) error {
	return db.tx(ctx, func(q querier, tx any) error {
		status := radar.OutboxPending
		if final {
			status = radar.OutboxFailed
		}
		n, err := q.Exec(ctx, `UPDATE outbox SET status = $1, last_error = $2, claimed_at = NULL WHERE id = $3 AND org_id = $4`,
			status, errText, id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: mark outbox failed: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		if !final {
			return nil
		}
		_, err = q.Exec(ctx, `UPDATE alerts SET outcome = $1, reason = $2 WHERE id = (SELECT alert_id FROM outbox WHERE id = $3)`,
			radar.OutcomeFailed, reason, id)
		if err != nil {
			return fmt.Errorf("sqldb: mark outbox failed: %w", err)
		}
		if err := db.emitAlert(ctx, q, tx, orgID, id, radar.EventAlertFailed, radar.NewTime(time.Now())); err != nil {
			return err
		}
		return db.changed(ctx, q, orgID)
	})
}
