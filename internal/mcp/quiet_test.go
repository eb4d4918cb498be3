package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb/storetest"
)

// seedQuietRun writes a finished tracker run of an entity that found nothing: a no_change signal and a no_match
// alert.
func (e *testEnv) seedQuietRun(t testing.TB, orgID, entityID, company string, at time.Time) (signalID, alertID string) {
	t.Helper()
	now := radar.NewTime(at)
	runID, signalID, alertID := uuid.NewString(), uuid.NewString(), uuid.NewString()
	_, err := e.db.FinishRun(context.Background(), &radar.RunReport{
		OrgID: orgID, EntityID: entityID, RunID: runID,
		Signal: &radar.Signal{
			ID: signalID, EntityID: entityID, CompanyName: company, RunID: runID, Type: radar.TypeNoChange,
			Severity: "low", Recommendation: "no_action", Summary: "Nothing new.", Evidence: []radar.Evidence{},
			Analyser: "builtin", CreatedAt: now,
		},
		Alert: &radar.Alert{
			ID: alertID, EntityID: entityID, CompanyName: company, SignalID: signalID, Outcome: radar.OutcomeNoMatch,
			Reason: "no rule matched: nothing new this run", Recipients: []string{"partner@example.com"}, CreatedAt: now,
		},
		HealthReason: "ok", FinishedAt: now,
	})
	if err != nil {
		t.Fatalf("seed quiet run: %v", err)
	}
	return signalID, alertID
}

func TestListToolsTakeTheChangedFilter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		key := e.key(t, org, radar.Scopes...)
		cs := e.connect(t, key, Path)
		id := str(ok(t, cs, "add_company", companyArgs("Northwind Labs", "northwind.example")).data()["id"])

		signalID, alertID, _ := e.seedRun(t, org.ID, id, "Northwind Labs", "Grace Hopper")
		var quietSignals, quietAlerts []string
		for i := range 3 {
			s, a := e.seedQuietRun(t, org.ID, id, "Northwind Labs", time.Now().Add(time.Duration(i+1)*time.Second))
			quietSignals, quietAlerts = append([]string{s}, quietSignals...), append([]string{a}, quietAlerts...)
		}
		ids := func(r result) []string {
			var out []string
			for _, it := range r.items() {
				out = append(out, str(it["id"]))
			}
			return out
		}
		for _, tc := range []struct {
			tool    string
			args    map[string]any
			want    []string
			restURL string
		}{
			{"list_signals", map[string]any{"changed": true}, []string{signalID}, "/api/v1/signals?changed=true"},
			{"list_signals", map[string]any{"changed": false, "limit": 2}, quietSignals[:2], "/api/v1/signals?changed=false&limit=2"},
			{"list_signals", map[string]any{}, append(quietSignals, signalID), "/api/v1/signals"},
			{"list_alerts", map[string]any{"changed": true}, []string{alertID}, "/api/v1/alerts?changed=true"},
			{"list_alerts", map[string]any{"changed": false}, quietAlerts, "/api/v1/alerts?changed=false"},
		} {
			got := ok(t, cs, tc.tool, tc.args)
			if !jsonEqual(ids(got), tc.want) {
				t.Errorf("%s(%v) = %v, want %v", tc.tool, tc.args, ids(got), tc.want)
			}
			if want := e.rest(t, key, tc.restURL); !jsonEqual(got.body, want) {
				t.Errorf("%s(%v) differs from GET %s:\n got %s\nwant %v", tc.tool, tc.args, tc.restURL, got.text, want)
			}
		}
		next := ok(t, cs, "list_signals", map[string]any{"changed": false, "limit": 2})
		rest := ok(t, cs, "list_signals", map[string]any{"changed": false, "limit": 2, "cursor": next.body["nextCursor"]})
		if !jsonEqual(ids(rest), quietSignals[2:]) || rest.body["nextCursor"] != nil {
			t.Errorf("second page of quiet signals = %s, want %v and no next page", rest.text, quietSignals[2:])
		}
		fails(t, cs, "list_alerts", map[string]any{"changed": "yes"}, radar.EValidation)
	})
}

// TestListToolCursorsBelongToTheirQuery checks that a list tool's cursor pages only the query that made it:
// other filters, another list tool or another organisation's key get invalid_cursor, as on the REST API.
func TestListToolCursorsBelongToTheirQuery(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		acme, other := e.org(t, "acme"), e.org(t, "other")
		cs := e.connect(t, e.key(t, acme, radar.Scopes...), Path)
		ocs := e.connect(t, e.key(t, other, radar.Scopes...), Path)
		for i, name := range []string{"Northwind Labs", "Contoso Robotics", "Fabrikam Foods"} {
			domain := []string{"northwind.example", "contoso.example", "fabrikam.example"}[i]
			id := str(ok(t, cs, "add_company", companyArgs(name, domain)).data()["id"])
			e.seedRun(t, acme.ID, id, name, "Person "+name)
			oid := str(ok(t, ocs, "add_company", companyArgs(name, domain)).data()["id"])
			e.seedRun(t, other.ID, oid, name, "Person "+name)
		}
		tools := []struct {
			tool          string
			filter, other map[string]any
		}{
			{"list_companies", map[string]any{"status": "ok"}, map[string]any{"status": "paused"}},
			{"list_signals", map[string]any{"changed": true}, map[string]any{"changed": false}},
			{"list_alerts", map[string]any{"outcome": "sent"}, map[string]any{"outcome": "failed"}},
			{"list_leads", map[string]any{"decision": "unreviewed"}, map[string]any{"decision": "accepted"}},
		}
		with := func(m map[string]any, cursor any) map[string]any {
			out := map[string]any{"limit": 1}
			if cursor != nil {
				out["cursor"] = cursor
			}
			for k, v := range m {
				out[k] = v
			}
			return out
		}
		for _, tc := range tools {
			t.Run(tc.tool, func(t *testing.T) {
				first := ok(t, cs, tc.tool, with(tc.filter, nil))
				cursor := first.body["nextCursor"]
				if cursor == nil {
					t.Fatalf("%s: no nextCursor: %s", tc.tool, first.text)
				}
				if next := ok(t, cs, tc.tool, with(tc.filter, cursor)); len(next.items()) != 1 {
					t.Errorf("the same query's next page has %d items, want 1", len(next.items()))
				}
				fails(t, cs, tc.tool, with(tc.other, cursor), radar.EInvalidCursor)
				fails(t, cs, tc.tool, with(nil, cursor), radar.EInvalidCursor)
				fails(t, ocs, tc.tool, with(tc.filter, cursor), radar.EInvalidCursor)
				for _, o := range tools {
					if o.tool != tc.tool {
						fails(t, cs, o.tool, with(o.filter, cursor), radar.EInvalidCursor)
					}
				}
			})
		}
	})
}
