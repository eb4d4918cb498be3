package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// BenchmarkPages measures serving the busiest pages to a signed-in user, session check included, on SQLite:
// the company list with 25 companies and their latest signals, and a company with its timeline.
func BenchmarkPages(b *testing.B) {
	s := startSite(b, storetest.Engines()[0], web.Config{})
	var last string
	for i := range 25 {
		e := s.track(b, s.OrgA, fmt.Sprintf("Company %02d", i))
		s.SeedRun(b, s.OrgA, e.ID)
		last = e.ID
	}
	br := s.signedIn(b, s.OwnerA)
	for _, pg := range []struct{ name, path string }{{"companies", "/companies"}, {"company", "/companies/" + last}, {"signals", "/signals"}} {
		path := pg.path
		b.Run(pg.name, func(b *testing.B) {
			br.t = b
			for b.Loop() {
				if p := br.get(path); p.Status != http.StatusOK {
					b.Fatalf("status %d", p.Status)
				}
			}
		})
	}
}
