package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

// DefaultListCacheBytes bounds the encoded list pages a process keeps.
const DefaultListCacheBytes = 64 << 20

// listPageMaxAge bounds how long a page is served from the cache even though the change count has not moved,
// so that data changed outside Radar (by hand, in the database) shows within it.
const listPageMaxAge = time.Minute

// maxCachedQuery bounds the query string of a page kept: it is part of the page's key.
const maxCachedQuery = 1024

// listCache keeps encoded list pages, and the encoded reads of single companies (entityRead). A page is keyed by its organisation, list and query, and holds while the
// organisation's change count (radar.Principal.Changes, read with the API key in the same query) is the one it
// was computed at: every write to the organisation's data moves the count in the write's own transaction, so a
// page served from here is never older than what the database shows the same request, on any replica.
// Pages are kept for listPageMaxAge at most.
//
// A page missing from the cache is computed once for all the requests that miss it at once: while one request
// computes a page, the others that want it at the same change count or an earlier one wait for that page (see
// share). After every write to a busy organisation, its readers would otherwise all compute the same page.
type listCache struct {
	mu      sync.Mutex
	pages   map[string]cachedPage
	flights map[string]*flight
	size    int
	max     int
}

// flight is a page being computed at a change count.
type flight struct {
	changes int64
	done    chan struct{}
	waiters int    // requests waiting for it (tests wait on it)
	body    []byte // once done: the page, or nil when computing it failed
}

type cachedPage struct {
	changes int64
	body    []byte
	at      time.Time
}

func newListCache(max int) *listCache {
	return &listCache{pages: map[string]cachedPage{}, flights: map[string]*flight{}, max: max}
}

