package sqldb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"radar"
)

// This file holds what makes a write cheap: a create runs as one list of statements, which PostgreSQL receives
// in one round trip and SQLite runs on statements prepared once; jobs are rows of the queue's table, inserted
// by the same statements.

// stmt is one statement of a write.
type stmt struct {
	sql  string
	args []any
}

// batchError is the failure of statement i of a batch.
type batchError struct {
	i   int
	err error
}

func (e *batchError) Error() string { return e.err.Error() }
func (e *batchError) Unwrap() error { return e.err }

// isConstraint reports whether err is the violation of a unique or primary key constraint.
func isConstraint(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
	}
	return false
}

// The statements of a create. A new entity's identity keys are plain inserts: one that another entity holds
// fails the batch, which CreateEntity reports as radar.ErrDuplicate.
const (
	insertEntitySQL = `INSERT INTO entities (id, org_id, company_name, company_website, company_linkedin_url,
			company_twitter_url, company_github_url, company_summary, things_to_track, alert_emails, email_alerts_enabled,
			cadence_days, status, tags, sectors, stage, policy, enrichment_status, last_scraped_at, scrape_health_reason,
			next_run_at, running_since, created_at, updated_at, version, digest, latest_signal, latest_change)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26,
			'` + noSignal + `', '` + noSignal + `')`
	upsertFounderSQL = `INSERT INTO founders (id, entity_id, position, name, linkedin_url, twitter_url, github_url)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (id) DO UPDATE SET position = excluded.position, name = excluded.name,
			linkedin_url = CASE WHEN excluded.linkedin_url = '' THEN founders.linkedin_url ELSE excluded.linkedin_url END,
			twitter_url = CASE WHEN excluded.twitter_url = '' THEN founders.twitter_url ELSE excluded.twitter_url END,
			github_url = CASE WHEN excluded.github_url = '' THEN founders.github_url ELSE excluded.github_url END`
	insertKeySQL    = `INSERT INTO entity_keys (org_id, ident_key, entity_id) VALUES ($1, $2, $3)`
	upsertKeySQL    = insertKeySQL + ` ON CONFLICT (org_id, ident_key) DO NOTHING`
	insertSectorSQL = `INSERT INTO entity_sectors (entity_id, path) VALUES ($1, $2) ON CONFLICT DO NOTHING`
	bumpVersionSQL  = `UPDATE org_versions SET version = version + 1 WHERE org_id = $1`
	countChangeSQL  = `INSERT INTO org_changes (org_id, shard, n) VALUES ($1, $2, 1) ON CONFLICT (org_id, shard) DO UPDATE SET n = org_changes.n + 1`
	completeIdemSQL = `UPDATE idempotency SET state = $1, entity_id = $2, status_code = $3 WHERE org_id = $4 AND idem_key = $5`
	sqliteInsertJob = `INSERT INTO river_job (args, created_at, kind, max_attempts, metadata, priority, queue, scheduled_at, state, tags)
			VALUES (jsonb($1), datetime('now', 'subsec'), $2, $3, jsonb('{}'), 1, $4, datetime('now', 'subsec'), 'available', jsonb('[]'))`
	postgresInsertJob = `INSERT INTO river_job (args, kind, max_attempts, metadata, priority, queue, state, tags)
			VALUES ($1::jsonb, $2, $3, '{}', 1, $4, 'available', '{}')`
)

