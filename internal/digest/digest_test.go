package digest_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/digest"
	"radar/internal/mail"
	"radar/internal/mail/smtptest"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// env is a served API and web UI with digests, an SMTP server and the digests that send through it.
type env struct {
	*apitest.Env
	smtp    *smtptest.Server
	digests *digest.Digests
}

func start(t testing.TB, engine string) *env {
	t.Helper()
	srv := smtptest.Start(t, smtptest.Options{})
	sender, err := mail.New(mail.Config{URL: srv.URL, From: "radar@fund.example"})
	if err != nil {
		t.Fatal(err)
	}
	v := &env{smtp: srv}
	v.Env = apitest.StartWith(t, engine, apitest.Options{Configure: func(e *apitest.Env, cfg *api.Config) {
		d, err := digest.New(digest.Config{Store: e.DB, Mailer: sender, Secret: []byte(apitest.Secret),
			BaseURL: apitest.BaseURL, Clock: e.Clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		v.digests = d
		cfg.Web = web.NewHandler(web.Config{Service: e.Service, Digests: d, BaseURL: apitest.BaseURL, Clock: e.Clock.Now})
	}})
	return v
}

func (v *env) entity(t testing.TB, name, period string, recipients ...string) *radar.Entity {
	t.Helper()
	return v.InsertEntityWith(t, v.OrgA, name, v.Clock.Now(), func(e *radar.Entity) {
		e.Digest, e.AlertEmails = period, recipients
	})
}

func (v *env) sendDue(t *testing.T) {
	t.Helper()
	v.Clock.Advance(time.Second)
	if _, err := v.digests.SendDue(context.Background()); err != nil {
		t.Fatalf("send due digests: %v", err)
	}
}

// to returns the messages sent to addr.
func (v *env) to(addr string) []smtptest.Message {
	var out []smtptest.Message
	for _, m := range v.smtp.Messages() {
		if len(m.To) == 1 && m.To[0] == addr {
			out = append(out, m)
		}
	}
	return out
}

// inOrder reports whether each of parts appears in s after the one before it.
func inOrder(s string, parts ...string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

func TestDigestGroupsOrdersAndSendsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		v := start(t, engine)
		const partner, other = "partner@fund.example", "other@fund.example"
		alpha := v.entity(t, "Alpha", radar.DigestDaily, partner)
		bravo := v.entity(t, "Bravo", radar.DigestDaily, "Partner@Fund.example", other)
		charlie := v.entity(t, "Charlie", radar.DigestWeekly, partner)
		delta := v.entity(t, "Delta", radar.DigestOff, partner)
		v.SeedSignal(t, v.OrgA, alpha.ID, radar.TypeWebsiteChange, "low", "Alpha changed its pricing page.")
		v.SeedSignal(t, v.OrgA, alpha.ID, radar.TypeFunding, "medium", "Alpha raised a seed round.")
		v.SeedSignal(t, v.OrgA, bravo.ID, "acquisition", "critical", "Bravo was acquired.")
		v.SeedSignal(t, v.OrgA, bravo.ID, radar.TypeNoChange, "low", "Nothing new at Bravo.")
		v.SeedSignal(t, v.OrgA, charlie.ID, radar.TypeFunding, "high", "Charlie raised a Series B.")
		v.SeedSignal(t, v.OrgA, delta.ID, radar.TypeFunding, "critical", "Delta raised a Series C.")

		v.sendDue(t)
		v.sendDue(t)
		if n := len(v.smtp.Messages()); n != 3 {
			t.Fatalf("sent %d e-mails after two jobs, want 3 (partner daily and weekly, other daily)", n)
		}
		var daily, weekly smtptest.Message
		for _, m := range v.to(partner) {
			if strings.Contains(m.Subject(), "daily") {
				daily = m
			} else {
				weekly = m
			}
		}
		text := daily.Parts["text/plain"]
		if !inOrder(text, "Bravo", "[critical] acquisition: Bravo was acquired.", "Alpha",
			"[medium] funding: Alpha raised a seed round.", "[low] website change: Alpha changed its pricing page.") {
			t.Errorf("daily digest is not grouped by company, most severe first:\n%s", text)
		}
		for _, absent := range []string{"Nothing new at Bravo", "Charlie", "Delta"} {
			if strings.Contains(text, absent) {
				t.Errorf("daily digest holds %q:\n%s", absent, text)
			}
		}
		if got := daily.Subject(); got != "Radar daily digest: 3 runs at 2 companies" {
			t.Errorf("subject = %q", got)
		}
		if !strings.Contains(daily.Parts["text/html"], "Bravo was acquired.") {
			t.Errorf("the HTML part lacks the runs: %s", daily.Parts["text/html"])
		}
		if !strings.Contains(weekly.Parts["text/plain"], "Charlie raised a Series B.") || strings.Contains(weekly.Parts["text/plain"], "Alpha") {
			t.Errorf("weekly digest:\n%s", weekly.Parts["text/plain"])
		}
		if got := v.to(other); len(got) != 1 || strings.Contains(got[0].Parts["text/plain"], "Alpha") {
			t.Errorf("other recipient got %d digests, or one with another's company", len(got))
		}
		unsub := strings.Trim(daily.Header.Get("List-Unsubscribe"), "<>")
		if !strings.HasPrefix(unsub, apitest.BaseURL+"/unsubscribe/") {
			t.Errorf("List-Unsubscribe = %q", daily.Header.Get("List-Unsubscribe"))
		}
		if got := daily.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
			t.Errorf("List-Unsubscribe-Post = %q", got)
		}

		// The next day: nothing new is nothing sent; a new run is the only one in the next digest.
		v.Clock.Advance(24 * time.Hour)
		v.sendDue(t)
		if n := len(v.smtp.Messages()); n != 3 {
			t.Errorf("a day without runs sent %d e-mails in all, want still 3", n)
		}
		v.SeedSignal(t, v.OrgA, alpha.ID, radar.TypeProductLaunch, "medium", "Alpha launched a robot.")
		v.Clock.Advance(24 * time.Hour)
		v.sendDue(t)
		got := v.to(partner)
		last := got[len(got)-1].Parts["text/plain"]
		if len(got) != 3 || !strings.Contains(last, "Alpha launched a robot.") || strings.Contains(last, "seed round") {
			t.Errorf("partner has %d digests; the last should hold only the new run:\n%s", len(got), last)
		}
	})
}

func TestDigestEmptyIsNotSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		v := start(t, engine)
		quiet := v.entity(t, "Quiet", radar.DigestDaily, "partner@fund.example")
		v.SeedSignal(t, v.OrgA, quiet.ID, radar.TypeNoChange, "low", "Nothing new.")
		v.sendDue(t)
		if n := len(v.smtp.Messages()); n != 0 {
			t.Errorf("a digest without runs that found something was sent (%d e-mails)", n)
		}
	})
}

func TestDigestUnsubscribe(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		v := start(t, engine)
		const partner = "partner@fund.example"
		a := v.entity(t, "Alpha", radar.DigestDaily, partner, "other@fund.example")
		v.SeedSignal(t, v.OrgA, a.ID, radar.TypeFunding, "high", "Alpha raised.")
		link := v.digests.UnsubscribeURL(v.OrgA.ID, partner)
		local := v.URL + strings.TrimPrefix(link, apitest.BaseURL)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

		res, err := client.Get(local)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Stop digest e-mails?") || !strings.Contains(string(body), partner) {
			t.Errorf("GET unsubscribe: %d %s", res.StatusCode, body)
		}

		tampered := v.digests.UnsubscribeURL(v.OrgA.ID, "someone@else.example")
		_, sig, _ := strings.Cut(strings.TrimPrefix(tampered, apitest.BaseURL+"/unsubscribe/"), ".")
		payload, _, _ := strings.Cut(strings.TrimPrefix(link, apitest.BaseURL+"/unsubscribe/"), ".")
		for name, bad := range map[string]string{"another's signature": payload + "." + sig, "no signature": payload, "garbage": "x.y"} {
			res, err := client.Post(v.URL+"/unsubscribe/"+bad, "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("POST of a link with %s: %d, want 403", name, res.StatusCode)
			}
		}

		res, err = client.Post(local, "application/x-www-form-urlencoded", strings.NewReader(url.Values{"List-Unsubscribe": {"One-Click"}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("one-click POST: %d, want 200", res.StatusCode)
		}
		v.sendDue(t)
		for _, m := range v.smtp.Messages() {
			if m.To[0] == partner {
				t.Errorf("an unsubscribed address got a digest")
			}
		}
		if n := len(v.to("other@fund.example")); n != 1 {
			t.Errorf("the other recipient got %d digests, want 1", n)
		}
	})
}

func TestPeriodStart(t *testing.T) {
	berlin := radar.DigestSettings{Hour: 8, TimeZone: "Europe/Berlin"}
	// Wednesday 26 November 2025, 06:30 UTC = 07:30 in Berlin: before the send hour.
	now := time.Date(2025, 11, 26, 6, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		period string
		s      radar.DigestSettings
		want   time.Time
	}{
		{radar.DigestDaily, berlin, time.Date(2025, 11, 25, 7, 0, 0, 0, time.UTC)},
		{radar.DigestDaily, radar.DigestSettings{Hour: 6, TimeZone: "UTC"}, time.Date(2025, 11, 26, 6, 0, 0, 0, time.UTC)},
		{radar.DigestWeekly, berlin, time.Date(2025, 11, 24, 7, 0, 0, 0, time.UTC)},
	} {
		if got := digest.PeriodStart(c.period, c.s, now); !got.Equal(c.want) {
			t.Errorf("%s %+v: period start %v, want %v", c.period, c.s, got, c.want)
		}
	}
	for _, s := range []radar.DigestSettings{{Hour: 24, TimeZone: "UTC"}, {Hour: -1, TimeZone: "UTC"}, {Hour: 8, TimeZone: "Mars/Olympus"}, {Hour: 8, TimeZone: ""}} {
		if digest.ValidateSettings(s) == nil {
			t.Errorf("settings %+v accepted", s)
		}
	}
}
