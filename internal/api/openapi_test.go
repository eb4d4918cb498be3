package api_test

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.json from the served document")

const golden = "testdata/openapi.json"

// TestOpenAPIGolden keeps the public contract under review: any change to the served document must come
// with a change to testdata/openapi.json (go test ./internal/api -run OpenAPIGolden -update).
func TestOpenAPIGolden(t *testing.T) {
	env := start(t, sqldb.SQLite)
	res := env.Do(t, http.MethodGet, "/api/v1/openapi", "", nil)
	wantStatus(t, res, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if !bytes.Equal(res.Body, env.Server.OpenAPI()) {
		t.Errorf("served document differs from Server.OpenAPI()")
	}
	doc := res.Object()
	if v, _ := doc["openapi"].(string); v != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", v)
	}
	if v := str(doc, "info.version"); v != "1.0.0" {
		t.Errorf("info.version = %q, want 1.0.0", v)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, res.Body, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read %s (run with -update to create it): %v", golden, err)
	}
	if !bytes.Equal(res.Body, want) {
		t.Errorf("served OpenAPI document differs from %s; review the change and run go test ./internal/api -run OpenAPIGolden -update\n%s",
			golden, firstDifference(want, res.Body))
	}
}

// firstDifference shows the first line where got departs from want.
func firstDifference(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + string(w) + "\n  got:  " + string(g)
		}
	}
	return ""
}

// TestOpenAPIDescribesEveryOperation checks that the document lists every endpoint of the specification
// with its scope-free security, and the errors the contract names.
func TestOpenAPIDescribesEveryOperation(t *testing.T) {
	env := start(t, sqldb.SQLite)
	doc := loadDocument(t, env.Server.OpenAPI())
	want := []string{
		"DELETE /api/v1/tracker/{id}",
		"GET /api/v1/alerts", "GET /api/v1/alerts/{id}",
		"GET /api/v1/leads", "GET /api/v1/leads/{id}",
		"GET /api/v1/openapi",
		"GET /api/v1/signals", "GET /api/v1/signals/{id}",
		"GET /api/v1/tracker", "GET /api/v1/tracker/{id}",
		"PATCH /api/v1/tracker/{id}",
		"POST /api/v1/leads/{id}/decision", "POST /api/v1/leads/{id}/track",
		"POST /api/v1/signals/mark-seen",
		"POST /api/v1/tracker", "POST /api/v1/tracker/batch", "POST /api/v1/tracker/enrich", "POST /api/v1/tracker/{id}/refresh",
		"POST /api/v1/tracker/{id}/rules/preview",
	}
	want = append(want, "DELETE /api/v1/webhooks/{id}", "GET /api/v1/webhooks", "GET /api/v1/webhooks/{id}",
		"GET /api/v1/webhooks/{id}/deliveries", "PATCH /api/v1/webhooks/{id}", "POST /api/v1/webhooks",
		"POST /api/v1/webhooks/{id}/rotate-secret", "POST /api/v1/webhooks/{id}/test")
	slices.Sort(want)
	if got := doc.operations(); !slices.Equal(got, want) {
		t.Errorf("operations:\n got %v\nwant %v", got, want)
	}
	for op, codes := range map[string][]string{
		"POST /api/v1/tracker":              {"200", "201", "400", "401", "403", "409", "413", "415", "429", "500"},
		"POST /api/v1/leads/{id}/track":     {"200", "201", "400", "401", "403", "404", "409", "429"},
		"POST /api/v1/tracker/{id}/refresh": {"202", "401", "403", "404", "409", "429"},
		"DELETE /api/v1/tracker/{id}":       {"204", "404"},
		"GET /api/v1/tracker":               {"200", "400", "401", "403", "429"},
	} {
		for _, r := range doc.routes {
			if r.method+" "+r.template != op {
				continue
			}
			responses := r.op["responses"].(map[string]any)
			for _, c := range codes {
				if _, ok := responses[c]; !ok {
					t.Errorf("%s: response %s is not documented", op, c)
				}
			}
			if _, ok := responses["422"]; ok {
				t.Errorf("%s: documents 422, which the API never sends (validation failures are 400)", op)
			}
		}
	}
}

// draftEnricher finds a company LinkedIn page for any draft, as the tracker engine would from its website.
type draftEnricher struct{}

func (draftEnricher) EnrichDraft(_ context.Context, in radar.EntityInput) (radar.EntityInput, []radar.Found, error) {
	in.CompanyLinkedinURL = "https://www.linkedin.com/company/found"
	return in, []radar.Found{{Field: "companyLinkedinUrl", URL: in.CompanyLinkedinURL, Source: in.CompanyWebsite}}, nil
}

