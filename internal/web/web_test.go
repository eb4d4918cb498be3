package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

func TestSignIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})

		t.Run("pages need a session", func(t *testing.T) {
			p := s.browser(t).get("/signals?type=funding")
			if p.Status != http.StatusSeeOther || p.Location != "/login?next=%2Fsignals%3Ftype%3Dfunding" {
				t.Errorf("got %d to %q, want 303 to the sign-in page with next", p.Status, p.Location)
			}
		})
		tests := []struct {
			name, email, password string
			status                int
			message               string
		}{
			{"wrong password", s.OwnerA, "not the password", http.StatusUnauthorized, "The e-mail address or password is not right."},
			{"unknown e-mail", "nobody@a.example", password, http.StatusUnauthorized, "The e-mail address or password is not right."},
			{"nothing typed", "", "", http.StatusBadRequest, "Enter your e-mail address and password."},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p := s.browser(t).post("/login", url.Values{"email": {tc.email}, "password": {tc.password}})
				if p.Status != tc.status {
					t.Errorf("status %d, want %d", p.Status, tc.status)
				}
				contains(t, p, tc.message)
				if got := inputValue(p.Body, "email"); got != tc.email {
					t.Errorf("e-mail input holds %q, want %q kept", got, tc.email)
				}
				if len(p.Header.Values("Set-Cookie")) != 0 {
					t.Errorf("a failed sign-in set cookies: %v", p.Header.Values("Set-Cookie"))
				}
			})
		}
		t.Run("success starts a session and returns to the page asked for", func(t *testing.T) {
			b := s.browser(t)
			p := b.post("/login", url.Values{"email": {"  OWNER@a.example "}, "password": {password}, "next": {"/leads?decision=accepted"}})
			if p.Status != http.StatusSeeOther || p.Location != "/leads?decision=accepted" {
				t.Fatalf("got %d to %q, want 303 to /leads?decision=accepted", p.Status, p.Location)
			}
			c := p.Header.Get("Set-Cookie")
			for _, want := range []string{"radar_session=", "HttpOnly", "SameSite=Lax", "Max-Age=1209600"} {
				if !strings.Contains(c, want) {
					t.Errorf("session cookie %q lacks %s", c, want)
				}
			}
			if strings.Contains(c, "Secure") {
				t.Errorf("session cookie %q is Secure on an http base URL", c)
			}
			contains(t, b.get("/companies"), "ORG-A", "Sign out")
		})
		t.Run("a redirect after sign-in stays on this site", func(t *testing.T) {
			p := s.browser(t).post("/login", url.Values{"email": {s.OwnerA}, "password": {password}, "next": {"//evil.example/x"}})
			if p.Location != "/companies" {
				t.Errorf("redirected to %q, want /companies", p.Location)
			}
		})
		t.Run("sign-out ends the session in the database", func(t *testing.T) {
			b := s.signedIn(t, s.OwnerA)
			u, _ := url.Parse(s.URL)
			cookies := b.c.Jar.Cookies(u)
			p := b.post("/logout", nil)
			if p.Status != http.StatusSeeOther || p.Location != "/login" {
				t.Fatalf("sign out: %d to %q", p.Status, p.Location)
			}
			contains(t, b.get("/login"), "You are signed out.")
			stale := s.browser(t)
			stale.c.Jar.SetCookies(u, cookies)
			if p := stale.get("/companies"); p.Status != http.StatusSeeOther {
				t.Errorf("the old session cookie still opens pages: status %d", p.Status)
			}
		})
		t.Run("an expired session is refused", func(t *testing.T) {
			b := s.signedIn(t, s.OwnerA)
			s.Clock.Advance(web.SessionLifetime + time.Minute)
			defer s.Clock.Advance(-web.SessionLifetime - time.Minute)
			if p := b.get("/companies"); p.Status != http.StatusSeeOther {
				t.Errorf("status %d after expiry, want 303 to sign-in", p.Status)
			}
		})
	})
}

func TestSecureCookieOnHTTPS(t *testing.T) {
	s := startSite(t, storetest.Engines()[0], web.Config{BaseURL: "https://radar.example"})
	p := s.browser(t).post("/login", url.Values{"email": {s.OwnerA}, "password": {password}})
	if c := p.Header.Get("Set-Cookie"); !strings.Contains(c, "; Secure") {
		t.Errorf("session cookie %q is not Secure on an https base URL", c)
	}
}

func TestSignInRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{LoginLimit: 2, LoginWindow: time.Hour})
		b := s.browser(t)
		for i := range 3 {
			if p := b.post("/login", url.Values{"email": {s.OwnerA}, "password": {password}}); p.Status != http.StatusSeeOther {
				t.Fatalf("sign-in %d: status %d; successful sign-ins must not count", i+1, p.Status)
			}
		}
		for i := range 2 {
			if p := b.post("/login", url.Values{"email": {s.OwnerA}, "password": {"wrong"}}); p.Status != http.StatusUnauthorized {
				t.Fatalf("failed attempt %d: status %d, want 401", i+1, p.Status)
			}
		}
		p := b.post("/login", url.Values{"email": {s.OwnerA}, "password": {password}})
		if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" {
			t.Fatalf("after two failures: status %d, Retry-After %q; want 429 with Retry-After", p.Status, p.Header.Get("Retry-After"))
		}
		contains(t, p, "Too many failed sign-in attempts", "and try again.")
		// The address has used its attempts too: another account from it waits as well.
		if p := b.post("/login", url.Values{"email": {s.OwnerB}, "password": {password}}); p.Status != http.StatusTooManyRequests {
			t.Errorf("another e-mail from the same address: status %d, want 429", p.Status)
		}
	})
}

// seeded is an organisation's data shown by the pages.
type seeded struct {
	ent, other *radar.Entity
	run        apitest.Run
}

func seed(t *testing.T, s *site) seeded {
	t.Helper()
	ent := s.track(t, s.OrgA, "Ledgerwyn")
	s.enrich(t, s.OrgA, ent.ID)
	run := s.SeedRun(t, s.OrgA, ent.ID)
	other := s.track(t, s.OrgA, "Corvimesh")
	s.keep(t, s.OrgA, other, "Corvimesh: product launch")
	return seeded{ent: ent, other: other, run: run}
}

func TestPagesShowTheOrganisationsData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		d := seed(t, s)
		if _, err := s.Service.CreateKey(context.Background(), s.OrgA.ID, "CRM sync", radar.Scopes, 0); err != nil {
			t.Fatal(err)
		}
		b := s.signedIn(t, s.OwnerA)
		tests := []struct {
			path string
			want []string
		}{
			{"/companies", []string{"Ledgerwyn", "Ada Ledgerwyn", "Corvimesh", "Tracking", "Profiles found", "Queued", "funding", "Raised a Series A."}},
			{"/companies/" + d.ent.ID, []string{"Ledgerwyn", "Profiles found", "Raised a Series A.", "Sent", "raises money",
				"Tell me when they raise money.", "Compiled policy", "Oskar Lind", "https://www.linkedin.com/company/" + d.ent.ID[:8], "Financial Services > Fintech"}},
			{"/companies/new", []string{"Add a company", "Website", "Founders", "What should trigger an alert?"}},
			{"/companies/" + d.ent.ID + "/edit", []string{"Edit Ledgerwyn", "Save changes"}},
			{"/signals", []string{"Ledgerwyn", "funding", "high", "needs attention", "reach out"}},
			{"/signals/" + d.run.SignalID, []string{"The company raised money.", "Series A", "Fourth", "Sent", "raises money"}},
			{"/alerts", []string{"Ledgerwyn", "Sent", "a rule matched", "Corvimesh"}},
			{"/alerts/" + d.run.AlertID, []string{"a rule matched", "Ledgerwyn: funding", "raises money"}},
			{"/leads", []string{"Oskar Lind", "Kestrel " + d.ent.ID[:8], "Accept", "Reject", "unreviewed"}},
			{"/leads/" + d.run.LeadID, []string{"Oskar Lind", "Found around Ledgerwyn"}},
			{"/leads/" + d.run.LeadID + "/track", []string{"Accept Oskar Lind and track Kestrel"}},
			{"/keys", []string{"CRM sync", "active", "tracker:read", "Create a key"}},
			{"/outbox", []string{"Corvimesh: product launch", "kept", "alerts@fund.example", "Body of Corvimesh: product launch"}},
		}
		for _, tc := range tests {
			t.Run(tc.path, func(t *testing.T) {
				p := b.get(tc.path)
				if p.Status != http.StatusOK {
					t.Fatalf("status %d; body:\n%s", p.Status, text(p.Body))
				}
				contains(t, p, tc.want...)
			})
		}
	})
}

