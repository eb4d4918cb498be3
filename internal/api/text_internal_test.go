package api

import "testing"

// The quick path of the query check passes only queries that the full check passes too.
func FuzzPlainQueriesAreText(f *testing.F) {
	for _, seed := range []string{"", "limit=25", "view=full&limit=25", "q=a+b", "q=%00", "q=\x7f", "q=\x01", "a=b;c=d", "q=caf\xc3\xa9", "q=%e2%80%8b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if plainASCII(raw) {
			if e := checkQueryValues(raw); e != nil {
				t.Fatalf("query %q passes the quick path, but the full check finds %v", raw, e)
			}
		}
	})
}
