package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"radar/internal/api"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"radar"
	"radar/internal/apitest"
	"radar/internal/ratelimit"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// rest reads a REST resource with key and returns its JSON body.
func (e *testEnv) rest(t *testing.T, key, path string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, decode error %v", path, res.StatusCode, err)
	}
	return body
}

func str(v any) string { s, _ := v.(string); return s }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func TestToolsHappyPath(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		key := e.key(t, org, radar.Scopes...)
		cs := e.connect(t, key, Path)

		who := ok(t, cs, "whoami", nil)
		if o := obj(who.body["organisation"]); str(o["id"]) != org.ID || str(o["slug"]) != "acme" || str(o["name"]) != "Org acme" {
			t.Errorf("whoami organisation = %v, want %s acme", o, org.ID)
		}
		if k := obj(who.body["key"]); str(k["name"]) != "agent" || !strings.HasPrefix(key, "rdr_"+str(k["id"])+"_") {
			t.Errorf("whoami key = %v, want the key's id and name", k)
		}
		if got := who.body["scopes"].([]any); len(got) != len(radar.Scopes) {
			t.Errorf("whoami scopes = %v, want %v", got, radar.Scopes)
		}
		limits := map[string]map[string]any{}
		for _, l := range who.body["rateLimits"].([]any) {
			limits[str(obj(l)["bucket"])] = obj(l)
		}
		if r := limits[ratelimit.Read]; r["limit"] != 600.0 || r["windowSeconds"] != 60.0 || r["remaining"] != 599.0 {
			t.Errorf("whoami read budget = %v, want 599 of 600 per 60 s left after whoami itself", r)
		}
		if len(limits) != len(ratelimit.Defaults()) {
			t.Errorf("whoami lists buckets %v, want all %d", limits, len(ratelimit.Defaults()))
		}

		add := ok(t, cs, "add_company", companyArgs("Northwind Labs", "northwind.example"))
		id := str(add.data()["id"])
		op := obj(add.body["operation"])
		if !isUUID(id) || str(op["entityId"]) != id || str(op["pollUrl"]) != "http://radar.test/api/v1/tracker/"+id ||
			op["enrichmentComplete"] != false || add.body["idempotencyReplayed"] != false || add.body["existingEntity"] != false {
			t.Fatalf("add_company = %s, want a new entity with its operation", add.text)
		}

		get := ok(t, cs, "get_company", map[string]any{"id": id})
		if get.data()["policy"] == nil || obj(get.body["operation"])["entityId"] != id {
			t.Errorf("get_company = %s, want the full view with the operation", get.text)
		}
		if want := e.rest(t, key, "/api/v1/tracker/"+id); !jsonEqual(get.body, want) {
			t.Errorf("get_company differs from GET /api/v1/tracker/{id}:\n got %s\nwant %v", get.text, want)
		}
		list := ok(t, cs, "list_companies", map[string]any{"status": "ok"})
		if items := list.items(); len(items) != 1 || items[0]["id"] != id || items[0]["policy"] != nil || list.body["nextCursor"] != nil {
			t.Errorf("list_companies = %s, want the compact company and no next page", list.text)
		}
		if full := ok(t, cs, "list_companies", map[string]any{"view": "full"}); full.items()[0]["policy"] == nil {
			t.Errorf("list_companies view full = %s, want the policy", full.text)
		}

		upd := ok(t, cs, "update_company", map[string]any{"id": id, "tags": []any{"ai"}, "status": "paused"})
		if upd.data()["status"] != "paused" || !jsonEqual(upd.data()["tags"], []any{"ai"}) {
			t.Errorf("update_company = %s, want paused with tag ai", upd.text)
		}
		paused := fails(t, cs, "refresh_company", map[string]any{"id": id}, radar.EEntityPaused)
		if !strings.Contains(paused.errMessage(), "ok") {
			t.Errorf("entity_paused message %q does not say how to resume", paused.errMessage())
		}
		ok(t, cs, "update_company", map[string]any{"id": id, "status": "ok"})
		ref := ok(t, cs, "refresh_company", map[string]any{"id": id})
		if v, has := ref.body["baselineLastScrapedAt"]; !has || v != nil || ref.data()["id"] != id || ref.body["operation"] == nil {
			t.Errorf("refresh_company = %s, want the entity, its operation and a null baseline", ref.text)
		}
		fails(t, cs, "refresh_company", map[string]any{"id": id}, radar.ERefreshInProgress)

		signalID, alertID, leadID := e.seedRun(t, org.ID, id, "Northwind Labs", "Grace Hopper")
		sigs := ok(t, cs, "list_signals", map[string]any{"entityQuery": "northwind", "needsAttention": true, "type": "funding"})
		if items := sigs.items(); len(items) != 1 || items[0]["id"] != signalID || len(items[0]["evidence"].([]any)) != 3 || items[0]["analysis"] != nil {
			t.Errorf("list_signals = %s, want the compact signal", sigs.text)
		}
		if res := obj(sigs.body["entityResolution"]); obj(res["entity"])["id"] != id || res["query"] != "northwind" {
			t.Errorf("list_signals entityResolution = %v, want the company", res)
		}
		if want := e.rest(t, key, "/api/v1/signals?entityQuery=northwind&needsAttention=true&type=funding"); !jsonEqual(sigs.body, want) {
			t.Errorf("list_signals differs from GET /api/v1/signals:\n got %s\nwant %v", sigs.text, want)
		}
		if full := ok(t, cs, "list_signals", map[string]any{"entityId": id, "view": "full"}); len(full.items()[0]["evidence"].([]any)) != 4 {
			t.Errorf("list_signals view full = %s, want every evidence link", full.text)
		}
		if sig := ok(t, cs, "get_signal", map[string]any{"id": signalID}); sig.data()["analysis"] == nil || len(sig.data()["evidence"].([]any)) != 4 {
			t.Errorf("get_signal = %s, want the full view", sig.text)
		}
		alerts := ok(t, cs, "list_alerts", map[string]any{"entityId": id, "outcome": "sent", "latestPerEntity": true})
		if items := alerts.items(); len(items) != 1 || items[0]["id"] != alertID || items[0]["ruleEvaluations"] != nil {
			t.Errorf("list_alerts = %s, want the compact alert", alerts.text)
		}
		if alert := ok(t, cs, "get_alert", map[string]any{"id": alertID}); len(alert.data()["ruleEvaluations"].([]any)) != 1 {
			t.Errorf("get_alert = %s, want the rule evaluations", alert.text)
		}
		leads := ok(t, cs, "list_leads", map[string]any{"sourceQuery": "Northwind", "decision": "unreviewed", "stage": "pre_seed_seed"})
		if items := leads.items(); len(items) != 1 || items[0]["id"] != leadID || obj(obj(leads.body["sourceResolution"])["entity"])["id"] != id {
			t.Errorf("list_leads = %s, want the lead and the source resolution", leads.text)
		}
		if lead := ok(t, cs, "get_lead", map[string]any{"id": leadID}); lead.data()["personName"] != "Grace Hopper" {
			t.Errorf("get_lead = %s, want Grace Hopper", lead.text)
		}
		if d := ok(t, cs, "decide_lead", map[string]any{"id": leadID, "accepted": false}); obj(d.data()["decision"])["status"] != radar.DecisionRejected {
			t.Errorf("decide_lead = %s, want rejected", d.text)
		}

		_, _, lead2 := e.seedRun(t, org.ID, id, "Northwind Labs", "Alan Turing")
		trackArgs := map[string]any{"id": lead2, "thingsToTrack": "Funding rounds", "alertEmails": []any{"partner@example.com"}, "cadenceDays": 30}
		tracked := ok(t, cs, "track_lead", trackArgs)
		newID := str(tracked.data()["id"])
		if !isUUID(newID) || newID == id || obj(tracked.body["operation"])["entityId"] != newID || tracked.data()["cadenceDays"] != 30.0 {
			t.Fatalf("track_lead = %s, want a new tracked company with its operation", tracked.text)
		}
		if again := ok(t, cs, "track_lead", trackArgs); again.data()["id"] != newID || again.body["existingEntity"] != true {
			t.Errorf("track_lead again = %s, want the same company with existingEntity", again.text)
		}
		if d := obj(ok(t, cs, "get_lead", map[string]any{"id": lead2}).data()["decision"]); d["status"] != radar.DecisionAccepted || d["trackedEntityId"] != newID {
			t.Errorf("lead decision after track_lead = %v, want accepted with trackedEntityId %s", d, newID)
		}

		rm := ok(t, cs, "remove_company", map[string]any{"id": id})
		if !jsonEqual(rm.body, map[string]any{"id": id, "removed": true}) {
			t.Errorf("remove_company = %s", rm.text)
		}
		fails(t, cs, "get_company", map[string]any{"id": id}, radar.ENotFound)
	})
}

func TestAddCompanyReplaysWithoutKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		cs := e.connect(t, e.key(t, e.org(t, "acme"), radar.ScopeTrackerWrite), Path)
		args := companyArgs("Helios Data", "helios.example")

		first := ok(t, cs, "add_company", args)
		id := first.data()["id"]
		second := ok(t, cs, "add_company", args)
		if second.data()["id"] != id || second.body["idempotencyReplayed"] != true || second.body["existingEntity"] != false {
			t.Errorf("identical retry = %s, want the first entity replayed", second.text)
		}

		changed := companyArgs("Helios Data", "helios.example")
		changed["thingsToTrack"] = "Only acquisitions."
		third := ok(t, cs, "add_company", changed)
		if third.data()["id"] != id || third.body["idempotencyReplayed"] != false || third.body["existingEntity"] != true {
			t.Errorf("changed arguments = %s, want the tracked company updated, not a replay", third.text)
		}

		ok(t, cs, "remove_company", map[string]any{"id": id})
		again := ok(t, cs, "add_company", args)
		if again.data()["id"] == id || again.body["idempotencyReplayed"] != false {
			t.Errorf("add after remove = %s, want a new entity", again.text)
		}

		keyed := companyArgs("Lumen", "lumen.example")
		keyed["idempotencyKey"] = "agent-retry-0001"
		k1 := ok(t, cs, "add_company", keyed)
		if k2 := ok(t, cs, "add_company", keyed); k2.data()["id"] != k1.data()["id"] || k2.body["idempotencyReplayed"] != true {
			t.Errorf("retry with idempotencyKey = %s, want a replay", k2.text)
		}
		keyed["companyName"] = "Lumen Two"
		fails(t, cs, "add_company", keyed, radar.EIdempotencyConflict)
		keyed["idempotencyKey"] = "short"
		fails(t, cs, "add_company", keyed, radar.EValidation)
	})
}

