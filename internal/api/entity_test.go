package api_test

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func TestGetEntity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		body := apitest.CreateBody("Northwind")
		body["companySummary"] = strings.Repeat("Northwind makes wind. ", 50)
		body["thingsToTrack"] = strings.Repeat("Tell me about funding. ", 50)
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, body)
		wantStatus(t, res, http.StatusCreated)
		id := str(res.Data(), "id")

		full := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id, key, nil)
		wantStatus(t, full, http.StatusOK)
		explicit := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id+"?view=full", key, nil)
		if string(full.Body) != string(explicit.Body) {
			t.Errorf("the default single read is not the full view")
		}
		d := full.Data()
		if d["policy"] == nil || str(d, "companySummary") != strings.TrimSpace(body["companySummary"].(string)) {
			t.Errorf("full view lacks the policy or cuts the summary: %s", full.Body)
		}
		if str(full.Object(), "operation.entityId") != id || str(full.Object(), "operation.pollUrl") != apitest.BaseURL+"/api/v1/tracker/"+id {
			t.Errorf("operation: %v", full.Object()["operation"])
		}
		if full.Object()["idempotencyReplayed"] != false || full.Object()["existingEntity"] != false {
			t.Errorf("read carries create flags: %s", full.Body)
		}

		compact := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id+"?view=compact", key, nil)
		wantStatus(t, compact, http.StatusOK)
		c := compact.Data()
		if _, ok := c["policy"]; ok {
			t.Errorf("compact view carries the policy")
		}
		for _, f := range []string{"companySummary", "thingsToTrack"} {
			if n := utf8.RuneCountInString(str(c, f)); n != radar.CompactSummaryLen || !strings.HasSuffix(str(c, f), "…") {
				t.Errorf("compact %s has %d characters, want %d ending in …", f, n, radar.CompactSummaryLen)
			}
		}
		if compact.Object()["operation"] == nil {
			t.Errorf("compact read lacks the operation")
		}

		wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker/"+id+"?view=summary", key, nil), http.StatusBadRequest, radar.EValidation)
		for name, bad := range map[string]string{"not a UUID": "northwind", "UUID without dashes": strings.ReplaceAll(id, "-", ""), "too long": id + "0"} {
			t.Run("malformed id "+name, func(t *testing.T) {
				for _, m := range []string{http.MethodGet, http.MethodPatch, http.MethodDelete} {
					var b any
					if m == http.MethodPatch {
						b = map[string]any{"tags": []string{}}
					}
					res := env.Do(t, m, "/api/v1/tracker/"+bad, key, b)
					wantError(t, res, http.StatusBadRequest, radar.EValidation)
				}
				wantError(t, env.Do(t, http.MethodPost, "/api/v1/tracker/"+bad+"/refresh", key, nil), http.StatusBadRequest, radar.EValidation)
			})
		}
		for _, path := range []string{"/api/v1/tracker/", "/api/v1/signals/", "/api/v1/alerts/", "/api/v1/leads/"} {
			wantError(t, env.Do(t, http.MethodGet, path+radarUUID, key, nil), http.StatusNotFound, radar.ENotFound)
			wantError(t, env.Do(t, http.MethodGet, path+"not-a-uuid", key, nil), http.StatusBadRequest, radar.EValidation)
		}
	})
}

