package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

func TestCreate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		body := apitest.CreateBody("Northwind")
		body["companyName"] = strings.Repeat("é", 200)
		body["companySummary"] = strings.Repeat("s", 5000)
		body["thingsToTrack"] = strings.Repeat("t", 10000)
		body["emailAlertsEnabled"] = false
		body["cadenceDays"] = 30
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, body)
		wantStatus(t, res, http.StatusCreated)
		id := str(res.Data(), "id")
		if loc, want := res.Header.Get("Location"), apitest.BaseURL+"/api/v1/tracker/"+id; loc != want {
			t.Errorf("Location = %q, want %q", loc, want)
		}
		if res.Header.Get("Idempotency-Replayed") != "" {
			t.Errorf("Idempotency-Replayed set on a new entity")
		}
		obj := res.Object()
		for _, c := range []struct {
			path string
			want any
		}{
			{"idempotencyReplayed", false},
			{"existingEntity", false},
			{"data.status", "ok"},
			{"data.companyName", strings.Repeat("é", 200)},
			{"data.emailAlertsEnabled", false},
			{"data.cadenceDays", 30.0},
			{"data.enrichmentStatus", "queued"},
			{"data.lastScrapedAt", nil},
			{"data.policy.version", 1.0},
			{"operation.entityId", id},
			{"operation.pollUrl", apitest.BaseURL + "/api/v1/tracker/" + id},
			{"operation.enrichmentStatus", "queued"},
			{"operation.enrichmentComplete", false},
		} {
			if got := dig(obj, c.path); got != c.want {
				t.Errorf("%s = %v, want %v", c.path, got, c.want)
			}
		}
		if n := env.Count(t, "river_job", "kind = $1", "enrich"); n != 1 {
			t.Errorf("%d enrichment jobs queued, want 1", n)
		}

		defaults := apitest.CreateBody("Contoso")
		delete(defaults, "cadenceDays")
		res = env.Do(t, http.MethodPost, "/api/v1/tracker", key, defaults)
		wantStatus(t, res, http.StatusCreated)
		if got := dig(res.Object(), "data.cadenceDays"); got != 7.0 {
			t.Errorf("default cadenceDays = %v, want 7", got)
		}
		if got := dig(res.Object(), "data.emailAlertsEnabled"); got != true {
			t.Errorf("default emailAlertsEnabled = %v, want true", got)
		}
	})
}

// mutation changes a valid create body into an invalid one.
type mutation func(b map[string]any)

func set(field string, v any) mutation { return func(b map[string]any) { b[field] = v } }
func del(field string) mutation        { return func(b map[string]any) { delete(b, field) } }

func founders(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"name": fmt.Sprintf("Founder %d", i)}
	}
	return out
}

func emails(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("r%d@fund.example", i)
	}
	return out
}

