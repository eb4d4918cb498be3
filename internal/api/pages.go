package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"radar/internal/service"
)

// DefaultListCacheBytes bounds the encoded list pages a process keeps.
const DefaultListCacheBytes = 64 << 20

// listPageMaxAge bounds how long a page is served from the cache even though the change count has not moved,
// so that data changed outside Radar (by hand, in the database) shows within it.
const listPageMaxAge = time.Minute

// maxCachedQuery bounds the query string of a page kept: it is part of the page's key.
const maxCachedQuery = 1024

// listCache keeps encoded list pages. A page is keyed by its organisation, list and query, and holds while the
// organisation's change count (radar.Principal.Changes, read with the API key in the same query) is the one it
// was computed at: every write to the organisation's data moves the count in the write's own transaction, so a
// page served from here is never older than what the database shows the same request, on any replica.
// Pages are kept for listPageMaxAge at most.
type listCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
	size  int
	max   int
}

type cachedPage struct {
	changes int64
	body    []byte
	at      time.Time
}

func newListCache(max int) *listCache {
	return &listCache{pages: map[string]cachedPage{}, max: max}
}

func (c *listCache) get(key string, changes int64) []byte {
	c.mu.Lock()
	p, ok := c.pages[key]
	c.mu.Unlock()
	if !ok || p.changes != changes || time.Since(p.at) > listPageMaxAge {
		return nil
	}
	return p.body
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
	var key string
	if cacheable {
		key = name + "\x00" + p.OrgID + "\x00" + st.query
		if b := s.lists.get(key, p.Changes); b != nil {
			s.observeList(name, true)
			return encodedPage[T](ctx, b), nil
		}
		s.observeList(name, false)
	}
	l, err := list()
	if err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	if cacheable {
		var buf bytes.Buffer
		if err := encodeJSON(&buf, l); err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		s.lists.put(key, p.Changes, buf.Bytes())
		return encodedPage[T](ctx, buf.Bytes()), nil
	}
	return &body[*service.List[T]]{l}, nil
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
