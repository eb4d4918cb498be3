package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// walkQuery follows nextCursor through every page of path with the query q at limit 2, and returns the items.
func walkQuery(t *testing.T, env *apitest.Env, key, path string, q url.Values) []map[string]any {
	t.Helper()
	var items []map[string]any
	q.Set("limit", "2")
	for range 20 {
		res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path + "?" + q.Encode(), Key: key})
		wantStatus(t, res, http.StatusOK)
		items = append(items, res.Items()...)
		next := res.NextCursor()
		if next == "" {
			return items
		}
		q.Set("cursor", next)
	}
	t.Fatalf("%s?%s: more than 20 pages", path, q.Encode())
	return nil
}

func TestChangedFilter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		a := env.InsertEntity(t, env.OrgA, "Northwind Labs", time.Now())
		b := env.InsertEntity(t, env.OrgA, "Quietco", time.Now())
		other := env.InsertEntity(t, env.OrgB, "Elsewhere", time.Now())

		// Runs oldest first; the lists answer newest first.
		var changed, quiet []apitest.Run
		seed := func(r apitest.Run, found bool) {
			if found {
				changed = slices.Insert(changed, 0, r)
			} else {
				quiet = slices.Insert(quiet, 0, r)
			}
			env.Clock.Advance(time.Second)
		}
		seed(env.SeedRun(t, env.OrgA, a.ID), true)
		for range 3 {
			seed(env.SeedQuietRun(t, env.OrgA, a.ID), false)
			seed(env.SeedQuietRun(t, env.OrgA, b.ID), false)
		}
		seed(env.SeedFailedRun(t, env.OrgA, b.ID), true)
		seed(env.SeedQuietRun(t, env.OrgA, a.ID), false)
		seed(env.SeedRun(t, env.OrgA, a.ID), true)
		env.SeedRun(t, env.OrgB, other.ID)
		env.SeedQuietRun(t, env.OrgB, other.ID)

		signalIDs := func(runs []apitest.Run) []string {
			out := []string{}
			for _, r := range runs {
				out = append(out, r.SignalID)
			}
			return out
		}
		alertIDs := func(runs []apitest.Run) []string {
			out := []string{}
			for _, r := range runs {
				out = append(out, r.AlertID)
			}
			return out
		}
		for _, tc := range []struct {
			name, changed string
			want          []apitest.Run
		}{
			{"true", "true", changed},
			{"false", "false", quiet},
		} {
			t.Run("changed="+tc.name, func(t *testing.T) {
				q := url.Values{"changed": {tc.changed}}
				sigs := walkQuery(t, env, key, "/api/v1/signals", q)
				var got []string
				for _, s := range sigs {
					got = append(got, str(s, "id"))
					if quietType := str(s, "type") == "no_change"; quietType == (tc.changed == "true") {
						t.Errorf("signal %s of type %s listed with changed=%s", str(s, "id"), str(s, "type"), tc.changed)
					}
				}
				if want := signalIDs(tc.want); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("signals = %v, want %v", got, want)
				}
				got = nil
				for _, x := range walkQuery(t, env, key, "/api/v1/alerts", url.Values{"changed": {tc.changed}}) {
					got = append(got, str(x, "id"))
				}
				if want := alertIDs(tc.want); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("alerts = %v, want %v", got, want)
				}
			})
		}
		t.Run("absent", func(t *testing.T) {
			sigs := walkQuery(t, env, key, "/api/v1/signals", url.Values{})
			if len(sigs) != len(changed)+len(quiet) {
				t.Errorf("%d signals without the filter, want all %d", len(sigs), len(changed)+len(quiet))
			}
			alerts := walkQuery(t, env, key, "/api/v1/alerts", url.Values{})
			if len(alerts) != len(changed)+len(quiet) {
				t.Errorf("%d alerts without the filter, want all %d", len(alerts), len(changed)+len(quiet))
			}
		})
		t.Run("with other filters", func(t *testing.T) {
			sigs := walkQuery(t, env, key, "/api/v1/signals", url.Values{"changed": {"true"}, "entityId": {b.ID}})
			if len(sigs) != 1 || str(sigs[0], "type") != "other" || str(sigs[0], "id") != changed[1].SignalID {
				t.Errorf("Quietco's changed signals = %v, want its failed run only", sigs)
			}
			latest := walkQuery(t, env, key, "/api/v1/alerts", url.Values{"changed": {"true"}, "latestPerEntity": {"true"}})
			var got []string
			for _, x := range latest {
				got = append(got, str(x, "id"))
			}
			if want := []string{changed[0].AlertID, changed[1].AlertID}; strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("latest changed alert per company = %v, want %v", got, want)
			}
		})
		t.Run("invalid", func(t *testing.T) {
			for _, path := range []string{"/api/v1/signals?changed=yes", "/api/v1/alerts?changed=1", "/api/v1/signals?changed="} {
				res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path, Key: key})
				if path == "/api/v1/signals?changed=" {
					wantStatus(t, res, http.StatusOK)
					continue
				}
				wantError(t, res, http.StatusBadRequest, "validation_error")
				if !strings.Contains(res.Err().Message, "changed") {
					t.Errorf("%s: message %q does not name the parameter", path, res.Err().Message)
				}
			}
		})
	})
}