func TestDerivedKeyIsCanonical(t *testing.T) {
	var a, b addCompanyArgs
	json.Unmarshal([]byte(`{"companyName":"A","companyWebsite":"https://a.example","founders":[{"name":"X"}],"confirmed":true}`), &a)
	json.Unmarshal([]byte(`{"confirmed":true, "founders":[{"name":"X"}], "companyWebsite":"https://a.example", "companyName":"A"}`), &b)
	ka, kb := derivedKey(a), derivedKey(b)
	if ka != kb {
		t.Errorf("argument order changes the derived key: %s != %s", ka, kb)
	}
	b.CompanyName = "B"
	if derivedKey(b) == ka {
		t.Errorf("different arguments derive the same key %s", ka)
	}
	if n := len(ka); n < 8 || n > 200 || strings.ContainsFunc(ka, func(r rune) bool { return r <= ' ' || r > '~' }) {
		t.Errorf("derived key %q breaks the 8-200 printable ASCII rule", ka)
	}
}

func TestToolErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		cs := e.connect(t, e.key(t, org, radar.Scopes...), Path)
		reader := e.connect(t, e.key(t, org, radar.ScopeTrackerRead), Path)
		ga := str(ok(t, cs, "add_company", companyArgs("Greenfield Analytics", "greenfield-analytics.example")).data()["id"])
		gr := str(ok(t, cs, "add_company", companyArgs("Greenfield Robotics", "greenfield-robotics.example")).data()["id"])

		tests := map[string]struct {
			cs      *mcp.ClientSession
			tool    string
			args    map[string]any
			code    string
			message []string
		}{
			"scope missing": {reader, "add_company", companyArgs("Acme", "acme.example"), radar.EInsufficientScope, []string{`"tracker:write"`}},
			"scope missing on a tool the key does not see": {reader, "remove_company", map[string]any{"id": ga}, radar.EInsufficientScope, nil},
			"unknown id":   {cs, "get_company", map[string]any{"id": uuid.NewString()}, radar.ENotFound, nil},
			"malformed id": {cs, "get_signal", map[string]any{"id": "abc"}, radar.EValidation, []string{`id: must be a UUID, got "abc"`}},
			"missing id":   {cs, "get_lead", nil, radar.EValidation, []string{"id: is required"}},
			"argument types": {cs, "list_companies", map[string]any{"limit": "ten", "view": 3, "bogus": true}, radar.EValidation,
				[]string{"bogus: is not a known field", "limit: must be an integer", "view: must be a string"}},
			"limit below one":                      {cs, "list_alerts", map[string]any{"limit": 0}, radar.EValidation, []string{"limit: must be at least 1"}},
			"nested argument types":                {cs, "add_company", map[string]any{"founders": []any{map[string]any{"name": 5}}, "alertEmails": "a@example.com"}, radar.EValidation, []string{"founders[0].name: must be a string", "alertEmails: must be an array"}},
			"argument of a tool without arguments": {cs, "whoami", map[string]any{"x": 1}, radar.EValidation, []string{"x: is not a known field"}},
			"every missing field": {cs, "add_company", map[string]any{}, radar.EValidation,
				[]string{"companyName: is required", "founders: is required", "alertEmails: is required", "confirmed: must be true"}},
			"invalid view":             {cs, "list_signals", map[string]any{"view": "medium"}, radar.EValidation, []string{`view: must be compact or full, got "medium"`}},
			"exact and fuzzy together": {cs, "list_alerts", map[string]any{"entityId": ga, "entityQuery": "greenfield"}, radar.EValidation, []string{"entityQuery: cannot be combined with entityId"}},
			"tampered cursor":          {cs, "list_leads", map[string]any{"cursor": "AAAA"}, radar.EInvalidCursor, nil},
			"ambiguous entity":         {cs, "list_signals", map[string]any{"entityQuery": "greenfield"}, radar.EAmbiguousEntity, []string{"Greenfield Analytics", "Greenfield Robotics"}},
			"ambiguous source":         {cs, "list_leads", map[string]any{"sourceQuery": "greenfield"}, radar.EAmbiguousSource, nil},
			"entity not found":         {cs, "list_alerts", map[string]any{"entityQuery": "stripe"}, radar.EEntityNotFound, nil},
			"source not found":         {cs, "list_leads", map[string]any{"sourceQuery": "stripe"}, radar.ESourceNotFound, nil},
			"decision missing":         {cs, "decide_lead", map[string]any{"id": uuid.NewString()}, radar.EValidation, []string{"accepted: is required"}},
		}
		for name, tt := range tests {
			t.Run(name, func(t *testing.T) {
				r := fails(t, tt.cs, tt.tool, tt.args, tt.code)
				for _, want := range tt.message {
					if !strings.Contains(r.errMessage(), want) {
						t.Errorf("message %q lacks %q", r.errMessage(), want)
					}
				}
			})
		}

		scope := fails(t, reader, "update_company", map[string]any{"id": ga}, radar.EInsufficientScope).errDetails()
		if !jsonEqual(scope["required"], []any{radar.ScopeTrackerWrite}) || !jsonEqual(scope["granted"], []any{radar.ScopeTrackerRead}) {
			t.Errorf("insufficient_scope details = %v, want required and granted", scope)
		}
		amb := fails(t, cs, "list_alerts", map[string]any{"entityQuery": "greenfield"}, radar.EAmbiguousEntity).errDetails()
		var ids []string
		for _, c := range amb["candidates"].([]any) {
			ids = append(ids, str(obj(c)["id"]))
		}
		slices.Sort(ids)
		want := []string{ga, gr}
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("ambiguity candidates %v, want %v", ids, want)
		}
	})
}

