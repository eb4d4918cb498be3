package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestEditFormPreviewsRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ent := s.track(t, s.OrgA, "Ledgerwyn")
		s.SeedRun(t, s.OrgA, ent.ID)
		b := s.signedIn(t, s.OwnerA)
		form := url.Values{
			"companyName": {"Ledgerwyn"}, "founders[0].name": {"Ada Ledgerwyn"}, "alertEmails": {"alerts@fund.example"},
			"cadenceDays": {"7"}, "emailAlertsEnabled": {"true"},
			"thingsToTrack": {"Tell me when they raise money.\nAny founder leaving."}, "preview": {"1"},
		}
		p := b.post("/companies/"+ent.ID+"/edit", form)
		if p.Status != http.StatusOK {
			t.Fatalf("preview: status %d\n%s", p.Status, text(p.Body))
		}
		contains(t, p, "Preview:", "2 rules tried on 1 item from 1 earlier run", "Would alert", "Would not alert")
		if !strings.Contains(p.Body, "Tell me when they raise money.") {
			t.Errorf("the draft is not kept in the form")
		}
		// Nothing was saved.
		if got := b.get("/companies/" + ent.ID); strings.Contains(got.Body, "Any founder leaving.") {
			t.Errorf("the previewed rules were saved")
		}
		form.Set("thingsToTrack", "")
		p = b.post("/companies/"+ent.ID+"/edit", form)
		if p.Status != http.StatusBadRequest || fieldError(p.Body, "thingsToTrack") == "" {
			t.Errorf("empty draft: status %d, field error %q", p.Status, fieldError(p.Body, "thingsToTrack"))
		}
	})
}
