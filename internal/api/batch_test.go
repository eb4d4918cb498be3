package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func batchRequest(key, idem string, items ...any) apitest.Request {
	r := apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker/batch", Key: key, Body: map[string]any{"items": items}}
	if idem != "" {
		r.Header = http.Header{"Idempotency-Key": {idem}}
	}
	return r
}

func batchRows(t *testing.T, res *apitest.Response) []map[string]any {
	t.Helper()
	wantStatus(t, res, http.StatusOK)
	return res.Items()
}

func TestBatchCreate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		existing := create(t, env, key, "Northwind Labs")

		noName := apitest.CreateBody("Nameless")
		delete(noName, "companyName")
		badEmail := apitest.CreateBody("Bad Mail")
		badEmail["alertEmails"] = []any{"not-an-address"}
		items := []any{
			apitest.CreateBody("Contoso"),
			noName,
			apitest.CreateBody("Northwind Labs"),
			badEmail,
			"not an object",
			apitest.CreateBody("Fabrikam"),
		}
		rows := batchRows(t, env.Serve(t, batchRequest(key, "import-2026-11-25", items...)))
		if len(rows) != len(items) {
			t.Fatalf("%d rows, want %d", len(rows), len(items))
		}
		want := []string{"created", "error", "existing", "error", "error", "created"}
		for i, r := range rows {
			if dig(r, "index") != float64(i) || str(r, "status") != want[i] {
				t.Errorf("row %d = %v, want index %d status %s", i, r, i, want[i])
			}
			if want[i] == "error" {
				if str(r, "error.code") == "" || str(r, "error.message") == "" || dig(r, "error.details") == nil || r["entity"] != nil {
					t.Errorf("row %d: error %v, want code, message and details and no entity", i, r["error"])
				}
			} else if str(r, "entity.id") == "" {
				t.Errorf("row %d: no entity", i)
			}
		}
		if got := str(rows[1], "error.message"); got != "companyName: is required" {
			t.Errorf("missing name: %q, want the single create's message", got)
		}
		if str(rows[1], "error.code") != radar.EValidation || str(rows[3], "error.code") != radar.EValidation {
			t.Errorf("error codes %s, %s, want validation_error", str(rows[1], "error.code"), str(rows[3], "error.code"))
		}
		if str(rows[2], "entity.id") != existing {
			t.Errorf("existing row names %s, want %s", str(rows[2], "entity.id"), existing)
		}
		// Each created company is enriched, then run, as after a single create.
		if n := env.Count(t, "river_job", "kind = $1", "enrich"); n != 3 {
			t.Errorf("%d enrichment jobs, want 3 (one per created company)", n)
		}

		// The same batch with the same key replays each item's outcome; nothing new is created.
		entities := env.Count(t, "entities", "")
		again := batchRows(t, env.Serve(t, batchRequest(key, "import-2026-11-25", items...)))
		for i, r := range again {
			if str(r, "status") != want[i] || str(r, "entity.id") != str(rows[i], "entity.id") {
				t.Errorf("replayed row %d = %v, want %s %s", i, r, want[i], str(rows[i], "entity.id"))
			}
		}
		if got := env.Count(t, "entities", ""); got != entities {
			t.Errorf("a replay made %d entities, want %d", got, entities)
		}
		// A different item under the same key at the same index is refused for that item only.
		changed := batchRows(t, env.Serve(t, batchRequest(key, "import-2026-11-25", apitest.CreateBody("Globex"))))
		if str(changed[0], "error.code") != radar.EIdempotencyConflict {
			t.Errorf("different item under the same key: %v, want idempotency_conflict", changed[0])
		}

		// Whole-request errors.
		wantError(t, env.Serve(t, batchRequest(key, "")), http.StatusBadRequest, radar.EValidation)
		many := make([]any, 501)
		for i := range many {
			many[i] = apitest.CreateBody(fmt.Sprintf("Company %d", i))
		}
		res := env.Serve(t, batchRequest(key, "", many...))
		wantError(t, res, http.StatusBadRequest, radar.EValidation)
		if res.Err().Message != "items: must have 1-500 items, got 501" {
			t.Errorf("501 items: %q", res.Err().Message)
		}
		wantError(t, env.Serve(t, batchRequest(key, "short", apitest.CreateBody("Initech"))), http.StatusBadRequest, radar.EValidation)
		readOnly := env.Key(t, env.OrgA, radar.ScopeTrackerRead)
		wantError(t, env.Serve(t, batchRequest(readOnly, "", apitest.CreateBody("Initech"))), http.StatusForbidden, radar.EInsufficientScope)
	})
}