func TestCreateValidation(t *testing.T) {
	cases := map[string]struct {
		mutate []mutation
		paths  []string
	}{
		"companyName empty":          {[]mutation{set("companyName", "")}, []string{"companyName"}},
		"companyName blank":          {[]mutation{set("companyName", "   ")}, []string{"companyName"}},
		"companyName 201 characters": {[]mutation{set("companyName", strings.Repeat("é", 201))}, []string{"companyName"}},
		"companyName missing":        {[]mutation{del("companyName")}, []string{"companyName"}},
		"companySummary 5001":        {[]mutation{set("companySummary", strings.Repeat("s", 5001))}, []string{"companySummary"}},
		"thingsToTrack empty":        {[]mutation{set("thingsToTrack", "")}, []string{"thingsToTrack"}},
		"thingsToTrack 10001":        {[]mutation{set("thingsToTrack", strings.Repeat("t", 10001))}, []string{"thingsToTrack"}},
		"thingsToTrack missing":      {[]mutation{del("thingsToTrack")}, []string{"thingsToTrack"}},
		"founders empty":             {[]mutation{set("founders", []any{})}, []string{"founders"}},
		"founders 11":                {[]mutation{set("founders", founders(11))}, []string{"founders"}},
		"founders missing":           {[]mutation{del("founders")}, []string{"founders"}},
		"founder without name":       {[]mutation{set("founders", []any{map[string]any{"linkedinUrl": "https://www.linkedin.com/in/x"}})}, []string{"founders[0].name"}},
		"founders[2].linkedinUrl not a URL": {[]mutation{set("founders", append(founders(2),
			map[string]any{"name": "Cy", "linkedinUrl": "not a url"}))}, []string{"founders[2].linkedinUrl"}},
		"founder twitterUrl ftp":      {[]mutation{set("founders", []any{map[string]any{"name": "Cy", "twitterUrl": "ftp://x.com/cy"}})}, []string{"founders[0].twitterUrl"}},
		"founder unknown field":       {[]mutation{set("founders", []any{map[string]any{"name": "Cy", "age": 40}})}, []string{"founders[0].age"}},
		"founder id on create":        {[]mutation{set("founders", []any{map[string]any{"name": "Cy", "id": radarUUID}})}, []string{"founders[0].id"}},
		"alertEmails empty":           {[]mutation{set("alertEmails", []any{})}, []string{"alertEmails"}},
		"alertEmails 21":              {[]mutation{set("alertEmails", emails(21))}, []string{"alertEmails"}},
		"alertEmails missing":         {[]mutation{del("alertEmails")}, []string{"alertEmails"}},
		"alertEmails not an address":  {[]mutation{set("alertEmails", []any{"not-an-email"})}, []string{"alertEmails[0]"}},
		"alertEmails second bad":      {[]mutation{set("alertEmails", []any{"a@fund.example", "b@"})}, []string{"alertEmails[1]"}},
		"alertEmails display name":    {[]mutation{set("alertEmails", []any{"Ada <ada@fund.example>"})}, []string{"alertEmails[0]"}},
		"alertEmails repeated":        {[]mutation{set("alertEmails", []any{"a@fund.example", "A@Fund.example"})}, []string{"alertEmails[1]"}},
		"alertEmails an object":       {[]mutation{set("alertEmails", []any{map[string]any{}})}, []string{"alertEmails[0]"}},
		"alertEmails a list":          {[]mutation{set("alertEmails", []any{[]any{}, []any{}})}, []string{"alertEmails[0]", "alertEmails[1]"}},
		"companyWebsite not a URL":    {[]mutation{set("companyWebsite", "not a url")}, []string{"companyWebsite"}},
		"companyWebsite ftp":          {[]mutation{set("companyWebsite", "ftp://northwind.example")}, []string{"companyWebsite"}},
		"companyWebsite no scheme":    {[]mutation{set("companyWebsite", "northwind.example")}, []string{"companyWebsite"}},
		"companyWebsite missing":      {[]mutation{del("companyWebsite")}, []string{"companyWebsite"}},
		"companyLinkedinUrl relative": {[]mutation{set("companyLinkedinUrl", "/company/northwind")}, []string{"companyLinkedinUrl"}},
		"companyGithubUrl javascript": {[]mutation{set("companyGithubUrl", "javascript:alert(1)")}, []string{"companyGithubUrl"}},
		"cadenceDays 5":               {[]mutation{set("cadenceDays", 5)}, []string{"cadenceDays"}},
		"cadenceDays 7.5":             {[]mutation{set("cadenceDays", 7.5)}, []string{"cadenceDays"}},
		"confirmed false":             {[]mutation{set("confirmed", false)}, []string{"confirmed"}},
		"confirmed missing":           {[]mutation{del("confirmed")}, []string{"confirmed"}},
		"confirmed null":              {[]mutation{set("confirmed", nil)}, []string{"confirmed"}},
		"unknown field":               {[]mutation{set("colour", "red")}, []string{"colour"}},
		"companyName a number":        {[]mutation{set("companyName", 5)}, []string{"companyName"}},
		"founders a string":           {[]mutation{set("founders", "Ada")}, []string{"founders"}},
		"cadenceDays a string":        {[]mutation{set("cadenceDays", "7")}, []string{"cadenceDays"}},
		"confirmed a string":          {[]mutation{set("confirmed", "true")}, []string{"confirmed"}},
		"emailAlertsEnabled a string": {[]mutation{set("emailAlertsEnabled", "yes")}, []string{"emailAlertsEnabled"}},
		"alertEmails a string":        {[]mutation{set("alertEmails", "a@fund.example")}, []string{"alertEmails"}},
		"every field at once": {[]mutation{
			set("companyName", ""), set("companySummary", strings.Repeat("s", 5001)), set("thingsToTrack", ""),
			set("alertEmails", []any{"bad"}), set("cadenceDays", 5), set("confirmed", false), set("colour", "red"),
			set("founders", append(founders(2), map[string]any{"name": "Cy", "linkedinUrl": "nope"})),
		}, []string{"companyName", "companySummary", "thingsToTrack", "alertEmails[0]", "cadenceDays", "confirmed", "colour", "founders[2].linkedinUrl"}},
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		n := 0
		for name, c := range cases {
			n++
			t.Run(name, func(t *testing.T) {
				body := apitest.CreateBody("Northwind")
				for _, m := range c.mutate {
					m(body)
				}
				res := env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: body,
					Header: http.Header{"Idempotency-Key": {fmt.Sprintf("failed-create-%04d", n)}}})
				wantError(t, res, http.StatusBadRequest, radar.EValidation)
				checkProblems(t, res, c.paths)
			})
		}
		if got := env.Count(t, "entities", ""); got != 0 {
			t.Errorf("failed creates left %d entities", got)
		}
		if got := env.Count(t, "river_job", ""); got != 0 {
			t.Errorf("failed creates left %d jobs", got)
		}
		if got := env.Count(t, "idempotency", ""); got != 0 {
			t.Errorf("failed creates left %d idempotency records", got)
		}
		res := env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: apitest.CreateBody("Northwind"),
			Header: http.Header{"Idempotency-Key": {"failed-create-0001"}}})
		wantStatus(t, res, http.StatusCreated)
	})
}