func TestDecodeRejectsMalformedIDBeforeTheService(t *testing.T) {
	for _, tl := range tools() {
		if tl.def.InputSchema.(*jsonschema.Schema).Properties["id"] == nil {
			continue
		}
		t.Run(tl.def.Name, func(t *testing.T) {
			// A nil service would panic if it were reached.
			_, err := tl.handle(context.Background(), env{p: &radar.Principal{}}, json.RawMessage(`{"id":"not-a-uuid"}`))
			if e, ok := radar.AsError(err); !ok || e.Code != radar.EValidation || e.Message != `id: must be a UUID, got "not-a-uuid"` {
				t.Errorf("err = %v, want the validation_error of the REST API", err)
			}
		})
	}
}

func TestOrganisationIsolation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		a, b := e.org(t, "acme"), e.org(t, "globex")
		csA := e.connect(t, e.key(t, a, radar.Scopes...), Path)
		csB := e.connect(t, e.key(t, b, radar.Scopes...), Path)
		id := str(ok(t, csA, "add_company", companyArgs("Northwind Labs", "northwind.example")).data()["id"])
		signalID, alertID, leadID := e.seedRun(t, a.ID, id, "Northwind Labs", "Grace Hopper")

		for name, c := range map[string]struct {
			tool string
			args map[string]any
			code string
		}{
			"get_company":    {"get_company", map[string]any{"id": id}, radar.ENotFound},
			"update_company": {"update_company", map[string]any{"id": id, "status": "paused"}, radar.ENotFound},
			"remove_company": {"remove_company", map[string]any{"id": id}, radar.ENotFound},
			"get_signal":     {"get_signal", map[string]any{"id": signalID}, radar.ENotFound},
			"get_alert":      {"get_alert", map[string]any{"id": alertID}, radar.ENotFound},
			"get_lead":       {"get_lead", map[string]any{"id": leadID}, radar.ENotFound},
			"decide_lead":    {"decide_lead", map[string]any{"id": leadID, "accepted": true}, radar.ENotFound},
			"entityQuery":    {"list_signals", map[string]any{"entityQuery": "northwind"}, radar.EEntityNotFound},
			"sourceQuery":    {"list_leads", map[string]any{"sourceQuery": "northwind"}, radar.ESourceNotFound},
		} {
			t.Run(name, func(t *testing.T) { fails(t, csB, c.tool, c.args, c.code) })
		}
		for _, tool := range []string{"list_companies", "list_signals", "list_alerts", "list_leads"} {
			if items := ok(t, csB, tool, nil).items(); len(items) != 0 {
				t.Errorf("%s of another organisation = %v, want nothing", tool, items)
			}
		}
		if got := ok(t, csA, "get_company", map[string]any{"id": id}); got.data()["status"] != "ok" {
			t.Errorf("company after the other organisation's calls = %s, want it unchanged", got.text)
		}
	})
}

