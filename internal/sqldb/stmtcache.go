package sqldb

import (
	"container/list"
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCacheSize bounds the prepared statements of one pool; the dynamic queries (IN lists, optional filters)
// have many texts, of which only the recently used ones are kept.
const stmtCacheSize = 256

// stmtCache keeps the statements prepared on a database/sql pool by query text, least recently used evicted
// first, so that SQLite does not parse and plan each query anew. A *sql.Stmt of a pool is safe for concurrent
// use and prepares itself on each connection it runs on.
type stmtCache struct {
	db   *sql.DB
	size int

	mu     sync.Mutex
	lru    *list.List // of *cachedStmt, most recently used first
	byText map[string]*list.Element
	closed bool
}

// cachedStmt is a statement of the cache; it is closed once evicted and no query is starting on it.
type cachedStmt struct {
	text    string
	stmt    *sql.Stmt
	refs    int
	evicted bool
}

func newStmtCache(db *sql.DB, size int) *stmtCache {
	return &stmtCache{db: db, size: size, lru: list.New(), byText: make(map[string]*list.Element)}
}

// acquire returns the statement of text, preparing it when it is not cached; release it once the query started.
func (c *stmtCache) acquire(ctx context.Context, text string) (*cachedStmt, error) {
	c.mu.Lock()
	if cs := c.lookupLocked(text); cs != nil {
		c.mu.Unlock()
		return cs, nil
	}
	c.mu.Unlock()
	stmt, err := c.db.PrepareContext(ctx, text)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := c.lookupLocked(text); cs != nil {
		stmt.Close()
		return cs, nil
	}
	cs := &cachedStmt{text: text, stmt: stmt, refs: 1}
	if c.closed {
		cs.evicted = true
		return cs, nil
	}
	c.byText[text] = c.lru.PushFront(cs)
	for c.lru.Len() > c.size {
		c.evictLocked(c.lru.Back())
	}
	return cs, nil
}

func (c *stmtCache) lookupLocked(text string) *cachedStmt {
	el, ok := c.byText[text]
	if !ok {
		return nil
	}
	c.lru.MoveToFront(el)
	cs := el.Value.(*cachedStmt)
	cs.refs++
	return cs
}

func (c *stmtCache) evictLocked(el *list.Element) error {
	cs := c.lru.Remove(el).(*cachedStmt)
	delete(c.byText, cs.text)
	cs.evicted = true
	if cs.refs == 0 {
		return cs.stmt.Close()
	}
	return nil
}

// release ends the use of cs that acquire began; rows already open keep the statement alive on their own.
func (c *stmtCache) release(cs *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.refs--
	if cs.evicted && cs.refs == 0 {
		cs.stmt.Close()
	}
}

// close closes every cached statement; statements still in use close on release.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for c.lru.Len() > 0 {
		errs = append(errs, c.evictLocked(c.lru.Front()))
	}
	return errors.Join(errs...)
}

// cachedQuerier runs queries on a pool through its statement cache.
type cachedQuerier struct{ c *stmtCache }

func (q cachedQuerier) Exec(ctx context.Context, text string, args ...any) (int64, error) {
	cs, err := q.c.acquire(ctx, text)
	if err != nil {
		return 0, err
	}
	res, err := cs.stmt.ExecContext(ctx, args...)
	q.c.release(cs)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (q cachedQuerier) Query(ctx context.Context, text string, args ...any) (rows, error) {
	cs, err := q.c.acquire(ctx, text)
	if err != nil {
		return nil, err
	}
	r, err := cs.stmt.QueryContext(ctx, args...)
	q.c.release(cs)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (q cachedQuerier) QueryRow(ctx context.Context, text string, args ...any) row {
	cs, err := q.c.acquire(ctx, text)
	if err != nil {
		return errRow{err}
	}
	r := cs.stmt.QueryRowContext(ctx, args...)
	q.c.release(cs)
	return r
}

// errRow is a row whose query failed before it ran.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