func TestEmptyStates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		seed(t, s)
		b := s.signedIn(t, s.OwnerB)
		tests := []struct{ path, want string }{
			{"/companies", "No companies yet"},
			{"/companies?q=zzzz", "No companies match"},
			{"/signals", "No signals yet"},
			{"/signals?type=legal", "No signals match"},
			{"/alerts", "No alerts yet"},
			{"/leads", "Nothing to review"},
			{"/leads?decision=accepted", "No accepted leads"},
			{"/outbox", "No alert e-mails yet"},
			{"/keys", "No API keys yet"},
		}
		for _, tc := range tests {
			t.Run(tc.path, func(t *testing.T) {
				p := b.get(tc.path)
				if p.Status != http.StatusOK {
					t.Fatalf("status %d", p.Status)
				}
				contains(t, p, tc.want)
				lacks(t, p, "Ledgerwyn", "Corvimesh", "Oskar Lind")
			})
		}
	})
}

func TestAddCompany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		b := s.signedIn(t, s.OwnerA)
		form := url.Values{
			"companyName": {"Glassmoth Labs"}, "companyWebsite": {"glassmoth.example"},
			"founders[0].name": {"Ines Marchetti"}, "founders[0].linkedinUrl": {""},
			"founders[1].name": {"Oskar Brandvold"}, "founders[1].githubUrl": {"not a url"},
			"founders[2].name": {""},
			"thingsToTrack":    {""}, "alertEmails": {"ada@fund.example, not-an-address"},
			"cadenceDays": {"7"}, "emailAlertsEnabled": {"true"},
		}
		p := b.post("/companies", form)
		if p.Status != http.StatusBadRequest {
			t.Fatalf("status %d, want 400", p.Status)
		}
		contains(t, p, "Please fix 4 problems")
		for name, want := range map[string]string{
			"companyWebsite":        "must be an absolute http or https URL",
			"founders[1].githubUrl": "must be an absolute http or https URL",
			"thingsToTrack":         "is required",
			"alertEmails":           `item 2 must be an e-mail address like name@example.com, got "not-an-address"`,
		} {
			if got := fieldError(p.Body, name); got != want {
				t.Errorf("error beside %s = %q, want %q", name, got, want)
			}
		}
		if got := fieldError(p.Body, "companyName"); got != "" {
			t.Errorf("companyName shows an error %q", got)
		}
		for name, want := range map[string]string{
			"companyName": "Glassmoth Labs", "companyWebsite": "glassmoth.example", "founders[1].name": "Oskar Brandvold",
			"founders[1].githubUrl": "not a url", "alertEmails": "ada@fund.example, not-an-address",
		} {
			if got := inputValue(p.Body, name); got != want {
				t.Errorf("input %s holds %q, want %q kept", name, got, want)
			}
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 0 {
			t.Fatalf("%d entities stored after a failed add", n)
		}

		form.Set("companyWebsite", "https://glassmoth.example")
		form.Set("founders[1].githubUrl", "https://github.com/obrandvold")
		form.Set("thingsToTrack", "Tell me when they raise money.")
		form.Set("alertEmails", "ada@fund.example\nbo@fund.example")
		p = b.post("/companies", form)
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, "/companies/") {
			t.Fatalf("fixed form: %d to %q; body:\n%s", p.Status, p.Location, text(p.Body))
		}
		id := strings.TrimPrefix(p.Location, "/companies/")
		contains(t, b.get(p.Location), "Radar is now tracking Glassmoth Labs.", "Queued", "Updating by itself")

		// The company is the API's: the same record, with its operation to poll.
		res := s.Do(t, http.MethodGet, "/api/v1/tracker/"+id, s.Key(t, s.OrgA), nil)
		data := res.Data()
		if res.Status != http.StatusOK || data["companyName"] != "Glassmoth Labs" || data["cadenceDays"] != 7.0 ||
			len(data["founders"].([]any)) != 2 || len(data["alertEmails"].([]any)) != 2 || data["emailAlertsEnabled"] != true {
			t.Errorf("API sees %d %v", res.Status, res.String())
		}
		if op := res.Object()["operation"].(map[string]any); op["enrichmentStatus"] != "queued" {
			t.Errorf("operation = %v", op)
		}
	})
}

