// Package ratelimit enforces per-API-key request budgets in fixed clock windows, counted in process or in Redis.
package ratelimit

import (
	"context"
	"net/http"
	"time"
)

// Bucket names of the Partner API's rate limits.
const (
	Read    = "read"
	Write   = "write"
	Create  = "create"
	Refresh = "refresh"
	Enrich  = "enrich"
)

// Bucket is one budget: at most Limit hits per fixed clock window of length Window (whole seconds).
type Bucket struct {
	Name   string
	Limit  int
	Window time.Duration
}

// WindowSeconds is the window's length in whole seconds, at least 1.
func (b Bucket) WindowSeconds() int64 {
	return max(int64(b.Window/time.Second), 1)
}

// Defaults returns the Partner API's five buckets keyed by name.
func Defaults() map[string]Bucket {
	return map[string]Bucket{
		Read:    {Name: Read, Limit: 600, Window: time.Minute},
		Write:   {Name: Write, Limit: 120, Window: time.Minute},
		Create:  {Name: Create, Limit: 200, Window: time.Hour},
		Refresh: {Name: Refresh, Limit: 60, Window: time.Hour},
		Enrich:  {Name: Enrich, Limit: 60, Window: time.Hour},
	}
}

// MethodBucket names the bucket every request with the given HTTP method counts in: read for GET and HEAD, write otherwise.
func MethodBucket(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead:
		return Read
	default:
		return Write
	}
}

// Store keeps hit counters that expire on their own.
type Store interface {
	// Incr adds n hits to the counter at key, starting it with the given time to live if it is new,
	// and returns the count after the increment.
	Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error)
	// Peek returns the count at key without adding a hit; a missing or expired counter is 0.
	Peek(ctx context.Context, key string) (int64, error)
	// Decr takes back one hit from the counter at key while it lives; a missing or expired counter stays missing.
	Decr(ctx context.Context, key string) error
}
