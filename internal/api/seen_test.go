package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func itemIDs(items []map[string]any) []string {
	out := []string{}
	for _, x := range items {
		out = append(out, str(x, "id"))
	}
	return out
}

func TestUnseenAndMarkSeen(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		other := env.Key(t, env.OrgA)
		a := env.InsertEntity(t, env.OrgA, "Northwind Labs", time.Now())
		var runs []apitest.Run
		for range 4 {
			env.Clock.Advance(time.Second)
			runs = append(runs, env.SeedRun(t, env.OrgA, a.ID))
		}
		unseen := func(key, path string) []string {
			t.Helper()
			return itemIDs(walkQuery(t, env, key, path, url.Values{"unseen": {"true"}}))
		}
		if got := unseen(key, "/api/v1/signals"); len(got) != 4 {
			t.Fatalf("unseen before any mark = %v, want all 4 signals", got)
		}

		// Mark up to the second run: the two later ones stay unseen, for this key only.
		res := env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: key,
			Body: map[string]any{"upTo": runs[1].SignalID}})
		wantStatus(t, res, http.StatusOK)
		sig := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/signals/" + runs[1].SignalID, Key: key}).Data()
		if got := str(res.Data(), "seenThrough"); got != str(sig, "createdAt") {
			t.Errorf("seenThrough = %q, want the signal's createdAt %q", got, str(sig, "createdAt"))
		}
		want := []string{runs[3].SignalID, runs[2].SignalID}
		if got := unseen(key, "/api/v1/signals"); !slices.Equal(got, want) {
			t.Errorf("unseen signals = %v, want %v", got, want)
		}
		if got, want := unseen(key, "/api/v1/alerts"), []string{runs[3].AlertID, runs[2].AlertID}; !slices.Equal(got, want) {
			t.Errorf("unseen alerts = %v, want %v", got, want)
		}
		if got := unseen(other, "/api/v1/signals"); len(got) != 4 {
			t.Errorf("another key's unseen signals = %v, want all 4: positions are per key", got)
		}
		if got := itemIDs(walkQuery(t, env, key, "/api/v1/signals", url.Values{})); len(got) != 4 {
			t.Errorf("without unseen: %d signals, want 4", len(got))
		}

		// An earlier position does not move it back.
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: key,
			Body: map[string]any{"upTo": runs[0].SignalID}})
		wantStatus(t, res, http.StatusOK)
		if got := str(res.Data(), "seenThrough"); got != str(sig, "createdAt") {
			t.Errorf("after an earlier mark seenThrough = %q, want it kept at %q", got, str(sig, "createdAt"))
		}
		if got := unseen(key, "/api/v1/signals"); !slices.Equal(got, want) {
			t.Errorf("unseen after an earlier mark = %v, want %v", got, want)
		}

		// before: everything created before the instant is seen; a future instant stops at now.
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: key,
			Body: map[string]any{"before": env.Clock.Now().Add(time.Hour).Format(time.RFC3339Nano)}})
		wantStatus(t, res, http.StatusOK)
		if got := unseen(key, "/api/v1/signals"); len(got) != 0 {
			t.Errorf("unseen after marking all = %v, want none", got)
		}
		env.Clock.Advance(time.Second)
		next := env.SeedRun(t, env.OrgA, a.ID)
		if got := unseen(key, "/api/v1/signals"); !slices.Equal(got, []string{next.SignalID}) {
			t.Errorf("unseen after a new run = %v, want only %s", got, next.SignalID)
		}

		for _, tc := range []struct {
			name string
			body any
			code string
		}{
			{"neither", map[string]any{}, radar.EValidation},
			{"both", map[string]any{"upTo": runs[0].SignalID, "before": "2026-01-01T00:00:00Z"}, radar.EValidation},
			{"not a uuid", map[string]any{"upTo": "nope"}, radar.EValidation},
			{"unknown signal", map[string]any{"upTo": "00000000-0000-4000-8000-000000000000"}, radar.EValidation},
		} {
			res := env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: key, Body: tc.body})
			if res.Code() != tc.code {
				t.Errorf("%s: %s, want %s", tc.name, res, tc.code)
			}
		}
		// Another organisation's signal is unknown here.
		b := env.InsertEntity(t, env.OrgB, "Elsewhere", time.Now())
		foreign := env.SeedRun(t, env.OrgB, b.ID)
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: key,
			Body: map[string]any{"upTo": foreign.SignalID}})
		wantError(t, res, http.StatusBadRequest, radar.EValidation)
		// The scope is tracker:read.
		leadsOnly := env.Key(t, env.OrgA, radar.ScopeLeadsRead)
		res = env.Serve(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/signals/mark-seen", Key: leadsOnly,
			Body: map[string]any{"upTo": runs[0].SignalID}})
		wantError(t, res, http.StatusForbidden, radar.EInsufficientScope)
	})
}
