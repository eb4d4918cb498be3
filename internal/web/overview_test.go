package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestOverviewAndUnread(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ledger := s.track(t, s.OrgA, "Ledgerwyn")
		s.SeedRun(t, s.OrgA, ledger.ID)
		s.Clock.Advance(time.Second)
		s.SeedQuietRun(t, s.OrgA, ledger.ID)
		gone := s.track(t, s.OrgA, "Gone Ltd")
		s.Clock.Advance(time.Second)
		s.SeedFailedRun(t, s.OrgA, gone.ID)
		b := s.signedIn(t, s.OwnerA)

		home := b.get("/")
		if home.Status != http.StatusOK {
			t.Fatalf("GET /: %d", home.Status)
		}
		// Two runs found something (the funding run and the failed one, which is not quiet); the most severe first.
		contains(t, home, "What is new", "2 new", "Raised a Series A.", "Nothing could be checked", "This week", "Trackers that are failing", "Gone Ltd")
		lacks(t, home, "Nothing new this run.")
		if i, j := strings.Index(home.Body, "Raised a Series A."), strings.Index(home.Body, "Nothing could be checked:"); i < 0 || j < 0 || i > j {
			t.Errorf("the high-severity run is not listed before the medium one")
		}
		if !strings.Contains(home.Body, `data-type="funding">1<`) {
			t.Errorf("this week's funding count is not 1:\n%s", text(home.Body))
		}
		sigs := b.get("/signals")
		if n := strings.Count(sigs.Body, "data-unread>"); n != 2 {
			t.Errorf("%d unread rows on /signals, want 2", n)
		}

		// Mark all read: nothing is new until the next run.
		p := b.follow("/signals/mark-read", url.Values{"next": {"/signals"}})
		contains(t, p, "Everything so far is marked read.")
		if strings.Contains(p.Body, "data-unread") {
			t.Errorf("rows still unread after mark all read")
		}
		contains(t, b.get("/"), "Nothing new since you last looked.")
		s.Clock.Advance(time.Second)
		s.SeedRun(t, s.OrgA, ledger.ID)
		contains(t, b.get("/"), "1 new")
		if n := strings.Count(b.get("/signals").Body, "data-unread>"); n != 1 {
			t.Errorf("%d unread rows after a new run, want 1", n)
		}
		// The position is the user's own: another user of the organisation still has everything unread.
		other := s.signedIn(t, s.MemberA)
		contains(t, other.get("/"), "3 new")
	})
}