func names(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func TestToolsListedByScopeAndEndpoint(t *testing.T) {
	e := startEnv(t, sqldb.SQLite, envOptions{})
	org := e.org(t, "acme")
	var all, reads []string
	for _, tl := range tools() {
		all = append(all, tl.def.Name)
		if tl.def.Annotations.ReadOnlyHint {
			reads = append(reads, tl.def.Name)
		}
	}
	tests := map[string]struct {
		scopes []string
		path   string
		want   []string
	}{
		"every scope":        {radar.Scopes, Path, all},
		"read-only endpoint": {radar.Scopes, Path + "/readonly", reads},
		"tracker:read only": {[]string{radar.ScopeTrackerRead}, Path,
			[]string{"whoami", "list_companies", "get_company", "list_signals", "get_signal", "list_alerts", "get_alert"}},
		"leads without tracker:write": {[]string{radar.ScopeLeadsRead, radar.ScopeLeadsWrite}, Path,
			[]string{"whoami", "list_leads", "get_lead", "decide_lead"}},
		"tracker:write on the read-only endpoint": {[]string{radar.ScopeTrackerWrite}, Path + "/readonly", []string{"whoami"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := names(t, e.connect(t, e.key(t, org, tt.scopes...), tt.path))
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("tools = %v, want %v", got, want)
			}
		})
	}
	if len(all) != 15 || len(reads) != 9 {
		t.Errorf("%d tools with %d read-only, want 15 with 9", len(all), len(reads))
	}

	ro := e.connect(t, e.key(t, org, radar.Scopes...), Path+"/readonly")
	_, err := ro.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_company", Arguments: companyArgs("Acme", "acme.example")})
	if err == nil {
		t.Errorf("add_company on the read-only endpoint succeeded, want an unknown tool")
	}
	if got := ok(t, ro, "list_companies", nil).items(); len(got) != 0 {
		t.Errorf("list_companies on the read-only endpoint = %v, want an empty list", got)
	}
}

