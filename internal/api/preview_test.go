package api_test

import (
	"net/http"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func TestRulePreview(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		a := env.InsertEntity(t, env.OrgA, "Northwind Labs", time.Now())
		env.SeedRun(t, env.OrgA, a.ID)
		env.Clock.Advance(time.Second)
		env.SeedQuietRun(t, env.OrgA, a.ID)
		alerts, outbox := env.Count(t, "alerts", "1 = 1"), env.Count(t, "outbox", "1 = 1")

		path := "/api/v1/tracker/" + a.ID + "/rules/preview"
		res := env.Serve(t, apitest.Request{Method: http.MethodPost, Path: path, Key: key,
			Body: map[string]any{"thingsToTrack": "Tell me when they raise money.\nAny founder leaving."}})
		wantStatus(t, res, http.StatusOK)
		data := res.Data()
		rules := list(dig(data, "policy.rules"))
		evals := list(data["evaluations"])
		if len(rules) != 2 || len(evals) != 2 {
			t.Fatalf("%d rules and %d evaluations, want 2 of each: %s", len(rules), len(evals), res)
		}
		funding, leaving := evals[0].(map[string]any), evals[1].(map[string]any)
		if funding["matched"] != true || str(funding, "ruleId") == "" || str(funding, "rule") == "" || str(funding, "reason") == "" {
			t.Errorf("funding rule = %v, want matched with an id, its sentence and a reason", funding)
		}
		if ev := list(funding["evidence"]); len(ev) != 1 || str(ev[0].(map[string]any), "url") != "https://news.example/1" {
			t.Errorf("funding rule evidence = %v, want the Series A item", ev)
		}
		if leaving["matched"] != false || len(list(leaving["evidence"])) != 0 || str(leaving, "reason") == "" {
			t.Errorf("founder rule = %v, want not matched, no evidence, a reason", leaving)
		}
		if dig(data, "runsChecked") != float64(2) {
			t.Errorf("runsChecked = %v, want 2", dig(data, "runsChecked"))
		}

		// Nothing stored, nothing sent.
		e := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker/" + a.ID, Key: key}).Data()
		if str(e, "thingsToTrack") != "funding" {
			t.Errorf("thingsToTrack after a preview = %q, want it unchanged", str(e, "thingsToTrack"))
		}
		if env.Count(t, "alerts", "1 = 1") != alerts || env.Count(t, "outbox", "1 = 1") != outbox {
			t.Error("a preview stored an alert or an e-mail")
		}

		// A company without runs: every rule unmatched, with a reason.
		b := env.InsertEntity(t, env.OrgA, "Freshco", time.Now())
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker/" + b.ID + "/rules/preview", Key: key,
			Body: map[string]any{"thingsToTrack": "Any funding round"}})
		wantStatus(t, res, http.StatusOK)
		if ev := list(res.Data()["evaluations"]); len(ev) != 1 || ev[0].(map[string]any)["matched"] != false {
			t.Errorf("evaluations without runs = %v", ev)
		}

		// Errors.
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: path, Key: key, Body: map[string]any{"thingsToTrack": ""}})
		wantError(t, res, http.StatusBadRequest, radar.EValidation)
		other := env.InsertEntity(t, env.OrgB, "Elsewhere", time.Now())
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker/" + other.ID + "/rules/preview", Key: key,
			Body: map[string]any{"thingsToTrack": "funding"}})
		if res.Status != http.StatusNotFound {
			t.Errorf("another organisation's company: %s, want 404", res)
		}
		leadsOnly := env.Key(t, env.OrgA, radar.ScopeLeadsRead)
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: path, Key: leadsOnly, Body: map[string]any{"thingsToTrack": "funding"}})
		wantError(t, res, http.StatusForbidden, radar.EInsufficientScope)
	})
}