// createStmts are the statements that insert e with its founders, identity keys and sectors, enqueue jobs and
// complete idem; keys[0] and keys[1] bound the identity keys' statements.
func (db *DB) createStmts(e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) (s []stmt, keys [2]int, err error) {
	s = append(s, stmt{insertEntitySQL, []any{e.ID, e.OrgID, e.CompanyName, e.CompanyWebsite, e.CompanyLinkedinURL,
		e.CompanyTwitterURL, e.CompanyGithubURL, e.CompanySummary, e.ThingsToTrack, jsonText(e.AlertEmails), e.EmailAlertsEnabled,
		e.CadenceDays, e.Status, jsonText(e.Tags), jsonText(e.Sectors), e.Stage, policyText(e.Policy), e.EnrichmentStatus,
		nullMicros(e.LastScrapedAt), e.ScrapeHealthReason, nullMicros(e.NextRunAt), nullMicros(e.RunningSince),
		e.CreatedAt.Micros(), e.UpdatedAt.Micros(), e.Version, digestOrOff(e.Digest)}})
	for i, f := range e.Founders {
		s = append(s, stmt{upsertFounderSQL, []any{f.ID, e.ID, i, f.Name, f.LinkedinURL, f.TwitterURL, f.GithubURL}})
	}
	keys[0] = len(s)
	for _, k := range radar.IdentityKeys(e) {
		s = append(s, stmt{insertKeySQL, []any{e.OrgID, k, e.ID}})
	}
	keys[1] = len(s)
	for _, p := range e.Sectors {
		s = append(s, stmt{insertSectorSQL, []any{e.ID, p}})
	}
	s = append(s, stmt{bumpVersionSQL, []any{e.OrgID}})
	js, err := db.jobStmts(jobs, maxAttempts)
	if err != nil {
		return nil, keys, err
	}
	s = append(s, js...)
	if idem != nil {
		s = append(s, stmt{completeIdemSQL, []any{radar.IdemDone, e.ID, idem.StatusCode, idem.OrgID, idem.Key}})
	}
	// Counting the change comes last (DB.changed).
	s = append(s, db.changeStmt(e.OrgID))
	return s, keys, nil
}

// changeStmt counts a change to the data of the organisation orgID (DB.changed).
func (db *DB) changeStmt(orgID string) stmt {
	shard := 0
	if db.eng.name() == Postgres {
		shard = rand.IntN(changeShards)
	}
	return stmt{countChangeSQL, []any{orgID, shard}}
}

// jobStmts are the statements inserting jobs into the queue's table, as River would with no insert options of
// the job's own: in the queue of their kind (queueOf), priority 1, available now, tried at most attempts times.
// On PostgreSQL they wake the workers of the queue, at most every notifyEvery.
func (db *DB) jobStmts(jobs []radar.JobArgs, attempts int) ([]stmt, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	s := make([]stmt, 0, len(jobs)+1)
	insert := sqliteInsertJob
	if db.eng.name() == Postgres {
		insert = postgresInsertJob
	}
	var queues []string
	for _, j := range jobs {
		if _, ok := j.(river.JobArgsWithInsertOpts); ok {
			return nil, fmt.Errorf("sqldb: enqueue: job %s has insert options of its own, which the queue does not apply", j.Kind())
		}
		args, err := json.Marshal(j)
		if err != nil {
			return nil, fmt.Errorf("sqldb: enqueue: %w", err)
		}
		queue := queueOf(j.Kind())
		s = append(s, stmt{insert, []any{string(args), j.Kind(), attempts, queue}})
		if !slices.Contains(queues, queue) {
			queues = append(queues, queue)
		}
	}
	if pg, ok := db.eng.(*pgEngine); ok {
		for _, queue := range queues {
			if pg.notifyDue(queue) {
				s = append(s, stmt{`SELECT pg_notify(concat(coalesce(nullif($1, ''), current_schema()), '.river_insert'), $2)`,
					[]any{pg.schema, `{"queue": "` + queue + `"}`}})
			}
		}
	}
	return s, nil
}

// notifyEvery bounds how often inserts notify the workers on PostgreSQL: NOTIFY serialises the commits of the
// transactions that send it, and workers woken once fetch every job inserted meanwhile; a notice lost with a
// rolled-back transaction costs at most one poll interval.
const notifyEvery = 100 * time.Millisecond

// notifyDue reports whether an insert into queue should notify its workers now, and if so counts it as sent.
func (e *pgEngine) notifyDue(queue string) bool {
	last := &e.notified[0]
	if queue == QueueTracker {
		last = &e.notified[1]
	}
	now, then := time.Now().UnixNano(), last.Load()
	return now-then >= int64(notifyEvery) && last.CompareAndSwap(then, now)
}

