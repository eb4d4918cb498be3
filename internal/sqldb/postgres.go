package sqldb

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed migrations/postgres/*.sql
var postgresMigrations embed.FS

type pgEngine struct {
	pool *pgxpool.Pool
	// keys reads API keys for authentication, in batches (DB.apiKeys). Its few sessions use the generic plan of
	// a prepared statement at once: left to choose, PostgreSQL plans the key query anew at every execution,
	// which costs more than running it. They read only by primary key, and never scan a table: with a few
	// hundred keys, the planner finds a scan of api_keys cheaper than its index, and each batch then compares
	// every key's id with every id asked (4 times the server's CPU of the index lookups).
	keys   *pgxpool.Pool
	schema string
	// notified is when, in Unix nanoseconds, an insert of jobs last notified the workers of QueueDefault and of
	// QueueTracker (notifyDue).
	notified [2]atomic.Int64
}

// keyConns is the size of the key-reading pool: batches of key reads run one at a time.
const keyConns = 2

func openPostgres(ctx context.Context, url string, opts Options) (*pgEngine, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("sqldb: postgres: %w", err)
	}
	// A search_path in the URL places every table, the job queue's too, in that schema.
	opts.Schema = cfg.ConnConfig.RuntimeParams["search_path"]
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("sqldb: postgres: %w", err)
	}
	kcfg := cfg.Copy()
	kcfg.MaxConns, kcfg.MinConns = keyConns, 0
	kcfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	kcfg.ConnConfig.RuntimeParams["enable_seqscan"] = "off"
	keys, err := pgxpool.NewWithConfig(ctx, kcfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("sqldb: postgres: %w", err)
	}
	e := &pgEngine{pool: pool, keys: keys, schema: opts.Schema}
	if err := e.migrate(ctx, opts); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// migrationLock serialises migrations of replicas starting at once.
const migrationLock = 7_261_447_001

func (e *pgEngine) migrate(ctx context.Context, opts Options) error {
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("sqldb: postgres: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return fmt.Errorf("sqldb: postgres: migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)

	fsys, err := fs.Sub(postgresMigrations, "migrations/postgres")
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(e.pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys)
	if err != nil {
		return fmt.Errorf("sqldb: postgres: migrations: %w", err)
	}
	schema, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("sqldb: postgres: migrate: %w", err)
	}
	m, err := rivermigrate.New(riverpgxv5.New(e.pool), &rivermigrate.Config{Logger: opts.Logger, Schema: opts.Schema})
	if err != nil {
		return fmt.Errorf("sqldb: postgres: job queue migrations: %w", err)
	}
	queue, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("sqldb: postgres: job queue migrate: %w", err)
	}
	opts.migrated(schema, queue)
	return nil
}

func (e *pgEngine) name() string    { return Postgres }
func (e *pgEngine) reader() querier { return pgQuerier{e.pool} }

func (e *pgEngine) inTx(ctx context.Context, fn func(q querier, tx any) error) error {
	return pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error { return fn(pgQuerier{tx}, tx) })
}

func (e *pgEngine) foundersJSON() string {
	return `(SELECT coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'linkedinUrl', f.linkedin_url,
	'twitterUrl', f.twitter_url, 'githubUrl', f.github_url) ORDER BY f.position), '[]')::text FROM founders f WHERE f.entity_id = e.id)`
}

func (e *pgEngine) ping(ctx context.Context) error { return e.pool.Ping(ctx) }

func (e *pgEngine) close() error {
	e.keys.Close()
	e.pool.Close()
	return nil
}

type pgConn interface {
	Exec(ctx context.Context, q string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, q string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) pgx.Row
}

type pgQuerier struct{ c pgConn }

func (p pgQuerier) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := p.c.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

func (p pgQuerier) Query(ctx context.Context, q string, args ...any) (rows, error) {
	return p.c.Query(ctx, q, args...)
}

func (p pgQuerier) QueryRow(ctx context.Context, q string, args ...any) row {
	return p.c.QueryRow(ctx, q, args...)
}
