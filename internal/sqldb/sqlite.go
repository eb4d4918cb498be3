package sqldb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/sqlite/*.sql
var sqliteMigrations embed.FS

// sqliteEngine keeps one writer connection (SQLite has one writer at a time; WAL lets readers go on)
// and a small pool of read-only connections.
type sqliteEngine struct {
	writer *sql.DB
	read   *sql.DB
	// group takes the batches of execBatch to the group commit, until quit is closed; stopped is closed when
	// the group commit has stopped.
	group         chan *groupReq
	quit, stopped chan struct{}
	stopGroups    sync.Once
}

func openSQLite(ctx context.Context, path string, opts Options) (*sqliteEngine, error) {
	if path == "" {
		return nil, errors.New("sqldb: sqlite: empty path")
	}
	// The file is made when missing, never the folders above it.
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("sqldb: sqlite: folder %q does not exist", filepath.Dir(path))
	}
	// Write-ahead log with synchronous=NORMAL: a commit appends to the log without waiting for the disk, which is
	// synced at each checkpoint. A crash of the process loses nothing committed; a crash of the machine or a
	// power cut may lose the transactions committed since the last checkpoint, never the database's
	// consistency. FULL would sync the log at every commit, a disk flush per create.
	dsn := func(extra ...string) string {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(NORMAL)")
		for _, e := range extra {
			q.Add("_pragma", e)
		}
		return "file:" + path + "?" + q.Encode()
	}
	writer, err := openKeeping(dsn() + "&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	e := &sqliteEngine{writer: writer}
	if err := e.migrate(ctx, opts); err != nil {
		writer.Close()
		return nil, err
	}
	if e.read, err = openKeeping(dsn("query_only(1)")); err != nil {
		writer.Close()
		return nil, err
	}
	e.read.SetMaxOpenConns(4)
	e.read.SetMaxIdleConns(4)
	e.group, e.quit, e.stopped = make(chan *groupReq), make(chan struct{}), make(chan struct{})
	go e.commitGroups()
	return e, nil
}

func (e *sqliteEngine) migrate(ctx context.Context, opts Options) error {
	fsys, err := fs.Sub(sqliteMigrations, "migrations/sqlite")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, e.writer, fsys)
	if err != nil {
		return fmt.Errorf("sqldb: sqlite: migrations: %w", err)
	}
	schema, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("sqldb: sqlite: migrate: %w", err)
	}
	m, err := rivermigrate.New(riversqlite.New(e.writer), &rivermigrate.Config{Logger: opts.Logger})
	if err != nil {
		return fmt.Errorf("sqldb: sqlite: job queue migrations: %w", err)
	}
	queue, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("sqldb: sqlite: job queue migrate: %w", err)
	}
	opts.migrated(schema, queue)
	return nil
}

func (e *sqliteEngine) name() string     { return SQLite }
func (e *sqliteEngine) reader() querier  { return sqlQuerier{e.read} }
func (e *sqliteEngine) writerQ() querier { return sqlQuerier{e.writer} }

func (e *sqliteEngine) inTx(ctx context.Context, fn func(q querier, tx any) error) error {
	tx, err := e.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqldb: begin: %w", err)
	}
	if err := fn(sqlQuerier{tx}, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqldb: commit: %w", err)
	}
	return nil
}

func (e *sqliteEngine) foundersJSON() string {
	return `(SELECT json_group_array(json_object('id', f.id, 'name', f.name, 'linkedinUrl', f.linkedin_url,
	'twitterUrl', f.twitter_url, 'githubUrl', f.github_url) ORDER BY f.position) FROM founders f WHERE f.entity_id = e.id)`
}

func (e *sqliteEngine) ping(ctx context.Context) error { return e.read.PingContext(ctx) }

func (e *sqliteEngine) close() error {
	if e.quit != nil {
		e.stopGroups.Do(func() {
			close(e.quit)
			<-e.stopped
		})
	}
	var errs []error
	if e.read != nil {
		errs = append(errs, e.read.Close())
	}
	errs = append(errs, e.writer.Close())
	return errors.Join(errs...)
}

// sqlConn is a database/sql pool or transaction.
type sqlConn interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

type sqlQuerier struct{ c sqlConn }

func (s sqlQuerier) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.c.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqlQuerier) Query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := s.c.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (s sqlQuerier) QueryRow(ctx context.Context, q string, args ...any) row {
	return s.c.QueryRowContext(ctx, q, args...)
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }
