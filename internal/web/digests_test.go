package web_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"radar"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestDigestSettingsPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		b := s.signedIn(t, s.MemberA)
		p := b.get("/settings")
		if p.Status != http.StatusOK {
			t.Fatalf("GET /settings: %d", p.Status)
		}
		contains(t, p, "Digest e-mails", "Send hour", "Preview a digest")
		if inputValue(p.Body, "timeZone") != "UTC" {
			t.Errorf("default time zone = %q, want UTC", inputValue(p.Body, "timeZone"))
		}

		for _, c := range []struct{ hour, zone, field, want string }{
			{"24", "UTC", "hour", "must be an hour from 0 to 23, got 24"},
			{"7", "Mars/Olympus", "timeZone", `must be an IANA time zone name such as Europe/Berlin or UTC, got "Mars/Olympus"`},
		} {
			p := b.post("/settings", url.Values{"hour": {c.hour}, "timeZone": {c.zone}})
			if p.Status != http.StatusUnprocessableEntity {
				t.Errorf("hour %s, zone %s: status %d, want 422", c.hour, c.zone, p.Status)
			}
			contains(t, p, c.want)
		}
		p = b.follow("/settings", url.Values{"hour": {"7"}, "timeZone": {"Europe/Berlin"}})
		contains(t, p, "Digests go out at 7:00 (Europe/Berlin).")
		if inputValue(p.Body, "timeZone") != "Europe/Berlin" {
			t.Errorf("saved time zone not shown: %q", inputValue(p.Body, "timeZone"))
		}
		got, err := s.DB.DigestSettings(t.Context(), s.OrgA.ID)
		if err != nil || got != (radar.DigestSettings{Hour: 7, TimeZone: "Europe/Berlin"}) {
			t.Errorf("stored settings = %+v, %v", got, err)
		}
		if other, _ := s.DB.DigestSettings(t.Context(), s.OrgB.ID); other.TimeZone != "UTC" {
			t.Errorf("another organisation's settings changed: %+v", other)
		}
	})
}

func TestDigestPreview(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		const partner = "partner@fund.example"
		busy := s.InsertEntityWith(t, s.OrgA, "Busy Robotics", s.Clock.Now(), func(e *radar.Entity) {
			e.Digest, e.AlertEmails = radar.DigestDaily, []string{partner}
		})
		s.InsertEntityWith(t, s.OrgA, "Quiet Labs", s.Clock.Now(), func(e *radar.Entity) {
			e.Digest, e.AlertEmails = radar.DigestWeekly, []string{partner}
		})
		s.SeedSignal(t, s.OrgA, busy.ID, radar.TypeFunding, "high", "Busy Robotics raised a Series A.")
		s.Clock.Advance(time.Second)
		b := s.signedIn(t, s.OwnerA)

		p := b.get("/settings?preview=" + url.QueryEscape(partner))
		if p.Status != http.StatusOK {
			t.Fatalf("preview: %d", p.Status)
		}
		contains(t, p, "daily digest", "Radar daily digest: 1 run at 1 company", "[high] funding: Busy Robotics raised a Series A.",
			"weekly digest", "Nothing to send now")
		p = b.get("/settings?preview=nobody%40fund.example")
		contains(t, p, "No company lists nobody@fund.example with a daily or weekly digest.")
		lacks(t, p, "Busy Robotics")
		if n := s.Count(t, "digests", "1 = 1"); n != 0 {
			t.Errorf("a preview recorded %d digests", n)
		}
		// Another organisation's user sees nothing of these companies.
		p = s.signedIn(t, s.OwnerB).get("/settings?preview=" + url.QueryEscape(partner))
		lacks(t, p, "Busy Robotics")
	})
}

func TestCompanyFormDigest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		b := s.signedIn(t, s.OwnerA)
		form := url.Values{"companyName": {"Glassmoth Labs"}, "companyWebsite": {"https://glassmoth.example"},
			"founders[0].name": {"Ada Glass"}, "thingsToTrack": {"Tell me when they raise money."},
			"alertEmails": {"ada@fund.example"}, "cadenceDays": {"7"}, "digest": {"weekly"}}
		p := b.post("/companies", form)
		if p.Status != http.StatusSeeOther {
			t.Fatalf("add: status %d\n%s", p.Status, text(p.Body))
		}
		id := p.Location[len("/companies/"):]
		if i := len(id) - len("/progress"); i > 0 && id[i:] == "/progress" {
			id = id[:i]
		}
		e, err := s.DB.Entity(t.Context(), s.OrgA.ID, id)
		if err != nil || e.Digest != radar.DigestWeekly {
			t.Fatalf("added company's digest: %+v, %v", e, err)
		}
		form.Set("digest", "hourly")
		p = b.post("/companies/"+id+"/edit", form)
		if got := fieldError(p.Body, "digest"); got != `must be off, daily or weekly, got "hourly"` {
			t.Errorf("error beside digest = %q (status %d)", got, p.Status)
		}
		form.Set("digest", "daily")
		if p := b.post("/companies/"+id+"/edit", form); p.Status != http.StatusSeeOther {
			t.Fatalf("edit: status %d\n%s", p.Status, text(p.Body))
		}
		if e, _ := s.DB.Entity(t.Context(), s.OrgA.ID, id); e.Digest != radar.DigestDaily {
			t.Errorf("edited digest = %q, want daily", e.Digest)
		}
	})
}
