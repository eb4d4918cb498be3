package sqldb

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"

	"modernc.org/sqlite"
)

// stmtCacheSize bounds the statements a connection keeps; the dynamic queries (IN lists, optional filters) have
// many texts, of which only the recently used ones are kept.
const stmtCacheSize = 256

// openKeeping opens a pool of SQLite connections to dsn that keep the statements they run.
func openKeeping(dsn string) (*sql.DB, error) {
	c, err := newStmtConnector(dsn, stmtCacheSize)
	if err != nil {
		return nil, fmt.Errorf("sqldb: sqlite: %w", err)
	}
	return sql.OpenDB(c), nil
}

// stmtConnector opens SQLite connections that keep the statements they run (stmtConn).
type stmtConnector struct {
	driver.Connector
	size int
}

func newStmtConnector(dsn string, size int) (driver.Connector, error) {
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return stmtConnector{Connector: base, size: size}, nil
}

func (c stmtConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(sqliteConn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqldb: sqlite connection %T lacks a method of database/sql's optional interfaces", conn)
	}
	return &stmtConn{sqliteConn: inner, size: c.size, lru: list.New(), byText: map[string]*list.Element{}}, nil
}

// sqliteConn is what database/sql uses of a SQLite connection.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// stmtConn is a SQLite connection that keeps the statements run on it by text, least recently used evicted
// first, so that a statement run again is not parsed and planned anew. database/sql prepares nothing for a
// query run on a *sql.DB or a *sql.Tx: on the writer, parsing was 38 % of the CPU of the background work, the
// job queue's fetch of the next job (whose text River builds at every call) 27 % by itself. Every statement
// gains, ours and River's, the writer's and the readers', with no list of statements to prepare.
//
// database/sql uses a connection from one goroutine at a time, so stmtConn needs no lock.
type stmtConn struct {
	sqliteConn
	size   int
	lru    *list.List // of *connStmt, most recently used first
	byText map[string]*list.Element
}

// connStmt is a statement of a stmtConn.
type connStmt struct {
	text string
	stmt driver.Stmt
	// open is set while rows of the statement are open; evicted once it has left the cache, to be closed when
	// the rows are.
	open, evicted bool
}

// stmt returns the kept statement of text, preparing it when it is not kept; nil when rows of it are open.
func (c *stmtConn) stmt(ctx context.Context, text string) (*connStmt, error) {
	if el, ok := c.byText[text]; ok {
		c.lru.MoveToFront(el)
		cs := el.Value.(*connStmt)
		if cs.open {
			return nil, nil
		}
		return cs, nil
	}
	s, err := c.sqliteConn.PrepareContext(ctx, text)
	if err != nil {
		return nil, err
	}
	cs := &connStmt{text: text, stmt: s}
	c.byText[text] = c.lru.PushFront(cs)
	for c.lru.Len() > c.size {
		cs := c.lru.Remove(c.lru.Back()).(*connStmt)
		delete(c.byText, cs.text)
		cs.evicted = true
		if !cs.open {
			cs.stmt.Close()
		}
	}
	return cs, nil
}

func (c *stmtConn) ExecContext(ctx context.Context, text string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.stmt(ctx, text)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.ExecContext(ctx, text, args)
	}
	return cs.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *stmtConn) QueryContext(ctx context.Context, text string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.stmt(ctx, text)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.QueryContext(ctx, text, args)
	}
	rs, err := cs.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	cs.open = true
	return &stmtRows{Rows: rs, cs: cs}, nil
}

// Close closes the kept statements, then the connection.
func (c *stmtConn) Close() error {
	var errs []error
	for el := c.lru.Front(); el != nil; el = el.Next() {
		errs = append(errs, el.Value.(*connStmt).stmt.Close())
	}
	c.lru.Init()
	clear(c.byText)
	return errors.Join(append(errs, c.sqliteConn.Close())...)
}

// stmtRows are the rows of a kept statement, which is free again once they are closed.
type stmtRows struct {
	driver.Rows
	cs *connStmt
}

func (r *stmtRows) Close() error {
	err := r.Rows.Close()
	r.cs.open = false
	if r.cs.evicted {
		err = errors.Join(err, r.cs.stmt.Close())
	}
	return err
}

// The column types of SQLite's rows, for sql.Rows.ColumnTypes.

func (r *stmtRows) ColumnTypeDatabaseTypeName(i int) string {
	return r.Rows.(driver.RowsColumnTypeDatabaseTypeName).ColumnTypeDatabaseTypeName(i)
}

func (r *stmtRows) ColumnTypeLength(i int) (int64, bool) {
	return r.Rows.(driver.RowsColumnTypeLength).ColumnTypeLength(i)
}

func (r *stmtRows) ColumnTypeNullable(i int) (bool, bool) {
	return r.Rows.(driver.RowsColumnTypeNullable).ColumnTypeNullable(i)
}

func (r *stmtRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	return r.Rows.(driver.RowsColumnTypePrecisionScale).ColumnTypePrecisionScale(i)
}

func (r *stmtRows) ColumnTypeScanType(i int) reflect.Type {
	return r.Rows.(driver.RowsColumnTypeScanType).ColumnTypeScanType(i)
}
