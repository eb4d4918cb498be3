package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/app"
	"radar/internal/config"
	"radar/internal/mail/smtptest"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
)

// fakeClock is the simulated web's clock, moved by the test.
type fakeClock struct{ offset atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *fakeClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

type client struct {
	t    *testing.T
	base string
	key  string
	// check holds every exchange to the served OpenAPI document.
	check *apitest.Conformance
}

func (c client) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var r io.Reader
	var sent []byte
	if body != nil {
		sent, _ = json.Marshal(body)
		r = bytes.NewReader(sent)
	}
	req, _ := http.NewRequest(method, c.base+path, r)
	req.Header.Set("Authorization", "Bearer "+c.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	if c.check != nil {
		for _, msg := range c.check.Check(req, sent, false, &apitest.Response{Status: res.StatusCode, Header: res.Header, Body: b}) {
			c.t.Errorf("OpenAPI conformance: %s", msg)
		}
	}
	var out map[string]any
	json.Unmarshal(b, &out)
	return res.StatusCode, out
}

// poll reads path until done says so, for at most a bounded time.
func (c client) poll(path string, done func(map[string]any) bool) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, body := c.do(http.MethodGet, path, nil)
		if done(body) {
			return body
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("GET %s: condition not reached; last body %v", path, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startApp runs the whole program on engine against the simulated web (and the SMTP server at smtpURL when it is
// not empty), and returns it with a client holding a key of the given scopes whose every exchange is checked
// against the served OpenAPI document.
func startApp(t *testing.T, engine string, web *simweb.Web, smtpURL string, scopes ...string) (*app.App, client) {
	t.Helper()
	ctx := context.Background()
	cfg := &config.Config{
		Addr: "127.0.0.1:0", DatabaseURL: storetest.URL(t, engine), SMTPURL: smtpURL, MailFrom: "radar@fund.example",
		FetchAllowPrivate: true, NewsFeedURL: web.NewsFeedURL(), GitHubAPIURL: web.GitHubAPIURL(),
	}
	if err := cfg.Finish(); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	org, err := a.Service.CreateOrg(ctx, "fund", "Fund")
	if err != nil {
		t.Fatal(err)
	}
	k, err := a.Service.CreateKey(ctx, org.ID, "e2e", scopes, 0)
	if err != nil {
		t.Fatal(err)
	}
	check, err := apitest.NewConformance(a.Server.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	return a, client{t: t, base: "http://" + a.Addr(), key: k.Secret, check: check}
}

func data(m map[string]any) map[string]any { v, _ := m["data"].(map[string]any); return v }
func list(m map[string]any) []any          { v, _ := m["data"].([]any); return v }

// TestTrackerEndToEnd drives the whole product through its HTTP API against a simulated web and a real SMTP
// server: create → enrichment finds the profiles → first run → a signal with evidence → an alert e-mailed to
// exactly the recipients; rules that match nothing; alerts switched off; a refresh after news arrives; leads.
func TestTrackerEndToEnd(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		clock := &fakeClock{}
		step := time.Hour
		web, err := simweb.Start(simweb.Options{Now: clock.now, Step: step})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(web.Close)
		smtp := smtptest.Start(t, smtptest.Options{})
		_, c := startApp(t, engine, web, smtp.URL, "tracker:read", "tracker:write", "leads:read", "leads:write")
		site := map[string]simweb.Company{}
		for _, co := range web.Companies() {
			site[co.Slug] = co
		}

		create := func(slug, rules string, recipients []string, alerts bool) string {
			co := site[slug]
			status, body := c.do(http.MethodPost, "/api/v1/tracker", map[string]any{
				"companyName": co.Name, "companyWebsite": co.Website,
				"founders":      []map[string]any{{"name": co.Founders[0].Name}, {"name": co.Founders[1].Name}},
				"thingsToTrack": rules, "alertEmails": recipients, "emailAlertsEnabled": alerts, "confirmed": true,
			})
			if status != http.StatusCreated {
				t.Fatalf("create %s: %d %v", slug, status, body)
			}
			return data(body)["id"].(string)
		}
		firstRun := func(id string) map[string]any {
			return data(c.poll("/api/v1/tracker/"+id, func(m map[string]any) bool {
				op, _ := m["operation"].(map[string]any)
				d := data(m)
				return op != nil && op["enrichmentComplete"] == true && d["lastScrapedAt"] != nil
			}))
		}

		recipients := []string{"ana@fund.example", "ben@fund.example"}
		tallowmere := create("tallowmere", "Tell me when they raise more than $1M.\nAny founder leaving.", recipients, true)
		quillfern := create("quillfern", "Tell me about layoffs or office closures.", []string{"cy@fund.example"}, true)
		ledgerwyn := create("ledgerwyn", "Any funding round.", []string{"dee@fund.example"}, false)

		e := firstRun(tallowmere)
		want := site["tallowmere"]
		if e["companyLinkedinUrl"] != want.LinkedIn {
			t.Errorf("enrichment: companyLinkedinUrl = %v, want %s", e["companyLinkedinUrl"], want.LinkedIn)
		}
		founders, _ := e["founders"].([]any)
		if f, _ := founders[0].(map[string]any); f["linkedinUrl"] != want.Founders[0].LinkedIn {
			t.Errorf("enrichment: founders[0].linkedinUrl = %v, want %s", f["linkedinUrl"], want.Founders[0].LinkedIn)
		}
		if e["scrapeHealthReason"] == "" {
			t.Error("scrapeHealthReason is empty after the first run")
		}

		_, sigs := c.do(http.MethodGet, "/api/v1/signals?entityId="+tallowmere, nil)
		if len(list(sigs)) != 1 {
			t.Fatalf("signals after the first run: %v", sigs)
		}
		sig := list(sigs)[0].(map[string]any)
		if sig["type"] != "funding" || len(sig["evidence"].([]any)) == 0 {
			t.Errorf("first signal: type %v, evidence %v; want funding with evidence", sig["type"], sig["evidence"])
		}
		_, fullSig := c.do(http.MethodGet, "/api/v1/signals/"+sig["id"].(string), nil)
		titles := map[string]bool{}
		for _, ev := range data(fullSig)["evidence"].([]any) {
			title := ev.(map[string]any)["title"].(string)
			if titles[title] {
				t.Errorf("the story %q is evidence twice (seen on the blog and in the feed)", title)
			}
			titles[title] = true
		}
		_, alerts := c.do(http.MethodGet, "/api/v1/alerts?entityId="+tallowmere, nil)
		alert := list(alerts)[0].(map[string]any)
		if alert["outcome"] != "sent" {
			t.Fatalf("alert outcome = %v (%v), want sent", alert["outcome"], alert["reason"])
		}
		_, full := c.do(http.MethodGet, "/api/v1/alerts/"+alert["id"].(string), nil)
		if evals, _ := data(full)["ruleEvaluations"].([]any); len(evals) != 2 {
			t.Errorf("rule evaluations: %v, want one per rule", data(full)["ruleEvaluations"])
		}
		// waitMail returns the company's e-mails, those to ben@ (no other company's recipient), once there are n of
		// them (30 s at most). Other companies' alerts, such as the first run of the lead tracked below, are not
		// counted; the recipients of the company's e-mails are still checked whole.
		waitMail := func(n int) []smtptest.Message {
			var mine []smtptest.Message
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				mine = mine[:0]
				for _, m := range smtp.Messages() {
					if slices.Contains(m.To, "ben@fund.example") {
						mine = append(mine, m)
					}
				}
				if len(mine) >= n || time.Now().After(deadline) {
					return mine
				}
			}
		}
		msgs := waitMail(1)
		if len(msgs) != 1 {
			t.Fatalf("e-mails sent: %d, want 1", len(msgs))
		}
		got := slices.Sorted(slices.Values(msgs[0].To))
		if !slices.Equal(got, recipients) {
			t.Errorf("e-mail recipients = %v, want %v", got, recipients)
		}

		firstRun(quillfern)
		_, qa := c.do(http.MethodGet, "/api/v1/alerts?entityId="+quillfern, nil)
		if o := list(qa)[0].(map[string]any)["outcome"]; o != "no_match" {
			t.Errorf("rules matching nothing: outcome %v, want no_match", o)
		}
		firstRun(ledgerwyn)
		_, la := c.do(http.MethodGet, "/api/v1/alerts?entityId="+ledgerwyn, nil)
		if o := list(la)[0].(map[string]any)["outcome"]; o != "disabled" {
			t.Errorf("alerts switched off: outcome %v, want disabled", o)
		}
		if n := len(smtp.Messages()); n != 1 {
			t.Errorf("e-mails after no_match and disabled: %d, want still 1", n)
		}

		// News arrives: a co-founder leaves to start a company.
		clock.advance(16 * step)
		status, ref := c.do(http.MethodPost, "/api/v1/tracker/"+tallowmere+"/refresh", nil)
		if status != http.StatusAccepted {
			t.Fatalf("refresh: %d %v", status, ref)
		}
		baseline := ref["baselineLastScrapedAt"]
		if baseline == nil {
			t.Fatal("refresh: baselineLastScrapedAt is null after a finished run")
		}
		c.poll("/api/v1/tracker/"+tallowmere, func(m map[string]any) bool {
			return data(m)["lastScrapedAt"] != baseline && data(m)["scrapeHealthReason"] != "running: a tracker run is in progress"
		})
		_, sigs = c.do(http.MethodGet, "/api/v1/signals?entityId="+tallowmere, nil)
		if len(list(sigs)) != 2 {
			t.Fatalf("signals after the refresh: %d, want 2", len(list(sigs)))
		}
		latest := list(sigs)[0].(map[string]any)
		if ty := latest["type"]; ty != "founder_departure" && ty != "new_venture" {
			t.Errorf("signal after a co-founder left: type %v, want founder_departure or new_venture", ty)
		}
		_, leads := c.do(http.MethodGet, "/api/v1/leads?sourceEntityId="+tallowmere, nil)
		var lead map[string]any
		for _, l := range list(leads) {
			m := l.(map[string]any)
			co, _ := m["company"].(map[string]any)
			if m["personName"] == "Oskar Brandvold" && co["name"] == "Kestrelgrip" {
				lead = m
			}
		}
		if lead == nil {
			t.Fatalf("leads: %v, want Oskar Brandvold of Kestrelgrip", leads)
		}
		if d, _ := lead["decision"].(map[string]any); d["status"] != "unreviewed" || lead["stage"] != "pre_seed_seed" {
			t.Errorf("new lead: decision %v, stage %v; want unreviewed, pre_seed_seed", d, lead["stage"])
		}

		// Tracking the lead creates the company through the same path as a create, and accepts the lead.
		leadID := lead["id"].(string)
		status, tracked := c.do(http.MethodPost, "/api/v1/leads/"+leadID+"/track", map[string]any{
			"thingsToTrack": "Any funding round.", "alertEmails": []string{"ana@fund.example"},
			"companyWebsite": site["quillfern"].Website + "kestrelgrip",
		})
		if status != http.StatusCreated {
			t.Fatalf("track lead: %d %v", status, tracked)
		}
		newID := data(tracked)["id"].(string)
		if tracked["operation"] == nil || data(tracked)["companyName"] != "Kestrelgrip" {
			t.Errorf("track lead response: %v", tracked)
		}
		_, read := c.do(http.MethodGet, "/api/v1/leads/"+leadID, nil)
		if d, _ := data(read)["decision"].(map[string]any); d["status"] != "accepted" || d["trackedEntityId"] != newID {
			t.Errorf("tracked lead: decision %v, want accepted with trackedEntityId %s", d, newID)
		}
		_, accepted := c.do(http.MethodGet, "/api/v1/leads?decision=accepted", nil)
		if len(list(accepted)) != 1 {
			t.Errorf("accepted leads: %d, want 1", len(list(accepted)))
		}
		status, again := c.do(http.MethodPost, "/api/v1/leads/"+leadID+"/track", map[string]any{
			"thingsToTrack": "Any funding round.", "alertEmails": []string{"ana@fund.example"},
		})
		if status != http.StatusOK || data(again)["id"] != newID || again["existingEntity"] != true {
			t.Errorf("tracking a tracked lead again: %d %v, want 200 with the same entity", status, again)
		}
		for _, l := range list(leads) {
			if id := l.(map[string]any)["id"].(string); id != leadID {
				status, rej := c.do(http.MethodPost, "/api/v1/leads/"+id+"/decision", map[string]any{"accepted": false})
				if d, _ := data(rej)["decision"].(map[string]any); status != http.StatusOK || d["status"] != "rejected" {
					t.Errorf("reject lead: %d %v", status, rej)
				}
			}
		}
		if msgs := waitMail(2); len(msgs) != 2 {
			t.Errorf("e-mails after the departure: %d, want 2", len(msgs))
		}
	})
}
