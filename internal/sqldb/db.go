// Package sqldb implements radar.Store on SQLite (the embedded default) and PostgreSQL (scale-out).
//
// Both engines run the same hand-written SQL through a small querier interface: timestamps are Unix
// microseconds, JSON documents are text, and placeholders are $n, which both engines accept. What differs
// (connection pools, migrations, the job queue driver) lives in sqlite.go and postgres.go.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/rivermigrate"

	"radar"
	"radar/internal/batch"
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// querier runs SQL on a pool or inside a transaction of either engine.
type querier interface {
	Exec(ctx context.Context, q string, args ...any) (int64, error)
	Query(ctx context.Context, q string, args ...any) (rows, error)
	QueryRow(ctx context.Context, q string, args ...any) row
}

type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

type row interface{ Scan(dest ...any) error }

// engine is what differs between SQLite and PostgreSQL.
type engine interface {
	name() string
	reader() querier
	// inTx runs fn in a write transaction; tx is the engine's own transaction for the job queue.
	inTx(ctx context.Context, fn func(q querier, tx any) error) error
	// execBatch runs stmts, in order, in one write transaction; a failing statement is a *batchError.
	execBatch(ctx context.Context, stmts []stmt) error
	ping(ctx context.Context) error
	close() error
	// foundersJSON is a scalar subquery of the JSON array of the founders of the entity aliased e, in order.
	foundersJSON() string
}

// DB is a radar.Store.
type DB struct {
	eng    engine
	logger *slog.Logger
	// entityCols and compactEntityCols are the select lists of the full and compact entity reads.
	entityCols, compactEntityCols string
	// keysRead and keyStatesRead read a batch of keys whole, and only what changes of them.
	keysRead, keyStatesRead string
	// keys batches the key reads of concurrent requests.
	keys *batch.Batcher[string, *radar.APIKey]
	// keyCache keeps what never changes of the keys read (see APIKey).
	keyCache keyCache
	// stateCache keeps, on SQLite, the changing columns of the keys read, until a commit changes one (see keptStates).
	stateCache stateCache
	// uses batches the records of keys' last use (see TouchAPIKey).
	uses *batch.Batcher[keyUse, struct{}]
	// applied names the migrations that Open applied.
	applied []string
	// runEvery, when set, replaces every entity's cadence (Options.RunEvery).
	runEvery time.Duration
}

// nextRun is the SQL expression of the time, in microseconds, from the end of a run to the entity's next one.
func (db *DB) nextRun() string {
	if db.runEvery > 0 {
		return strconv.FormatInt(db.runEvery.Microseconds(), 10)
	}
	return "cadence_days * 86400000000"
}

var _ radar.Store = (*DB)(nil)

// Options configure Open.
type Options struct {
	Logger *slog.Logger
	// Schema is the PostgreSQL schema of every table, taken from the URL's search_path.
	Schema string
	// RunEvery, when set, schedules every entity's next run this long after the end of its last one, whatever
	// its cadence: the demo, whose companies run every minute.
	RunEvery time.Duration

	// applied collects the names of the migrations applied.
	applied *[]string
}

// migrated records the migrations of goose and of the job queue that one run applied.
func (o Options) migrated(schema []*goose.MigrationResult, queue *rivermigrate.MigrateResult) {
	if o.applied == nil {
		return
	}
	for _, r := range schema {
		*o.applied = append(*o.applied, path.Base(r.Source.Path))
	}
	if queue != nil {
		for _, v := range queue.Versions {
			*o.applied = append(*o.applied, fmt.Sprintf("job queue %03d %s", v.Version, v.Name))
		}
	}
}

// Applied names the migrations that Open applied, in order; none when the database was up to date.
func (db *DB) Applied() []string { return db.applied }

