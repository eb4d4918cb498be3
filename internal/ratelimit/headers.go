package ratelimit

import (
	"net/http"
	"strconv"
	"time"
)

// Headers writes the RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers for every
// bucket the request counted in, and Retry-After when denied. A decision that failed open writes nothing.
//
//	RateLimit-Policy: "write";q=120;w=60, "create";q=200;w=3600
//	RateLimit: "write";r=119;t=42, "create";r=0;t=1800
//	Retry-After: 1800
func (d Decision) Headers(h http.Header) {
	if len(d.Counted) == 0 {
		return
	}
	var policyBuf, limitBuf [96]byte
	policy, limit := policyBuf[:0], limitBuf[:0]
	for i, s := range d.Counted {
		if i > 0 {
			policy = append(policy, ", "...)
			limit = append(limit, ", "...)
		}
		policy = appendSFString(policy, s.Bucket.Name)
		policy = append(policy, ";q="...)
		policy = strconv.AppendInt(policy, int64(s.Bucket.Limit), 10)
		policy = append(policy, ";w="...)
		policy = strconv.AppendInt(policy, s.Bucket.WindowSeconds(), 10)
		limit = appendSFString(limit, s.Bucket.Name)
		limit = append(limit, ";r="...)
		limit = strconv.AppendInt(limit, int64(s.Remaining), 10)
		limit = append(limit, ";t="...)
		limit = strconv.AppendInt(limit, CeilSeconds(s.ResetAfter), 10)
	}
	// Every request writes them: in net/http's canonical form of their names, as they go out, and in one slice,
	// they cost two allocations fewer than through Set.
	vals := []string{string(policy), string(limit)}
	h["Ratelimit-Policy"], h["Ratelimit"] = vals[:1:1], vals[1:]
	if !d.Allowed {
		h.Set("Retry-After", strconv.FormatInt(d.RetryAfter(), 10))
	}
}

// RetryAfter is the whole number of seconds, at least 1, a denied client waits before the window of Bucket ends.
func (d Decision) RetryAfter() int64 {
	return CeilSeconds(d.ResetAfter)
}

// CeilSeconds rounds a time until a window ends up to whole seconds, at least 1, as the headers carry it.
func CeilSeconds(d time.Duration) int64 {
	return max(int64((d+time.Second-1)/time.Second), 1)
}

// appendSFString appends s to b as a structured-field string.
func appendSFString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, c := range []byte(s) {
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return append(b, '"')
}
