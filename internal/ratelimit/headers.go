package ratelimit

import (
	"net/http"
	"strconv"
	"strings"
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
	var policy, limit strings.Builder
	for i, s := range d.Counted {
		if i > 0 {
			policy.WriteString(", ")
			limit.WriteString(", ")
		}
		name := sfString(s.Bucket.Name)
		policy.WriteString(name + ";q=" + strconv.Itoa(s.Bucket.Limit) + ";w=" + strconv.FormatInt(s.Bucket.WindowSeconds(), 10))
		limit.WriteString(name + ";r=" + strconv.Itoa(s.Remaining) + ";t=" + strconv.FormatInt(CeilSeconds(s.ResetAfter), 10))
	}
	h.Set("RateLimit-Policy", policy.String())
	h.Set("RateLimit", limit.String())
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

// sfString serialises s as a structured-field string.
func sfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}
