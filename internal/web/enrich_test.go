package web_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestFindProfilesOnTheAddForm fills the empty profile fields of the add form from the company's website,
// without tracking anything yet.
func TestFindProfilesOnTheAddForm(t *testing.T) {
	l := startLiveSite(t)
	co := l.company(t, "ledgerwyn")
	b := l.signedIn(t, l.OwnerA)
	form := url.Values{
		"enrich": {"1"}, "companyName": {co.Name}, "companyWebsite": {co.Website},
		"founders[0].name": {co.Founders[0].Name}, "thingsToTrack": {"Funding rounds"}, "alertEmails": {l.OwnerA},
		"cadenceDays": {"7"}, "emailAlertsEnabled": {"on"},
	}
	p := b.post("/companies", form)
	if p.Status != http.StatusOK {
		t.Fatalf("find profiles: status %d:\n%s", p.Status, text(p.Body))
	}
	contains(t, p, "filled them in below")
	if got := inputValue(p.Body, "companyLinkedinUrl"); got != co.LinkedIn {
		t.Errorf("company LinkedIn = %q, want %q", got, co.LinkedIn)
	}
	if got := inputValue(p.Body, "founders[0].linkedinUrl"); got != co.Founders[0].LinkedIn {
		t.Errorf("founder LinkedIn = %q, want %q", got, co.Founders[0].LinkedIn)
	}
	if got := inputValue(p.Body, "companyName"); got != co.Name {
		t.Errorf("the typed name was lost: %q", got)
	}
	if n := l.Count(t, "entities", "1 = 1"); n != 0 {
		t.Errorf("finding profiles tracked %d companies, want none", n)
	}

	form.Set("companyWebsite", "not a url")
	p = b.post("/companies", form)
	if p.Status != http.StatusBadRequest || fieldError(p.Body, "companyWebsite") == "" {
		t.Errorf("a bad website: status %d, field error %q", p.Status, fieldError(p.Body, "companyWebsite"))
	}
}