// checkProblems checks a validation_error: its message lists every failing field as "path: reason" joined
// by "; ", details.fields holds the same, and the failing paths are exactly want.
func checkProblems(t *testing.T, res *apitest.Response, want []string) {
	t.Helper()
	e := res.Err()
	if e == nil {
		return
	}
	var parts, paths []string
	for _, f := range list(e.Details["fields"]) {
		m, _ := f.(map[string]any)
		path, _ := m["path"].(string)
		reason, _ := m["reason"].(string)
		if path == "" || reason == "" {
			t.Errorf("details.fields item without path or reason: %v", m)
		}
		parts = append(parts, path+": "+reason)
		paths = append(paths, path)
	}
	if got := strings.Join(parts, "; "); e.Message != got {
		t.Errorf("message %q is not the fields joined as \"path: reason; …\" (%q)", e.Message, got)
	}
	// A field failing two ways is listed twice, once per reason.
	if !sameSet(slices.Compact(slices.Sorted(slices.Values(paths))), want) {
		t.Errorf("failing paths %v, want %v (message %q)", paths, want, e.Message)
	}
}

func TestCreateMalformedRequests(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		post := func(t *testing.T, body any, contentType string) *apitest.Response {
			req := apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: body}
			if contentType != "" {
				req.Header = http.Header{"Content-Type": {contentType}}
			}
			return env.Send(t, req)
		}
		for name, body := range map[string]string{
			"truncated":      `{"companyName": "Northwind"`,
			"not JSON":       `companyName=Northwind`,
			"trailing comma": `{"companyName": "Northwind",}`,
			"single quotes":  `{'companyName': 'Northwind'}`,
		} {
			t.Run("invalid JSON "+name, func(t *testing.T) {
				wantError(t, post(t, body, ""), http.StatusBadRequest, radar.EInvalidJSON)
			})
		}
		for name, body := range map[string]string{"array": `[]`, "null": `null`, "number": `42`} {
			t.Run("body is "+name, func(t *testing.T) {
				res := post(t, body, "")
				if res.Status != http.StatusBadRequest || (res.Code() != radar.EValidation && res.Code() != radar.EInvalidJSON) {
					t.Errorf("got %s, want 400 validation_error or invalid_json", res)
				}
			})
		}
		big := apitest.CreateBody("Northwind")
		big["companySummary"] = strings.Repeat("s", 1<<20)
		t.Run("body over 1 MiB", func(t *testing.T) {
			wantError(t, post(t, big, ""), http.StatusRequestEntityTooLarge, radar.EPayloadTooLarge)
		})
		t.Run("body just under 1 MiB is read", func(t *testing.T) {
			body := `{"companySummary": "` + strings.Repeat("s", 1<<20-100) + `"}`
			res := post(t, body, "")
			wantError(t, res, http.StatusBadRequest, radar.EValidation)
			if e := res.Err(); e != nil && !strings.Contains(e.Message, "companySummary: ") {
				t.Errorf("message %q does not name companySummary", e.Message)
			}
		})
		t.Run("body over 1 MiB of unknown length", func(t *testing.T) {
			r := io.MultiReader(strings.NewReader(`{"companySummary": "`), strings.NewReader(strings.Repeat("s", 1<<20)), strings.NewReader(`"}`))
			wantError(t, post(t, r, ""), http.StatusRequestEntityTooLarge, radar.EPayloadTooLarge)
		})
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/xml"} {
			t.Run("content type "+ct, func(t *testing.T) {
				wantError(t, post(t, apitest.CreateBody("Northwind"), ct), http.StatusUnsupportedMediaType, radar.EUnsupportedMediaType)
			})
		}
		t.Run("content type with charset", func(t *testing.T) {
			wantStatus(t, post(t, apitest.CreateBody("Northwind"), "application/json; charset=utf-8"), http.StatusCreated)
		})
		if got := env.Count(t, "entities", ""); got != 1 {
			t.Errorf("%d entities after one valid create, want 1", got)
		}
	})
}

