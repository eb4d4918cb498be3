package sqldb

import "context"

// quickReader returns the reader for reads of a few rows by key, which take microseconds: on SQLite they run
// without the cancellation of ctx, once ctx is found live. A cancellable context costs each SQLite query two
// goroutines (one of database/sql to close the rows, one of the driver to interrupt the query), which
// weighed as much as the query itself in the authentication of every request. PostgreSQL reads keep it:
// their connection may hang.
func (db *DB) quickReader() querier {
	if db.eng.name() == SQLite {
		return uncancelled{db.eng.reader()}
	}
	return db.eng.reader()
}

// uncancelled runs the queries of q without the cancellation of their context, after checking that it has not
// ended.
type uncancelled struct{ q querier }

func (u uncancelled) Exec(ctx context.Context, text string, args ...any) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return u.q.Exec(context.WithoutCancel(ctx), text, args...)
}

func (u uncancelled) Query(ctx context.Context, text string, args ...any) (rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return u.q.Query(context.WithoutCancel(ctx), text, args...)
}

func (u uncancelled) QueryRow(ctx context.Context, text string, args ...any) row {
	if err := ctx.Err(); err != nil {
		return errRow{err}
	}
	return u.q.QueryRow(context.WithoutCancel(ctx), text, args...)
}

// errRow is a row whose query failed before it ran.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