// Open connects to url ("sqlite:PATH" or "postgres://…") and applies pending migrations.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	logger := opts.Logger
	opts.Logger = slog.New(quiet{logger.Handler()})
	var applied []string
	opts.applied = &applied
	var (
		eng engine
		err error
	)
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		eng, err = openSQLite(ctx, strings.TrimPrefix(url, "sqlite:"), opts)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		eng, err = openPostgres(ctx, url, opts)
	default:
		return nil, fmt.Errorf("sqldb: unsupported database URL %q: want sqlite:PATH or postgres://…", redact(url))
	}
	if err != nil {
		return nil, err
	}
	db := &DB{eng: eng, logger: logger, applied: applied, runEvery: opts.RunEvery, entityCols: entitySelect(eng, entityColumns),
		compactEntityCols: entitySelect(eng, compactEntityColumns), keysRead: keyRead + inList(eng.name(), "k.id", 1),
		keyStatesRead: keyStatesSQL(eng.name())}
	db.uses = batch.New(db.touchKeys, batch.Config{InFlight: 1, MaxSize: 500, Timeout: 10 * time.Second})
	keys := db.quickReader()
	if pg, ok := eng.(*pgEngine); ok {
		keys = pgQuerier{pg.keys}
	}
	db.keys = batch.New(func(ctx context.Context, ids []string) ([]*radar.APIKey, error) {
		return db.apiKeys(ctx, keys, ids)
	}, batch.Config{InFlight: 1, MaxSize: 100, Timeout: 10 * time.Second})
	return db, nil
}

// Engine names the engine behind db.
func (db *DB) Engine() string { return db.eng.name() }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.eng.ping(ctx) }

// Close releases the connections.
func (db *DB) Close() error { return db.eng.close() }

func (db *DB) tx(ctx context.Context, fn func(q querier, tx any) error) error {
	return db.eng.inTx(ctx, fn)
}

// changeShards is how many rows of org_changes the writers of one organisation spread over on PostgreSQL.
const changeShards = 16

// changed counts a change to the data of the organisations orgIDs (companies, signals, alerts, leads). It is the
// last statement of the transaction that made the change, so that the count and the change become visible
// together, and a list read at one count holds until the count moves (radar.APIKey.Changes). On PostgreSQL a
// transaction adds to one of changeShards rows, at random, so that concurrent writers of an organisation rarely
// wait for each other; as the last statement, and taking organisations in order, it never waits in a cycle.
func (db *DB) changed(ctx context.Context, q querier, orgIDs ...string) error {
	shard := 0
	if db.eng.name() == Postgres {
		shard = rand.IntN(changeShards)
	}
	slices.Sort(orgIDs)
	for _, id := range slices.Compact(orgIDs) {
		if _, err := q.Exec(ctx, countChangeSQL, id, shard); err != nil {
			return fmt.Errorf("sqldb: count change: %w", err)
		}
	}
	return nil
}

// maxAttempts bounds the retries of a failing job; River backs off between attempts.
const maxAttempts = 6

var errNoRows = errors.New("sqldb: no rows")

func isNoRows(err error) bool {
	return errors.Is(err, errNoRows) || errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows)
}

func redact(url string) string {
	if i := strings.Index(url, "@"); i > 0 {
		if j := strings.Index(url, "://"); j > 0 && j < i {
			return url[:j+3] + "…" + url[i:]
		}
	}
	return url
}

// quiet passes only warnings and errors, for the job queue's chatty logging.
type quiet struct{ slog.Handler }

// demoted passes the job queue's log records on with INFO lowered to DEBUG: River tells at INFO, every few
// seconds, that its workers are alive, which is noise in an operator's log; its warnings and errors stay.
type demoted struct{ slog.Handler }

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool {
	if l == slog.LevelInfo {
		l = slog.LevelDebug
	}
	return d.Handler.Enabled(ctx, l)
}

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	return d.Handler.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler { return demoted{d.Handler.WithAttrs(as)} }
func (d demoted) WithGroup(g string) slog.Handler       { return demoted{d.Handler.WithGroup(g)} }

func (q quiet) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && q.Handler.Enabled(ctx, l)
}

func (q quiet) WithAttrs(as []slog.Attr) slog.Handler { return quiet{q.Handler.WithAttrs(as)} }
func (q quiet) WithGroup(g string) slog.Handler       { return quiet{q.Handler.WithGroup(g)} }