// unencodable is a job whose arguments cannot be encoded, so that a transaction enqueuing it fails after
// its other writes.
type unencodable struct {
	C chan int `json:"c"`
}

func (unencodable) Kind() string { return "unencodable" }

// failOnce makes the next CreateEntity fail inside its transaction, after the entity row was written.
type failOnce struct {
	radar.Store
	armed atomic.Bool
}

func (s *failOnce) CreateEntity(ctx context.Context, e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) error {
	if s.armed.CompareAndSwap(true, false) {
		jobs = append(slices.Clone(jobs), unencodable{})
	}
	return s.Store.CreateEntity(ctx, e, jobs, idem)
}

func TestFailedCreateLeavesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		store := &failOnce{}
		env := startWith(t, engine, apitest.Options{Store: func(db radar.Store) radar.Store {
			store.Store = db
			return store
		}})
		key := env.Key(t, env.OrgA)
		store.armed.Store(true)
		req := apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: apitest.CreateBody("Northwind"),
			Header: http.Header{"Idempotency-Key": {"northwind-create-1"}}}
		res := env.Send(t, req)
		wantError(t, res, http.StatusInternalServerError, radar.EInternal)
		for table, n := range map[string]int{
			"entities":    env.Count(t, "entities", ""),
			"founders":    env.Count(t, "founders", ""),
			"river_job":   env.Count(t, "river_job", ""),
			"idempotency": env.Count(t, "idempotency", ""),
		} {
			if n != 0 {
				t.Errorf("a failed create left %d rows in %s", n, table)
			}
		}
		res = env.Send(t, req)
		wantStatus(t, res, http.StatusCreated)
		if res.Object()["idempotencyReplayed"] != false {
			t.Errorf("retry after a failure was reported as a replay: %s", res.Body)
		}
	})
}

func TestIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		post := func(t *testing.T, idem string, body any) *apitest.Response {
			t.Helper()
			return env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: body,
				Header: http.Header{"Idempotency-Key": {idem}}})
		}
		for name, idem := range map[string]string{
			"7 characters":   "abcdefg",
			"201 characters": strings.Repeat("k", 201),
			"a space":        "key with space",
			"non-ASCII":      "schlüssel-123",
		} {
			t.Run("invalid: "+name, func(t *testing.T) {
				res := post(t, idem, apitest.CreateBody("Northwind"))
				wantError(t, res, http.StatusBadRequest, radar.EValidation)
				if e := res.Err(); e != nil && !strings.Contains(e.Message, "Idempotency-Key") {
					t.Errorf("message %q does not name Idempotency-Key", e.Message)
				}
			})
		}
		for name, idem := range map[string]string{"8 characters": "abcdefgh", "200 characters": strings.Repeat("k", 200), "punctuation": "a!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"} {
			t.Run("valid: "+name, func(t *testing.T) {
				wantStatus(t, post(t, idem, apitest.CreateBody("Valid "+name)), http.StatusCreated)
			})
		}

		first := post(t, "northwind-0001", apitest.CreateBody("Northwind"))
		wantStatus(t, first, http.StatusCreated)
		id := str(first.Data(), "id")
		t.Run("same body replays", func(t *testing.T) {
			res := post(t, "northwind-0001", apitest.CreateBody("Northwind"))
			wantStatus(t, res, http.StatusOK)
			if got := str(res.Data(), "id"); got != id {
				t.Errorf("replay returned entity %s, want %s", got, id)
			}
			if res.Object()["idempotencyReplayed"] != true || res.Object()["existingEntity"] != false {
				t.Errorf("replay flags: %s", res.Body)
			}
			if h := res.Header.Get("Idempotency-Replayed"); h != "true" {
				t.Errorf("Idempotency-Replayed = %q, want true", h)
			}
			if res.Header.Get("Location") != "" {
				t.Errorf("replay carries Location")
			}
		})
		t.Run("different body conflicts", func(t *testing.T) {
			body := apitest.CreateBody("Northwind")
			body["thingsToTrack"] = "Only acquisitions."
			wantError(t, post(t, "northwind-0001", body), http.StatusConflict, radar.EIdempotencyConflict)
		})
		t.Run("keys are per organisation", func(t *testing.T) {
			res := env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: env.Key(t, env.OrgB),
				Body: apitest.CreateBody("Northwind"), Header: http.Header{"Idempotency-Key": {"northwind-0001"}}})
			wantStatus(t, res, http.StatusCreated)
		})
		t.Run("in progress", func(t *testing.T) {
			ctx := context.Background()
			now := radar.NewTime(env.Clock.Now())
			expiry, stale := radar.NewTime(now.Add(-24*time.Hour)), radar.NewTime(now.Add(-2*time.Minute))
			// The stored record of the first request tells the hash of this body.
			done, claimed, err := env.DB.BeginIdempotent(ctx, &radar.IdempotencyRecord{OrgID: env.OrgA.ID, Key: "northwind-0001", CreatedAt: now}, expiry, stale)
			if err != nil || claimed {
				t.Fatalf("read the first request's record: claimed=%v err=%v", claimed, err)
			}
			_, claimed, err = env.DB.BeginIdempotent(ctx, &radar.IdempotencyRecord{OrgID: env.OrgA.ID, Key: "northwind-0002",
				Scope: done.Scope, RequestHash: done.RequestHash, CreatedAt: now}, expiry, stale)
			if err != nil || !claimed {
				t.Fatalf("claim: claimed=%v err=%v", claimed, err)
			}
			wantError(t, post(t, "northwind-0002", apitest.CreateBody("Northwind")), http.StatusConflict, radar.EIdempotencyInProgress)

			// A claim left in progress by a request that died is taken over once it is stale.
			env.Clock.Advance(3 * time.Minute)
			res := post(t, "northwind-0002", apitest.CreateBody("Northwind"))
			wantStatus(t, res, http.StatusOK)
			if res.Object()["existingEntity"] != true || str(res.Data(), "id") != id {
				t.Errorf("after a stale claim: %s", res.Body)
			}
		})
		t.Run("remembered for 24 hours", func(t *testing.T) {
			env.Clock.Advance(25 * time.Hour)
			body := apitest.CreateBody("Northwind")
			body["thingsToTrack"] = "Only acquisitions."
			res := post(t, "northwind-0001", body)
			wantStatus(t, res, http.StatusOK)
			if res.Object()["idempotencyReplayed"] != false || res.Object()["existingEntity"] != true {
				t.Errorf("an expired key should run the request again: %s", res.Body)
			}
		})
	})
}

func TestConcurrentCreatesWithIdempotencyKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		const keys, perKey = 20, 10
		type result struct {
			idem int
			res  *apitest.Response
		}
		results := make(chan result, keys*perKey)
		var wg sync.WaitGroup
		for i := range keys * perKey {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k := i % keys
				res, err := env.Try(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key,
					Body: apitest.CreateBody(fmt.Sprintf("Company %02d", k)), Header: http.Header{"Idempotency-Key": {fmt.Sprintf("concurrent-%02d", k)}}})
				if err != nil {
					t.Errorf("request %d: %v", i, err)
					return
				}
				results <- result{k, res}
			}()
		}
		wg.Wait()
		close(results)
		created := make([]int, keys)
		ids := make([]map[string]bool, keys)
		for r := range results {
			if ids[r.idem] == nil {
				ids[r.idem] = map[string]bool{}
			}
			switch {
			case r.res.Status == http.StatusCreated:
				created[r.idem]++
				ids[r.idem][str(r.res.Data(), "id")] = true
			case r.res.Status == http.StatusOK && r.res.Object()["idempotencyReplayed"] == true:
				ids[r.idem][str(r.res.Data(), "id")] = true
			case r.res.Status == http.StatusConflict && r.res.Code() == radar.EIdempotencyInProgress:
			default:
				t.Errorf("key %d: unexpected %s", r.idem, r.res)
			}
		}
		for k := range keys {
			if created[k] != 1 || len(ids[k]) != 1 {
				t.Errorf("key %d: %d creates (want 1) answering %d distinct entities (want 1)", k, created[k], len(ids[k]))
			}
		}
		if n := env.Count(t, "entities", ""); n != keys {
			t.Errorf("%d entities, want %d", n, keys)
		}
		if n := env.Count(t, "river_job", ""); n != keys {
			t.Errorf("%d jobs, want %d", n, keys)
		}
	})
}