// share returns the page key at change count changes and whether it was computed by this call. A page being
// computed by another request at changes or a later count is waited for, until ctx ends; a later count holds every
// change of an earlier one. Otherwise compute computes it, and it is kept. When the request waited for fails, the
// waiters compute the page themselves, so that its error is never another request's.
func (c *listCache) share(ctx context.Context, key string, changes int64, compute func() ([]byte, error)) ([]byte, bool, error) {
	keep := func() ([]byte, error) {
		b, err := compute()
		if err == nil {
			c.put(key, changes, b)
		}
		return b, err
	}
	c.mu.Lock()
	if b := c.fresh(key, changes); b != nil {
		c.mu.Unlock()
		return b, false, nil
	}
	if f, ok := c.flights[key]; ok && f.changes >= changes {
		f.waiters++
		c.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
		if f.body != nil {
			return f.body, false, nil
		}
		b, err := keep()
		return b, true, err
	}
	// A flight at an earlier count is left to its waiters; later requests wait for this one.
	f := &flight{changes: changes, done: make(chan struct{})}
	c.flights[key] = f
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.flights[key] == f {
			delete(c.flights, key)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	b, err := keep()
	if err != nil {
		return nil, true, err
	}
	f.body = b
	return b, true, nil
}

func (c *listCache) get(key string, changes int64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fresh(key, changes)
}

// fresh returns the kept page key if it was computed at changes, less than listPageMaxAge ago; c.mu is held.
func (c *listCache) fresh(key string, changes int64) []byte {
	p, ok := c.pages[key]
	if !ok || p.changes != changes || time.Since(p.at) > listPageMaxAge {
		return nil
	}
	return p.body
}

// encoded is v in the API's JSON encoding.
func encoded(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeJSON(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// put keeps body, making room by dropping pages at random (map order).
func (c *listCache) put(key string, changes int64, body []byte) {
	if len(body) > c.max/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.pages[key]; ok {
		if old.changes > changes {
			return
		}
		c.size -= len(old.body)
		delete(c.pages, key)
	}
	for k, p := range c.pages {
		if c.size+len(body) <= c.max {
			break
		}
		c.size -= len(p.body)
		delete(c.pages, k)
	}
	c.pages[key] = cachedPage{changes: changes, body: body, at: time.Now()}
	c.size += len(body)
}

// listPage serves one page of the list name: from the cache when the organisation has not changed since the page
// was computed for the same query string, else computed by list and kept. The principal's scope is checked first, so a
// key without it is refused as before. A page that depends on more than the organisation's data (a
// classification, which an LLM may resolve) is computed every time.
func listPage[T any](ctx context.Context, s *Server, name, scope string, cacheable bool,
	list func() (*service.List[T], error)) (*body[*service.List[T]], error) {
	p := PrincipalFrom(ctx)
	if err := p.Require(scope); err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	st := stateOf(ctx)
	cacheable = cacheable && p.Changes > 0 && s.lists != nil && st != nil && len(st.query) <= maxCachedQuery
	if !cacheable {
		l, err := list()
		if err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		return &body[*service.List[T]]{l}, nil
	}
	b, computed, err := s.lists.share(ctx, listKey(name, p.OrgID, st.query), p.Changes, func() ([]byte, error) {
		l, err := list()
		if err != nil {
			return nil, err
		}
		return encoded(l)
	})
	s.observeList(name, !computed)
	if err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	return encodedPage[T](ctx, b), nil
}

// entityRead serves the read of the company id, with its operation: from the cache when the organisation has
// not changed since the read was answered for the same id and query string, else read by get and kept. Like a
// list page, it is keyed by organisation and holds while the organisation's change count has not moved: every
// write that shows in the read (a change through the API, an enrichment, a run and its signals, a failed or
// claimed run) moves the count in its own transaction, on any replica or worker. The scope is checked first.
// The answer, cached or not, goes out with its length.
func entityRead(ctx context.Context, s *Server, id string, get func() (*radar.Entity, error)) (*body[EntityEnvelope], error) {
	p := PrincipalFrom(ctx)
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	st := stateOf(ctx)
	if st == nil {
		e, err := get()
		if err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		return &body[EntityEnvelope]{EntityEnvelope{Data: e, Operation: e.Operation}}, nil
	}
	read := func() ([]byte, error) {
		e, err := get()
		if err != nil {
			return nil, err
		}
		return encoded(EntityEnvelope{Data: e, Operation: e.Operation})
	}
	var (
		b   []byte
		err error
	)
	if p.Changes > 0 && s.lists != nil && len(st.query) <= maxCachedQuery && len(id) <= maxCachedQuery {
		var computed bool
		b, computed, err = s.lists.share(ctx, entityKey(p.OrgID, id, st.query), p.Changes, read)
		s.observeEntity(!computed)
	} else {
		b, err = read()
	}
	if err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	return encodedEntity(st, b), nil
}

func encodedEntity(st *requestState, b []byte) *body[EntityEnvelope] {
	st.header.Set("Content-Length", strconv.Itoa(len(b)))
	return &body[EntityEnvelope]{EntityEnvelope{encoded: b}}
}

func (s *Server) observeEntity(hit bool) {
	if s.cfg.OnEntityCache != nil {
		s.cfg.OnEntityCache(hit)
	}
}

// listKey and entityKey are the cache keys of a list page and of the read of one company.
func listKey(list, orgID, query string) string { return list + "\x00" + orgID + "\x00" + query }

func entityKey(orgID, id, query string) string {
	return "tracker/{id}\x00" + orgID + "\x00" + id + "\x00" + query
}

// serveCached answers a read of the company list or of one company from the cache before the request is decoded:
// a body is kept only once the same request (organisation, path and query string) was decoded, validated and
// answered 200, and the organisation has not changed since, so the same request gets the same answer, headers
// included. It answers only plain JSON reads (no body, no escaped path, no Accept but JSON); the middleware has
// authenticated, rate-limited and checked the scopes already. It reports whether it answered.
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, st *requestState, pattern string) bool {
	p := st.principal
	if s.lists == nil || p == nil || p.Changes <= 0 || r.Method != http.MethodGet || r.ContentLength != 0 ||
		st.csv || r.URL.RawPath != "" {
		return false
	}
	switch r.Header.Get("Accept") {
	case "", "*/*", "application/json":
	default:
		return false
	}
	var (
		key  string
		list string
	)
	switch pattern {
	case "GET /api/v1/tracker":
		list = "tracker"
		key = listKey(list, p.OrgID, st.query)
	case "GET /api/v1/tracker/{id}":
		key = entityKey(p.OrgID, strings.TrimPrefix(r.URL.Path, "/api/v1/tracker/"), st.query)
	default:
		return false
	}
	b := s.lists.get(key, p.Changes)
	if b == nil {
		return false
	}
	if list != "" {
		s.observeList(list, true)
	} else {
		s.observeEntity(true)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	return true
}

// encodedPage answers an encoded page, with its length: the body goes out in one piece, not in chunks.
func encodedPage[T any](ctx context.Context, b []byte) *body[*service.List[T]] {
	if st := stateOf(ctx); st != nil {
		st.header.Set("Content-Length", strconv.Itoa(len(b)))
	}
	return &body[*service.List[T]]{service.EncodedList[T](b)}
}

func (s *Server) observeList(name string, hit bool) {
	if s.cfg.OnListCache != nil {
		s.cfg.OnListCache(name, hit)
	}
}

// encodeJSON is the API's JSON encoding; a value that carries its encoding already (a cached page) is written
// as it is.
func encodeJSON(w io.Writer, v any) error {
	if e, ok := v.(interface{ Encoded() []byte }); ok && e.Encoded() != nil {
		_, err := w.Write(e.Encoded())
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

var jsonFormat = huma.Format{Marshal: encodeJSON, Unmarshal: json.Unmarshal}
