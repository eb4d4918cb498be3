package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// endpoint is one operation of the API with a valid request for it.
type endpoint struct {
	name, method, path string
	body               any
	// scopes are the scopes the operation requires.
	scopes []string
	// byID reports that the operation addresses one resource by its id.
	byID bool
}

// fixture is an entity of OrgA with one finished run.
type fixture struct {
	entityID string
	apitest.Run
}

func seed(t *testing.T, env *apitest.Env, key, name string) fixture {
	t.Helper()
	id := create(t, env, key, name)
	return fixture{entityID: id, Run: env.SeedRun(t, env.OrgA, id)}
}

// endpoints lists every operation of the API, addressed at the fixture's resources.
func endpoints(f fixture) []endpoint {
	r, w := []string{radar.ScopeTrackerRead}, []string{radar.ScopeTrackerWrite}
	lr, lw := []string{radar.ScopeLeadsRead}, []string{radar.ScopeLeadsWrite}
	track := map[string]any{"thingsToTrack": "funding", "alertEmails": []string{"a@fund.example"}}
	return []endpoint{
		{"create", http.MethodPost, "/api/v1/tracker", apitest.CreateBody("Scoped"), w, false},
		{"list entities", http.MethodGet, "/api/v1/tracker", nil, r, false},
		{"get entity", http.MethodGet, "/api/v1/tracker/" + f.entityID, nil, r, true},
		{"patch entity", http.MethodPatch, "/api/v1/tracker/" + f.entityID, map[string]any{"tags": []string{"x"}, "status": "paused"}, w, true},
		{"refresh entity", http.MethodPost, "/api/v1/tracker/" + f.entityID + "/refresh", nil, w, true},
		{"delete entity", http.MethodDelete, "/api/v1/tracker/" + f.entityID, nil, w, true},
		{"enrich draft", http.MethodPost, "/api/v1/tracker/enrich", map[string]any{"companyName": "D", "companyWebsite": "https://d.example"}, w, false},
		{"list signals", http.MethodGet, "/api/v1/signals", nil, r, false},
		{"get signal", http.MethodGet, "/api/v1/signals/" + f.SignalID, nil, r, true},
		{"list alerts", http.MethodGet, "/api/v1/alerts", nil, r, false},
		{"get alert", http.MethodGet, "/api/v1/alerts/" + f.AlertID, nil, r, true},
		{"list leads", http.MethodGet, "/api/v1/leads", nil, lr, false},
		{"get lead", http.MethodGet, "/api/v1/leads/" + f.LeadID, nil, lr, true},
		{"track lead", http.MethodPost, "/api/v1/leads/" + f.LeadID + "/track", track, []string{radar.ScopeLeadsWrite, radar.ScopeTrackerWrite}, true},
		{"decide lead", http.MethodPost, "/api/v1/leads/" + f.LeadID + "/decision", map[string]any{"accepted": true}, lw, true},
	}
}

func TestOtherOrganisationSeesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		keyA, keyB := env.Key(t, env.OrgA), env.Key(t, env.OrgB)
		f := seed(t, env, keyA, "Northwind")
		before := env.Do(t, http.MethodGet, "/api/v1/tracker/"+f.entityID, keyA, nil)
		wantStatus(t, before, http.StatusOK)

		for _, ep := range endpoints(f) {
			if !ep.byID {
				continue
			}
			t.Run(ep.name, func(t *testing.T) {
				res := env.Do(t, ep.method, ep.path, keyB, ep.body)
				wantError(t, res, http.StatusNotFound, radar.ENotFound)
			})
		}

		lists := map[string]string{
			"entities":             "/api/v1/tracker",
			"signals":              "/api/v1/signals",
			"signals of entity":    "/api/v1/signals?entityId=" + f.entityID,
			"alerts":               "/api/v1/alerts",
			"alerts of entity":     "/api/v1/alerts?entityId=" + f.entityID,
			"leads":                "/api/v1/leads",
			"leads of source":      "/api/v1/leads?sourceEntityId=" + f.entityID,
			"entities of a sector": "/api/v1/tracker?classification=software",
		}
		for name, path := range lists {
			t.Run("list "+name, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, path, keyB, nil)
				wantStatus(t, res, http.StatusOK)
				if items := res.Items(); len(items) != 0 {
					t.Errorf("organisation B sees %d items of A: %s", len(items), res.Body)
				}
			})
		}
		wantError(t, env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery=Northwind", keyB, nil), http.StatusNotFound, radar.EEntityNotFound)
		wantError(t, env.Do(t, http.MethodGet, "/api/v1/leads?sourceQuery=Northwind", keyB, nil), http.StatusNotFound, radar.ESourceNotFound)

		after := env.Do(t, http.MethodGet, "/api/v1/tracker/"+f.entityID, keyA, nil)
		wantStatus(t, after, http.StatusOK)
		if string(after.Body) != string(before.Body) {
			t.Errorf("organisation B's requests changed A's entity:\nbefore %s\nafter  %s", before.Body, after.Body)
		}
		for _, path := range []string{"/api/v1/signals/" + f.SignalID, "/api/v1/alerts/" + f.AlertID} {
			wantStatus(t, env.Do(t, http.MethodGet, path, keyA, nil), http.StatusOK)
		}
		lead := env.Do(t, http.MethodGet, "/api/v1/leads/"+f.LeadID, keyA, nil)
		if got := str(lead.Data(), "decision.status"); got != radar.DecisionUnreviewed {
			t.Errorf("lead decision after B's requests = %q, want unreviewed", got)
		}
	})
}