func TestRateLimits(t *testing.T) {
	buckets := ratelimit.Defaults()
	buckets[ratelimit.Read] = ratelimit.Bucket{Name: ratelimit.Read, Limit: 2, Window: time.Hour}
	buckets[ratelimit.Create] = ratelimit.Bucket{Name: ratelimit.Create, Limit: 1, Window: time.Hour}
	e := startEnv(t, sqldb.SQLite, envOptions{buckets: buckets})
	org := e.org(t, "acme")
	cs := e.connect(t, e.key(t, org, radar.Scopes...), Path)

	for _, l := range ok(t, cs, "whoami", nil).body["rateLimits"].([]any) {
		if r := obj(l); r["bucket"] == ratelimit.Read && (r["remaining"] != 1.0 || r["limit"] != 2.0 || r["windowSeconds"] != 3600.0) {
			t.Errorf("whoami read budget = %v, want 1 of 2 per hour left after whoami itself", r)
		}
	}
	ok(t, cs, "list_companies", nil)
	denied := fails(t, cs, "get_company", map[string]any{"id": uuid.NewString()}, radar.ERateLimited)
	d := denied.errDetails()
	if d["bucket"] != ratelimit.Read || d["limit"] != 2.0 || d["windowSeconds"] != 3600.0 || d["retryAfterSeconds"].(float64) < 1 {
		t.Errorf("rate_limited details = %v, want the read bucket's limit, window and wait", d)
	}
	fails(t, cs, "whoami", nil, radar.ERateLimited)

	ok(t, cs, "add_company", companyArgs("Acme", "acme.example"))
	if d := fails(t, cs, "add_company", companyArgs("Initech", "initech.example"), radar.ERateLimited).errDetails(); d["bucket"] != ratelimit.Create {
		t.Errorf("second create denied by %v, want the create bucket", d["bucket"])
	}

	other := e.connect(t, e.key(t, org, radar.Scopes...), Path)
	ok(t, other, "whoami", nil)
}

