package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestQuietRunsAreHiddenAndCounted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ledger := s.track(t, s.OrgA, "Ledgerwyn")
		s.enrich(t, s.OrgA, ledger.ID)
		s.SeedRun(t, s.OrgA, ledger.ID)
		for range 3 {
			s.Clock.Advance(time.Second)
			s.SeedQuietRun(t, s.OrgA, ledger.ID)
		}
		gone := s.track(t, s.OrgA, "Gone Ltd")
		s.SeedQuietRun(t, s.OrgA, gone.ID)
		s.Clock.Advance(time.Second)
		failed := s.SeedFailedRun(t, s.OrgA, gone.ID)
		still := s.track(t, s.OrgA, "Stillwater")
		s.SeedQuietRun(t, s.OrgA, still.ID)
		b := s.signedIn(t, s.OwnerA)

		get := func(t *testing.T, path string) page {
			t.Helper()
			p := b.get(path)
			if p.Status != http.StatusOK {
				t.Fatalf("GET %s: status %d; body:\n%s", path, p.Status, text(p.Body))
			}
			return p
		}
		t.Run("signals hide quiet runs by default", func(t *testing.T) {
			p := get(t, "/signals")
			contains(t, p, "Ledgerwyn", "Raised a Series A.", "Nothing could be checked: the website did not answer (connection refused)",
				"5 quiet runs hidden — show")
			lacks(t, p, "Nothing new this run.", "Stillwater")
			if !strings.Contains(p.Body, `href="/signals?quiet=show"`) {
				t.Errorf("no link that shows the quiet runs:\n%s", p.Body)
			}
			if !strings.Contains(p.Body, `class="card warn"`) || !strings.Contains(p.Body, "Nothing checked") {
				t.Errorf("the run that read nothing is not shown as a warning")
			}
		})
		t.Run("one click shows them", func(t *testing.T) {
			p := get(t, "/signals?quiet=show")
			contains(t, p, "Nothing new this run.", "Stillwater", "Raised a Series A.", "Hide quiet runs")
			lacks(t, p, "quiet runs hidden")
			if !strings.Contains(p.Body, `href="/signals"`) {
				t.Errorf("no link that hides the quiet runs again")
			}
		})
		t.Run("counts follow the filters", func(t *testing.T) {
			p := get(t, "/signals?entityId="+ledger.ID)
			contains(t, p, "3 quiet runs hidden — show")
			if !strings.Contains(p.Body, `href="/signals?entityId=`+ledger.ID+`&amp;quiet=show"`) {
				t.Errorf("the show link loses the company filter")
			}
			contains(t, get(t, "/signals?type=no_change"), "Nothing new this run.")
			p = get(t, "/signals?entityId="+still.ID)
			contains(t, p, "Nothing found yet", "1 quiet run hidden — show")
		})
		t.Run("alerts hide quiet runs by default", func(t *testing.T) {
			p := get(t, "/alerts")
			contains(t, p, "a rule matched", "no rule matched: nothing could be checked this run", "5 quiet runs hidden — show")
			lacks(t, p, "nothing new this run")
			contains(t, get(t, "/alerts?quiet=show"), "no rule matched: nothing new this run", "Hide quiet runs")
		})
		t.Run("companies show the latest change and the last run's health", func(t *testing.T) {
			p := get(t, "/companies")
			contains(t, p, "Raised a Series A.", "Found nothing new", "Every source read", "Nothing found yet",
				"Nothing could be checked", "the site did not answer (connection refused)")
			if !strings.Contains(p.Body, `class="last-run warn"`) {
				t.Errorf("the company whose last run read nothing is not in the warning colour:\n%s", p.Body)
			}
			if strings.Count(p.Body, `class="last-run warn"`) != 1 {
				t.Errorf("%d companies in the warning colour, want Gone Ltd only", strings.Count(p.Body, `class="last-run warn"`))
			}
		})
		t.Run("a company's page hides its quiet runs", func(t *testing.T) {
			p := get(t, "/companies/"+ledger.ID)
			contains(t, p, "Raised a Series A.", "3 quiet runs hidden — show")
			lacks(t, p, "Nothing new this run.")
			p = get(t, "/companies/"+gone.ID)
			contains(t, p, "Nothing could be checked: the website did not answer", "1 quiet run hidden — show")
			if !strings.Contains(p.Body, `<div class="warn"><span class="k">Health</span>`) {
				t.Errorf("the health of a failed run is not in the warning colour")
			}
			contains(t, get(t, "/signals/"+failed.SignalID), "Nothing checked", "Nothing could be checked")
		})
	})
}