func TestAddFounderRowKeepsValues(t *testing.T) {
	s := startSite(t, storetest.Engines()[0], web.Config{})
	b := s.signedIn(t, s.OwnerA)
	p := b.post("/companies", url.Values{"companyName": {"Quillfern"}, "founders[0].name": {"Amara Osei"}, "founders[1].name": {""}, "more": {"1"}})
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if inputValue(p.Body, "companyName") != "Quillfern" || inputValue(p.Body, "founders[0].name") != "Amara Osei" {
		t.Errorf("values not kept")
	}
	if !strings.Contains(p.Body, `name="founders[2].name"`) || strings.Contains(p.Body, `name="founders[3].name"`) {
		t.Errorf("want founder rows 0-2 after asking for another row")
	}
	if n := s.Count(t, "entities", "1 = 1"); n != 0 {
		t.Errorf("asking for a row stored %d entities", n)
	}
}

func TestEditCompany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ent := s.track(t, s.OrgA, "Brackenvolt")
		b := s.signedIn(t, s.OwnerA)
		edit := b.get("/companies/" + ent.ID + "/edit")
		fid := inputValue(edit.Body, "founders[0].id")
		if fid != ent.Founders[0].ID {
			t.Fatalf("founder id input = %q, want %q", fid, ent.Founders[0].ID)
		}
		form := url.Values{
			"companyName": {"Brackenvolt Energy"}, "companySummary": {"Batteries."}, "tags": {"climate, storage"},
			"founders[0].id": {fid}, "founders[0].name": {"Rosa Delacroix-Ng"},
			"founders[1].name": {"Yusuf Adeyemi"}, "founders[1].linkedinUrl": {"https://www.linkedin.com/in/yusuf-adeyemi-phd"},
			"thingsToTrack": {"Tell me about layoffs."}, "alertEmails": {"bad"}, "cadenceDays": {"30"},
		}
		p := b.post("/companies/"+ent.ID+"/edit", form)
		if p.Status != http.StatusBadRequest || !strings.Contains(fieldError(p.Body, "alertEmails"), "must be an e-mail address") {
			t.Fatalf("bad address: status %d, error %q", p.Status, fieldError(p.Body, "alertEmails"))
		}
		form.Set("alertEmails", "rosa@fund.example")
		contains(t, b.follow("/companies/"+ent.ID+"/edit", form), "Saved the changes to Brackenvolt Energy.", "Tell me about layoffs.", "Yusuf Adeyemi")
		got, err := s.Service.GetEntity(context.Background(), principal(s.OrgA), ent.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if got.CompanyName != "Brackenvolt Energy" || got.CadenceDays != 30 || got.EmailAlertsEnabled || len(got.Founders) != 2 ||
			got.Founders[0].ID != fid || got.Founders[0].Name != "Rosa Delacroix-Ng" || strings.Join(got.Tags, "|") != "climate|storage" ||
			got.Policy.Version != 2 || strings.Join(got.AlertEmails, ",") != "rosa@fund.example" {
			t.Errorf("stored entity = %+v", got)
		}
	})
}

func TestCompanyActions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ent := s.track(t, s.OrgA, "Orbweave Space")
		s.enrich(t, s.OrgA, ent.ID)
		key := s.Key(t, s.OrgA)
		status := func() string {
			return s.Do(t, http.MethodGet, "/api/v1/tracker/"+ent.ID, key, nil).Data()["status"].(string)
		}
		b := s.signedIn(t, s.OwnerA)
		base := "/companies/" + ent.ID

		contains(t, b.get(base+"/pause"), "Pause tracking of Orbweave Space?")
		contains(t, b.follow(base+"/pause", nil), "Orbweave Space is paused.", "Resume")
		if got := status(); got != radar.StatusPaused {
			t.Errorf("status after pause = %q", got)
		}
		contains(t, b.follow(base+"/refresh", nil), "This company is paused: resume it to run the tracker.")
		contains(t, b.follow(base+"/resume", nil), "Orbweave Space is tracked again.")
		if got := status(); got != radar.StatusOK {
			t.Errorf("status after resume = %q", got)
		}
		contains(t, b.follow(base+"/refresh", nil), "A run of Orbweave Space has started.", "Run in progress")
		contains(t, b.follow(base+"/refresh", nil), "A run is already in progress.")

		contains(t, b.get(base+"/delete"), "Stop tracking Orbweave Space and delete its history?")
		contains(t, b.follow(base+"/delete", nil), "Radar no longer tracks Orbweave Space")
		if p := b.get(base); p.Status != http.StatusNotFound {
			t.Errorf("deleted company page: status %d", p.Status)
		}
		if res := s.Do(t, http.MethodGet, "/api/v1/tracker/"+ent.ID, key, nil); res.Status != http.StatusNotFound {
			t.Errorf("API still has the deleted company: %d", res.Status)
		}
	})
}

func TestProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ent := s.track(t, s.OrgA, "Thimbleway")
		b := s.signedIn(t, s.OwnerA)
		p := b.get("/companies/" + ent.ID + "/progress")
		if p.Status != http.StatusOK || !strings.Contains(p.Body, `"enrichmentStatus":"queued"`) || !strings.Contains(p.Body, `"inProgress":true`) {
			t.Fatalf("progress before enrichment: %d %s", p.Status, p.Body)
		}
		if !strings.Contains(b.get("/companies/"+ent.ID).Body, `data-progress="/companies/`+ent.ID+`/progress"`) {
			t.Errorf("the page of a company in progress does not poll")
		}
		s.enrich(t, s.OrgA, ent.ID)
		run := s.SeedRun(t, s.OrgA, ent.ID)
		p = b.get("/companies/" + ent.ID + "/progress")
		for _, want := range []string{`"enrichmentComplete":true`, `"inProgress":false`, `"latestSignalId":"` + run.SignalID + `"`, `"running":false`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("progress after the run lacks %s: %s", want, p.Body)
			}
		}
		if strings.Contains(b.get("/companies/"+ent.ID).Body, "data-progress=") {
			t.Errorf("the page of a settled company still polls")
		}
	})
}

func TestSearchAndFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ledger := s.track(t, s.OrgA, "Ledgerwyn")
		s.enrich(t, s.OrgA, ledger.ID)
		s.track(t, s.OrgA, "Northwind Robotics")
		s.track(t, s.OrgA, "Northwind Foods")
		paused := s.track(t, s.OrgA, "Hollowbirch Learning")
		st := radar.StatusPaused
		if _, err := s.Service.UpdateEntity(context.Background(), principal(s.OrgA), paused.ID, radar.EntityPatch{Status: &st}); err != nil {
			t.Fatal(err)
		}
		b := s.signedIn(t, s.OwnerA)
		tests := []struct {
			name, query string
			want, not   []string
		}{
			{"typo in a company name", "q=ledgerwin", []string{"Ledgerwyn", "matches"}, []string{"Northwind", "Hollowbirch"}},
			{"founder name", "q=ada+hollowbirch", []string{"Hollowbirch Learning"}, []string{"Ledgerwyn"}},
			{"ambiguous name", "q=northwind", []string{"could mean any of these", "Northwind Robotics", "Northwind Foods"}, []string{"Ledgerwyn"}},
			{"status", "status=paused", []string{"Hollowbirch Learning", "Paused"}, []string{"Ledgerwyn", "Northwind"}},
			{"sector", "sector=fintech", []string{"Ledgerwyn"}, []string{"Northwind", "Hollowbirch"}},
			{"search and status", "q=ledgerwyn&status=paused", []string{"No companies match"}, nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p := b.get("/companies?" + tc.query)
				if p.Status != http.StatusOK {
					t.Fatalf("status %d", p.Status)
				}
				contains(t, p, tc.want...)
				lacks(t, p, tc.not...)
			})
		}
		t.Run("paging", func(t *testing.T) {
			for i := range 26 {
				s.InsertEntity(t, s.OrgB, "Company "+string(rune('A'+i)), time.Now().Add(time.Duration(i)*time.Second))
			}
			ob := s.signedIn(t, s.OwnerB)
			first := ob.get("/companies")
			contains(t, first, "Company Z", "Next page")
			lacks(t, first, "Company A ")
			i := strings.Index(first.Body, `<a href="/companies?cursor=`)
			if i < 0 {
				t.Fatal("no next page link")
			}
			next := first.Body[i+len(`<a href="`):]
			next = strings.ReplaceAll(next[:strings.Index(next, `"`)], "&amp;", "&")
			contains(t, ob.get(next), "Company A", "First page")
		})
		t.Run("signals by company and type", func(t *testing.T) {
			s.SeedRun(t, s.OrgA, ledger.ID)
			contains(t, b.get("/signals?company=ledgerwin&type=funding"), "Signals of Ledgerwyn", "which “ledgerwin” matches on the company name")
			contains(t, b.get("/signals?company=northwind"), "That name matches several companies", "Northwind Robotics")
			contains(t, b.get("/signals?company=zzzz"), "No tracked company or founder matches that name.")
			contains(t, b.get("/signals?needsAttention=false"), "No signals match")
			contains(t, b.get("/alerts?outcome=failed"), "No alerts match")
			contains(t, b.get("/alerts?outcome=sent"), "Ledgerwyn", "Sent")
		})
	})
}

func TestLeadDecisionsAreSharedWithTheAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		key := s.Key(t, s.OrgA)
		var runs []apitest.Run
		for _, name := range []string{"Ledgerwyn", "Corvimesh", "Quillfern Health"} {
			runs = append(runs, s.SeedRun(t, s.OrgA, s.track(t, s.OrgA, name).ID))
		}
		b := s.signedIn(t, s.MemberA)
		decision := func(id string) map[string]any {
			return s.Do(t, http.MethodGet, "/api/v1/leads/"+id, key, nil).Data()["decision"].(map[string]any)
		}

		t.Run("accepted in the web UI", func(t *testing.T) {
			p := b.follow("/leads/"+runs[0].LeadID+"/accept", url.Values{"back": {"/leads"}})
			contains(t, p, "Accepted Oskar Lind.")
			if got := decision(runs[0].LeadID)["status"]; got != radar.DecisionAccepted {
				t.Errorf("API decision = %v, want accepted", got)
			}
			if !strings.Contains(b.get("/leads?decision=accepted").Body, "/leads/"+runs[0].LeadID) {
				t.Errorf("the accepted tab does not list the accepted lead")
			}
		})
		t.Run("rejected in the web UI after confirming", func(t *testing.T) {
			contains(t, b.get("/leads/"+runs[1].LeadID+"/reject"), "Reject Oskar Lind (Kestrel")
			contains(t, b.follow("/leads/"+runs[1].LeadID+"/reject", nil), "Rejected Oskar Lind.")
			if got := decision(runs[1].LeadID)["status"]; got != radar.DecisionRejected {
				t.Errorf("API decision = %v, want rejected", got)
			}
		})
		t.Run("decided through the API", func(t *testing.T) {
			res := s.Do(t, http.MethodPost, "/api/v1/leads/"+runs[2].LeadID+"/decision", key, map[string]any{"accepted": false})
			if res.Status != http.StatusOK {
				t.Fatalf("API decision: %d %s", res.Status, res)
			}
			p := b.get("/leads?decision=rejected")
			if !strings.Contains(p.Body, "/leads/"+runs[2].LeadID) {
				t.Errorf("the rejected tab does not list the lead rejected through the API")
			}
			if strings.Contains(b.get("/leads").Body, "/leads/"+runs[2].LeadID+"/accept") {
				t.Errorf("the inbox still offers the lead rejected through the API")
			}
		})
		t.Run("tracked from the web UI", func(t *testing.T) {
			run := s.SeedRun(t, s.OrgA, s.track(t, s.OrgA, "Fennick and Vale").ID)
			form := url.Values{"thingsToTrack": {""}, "alertEmails": {"member@a.example"}, "companyWebsite": {"https://kestrel.example"}, "cadenceDays": {"7"}}
			p := b.post("/leads/"+run.LeadID+"/track", form)
			if p.Status != http.StatusBadRequest || fieldError(p.Body, "thingsToTrack") != "is required" {
				t.Fatalf("missing rules: status %d, error %q", p.Status, fieldError(p.Body, "thingsToTrack"))
			}
			form.Set("thingsToTrack", "Tell me when they raise money.")
			p = b.post("/leads/"+run.LeadID+"/track", form)
			if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, "/companies/") {
				t.Fatalf("track: %d to %q; %s", p.Status, p.Location, text(p.Body))
			}
			d := decision(run.LeadID)
			if d["status"] != radar.DecisionAccepted || "/companies/"+d["trackedEntityId"].(string) != p.Location {
				t.Errorf("API decision = %v, want accepted with the tracked company %s", d, p.Location)
			}
			contains(t, b.get(p.Location), "Accepted Oskar Lind; Radar is now tracking Kestrel")
		})
	})
}

func TestAPIKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		b := s.signedIn(t, s.OwnerA)

		p := b.post("/keys", url.Values{"name": {""}, "expiry": {"90d"}})
		if p.Status != http.StatusBadRequest || fieldError(p.Body, "name") != "must be 1-100 characters" || !strings.Contains(fieldErrorBlock(p.Body), "must name at least one") {
			t.Fatalf("empty key form: status %d, name error %q", p.Status, fieldError(p.Body, "name"))
		}
		p = b.post("/keys", url.Values{"name": {"Research agent"}, "scopes": {"tracker:read", "leads:read"}, "expiry": {"30d"}})
		if p.Status != http.StatusOK {
			t.Fatalf("create: status %d", p.Status)
		}
		secret := inputSecret(p.Body)
		if !strings.HasPrefix(secret, "rdr_") {
			t.Fatalf("no secret on the page: %s", text(p.Body))
		}
		contains(t, p, "Copy it now", "Research agent", "tracker:read", "leads:read")
		if res := s.Do(t, http.MethodGet, "/api/v1/tracker", secret, nil); res.Status != http.StatusOK {
			t.Errorf("the new key: %d", res.Status)
		}
		if res := s.Do(t, http.MethodPost, "/api/v1/tracker", secret, apitest.CreateBody("X")); res.Code() != radar.EInsufficientScope {
			t.Errorf("the read-only key may write: %d %s", res.Status, res.Code())
		}
		if list := b.get("/keys"); strings.Contains(list.Body, secret) {
			t.Errorf("the secret is shown again")
		}

		id := apitest.KeyID(secret)
		contains(t, b.get("/keys/"+id+"/revoke"), "Revoke the key Research agent?")
		contains(t, b.follow("/keys/"+id+"/revoke", nil), "Revoked the key Research agent.", "revoked")
		if res := s.Do(t, http.MethodGet, "/api/v1/tracker", secret, nil); res.Status != http.StatusUnauthorized {
			t.Errorf("revoked key: %d, want 401", res.Status)
		}

		t.Run("members cannot manage keys", func(t *testing.T) {
			m := s.signedIn(t, s.MemberA)
			if strings.Contains(m.get("/companies").Body, `href="/keys"`) {
				t.Errorf("a member's navigation offers API keys")
			}
			for _, p := range []page{m.get("/keys"), m.post("/keys", url.Values{"name": {"x"}, "scopes": {"tracker:read"}, "expiry": {"30d"}})} {
				if p.Status != http.StatusForbidden {
					t.Errorf("member: status %d, want 403", p.Status)
				}
				contains(t, p, "Only owners of ORG-A can manage API keys.")
			}
			keys, _ := s.Service.Keys(context.Background(), s.OrgA.ID)
			if len(keys) != 1 {
				t.Errorf("%d keys after a member's attempt, want 1", len(keys))
			}
		})
	})
}

// inputSecret finds the new key's secret on the keys page.
func inputSecret(html string) string {
	i := strings.Index(html, `id="new-key">`)
	if i < 0 {
		return ""
	}
	s := html[i+len(`id="new-key">`):]
	return s[:strings.Index(s, "<")]
}

// fieldErrorBlock is the text of every error message of a page.
func fieldErrorBlock(html string) string {
	var out []string
	for _, part := range strings.Split(html, `class="field-error"`)[1:] {
		out = append(out, text(part[strings.Index(part, ">")+1:strings.Index(part, "</p>")]))
	}
	return strings.Join(out, "\n")
}

