package service

import (
	"math"
	"strings"
	"testing"

	"radar"
)

func testSigner() cursorSigner { return cursorSigner{key: []byte("cursor-test-secret")} }

// FuzzCursorDecode feeds any string to the cursor decoder of a list: it answers a page only for a cursor the
// signer made for that list, and invalid_cursor (never a panic, never another code) for anything else.
func FuzzCursorDecode(f *testing.F) {
	c := testSigner()
	valid := c.encode("tracker", 1_763_717_400_123_456, "01a1fd99-5c0e-74d9-9b08-a7b4abf23496")
	for _, seed := range []string{
		"", "a", "!!!", "====", "\n", valid, valid + "\n", valid[:len(valid)-1], valid + "A",
		c.encode("signals", 1_763_717_400_123_456, "01a1fd99-5c0e-74d9-9b08-a7b4abf23496"),
		c.encode("tracker", -1, "x"), c.encode("tracker", math.MaxInt64, strings.Repeat("z", 64)),
		c.encode("tracker", 0, strings.Repeat("z", 65)), strings.Repeat("A", 200), "é\x00\xff",
	} {
		f.Add(seed)
	}
	s := &Service{cursors: c}
	f.Fuzz(func(t *testing.T, cursor string) {
		pg, err := c.decode("tracker", cursor)
		if err != nil {
			if code := radar.ErrorCode(err); code != radar.EInvalidCursor {
				t.Fatalf("decode(%q): code %s, want invalid_cursor", cursor, code)
			}
		} else {
			if again := c.encode("tracker", pg.AfterCreated, pg.AfterID); again != cursor {
				t.Fatalf("decode(%q) accepted a cursor the signer would spell %q", cursor, again)
			}
			if _, err := c.decode("signals", cursor); err == nil {
				t.Fatalf("a tracker cursor %q is accepted by the signals list", cursor)
			}
		}

		var probs radar.Problems
		page, _ := s.page("tracker", PageQuery{Cursor: cursor}, &probs)
		err = cursorErr(probs)
		switch {
		case cursor == "" && err != nil:
			t.Fatalf("no cursor: %v", err)
		case err != nil && radar.ErrorCode(err) != radar.EInvalidCursor:
			t.Fatalf("page(%q): %v, want invalid_cursor", cursor, err)
		case err == nil && cursor != "" && (page.AfterID != pg.AfterID || page.AfterCreated != pg.AfterCreated):
			t.Fatalf("page(%q) = %+v, decode gave %+v", cursor, page, pg)
		case page.Limit != DefaultLimit+1:
			t.Fatalf("page limit %d, want %d", page.Limit, DefaultLimit+1)
		}
	})
}

// FuzzCursorRoundTrip checks that every keyset position a list can produce comes back from its cursor
// unchanged, and only on the list and server that made it.
func FuzzCursorRoundTrip(f *testing.F) {
	f.Add(int64(1_763_717_400_123_456), "01a1fd99-5c0e-74d9-9b08-a7b4abf23496")
	f.Add(int64(0), "a")
	f.Add(int64(-1), strings.Repeat("\xff", 64))
	f.Add(int64(math.MinInt64), "é")
	c := testSigner()
	other := cursorSigner{key: []byte("another-server")}
	f.Fuzz(func(t *testing.T, created int64, id string) {
		if len(id) < 1 || len(id) > 64 {
			t.Skip("ids are 1-64 bytes")
		}
		for _, list := range []string{"tracker", "signals", "alerts", "leads"} {
			cursor := c.encode(list, created, id)
			pg, err := c.decode(list, cursor)
			if err != nil {
				t.Fatalf("decode(encode(%s, %d, %q)): %v", list, created, id, err)
			}
			if pg.AfterCreated != created || pg.AfterID != id {
				t.Fatalf("round trip of (%d, %q) on %s gave (%d, %q)", created, id, list, pg.AfterCreated, pg.AfterID)
			}
			if _, err := other.decode(list, cursor); err == nil {
				t.Fatalf("a cursor signed by another secret is accepted")
			}
			if list != "tracker" {
				if _, err := c.decode("tracker", cursor); err == nil {
					t.Fatalf("a %s cursor is accepted by the tracker list", list)
				}
			}
		}
	})
}