func TestUnauthorized(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		f := seed(t, env, key, "Northwind")
		other := env.Key(t, env.OrgA)
		revoked := env.Key(t, env.OrgA)
		env.Revoke(t, revoked)
		expired := env.KeyExpiring(t, env.OrgA, time.Hour)
		env.Clock.Advance(2 * time.Hour)

		id, secret := apitest.KeyID(key), key[len("rdr_")+len(apitest.KeyID(key))+1:]
		otherSecret := other[len("rdr_")+len(apitest.KeyID(other))+1:]
		flipped := []byte(key)
		flipped[len(flipped)-1] ^= 1
		headers := map[string]string{
			"missing":                 "",
			"other scheme":            "Basic " + key,
			"no token":                "Bearer",
			"empty token":             "Bearer ",
			"not a key":               "Bearer not-a-key",
			"bad check characters":    "Bearer " + string(flipped),
			"unknown key id":          "Bearer rdr_aaaaaaaaaaaa_" + secret,
			"secret of another key":   "Bearer rdr_" + id + "_" + otherSecret,
			"revoked":                 "Bearer " + revoked,
			"expired":                 "Bearer " + expired,
			"key without bearer word": key,
		}
		for name, h := range headers {
			t.Run(name, func(t *testing.T) {
				for _, ep := range endpoints(f) {
					req := apitest.Request{Method: ep.method, Path: ep.path, Body: ep.body}
					if h != "" {
						req.Header = http.Header{"Authorization": {h}}
					}
					res := env.Send(t, req)
					if res.Status != http.StatusUnauthorized || res.Code() != radar.EUnauthorized {
						t.Errorf("%s: got %s, want 401 unauthorized", ep.name, res)
						continue
					}
					if wa := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(wa, "Bearer") {
						t.Errorf("%s: WWW-Authenticate = %q, want a Bearer challenge", ep.name, wa)
					}
					if res.Err().Message == "" {
						t.Errorf("%s: 401 without a message", ep.name)
					}
				}
			})
		}
		t.Run("scheme in any case", func(t *testing.T) {
			res := env.Send(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Header: http.Header{"Authorization": {"bearer " + key}}})
			wantStatus(t, res, http.StatusOK)
		})
		t.Run("revocation takes effect at once", func(t *testing.T) {
			k := env.Key(t, env.OrgA)
			wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/tracker", k, nil), http.StatusOK)
			env.Revoke(t, k)
			wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker", k, nil), http.StatusUnauthorized, radar.EUnauthorized)
		})
	})
}

func TestInsufficientScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		f := seed(t, env, env.Key(t, env.OrgA), "Northwind")
		for _, ep := range endpoints(f) {
			// Keys holding every scope but one of those the operation requires.
			for _, missing := range ep.scopes {
				granted := slices.DeleteFunc(slices.Clone(radar.Scopes), func(s string) bool { return s == missing })
				t.Run(ep.name+" without "+missing, func(t *testing.T) {
					key := env.Key(t, env.OrgA, granted...)
					res := env.Do(t, ep.method, ep.path, key, ep.body)
					wantError(t, res, http.StatusForbidden, radar.EInsufficientScope)
					e := res.Err()
					if e == nil {
						return
					}
					if got := strs(e.Details["required"]); !sameSet(got, ep.scopes) {
						t.Errorf("details.required = %v, want %v", got, ep.scopes)
					}
					if got := strs(e.Details["granted"]); !sameSet(got, granted) {
						t.Errorf("details.granted = %v, want %v", got, granted)
					}
					if !strings.Contains(e.Message, missing) {
						t.Errorf("message %q does not name the missing scope %s", e.Message, missing)
					}
				})
			}
		}
	})
}

func strs(v any) []string {
	var out []string
	for _, x := range list(v) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}

// A key's use is recorded on its first request, then at most once a minute however many requests it makes.
func TestKeyUseIsRecordedOncePerMinute(t *testing.T) {
	env := start(t, sqldb.SQLite)
	key := env.Key(t, env.OrgA)
	lastUsed := func() *radar.Time {
		t.Helper()
		keys, err := env.DB.APIKeys(context.Background(), env.OrgA.ID)
		if err != nil || len(keys) != 1 {
			t.Fatalf("keys: %v, %v", keys, err)
		}
		return keys[0].LastUsedAt
	}
	if lastUsed() != nil {
		t.Fatalf("an unused key has a last use")
	}
	read := func() {
		t.Helper()
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: key}); res.Status != http.StatusOK {
					t.Errorf("read: %s", res)
				}
			})
		}
		wg.Wait()
	}
	before := radar.NewTime(env.Clock.Now()).Micros()
	read()
	first := lastUsed()
	if first == nil || first.Micros() < before || first.Micros() > radar.NewTime(env.Clock.Now()).Micros() {
		t.Fatalf("last use after the first requests: %v, want the time of one of them", first)
	}
	env.Clock.Advance(30 * time.Second)
	read()
	if got := lastUsed(); got.Micros() != first.Micros() {
		t.Errorf("last use recorded again within a minute: %v, was %v", got, first)
	}
	env.Clock.Advance(31 * time.Second)
	read()
	if got := lastUsed(); got.Micros() < first.Micros()+time.Minute.Microseconds() {
		t.Errorf("last use a minute later: %v, first %v", got, first)
	}
}