func TestPatchEntity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Northwind"))
		wantStatus(t, res, http.StatusCreated)
		id := str(res.Data(), "id")
		founderID := str(list(res.Data()["founders"])[0].(map[string]any), "id")
		path := "/api/v1/tracker/" + id
		version := func(t *testing.T) float64 {
			v, _ := dig(env.Do(t, http.MethodGet, path, key, nil).Data(), "policy.version").(float64)
			return v
		}

		patch := map[string]any{
			"companyName":        "Northwind Energy",
			"companySummary":     "Wind farms.",
			"alertEmails":        []string{"partner@fund.example", "analyst@fund.example"},
			"cadenceDays":        30,
			"tags":               []string{"portfolio", "energy"},
			"status":             "paused",
			"emailAlertsEnabled": false,
			"thingsToTrack":      "Tell me about acquisitions.",
			"founders": []any{
				map[string]any{"id": founderID, "name": "Ada Lovelace", "githubUrl": "https://github.com/ada"},
				map[string]any{"name": "Charles Babbage", "twitterUrl": "https://x.com/babbage"},
			},
		}
		res = env.Do(t, http.MethodPatch, path, key, patch)
		wantStatus(t, res, http.StatusOK)
		if keys := len(res.Object()); keys != 1 || res.Object()["data"] == nil {
			t.Errorf("PATCH answers %s, want {\"data\": entity}", res.Body)
		}
		got := env.Do(t, http.MethodGet, path, key, nil).Data()
		for field, want := range map[string]any{
			"companyName": "Northwind Energy", "companySummary": "Wind farms.", "cadenceDays": 30.0, "status": "paused",
			"emailAlertsEnabled": false, "thingsToTrack": "Tell me about acquisitions.", "policy.version": 2.0,
		} {
			if v := dig(got, field); v != want {
				t.Errorf("%s = %v, want %v", field, v, want)
			}
		}
		if strings.Join(strs(got["alertEmails"]), ",") != "partner@fund.example,analyst@fund.example" {
			t.Errorf("alertEmails = %v", got["alertEmails"])
		}
		if strings.Join(strs(got["tags"]), ",") != "portfolio,energy" {
			t.Errorf("tags = %v", got["tags"])
		}
		fs := list(got["founders"])
		if len(fs) != 2 {
			t.Fatalf("founders = %v, want the updated one and the added one", fs)
		}
		ada, charles := fs[0].(map[string]any), fs[1].(map[string]any)
		if str(ada, "id") != founderID || str(ada, "name") != "Ada Lovelace" || str(ada, "githubUrl") != "https://github.com/ada" {
			t.Errorf("founder not updated in place: %v", ada)
		}
		if str(charles, "id") == "" || str(charles, "id") == founderID || str(charles, "name") != "Charles Babbage" {
			t.Errorf("founder not added: %v", charles)
		}

		t.Run("status ok resumes", func(t *testing.T) {
			res := env.Do(t, http.MethodPatch, path, key, map[string]any{"status": "ok"})
			wantStatus(t, res, http.StatusOK)
			if str(res.Data(), "status") != "ok" {
				t.Errorf("status = %q, want ok", str(res.Data(), "status"))
			}
		})
		t.Run("same rules keep the policy version", func(t *testing.T) {
			wantStatus(t, env.Do(t, http.MethodPatch, path, key, map[string]any{"thingsToTrack": "Tell me about acquisitions."}), http.StatusOK)
			if v := version(t); v != 2 {
				t.Errorf("policy.version = %v, want 2", v)
			}
		})
		t.Run("new rules bump the policy version", func(t *testing.T) {
			wantStatus(t, env.Do(t, http.MethodPatch, path, key, map[string]any{"thingsToTrack": "Tell me about layoffs."}), http.StatusOK)
			if v := version(t); v != 3 {
				t.Errorf("policy.version = %v, want 3", v)
			}
		})
		t.Run("empty patch changes nothing", func(t *testing.T) {
			before := env.Do(t, http.MethodGet, path, key, nil).Data()
			wantStatus(t, env.Do(t, http.MethodPatch, path, key, map[string]any{}), http.StatusOK)
			after := env.Do(t, http.MethodGet, path, key, nil).Data()
			for _, f := range []string{"companyName", "status", "thingsToTrack", "cadenceDays"} {
				if before[f] != after[f] {
					t.Errorf("%s changed from %v to %v", f, before[f], after[f])
				}
			}
		})

		for name, c := range map[string]struct {
			body  map[string]any
			paths []string
		}{
			"unknown founder id":    {map[string]any{"founders": []any{map[string]any{"id": radarUUID, "name": "Ghost"}}}, []string{"founders[0].id"}},
			"founder without name":  {map[string]any{"founders": []any{map[string]any{"id": founderID, "name": ""}}}, []string{"founders[0].name"}},
			"founder bad URL":       {map[string]any{"founders": []any{map[string]any{"name": "Cy", "linkedinUrl": "nope"}}}, []string{"founders[0].linkedinUrl"}},
			"status other":          {map[string]any{"status": "archived"}, []string{"status"}},
			"cadenceDays 5":         {map[string]any{"cadenceDays": 5}, []string{"cadenceDays"}},
			"alertEmails empty":     {map[string]any{"alertEmails": []string{}}, []string{"alertEmails"}},
			"alertEmails bad":       {map[string]any{"alertEmails": []string{"nope"}}, []string{"alertEmails[0]"}},
			"alertEmails repeated":  {map[string]any{"alertEmails": []string{"a@fund.example", "a@fund.example"}}, []string{"alertEmails[1]"}},
			"alertEmails an object": {map[string]any{"alertEmails": []any{map[string]any{}}}, []string{"alertEmails[0]"}},
			"thingsToTrack empty":   {map[string]any{"thingsToTrack": ""}, []string{"thingsToTrack"}},
			"tags too many":         {map[string]any{"tags": make([]string, 51)}, []string{"tags"}},
			"companyName too long":  {map[string]any{"companyName": strings.Repeat("n", 201)}, []string{"companyName"}},
			"unknown field":         {map[string]any{"confirmed": true}, []string{"confirmed"}},
			"eleven founders added": {map[string]any{"founders": founders(9)}, []string{"founders"}},
			"two faults at once":    {map[string]any{"status": "archived", "cadenceDays": 5}, []string{"status", "cadenceDays"}},
		} {
			t.Run("invalid: "+name, func(t *testing.T) {
				before := env.Do(t, http.MethodGet, path, key, nil).Body
				res := env.Do(t, http.MethodPatch, path, key, c.body)
				wantError(t, res, http.StatusBadRequest, radar.EValidation)
				checkProblems(t, res, c.paths)
				if after := env.Do(t, http.MethodGet, path, key, nil).Body; string(after) != string(before) {
					t.Errorf("a rejected patch changed the entity")
				}
			})
		}
		wantError(t, env.Do(t, http.MethodPatch, path, key, "{"), http.StatusBadRequest, radar.EInvalidJSON)
	})
}