// TestResponsesMatchOpenAPI drives every operation to each of its documented success statuses, and to the
// usual errors, and checks each response body against the served document's schema for it.
func TestResponsesMatchOpenAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := apitest.StartWith(t, engine, apitest.Options{Enricher: draftEnricher{}})
		doc := loadDocument(t, env.Server.OpenAPI())
		env.Check = func(t testing.TB, req *http.Request, res *apitest.Response) { doc.check(t, req, res) }
		key := env.Key(t, env.OrgA)
		readOnly := env.Key(t, env.OrgA, radar.ScopeTrackerRead)

		id := create(t, env, key, "Northwind")
		run := env.SeedRun(t, env.OrgA, id)
		other := create(t, env, key, "Contoso")
		env.SeedRun(t, env.OrgA, other)
		idem := apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: apitest.CreateBody("Fabrikam"),
			Header: http.Header{"Idempotency-Key": {"fabrikam-0001"}}}
		wantStatus(t, env.Send(t, idem), http.StatusCreated)
		wantStatus(t, env.Send(t, idem), http.StatusOK)
		hook := env.Do(t, http.MethodPost, "/api/v1/webhooks", key, map[string]any{"url": "https://receiver.example/hook", "events": []string{"signal.created"}})
		wantStatus(t, hook, http.StatusCreated)
		hookPath := "/api/v1/webhooks/" + hook.Data()["id"].(string)

		calls := []struct {
			method, path string
			body         any
			status       int
		}{
			{http.MethodGet, "/api/v1/tracker", nil, 200},
			{http.MethodGet, "/api/v1/tracker?view=full&limit=1", nil, 200},
			{http.MethodGet, "/api/v1/tracker?classification=fintech", nil, 200},
			{http.MethodGet, "/api/v1/tracker/" + id, nil, 200},
			{http.MethodGet, "/api/v1/tracker/" + id + "?view=compact", nil, 200},
			{http.MethodPatch, "/api/v1/tracker/" + id, map[string]any{"tags": []string{"portfolio"}}, 200},
			{http.MethodPost, "/api/v1/tracker/" + id + "/refresh", nil, 202},
			{http.MethodPost, "/api/v1/tracker/" + id + "/refresh", nil, 409},
			{http.MethodPost, "/api/v1/tracker/enrich", map[string]any{"companyName": "Draft", "companyWebsite": "https://draft.example"}, 200},
			{http.MethodGet, "/api/v1/signals", nil, 200},
			{http.MethodGet, "/api/v1/signals?view=full&limit=1&entityQuery=northwind", nil, 200},
			{http.MethodGet, "/api/v1/signals/" + run.SignalID, nil, 200},
			{http.MethodGet, "/api/v1/alerts", nil, 200},
			{http.MethodGet, "/api/v1/alerts?latestPerEntity=true&view=full", nil, 200},
			{http.MethodGet, "/api/v1/alerts/" + run.AlertID, nil, 200},
			{http.MethodGet, "/api/v1/leads", nil, 200},
			{http.MethodGet, "/api/v1/leads?view=full&sourceQuery=northwind", nil, 200},
			{http.MethodGet, "/api/v1/leads/" + run.LeadID, nil, 200},
			{http.MethodPost, "/api/v1/leads/" + run.LeadID + "/track", map[string]any{"thingsToTrack": "funding", "alertEmails": []string{"a@fund.example"}}, 201},
			{http.MethodPost, "/api/v1/leads/" + run.LeadID + "/track", map[string]any{"thingsToTrack": "funding", "alertEmails": []string{"a@fund.example"}}, 200},
			{http.MethodPost, "/api/v1/leads/" + run.LeadID + "/decision", map[string]any{"accepted": false}, 200},
			{http.MethodGet, "/api/v1/webhooks", nil, 200},
			{http.MethodGet, hookPath, nil, 200},
			{http.MethodPatch, hookPath, map[string]any{"enabled": false}, 200},
			{http.MethodPost, hookPath + "/test", nil, 202},
			{http.MethodPost, hookPath + "/rotate-secret", nil, 200},
			{http.MethodGet, hookPath + "/deliveries", nil, 200},
			{http.MethodDelete, hookPath, nil, 204},
			{http.MethodGet, "/api/v1/signals?unseen=true", nil, 200},
			{http.MethodPost, "/api/v1/signals/mark-seen", map[string]any{"upTo": run.SignalID}, 200},
			{http.MethodGet, "/api/v1/alerts?unseen=true", nil, 200},
			{http.MethodPost, "/api/v1/tracker/" + id + "/rules/preview", map[string]any{"thingsToTrack": "Any funding round"}, 200},
			{http.MethodPost, "/api/v1/tracker/batch", map[string]any{"items": []any{apitest.CreateBody("Batchco"), map[string]any{}}}, 200},
			{http.MethodGet, "/api/v1/signals?entityQuery=zzzzqqq", nil, 404},
			{http.MethodGet, "/api/v1/tracker?limit=abc", nil, 400},
			{http.MethodPost, "/api/v1/tracker", "{", 400},
			{http.MethodGet, "/api/v1/tracker/" + radarUUID, nil, 404},
			{http.MethodDelete, "/api/v1/tracker/" + other, nil, 204},
			{http.MethodPut, "/api/v1/tracker/" + id, nil, 405},
			{http.MethodGet, "/api/v1/nowhere", nil, 404},
		}
		for _, c := range calls {
			if res := env.Do(t, c.method, c.path, key, c.body); res.Status != c.status {
				t.Errorf("%s %s: got %s, want %d", c.method, c.path, res, c.status)
			}
		}
		wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/openapi", "", nil), http.StatusOK)
		wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker", "", nil), 401, radar.EUnauthorized)
		wantError(t, env.Do(t, http.MethodPost, "/api/v1/tracker", readOnly, apitest.CreateBody("Scoped")), 403, radar.EInsufficientScope)

		for _, op := range doc.operations() {
			for _, code := range doc.successStatuses(op) {
				if !doc.checked(op + " " + code) {
					t.Errorf("%s %s: no response of this status was checked against the document", op, code)
				}
			}
		}
	})
}

// radarUUID is a well-formed id that no organisation has.
const radarUUID = "00000000-0000-7000-8000-000000000000"