func TestCreateReusesTrackedCompany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		cases := map[string]func(first, second map[string]any){
			"website without www, over http, without trailing slash": func(first, second map[string]any) {
				first["companyWebsite"] = "https://www.northwind.example/"
				second["companyWebsite"] = "http://northwind.example"
			},
			"website in another case with a path slash": func(first, second map[string]any) {
				first["companyWebsite"] = "https://northwind.example/en"
				second["companyWebsite"] = "https://WWW.Northwind.EXAMPLE/en/"
			},
			"company profile URL": func(first, second map[string]any) {
				first["companyLinkedinUrl"] = "https://www.linkedin.com/company/northwind"
				second["companyLinkedinUrl"] = "https://linkedin.com/company/northwind/"
			},
			"company twitter as x.com": func(first, second map[string]any) {
				first["companyTwitterUrl"] = "https://twitter.com/northwind"
				second["companyTwitterUrl"] = "https://x.com/northwind"
			},
			"founder profile URL": func(first, second map[string]any) {
				first["founders"] = []any{map[string]any{"name": "Ada", "githubUrl": "https://github.com/ada"}}
				second["founders"] = []any{map[string]any{"name": "Ada Lovelace", "githubUrl": "https://www.github.com/ada/"}}
			},
		}
		i := 0
		for name, arrange := range cases {
			i++
			t.Run(name, func(t *testing.T) {
				first, second := apitest.CreateBody(fmt.Sprintf("First %d", i)), apitest.CreateBody(fmt.Sprintf("Second %d", i))
				arrange(first, second)
				second["thingsToTrack"] = "Only acquisitions."
				second["cadenceDays"] = 3
				res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, first)
				wantStatus(t, res, http.StatusCreated)
				id := str(res.Data(), "id")
				before := env.Count(t, "entities", "")

				res = env.Do(t, http.MethodPost, "/api/v1/tracker", key, second)
				wantStatus(t, res, http.StatusOK)
				if str(res.Data(), "id") != id || res.Object()["existingEntity"] != true || res.Object()["idempotencyReplayed"] != false {
					t.Fatalf("want entity %s reused: %s", id, res.Body)
				}
				if res.Header.Get("Location") != "" {
					t.Errorf("a reused entity carries Location")
				}
				if after := env.Count(t, "entities", ""); after != before {
					t.Errorf("%d entities after reuse, want %d", after, before)
				}
				got := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id, key, nil).Data()
				if got["thingsToTrack"] != "Only acquisitions." || got["cadenceDays"] != 3.0 || got["companyName"] != second["companyName"] {
					t.Errorf("entity not updated by the second create: %v", got)
				}
				if v := dig(got, "policy.version"); v != 2.0 {
					t.Errorf("policy.version = %v, want 2 after new rules", v)
				}
			})
		}
		t.Run("other organisation tracks its own copy", func(t *testing.T) {
			res := env.Do(t, http.MethodPost, "/api/v1/tracker", env.Key(t, env.OrgB), apitest.CreateBody("First 1"))
			wantStatus(t, res, http.StatusCreated)
		})
	})
}

// slowCreates takes longer over each create than huma's default body read timeout of 5 s.
type slowCreates struct{ radar.Store }

func (s slowCreates) CreateEntity(ctx context.Context, e *radar.Entity, jobs []radar.JobArgs, idem *radar.IdempotencyRecord) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(6 * time.Second):
	}
	return s.Store.CreateEntity(ctx, e, jobs, idem)
}

// A create the server takes long over (a busy single writer, a slow disk) is answered once it is done: its
// request is not abandoned while the client waits.
func TestSlowCreateIsAnswered(t *testing.T) {
	env := startWith(t, sqldb.SQLite, apitest.Options{Store: func(db radar.Store) radar.Store { return slowCreates{db} }})
	res := env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: env.Key(t, env.OrgA),
		Body: apitest.CreateBody("Northwind")})
	wantStatus(t, res, http.StatusCreated)
}
