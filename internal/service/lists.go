package service

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"radar"
)

// Page sizes.
const (
	DefaultLimit = 25
	MaxLimit     = 100
	// MaxCount bounds a count of list items: counting stops there.
	MaxCount = 1000
)

// List is one page of a list response.
type List[T any] struct {
	Data                     []T               `json:"data"`
	NextCursor               *string           `json:"nextCursor"`
	EntityResolution         *LookupResolution `json:"entityResolution,omitempty"`
	SourceResolution         *LookupResolution `json:"sourceResolution,omitempty"`
	ClassificationResolution *Classification   `json:"classificationResolution,omitempty"`

	encoded []byte
	stream  func(io.Writer) error
}

// StreamedList is a list that writes itself as it is read (an export of every row): stream writes it.
func StreamedList[T any](stream func(io.Writer) error) *List[T] { return &List[T]{stream: stream} }

// Stream returns the function that writes a streamed list, else nil.
func (l *List[T]) Stream() func(io.Writer) error { return l.stream }

// EncodedList is a page that carries its JSON encoding already: a page kept by a cache.
func EncodedList[T any](encoded []byte) *List[T] { return &List[T]{encoded: encoded} }

// Encoded returns the page's JSON encoding when it carries one, else nil.
func (l *List[T]) Encoded() []byte { return l.encoded }

// PageQuery is the paging part of every list request.
type PageQuery struct {
	Limit  int
	Cursor string
	View   string
}

// cursorSigner makes opaque, tamper-proof cursors: the keyset position, signed with HMAC together with the
// cursor's scope (the list, the organisation and the filters of the query that made it), so that a cursor
// reused with other filters, on another list or by another organisation is invalid_cursor.
type cursorSigner struct{ key []byte }

// cursorScope names the query a cursor belongs to: list, organisation and the filters in a fixed order.
// Paging parameters (limit, view) are not part of it: a client may change them from page to page.
func cursorScope(list, orgID string, filters ...any) string {
	var b strings.Builder
	b.WriteString(list)
	b.WriteByte(0)
	b.WriteString(orgID)
	for _, f := range filters {
		b.WriteByte(0)
		switch v := f.(type) {
		case string:
			b.WriteString(strconv.Quote(v))
		case *bool:
			if v != nil {
				fmt.Fprint(&b, *v)
			}
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

const cursorMACLen = 16

func (c cursorSigner) encode(list string, created int64, id string) string {
	b := make([]byte, 8, 8+len(id)+cursorMACLen)
	binary.BigEndian.PutUint64(b, uint64(created))
	b = append(b, id...)
	b = append(b, c.mac(list, b)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (c cursorSigner) mac(list string, payload []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(list))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:cursorMACLen]
}

func (c cursorSigner) decode(list, cursor string) (radar.Page, error) {
	bad := radar.Errorf(radar.EInvalidCursor, "cursor: malformed or tampered; pass nextCursor exactly as returned")
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	// Only the canonical encoding is accepted: the decoder skips line breaks and ignores the spare bits of
	// the last character, so other spellings of the same bytes would pass as untampered.
	if err != nil || base64.RawURLEncoding.EncodeToString(b) != cursor || len(b) < 8+cursorMACLen+1 || len(b) > 8+64+cursorMACLen {
		return radar.Page{}, bad
	}
	payload, sum := b[:len(b)-cursorMACLen], b[len(b)-cursorMACLen:]
	if !hmac.Equal(sum, c.mac(list, payload)) {
		return radar.Page{}, bad
	}
	return radar.Page{AfterCreated: int64(binary.BigEndian.Uint64(payload)), AfterID: string(payload[8:])}, nil
}

// page validates the paging query of the list query named by scope (see cursorScope) and returns the store
// page, asking for one row more than the limit so that the next cursor is known.
func (s *Service) page(scope string, q PageQuery, p *radar.Problems) (radar.Page, string) {
	view := q.View
	if view == "" {
		view = radar.ViewCompact
	}
	if view != radar.ViewCompact && view != radar.ViewFull {
		p.Addf("view", "must be compact or full, got %q", q.View)
	}
	limit := q.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0:
		p.Addf("limit", "must be between 1 and %d, got %d", MaxLimit, q.Limit)
	case limit > MaxLimit:
		limit = MaxLimit
	}
	var pg radar.Page
	if q.Cursor != "" {
		var err error
		if pg, err = s.cursors.decode(scope, q.Cursor); err != nil {
			p.Add("cursor", "malformed or tampered, or made for another query")
		}
	}
	pg.Limit = limit + 1
	return pg, view
}

// cursorErr turns a failing cursor into invalid_cursor and any other problems into validation_error.
func cursorErr(p radar.Problems) error {
	if len(p) == 1 && p[0].Path == "cursor" {
		return radar.Errorf(radar.EInvalidCursor, "cursor: malformed or tampered, or made for another query; "+
			"pass nextCursor exactly as returned, with the same filters, on the same list and with a key of the same organisation")
	}
	return p.Err()
}

// finish trims rows to the page limit and returns the next cursor.
func finish[T any](s *Service, scope string, rows []T, pg radar.Page, pos func(T) (int64, string)) ([]T, *string) {
	if len(rows) < pg.Limit {
		return rows, nil
	}
	rows = rows[:pg.Limit-1]
	created, id := pos(rows[len(rows)-1])
	c := s.cursors.encode(scope, created, id)
	return rows, &c
}

// fill trims rows to the page, sets the next cursor and shapes each row for the view.
func fill[T any](s *Service, out *List[T], scope string, rows []T, pg radar.Page, pos func(T) (int64, string), shape func(T)) {
	rows, out.NextCursor = finish(s, scope, rows, pg, pos)
	for _, x := range rows {
		shape(x)
		out.Data = append(out.Data, x)
	}
}

// getOne reads one resource of the principal's organisation in a view that defaults to full.
func getOne[T any](ctx context.Context, p *radar.Principal, scope, id, view string,
	read func(ctx context.Context, orgID, id string) (T, error), compact func(T)) (T, error) {
	var zero T
	if err := p.Require(scope); err != nil {
		return zero, err
	}
	view, err := checkView(view, radar.ViewFull)
	if err != nil {
		return zero, err
	}
	if err := checkID("id", id); err != nil {
		return zero, err
	}
	x, err := read(ctx, p.OrgID, id)
	if err != nil {
		return zero, err
	}
	if view == radar.ViewCompact {
		compact(x)
	}
	return x, nil
}

// parseBound parses a date (YYYY-MM-DD) or an RFC 3339 timestamp. A bare date as an upper bound includes
// that whole UTC day.
func parseBound(v string, upper bool) (*radar.Time, error) {
	if v == "" {
		return nil, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if upper {
			d = d.AddDate(0, 0, 1)
		}
		t := radar.NewTime(d)
		return &t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, fmt.Errorf("must be a date (YYYY-MM-DD) or an RFC 3339 timestamp, got %q", v)
	}
	rt := radar.NewTime(t)
	return &rt, nil
}

// bounds parses since and until into p's problems.
func bounds(since, until string, p *radar.Problems) (*radar.Time, *radar.Time) {
	s, err := parseBound(since, false)
	if err != nil {
		p.Add("since", err.Error())
	}
	u, err := parseBound(until, true)
	if err != nil {
		p.Add("until", err.Error())
	}
	if s != nil && u != nil && !s.Before(u.Time) {
		p.Add("since", "must be earlier than until")
	}
	return s, u
}

func oneOf(p *radar.Problems, path, v string, allowed []string) {
	if v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	p.Addf(path, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
}