func TestNothingCrossesOrganisations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		d := seed(t, s)
		k, err := s.Service.CreateKey(context.Background(), s.OrgA.ID, "A's key", radar.Scopes, 0)
		if err != nil {
			t.Fatal(err)
		}
		b := s.signedIn(t, s.OwnerB)
		for _, path := range []string{
			"/companies/" + d.ent.ID, "/companies/" + d.ent.ID + "/edit", "/companies/" + d.ent.ID + "/delete",
			"/companies/" + d.ent.ID + "/progress", "/signals/" + d.run.SignalID, "/alerts/" + d.run.AlertID,
			"/leads/" + d.run.LeadID, "/leads/" + d.run.LeadID + "/track", "/keys/" + k.Key.ID + "/revoke",
			"/signals?entityId=" + d.ent.ID,
		} {
			p := b.get(path)
			if path == "/signals?entityId="+d.ent.ID {
				lacks(t, p, "Ledgerwyn", "Raised a Series A")
				continue
			}
			if p.Status != http.StatusNotFound {
				t.Errorf("GET %s: status %d, want 404", path, p.Status)
			}
			lacks(t, p, "Ledgerwyn", "Oskar Lind", "A's key")
		}
		for _, path := range []string{
			"/companies/" + d.ent.ID + "/delete", "/companies/" + d.ent.ID + "/pause", "/companies/" + d.ent.ID + "/refresh",
			"/companies/" + d.ent.ID + "/edit", "/leads/" + d.run.LeadID + "/accept", "/leads/" + d.run.LeadID + "/reject",
			"/keys/" + k.Key.ID + "/revoke",
		} {
			if p := b.post(path, url.Values{"companyName": {"Taken"}}); p.Status != http.StatusNotFound {
				t.Errorf("POST %s: status %d, want 404", path, p.Status)
			}
		}
		got, err := s.Service.GetEntity(context.Background(), principal(s.OrgA), d.ent.ID, "")
		if err != nil || got.CompanyName != "Ledgerwyn" || got.Status != radar.StatusOK || got.RunningSince != nil {
			t.Errorf("A's company after B's attempts: %+v, %v", got, err)
		}
		l, _ := s.Service.GetLead(context.Background(), principal(s.OrgA), d.run.LeadID, "")
		if l.Decision.Status != radar.DecisionUnreviewed {
			t.Errorf("A's lead decided by B: %s", l.Decision.Status)
		}
		keys, _ := s.Service.Keys(context.Background(), s.OrgA.ID)
		if keys[0].RevokedAt != nil {
			t.Errorf("A's key revoked by B")
		}
	})
}

func TestCrossOriginFormsAreRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		ent := s.track(t, s.OrgA, "Mossgate Mobility")
		b := s.signedIn(t, s.OwnerA)
		tests := []struct {
			name   string
			header []string
		}{
			{"a browser says the request is cross-site", []string{"Sec-Fetch-Site", "cross-site"}},
			{"the origin is another host", []string{"Origin", "https://evil.example"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p := b.post("/companies/"+ent.ID+"/delete", nil, tc.header...)
				if p.Status != http.StatusForbidden {
					t.Errorf("status %d, want 403", p.Status)
				}
				contains(t, p, "This form was sent from another site")
				if _, err := s.Service.GetEntity(context.Background(), principal(s.OrgA), ent.ID, ""); err != nil {
					t.Errorf("the company is gone: %v", err)
				}
				if p := s.browser(t).post("/login", url.Values{"email": {s.OwnerA}, "password": {password}}, tc.header...); p.Status != http.StatusForbidden {
					t.Errorf("cross-origin sign-in: status %d, want 403", p.Status)
				}
			})
		}
		t.Run("the same origin is allowed", func(t *testing.T) {
			p := b.post("/companies/"+ent.ID+"/pause", nil, "Origin", s.URL, "Sec-Fetch-Site", "same-origin")
			if p.Status != http.StatusSeeOther {
				t.Errorf("status %d, want 303", p.Status)
			}
		})
	})
}

func TestHeadersAndStaticFiles(t *testing.T) {
	s := startSite(t, storetest.Engines()[0], web.Config{})
	b := s.browser(t)
	p := b.get("/login")
	if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	for _, path := range []string{"/static/style.css", "/static/app.js", "/static/radar.svg"} {
		if p := b.get(path); p.Status != http.StatusOK || len(p.Body) == 0 {
			t.Errorf("%s: %d", path, p.Status)
		}
	}
	if strings.Contains(p.Body, "http://") || strings.Contains(p.Body, "https://") {
		t.Errorf("the sign-in page refers to another site:\n%s", p.Body)
	}
	signed := s.signedIn(t, s.OwnerA)
	if p := signed.get("/no/such/page"); p.Status != http.StatusNotFound {
		t.Errorf("unknown page: %d", p.Status)
	}
	if p := signed.get("/companies/not-a-uuid"); p.Status != http.StatusNotFound {
		t.Errorf("malformed id: %d", p.Status)
	}
}