// Errors of the HTTP layer of the MCP endpoint are JSON-RPC error objects (id null: no request was read)
// carrying the API's error envelope in their data, with the REST status and headers.
func TestHTTPErrorsAreJSONRPCErrors(t *testing.T) {
	e := startEnv(t, sqldb.SQLite, envOptions{})
	key := e.key(t, e.org(t, "acme"), radar.ScopeTrackerRead)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	tests := map[string]struct {
		method, path, key, contentType string
		status                         int
		code                           string
	}{
		"no key":           {http.MethodPost, Path, "", "application/json", http.StatusUnauthorized, radar.EUnauthorized},
		"GET":              {http.MethodGet, Path, key, "", http.StatusMethodNotAllowed, radar.EMethodNotAllowed},
		"unknown path":     {http.MethodPost, Path + "/admin", key, "application/json", http.StatusNotFound, radar.ENotFound},
		"not JSON":         {http.MethodPost, Path, key, "text/plain", http.StatusUnsupportedMediaType, radar.EUnsupportedMediaType},
		"read-only DELETE": {http.MethodDelete, Path + "/readonly", key, "", http.StatusMethodNotAllowed, radar.EMethodNotAllowed},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, e.srv.URL+tt.path, strings.NewReader(body))
			if tt.key != "" {
				req.Header.Set("Authorization", "Bearer "+tt.key)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			req.Header.Set("Accept", "application/json, text/event-stream")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			var rpc struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int
					Message string
					Data    struct{ Error radar.Error }
				}
			}
			if err := json.Unmarshal(b, &rpc); err != nil || res.StatusCode != tt.status || rpc.JSONRPC != "2.0" ||
				string(rpc.ID) != "null" || rpc.Error.Code != api.RPCInvalidRequest || rpc.Error.Message == "" || rpc.Error.Data.Error.Code != tt.code {
				t.Errorf("status %d body %s, want %d with a JSON-RPC error whose data has code %s", res.StatusCode, b, tt.status, tt.code)
			}
			if tt.status == http.StatusUnauthorized && res.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("401 without WWW-Authenticate")
			}
		})
	}
}

// brokenStore fails reading companies and panics reading leads.
type brokenStore struct{ radar.Store }

func (brokenStore) Entity(context.Context, string, string) (*radar.Entity, error) {
	return nil, errors.New("disk on fire")
}

func (brokenStore) Lead(context.Context, string, string) (*radar.Lead, error) {
	panic("lead table vanished")
}

func TestInternalErrorsAreLoggedAndHidden(t *testing.T) {
	var logs apitest.Buffer
	e := startEnv(t, sqldb.SQLite, envOptions{
		store:  func(s radar.Store) radar.Store { return brokenStore{s} },
		logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	cs := e.connect(t, e.key(t, e.org(t, "acme"), radar.Scopes...), Path)
	for _, tool := range []string{"get_company", "get_lead"} {
		r := fails(t, cs, tool, map[string]any{"id": uuid.NewString()}, radar.EInternal)
		msg := r.errMessage()
		id := strings.TrimSuffix(strings.TrimPrefix(msg, "internal error; quote request id "), " when reporting it")
		if id == msg || id == "" || strings.Contains(msg, "fire") || strings.Contains(msg, "vanished") {
			t.Errorf("%s message %q: want a request id and no detail of the fault", tool, msg)
		}
		if !strings.Contains(logs.String(), "request_id="+id) {
			t.Errorf("%s: the log does not name request id %s:\n%s", tool, id, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "disk on fire") || !strings.Contains(logs.String(), "lead table vanished") {
		t.Errorf("log lacks the faults:\n%s", logs.String())
	}
	ok(t, cs, "whoami", nil)
}

// BenchmarkCallTool measures one get_company call through the whole HTTP stack: authentication, rate
// limiting, argument checks, the service and SQLite.
func BenchmarkCallTool(b *testing.B) {
	e := startEnv(b, sqldb.SQLite, envOptions{buckets: map[string]ratelimit.Bucket{}})
	cs := e.connect(b, e.key(b, e.org(b, "acme"), radar.Scopes...), Path)
	args := map[string]any{"id": str(ok(b, cs, "add_company", companyArgs("Acme", "acme.example")).data()["id"])}
	for b.Loop() {
		ok(b, cs, "get_company", args)
	}
}

func TestOlderProtocolVersions(t *testing.T) {
	e := startEnv(t, sqldb.SQLite, envOptions{})
	org := e.org(t, "acme")
	for _, version := range []string{"2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			cs := e.connectVersion(t, e.key(t, org, radar.ScopeTrackerRead), Path, version)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			if got := names(t, cs); len(got) != 7 {
				t.Errorf("tracker:read key lists %v, want its 7 tools", got)
			}
			if who := ok(t, cs, "whoami", nil); str(obj(who.body["organisation"])["slug"]) != "acme" {
				t.Errorf("whoami = %s", who.text)
			}
			fails(t, cs, "add_company", companyArgs("Acme", "acme.example"), radar.EInsufficientScope)
		})
	}
}
