package web_test

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestCSVExportFromLists(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ledger := s.track(t, s.OrgA, "Ledgerwyn")
		s.SeedRun(t, s.OrgA, ledger.ID)
		s.Clock.Advance(time.Second)
		s.SeedQuietRun(t, s.OrgA, ledger.ID)
		s.track(t, s.OrgA, "Stillwater")
		b := s.signedIn(t, s.OwnerA)

		list := b.get("/signals")
		if !strings.Contains(list.Body, `href="/signals?format=csv"`) {
			t.Fatalf("no export link on /signals")
		}
		for path, want := range map[string]int{
			"/signals?format=csv":            1, // quiet runs hidden, as on the page
			"/signals?quiet=show&format=csv": 2,
			"/alerts?format=csv":             1,
			"/leads?format=csv&decision=":    1,
			"/companies?format=csv":          2,
			"/signals?format=csv&type=nope":  -1,
		} {
			p := b.get(path)
			if want < 0 {
				if p.Status == 200 {
					t.Errorf("%s: a bad filter answered 200", path)
				}
				continue
			}
			if ct := p.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
				t.Errorf("%s: Content-Type %q", path, ct)
				continue
			}
			recs, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
			if err != nil || len(recs) != want+1 || recs[0][0] != "id" {
				t.Errorf("%s: %d records (%v), want a header and %d rows", path, len(recs), err, want)
			}
		}
	})
}