func TestDeleteEntity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		f := seed(t, env, key, "Northwind")
		keep := seed(t, env, key, "Contoso")
		path := "/api/v1/tracker/" + f.entityID

		res := env.Do(t, http.MethodDelete, path, key, nil)
		wantStatus(t, res, http.StatusNoContent)
		if len(res.Body) != 0 {
			t.Errorf("204 with a body: %q", res.Body)
		}
		for _, p := range []string{path, "/api/v1/signals/" + f.SignalID, "/api/v1/alerts/" + f.AlertID} {
			wantError(t, env.Do(t, http.MethodGet, p, key, nil), http.StatusNotFound, radar.ENotFound)
		}
		wantError(t, env.Do(t, http.MethodDelete, path, key, nil), http.StatusNotFound, radar.ENotFound)
		wantError(t, env.Do(t, http.MethodPatch, path, key, map[string]any{"tags": []string{}}), http.StatusNotFound, radar.ENotFound)
		wantError(t, env.Do(t, http.MethodPost, path+"/refresh", key, nil), http.StatusNotFound, radar.ENotFound)
		if got := ids(env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil)); got != keep.entityID {
			t.Errorf("list after delete = %s, want only %s", got, keep.entityID)
		}
		if n := len(env.Do(t, http.MethodGet, "/api/v1/signals?entityId="+f.entityID, key, nil).Items()); n != 0 {
			t.Errorf("%d signals of a deleted entity remain", n)
		}
		wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/signals/"+keep.SignalID, key, nil), http.StatusOK)

		// The company can be tracked again from scratch.
		res = env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Northwind"))
		wantStatus(t, res, http.StatusCreated)
		if str(res.Data(), "id") == f.entityID {
			t.Errorf("re-tracking reused the deleted id")
		}
	})
}

func TestRefreshEntity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)

		t.Run("never run", func(t *testing.T) {
			id := create(t, env, key, "Fresh")
			res := env.Do(t, http.MethodPost, "/api/v1/tracker/"+id+"/refresh", key, nil)
			wantStatus(t, res, http.StatusAccepted)
			if v, ok := res.Object()["baselineLastScrapedAt"]; !ok || v != nil {
				t.Errorf("baselineLastScrapedAt = %v (present %v), want null", v, ok)
			}
		})

		f := seed(t, env, key, "Northwind")
		path := "/api/v1/tracker/" + f.entityID + "/refresh"
		last := str(env.Do(t, http.MethodGet, "/api/v1/tracker/"+f.entityID, key, nil).Data(), "lastScrapedAt")
		jobs := env.Count(t, "river_job", "kind = $1", "run")
		res := env.Do(t, http.MethodPost, path, key, nil)
		wantStatus(t, res, http.StatusAccepted)
		if got := str(res.Object(), "baselineLastScrapedAt"); got == "" || got != last {
			t.Errorf("baselineLastScrapedAt = %q, want lastScrapedAt %q", got, last)
		}
		if str(res.Data(), "id") != f.entityID || str(res.Object(), "operation.entityId") != f.entityID {
			t.Errorf("refresh answers another entity: %s", res.Body)
		}
		if !strings.HasPrefix(str(res.Data(), "scrapeHealthReason"), "running") {
			t.Errorf("scrapeHealthReason = %q, want it to say a run is in progress", str(res.Data(), "scrapeHealthReason"))
		}
		if n := env.Count(t, "river_job", "kind = $1", "run"); n != jobs+1 {
			t.Errorf("%d run jobs after a refresh, want %d", n, jobs+1)
		}

		res = env.Do(t, http.MethodPost, path, key, nil)
		wantError(t, res, http.StatusConflict, radar.ERefreshInProgress)
		if n := env.Count(t, "river_job", "kind = $1", "run"); n != jobs+1 {
			t.Errorf("a rejected refresh queued a run: %d jobs", n)
		}

		paused := create(t, env, key, "Paused")
		wantStatus(t, env.Do(t, http.MethodPatch, "/api/v1/tracker/"+paused, key, map[string]any{"status": "paused"}), http.StatusOK)
		res = env.Do(t, http.MethodPost, "/api/v1/tracker/"+paused+"/refresh", key, nil)
		wantError(t, res, http.StatusConflict, radar.EEntityPaused)
		if e := res.Err(); e != nil && !(strings.Contains(e.Message, "status") && strings.Contains(e.Message, `"ok"`)) {
			t.Errorf("entity_paused message %q does not tell to resume with status ok", e.Message)
		}
		wantStatus(t, env.Do(t, http.MethodPatch, "/api/v1/tracker/"+paused, key, map[string]any{"status": "ok"}), http.StatusOK)
		wantStatus(t, env.Do(t, http.MethodPost, "/api/v1/tracker/"+paused+"/refresh", key, nil), http.StatusAccepted)
		wantError(t, env.Do(t, http.MethodPost, "/api/v1/tracker/"+paused+"/refresh", key, map[string]any{"force": true}), http.StatusConflict, radar.ERefreshInProgress)
	})
}
