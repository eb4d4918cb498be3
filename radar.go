// Package radar holds Radar's domain: the tracked companies, signals, alerts and leads of an investor
// organisation, the errors the service returns, and the interfaces of the storage that keeps them.
//
// Storage and transport packages import this package; it imports neither of them.
package radar

import (
	"strings"
	"time"
)

// Time is an instant rendered as the API promises everywhere: UTC with exactly six fractional digits and an
// offset of +00:00, e.g. 2026-11-21T09:30:00.123456+00:00. It is kept at microsecond precision, as stored.
type Time struct{ time.Time }

// TimeLayout is the wire layout of every timestamp.
const TimeLayout = "2006-01-02T15:04:05.000000-07:00"

// NewTime truncates t to microseconds in UTC.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Microsecond)} }

// TimeFromMicros converts a stored Unix microsecond count.
func TimeFromMicros(us int64) Time { return Time{time.UnixMicro(us).UTC()} }

// Micros is the stored form of t.
func (t Time) Micros() int64 { return t.UnixMicro() }

func (t Time) String() string { return t.UTC().Format("2006-01-02T15:04:05.000000") + "+00:00" }

// MarshalJSON renders t in the API's layout.
func (t Time) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.String() + `"`), nil
}

// UnmarshalJSON accepts any RFC 3339 timestamp.
func (t *Time) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	*t = NewTime(v)
	return nil
}

// TimePtr returns a pointer to NewTime(t), or nil for the zero time.
func TimePtr(t time.Time) *Time {
	if t.IsZero() {
		return nil
	}
	v := NewTime(t)
	return &v
}

// Clock tells the time; tests inject their own.
type Clock func() time.Time
