package api_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// export asks for path as CSV and returns its records, header first.
func export(t *testing.T, env *apitest.Env, key, path string) [][]string {
	t.Helper()
	res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: key, Header: http.Header{"Accept": {"text/csv"}}})
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s as CSV: %s", path, res)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("GET %s: Content-Type %q, want text/csv", path, ct)
	}
	records, err := csv.NewReader(bytes.NewReader(res.Body)).ReadAll()
	if err != nil {
		t.Fatalf("GET %s: not RFC 4180 CSV: %v\n%s", path, err, res.Body)
	}
	return records
}

func column(records [][]string, name string) []string {
	i := slices.Index(records[0], name)
	var out []string
	for _, r := range records[1:] {
		out = append(out, r[i])
	}
	return out
}

func TestCSVExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		start := time.Now()
		var ids []string
		for i := range 130 {
			// A name with a comma, a quote and a line break must survive the round trip.
			name := "Company " + string(rune('A'+i%26)) + `, "Quoted"` + "\nLtd " + time.Duration(i).String()
			e := env.InsertEntity(t, env.OrgA, name, start.Add(time.Duration(i)*time.Millisecond))
			ids = append(ids, e.ID)
		}
		env.InsertEntity(t, env.OrgB, "Elsewhere", start)
		a := ids[len(ids)-1]
		var changed []string
		for range 3 {
			env.Clock.Advance(time.Second)
			changed = append([]string{env.SeedRun(t, env.OrgA, a).SignalID}, changed...)
			env.Clock.Advance(time.Second)
			env.SeedQuietRun(t, env.OrgA, a)
		}

		// Every row, past any limit and page size, newest first; a header row first.
		recs := export(t, env, key, "/api/v1/tracker?limit=5")
		if recs[0][0] != "id" || recs[0][1] != "companyName" {
			t.Errorf("header = %v", recs[0])
		}
		got := column(recs, "id")
		want := slices.Clone(ids)
		slices.Reverse(want)
		if !slices.Equal(got, want) {
			t.Errorf("exported %d companies, want all %d newest first", len(got), len(want))
		}
		if names := column(recs, "companyName"); !strings.Contains(names[0], "\"Quoted\"\nLtd") {
			t.Errorf("name did not survive: %q", names[0])
		}

		// Filters apply.
		if got := column(export(t, env, key, "/api/v1/signals?changed=true"), "id"); !slices.Equal(got, changed) {
			t.Errorf("changed signals = %v, want %v", got, changed)
		}
		if got := export(t, env, key, "/api/v1/alerts?outcome=sent"); len(got) != 4 || column(got, "outcome")[0] != radar.OutcomeSent {
			t.Errorf("sent alerts: %d rows, want header and 3", len(got))
		}
		if got := export(t, env, key, "/api/v1/leads"); len(got) != 2 {
			t.Errorf("leads: %d rows, want header and 1 (the same lead found by every run)", len(got))
		}
		if got := export(t, env, key, "/api/v1/signals?entityId=00000000-0000-4000-8000-000000000000"); len(got) != 1 {
			t.Errorf("no match: %d rows, want the header only", len(got))
		}

		// A bad filter fails as JSON, before any row.
		res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/signals?type=nope", Key: key, Header: http.Header{"Accept": {"text/csv"}}})
		wantError(t, res, http.StatusBadRequest, radar.EValidation)
		// Other routes answer JSON whatever Accept says; lists answer JSON by default.
		res = env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker/" + a, Key: key, Header: http.Header{"Accept": {"text/csv"}}})
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("read with Accept: text/csv: %d %s", res.Status, res.Header.Get("Content-Type"))
		}
		res = env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: key, Header: http.Header{"Accept": {"*/*"}}})
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("list with Accept */*: Content-Type %q, want JSON", res.Header.Get("Content-Type"))
		}
		// Scopes still apply.
		leadsOnly := env.Key(t, env.OrgA, radar.ScopeLeadsRead)
		res = env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/signals", Key: leadsOnly, Header: http.Header{"Accept": {"text/csv"}}})
		wantError(t, res, http.StatusForbidden, radar.EInsufficientScope)
	})
}

func TestCSVBodyIsRefused(t *testing.T) {
	env := start(t, "sqlite")
	key := env.Key(t, env.OrgA)
	res := env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key,
		Body: "companyName,companyWebsite\nA,https://a.example\n", Header: http.Header{"Content-Type": {"text/csv"}}})
	wantError(t, res, http.StatusUnsupportedMediaType, radar.EUnsupportedMediaType)
}
