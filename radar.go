// Package radar holds Radar's domain: the tracked companies, signals, alerts and leads of an investor
// organisation, the errors the service returns, and the interfaces of the storage that keeps them.
//
// Storage and transport packages import this package; it imports neither of them.
package radar

import (
	"errors"
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

func (t Time) String() string {
	b, _ := t.AppendText(make([]byte, 0, 32))
	return string(b)
}

// AppendText appends t in the API's layout; encoding/json quotes it without re-validating it.
func (t Time) AppendText(b []byte) ([]byte, error) {
	return append(t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000000"), "+00:00"...), nil
}

// MarshalText renders t in the API's layout.
func (t Time) MarshalText() ([]byte, error) { return t.AppendText(make([]byte, 0, 32)) }

// MarshalJSON renders t in the API's layout (it shadows time.Time's own).
func (t Time) MarshalJSON() ([]byte, error) {
	b, _ := t.AppendText(append(make([]byte, 0, 34), '"'))
	return append(b, '"'), nil
}

// UnmarshalText accepts any RFC 3339 timestamp.
func (t *Time) UnmarshalText(b []byte) error {
	var v time.Time
	if err := v.UnmarshalText(b); err != nil {
		return err
	}
	*t = NewTime(v)
	return nil
}

// UnmarshalJSON accepts any RFC 3339 timestamp in a JSON string.
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return errors.New("radar: a timestamp must be a JSON string")
	}
	return t.UnmarshalText(b[1 : len(b)-1])
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