// enqueue inserts jobs with q, inside a write transaction.
func (db *DB) enqueue(ctx context.Context, q querier, jobs []radar.JobArgs) error {
	return db.enqueueAttempts(ctx, q, jobs, maxAttempts)
}

func (db *DB) enqueueAttempts(ctx context.Context, q querier, jobs []radar.JobArgs, attempts int) error {
	s, err := db.jobStmts(jobs, attempts)
	if err != nil {
		return err
	}
	for _, st := range s {
		if _, err := q.Exec(ctx, st.sql, st.args...); err != nil {
			return fmt.Errorf("sqldb: enqueue: %w", err)
		}
	}
	return nil
}

// execBatch sends stmts to PostgreSQL in one round trip; they run in one implicit transaction, which the first
// failing statement rolls back.
func (e *pgEngine) execBatch(ctx context.Context, stmts []stmt) error {
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s.sql, s.args...)
	}
	br := e.pool.SendBatch(ctx, b)
	for i := range stmts {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return &batchError{i: i, err: err}
		}
	}
	return br.Close()
}

// execBatch runs stmts in one transaction of the writer. Batches that wait while the writer commits are
// committed together, in one transaction (group commit): a commit writes each page the batches changed once to
// the log, however many of them changed it, and the writer is taken once for all.
func (e *sqliteEngine) execBatch(ctx context.Context, stmts []stmt) error {
	req := &groupReq{ctx: ctx, stmts: stmts, done: make(chan error, 1)}
	select {
	case e.group <- req:
	case <-e.quit:
		return errors.New("sqldb: sqlite: closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-req.done
}

// groupReq is a batch waiting for the group commit.
type groupReq struct {
	ctx   context.Context
	stmts []stmt
	done  chan error
}

// maxGroup bounds the batches of one group commit.
const maxGroup = 64

// commitGroups commits the batches sent to e.group until e.quit is closed: each time the batch that arrived
// first with every other one waiting by then.
func (e *sqliteEngine) commitGroups() {
	defer close(e.stopped)
	for {
		var first *groupReq
		select {
		case first = <-e.group:
		case <-e.quit:
			return
		}
		group := []*groupReq{first}
	more:
		for len(group) < maxGroup {
			select {
			case r := <-e.group:
				group = append(group, r)
			default:
				break more
			}
		}
		e.commitGroup(group)
	}
}

// commitGroup runs the batches of group in one transaction and commits it. When a statement fails, which is
// rare (a company created twice at once), the transaction is rolled back and each batch runs again in a
// transaction of its own, so that one batch's failure is its own. Statements of a group run without the
// requests' contexts: interrupting one would roll back the other batches too. A request that ended before its
// turn is not run.
func (e *sqliteEngine) commitGroup(group []*groupReq) {
	if len(group) == 1 {
		group[0].done <- e.runAlone(group[0])
		return
	}
	errs := make([]error, len(group))
	ctx := context.Background()
	err := e.inTx(ctx, func(q querier, _ any) error {
		for i, r := range group {
			if errs[i] = r.ctx.Err(); errs[i] != nil {
				continue
			}
			for _, s := range r.stmts {
				if _, err := q.Exec(ctx, s.sql, s.args...); err != nil {
					return err
				}
			}
		}
		return nil
	})
	for i, r := range group {
		if err != nil && errs[i] == nil {
			errs[i] = e.runAlone(r)
		}
		r.done <- errs[i]
	}
}

// runAlone runs the batch of r in a transaction of its own.
func (e *sqliteEngine) runAlone(r *groupReq) error {
	return e.inTx(r.ctx, func(q querier, _ any) error {
		for i, s := range r.stmts {
			if _, err := q.Exec(r.ctx, s.sql, s.args...); err != nil {
				return &batchError{i: i, err: err}
			}
		}
		return nil
	})
}
