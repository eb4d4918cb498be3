package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// fuzzEnv is a server of one engine with a key; fuzz targets send every input to every engine under test.
type fuzzEnv struct {
	engine string
	env    *apitest.Env
	key    string
}

func fuzzEnvs(f *testing.F) []fuzzEnv {
	var out []fuzzEnv
	for _, engine := range storetest.Engines() {
		env := apitest.Start(f, engine)
		out = append(out, fuzzEnv{engine, env, env.Key(f, env.OrgA)})
	}
	return out
}

// checkAnswer fails on a 5xx, and on a 4xx that is not an error envelope whose code matches its status.
func checkAnswer(t *testing.T, engine string, rec *httptest.ResponseRecorder, input string) *apitest.Response {
	t.Helper()
	res := &apitest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	switch {
	case res.Status >= 500:
		t.Fatalf("%s: %s: %d %s", engine, input, res.Status, res.Body)
	case res.Status >= 400:
		e := res.Err()
		if e == nil || e.Code == "" || e.Message == "" {
			t.Fatalf("%s: %s: %d without an error envelope: %s", engine, input, res.Status, res.Body)
		}
		if radar.StatusOf(e.Code) != res.Status {
			t.Fatalf("%s: %s: code %s answered with status %d", engine, input, e.Code, res.Status)
		}
	}
	return res
}

// FuzzCreateBody posts any bytes as a create body, with any Idempotency-Key, on every engine: the answer is
// a created or reused entity, or a 4xx error envelope whose code matches its status; never a 5xx.
func FuzzCreateBody(f *testing.F) {
	envs := fuzzEnvs(f)
	valid, _ := json.Marshal(apitest.CreateBody("Northwind"))
	for _, seed := range []struct{ body, idem string }{
		{string(valid), ""},
		{string(valid), "fuzz-key-0001"},
		{string(valid), "short"},
		{strings.Replace(string(valid), `"confirmed":true`, `"confirmed":false`, 1), ""},
		{strings.Replace(string(valid), `"cadenceDays":7`, `"cadenceDays":1e400`, 1), ""},
		{strings.Replace(string(valid), `"cadenceDays":7`, `"cadenceDays":-0`, 1), ""},
		{strings.Replace(string(valid), `"Northwind"`, `"\u0000\ud800"`, 1), ""},
		{strings.Replace(string(valid), `"Northwind"`, `"North\u0000wind"`, 1), ""},
		{strings.Replace(string(valid), `"Northwind"`, `"North`+"\xff"+`wind"`, 1), ""},
		{strings.Replace(string(valid), `"Northwind"`, `"\u200b\u202e"`, 1), ""},
		{strings.Replace(string(valid), `Tell me`, `Tell\u0000me`, 1), ""},
		{strings.Replace(string(valid), `Tell me`, `Tell\r\n\tme`, 1), ""},
		{strings.Replace(string(valid), `alerts@fund.example`, `alerts\u0000@fund.example`, 1), ""},
		{strings.Replace(string(valid), `"Ada Northwind"`, `"Ada\u0000"`, 1), ""},
		{strings.Replace(string(valid), `https://northwind.example`, `https://north\u0000wind.example`, 1), ""},
		{strings.Replace(string(valid), `https://northwind.example`, `https://[::1]:99999/%zz`, 1), ""},
		{strings.Replace(string(valid), `https://northwind.example`, `http://127.0.0.1:8080/`, 1), ""},
		{strings.Replace(string(valid), `"founders":[`, `"founders":[null,`, 1), ""},
		{`{"companyName":"` + strings.Repeat("é", 300) + `"}`, ""},
		{`{"founders":[{"name":{"name":[]}}]}`, ""},
		{`{"alertEmails":[1,true,null,{}]}`, ""},
		{`{}`, ""}, {`{`, ""}, {``, ""}, {`null`, ""}, {`[]`, ""}, {`"x"`, ""}, {`1`, ""},
		{`{"companyName":"a","companyName":"b"}`, ""},
		{"\xef\xbb\xbf{}", ""}, {"\xff\xfe", ""}, {strings.Repeat("[", 10000), ""},
	} {
		f.Add([]byte(seed.body), seed.idem)
	}
	f.Fuzz(func(t *testing.T, body []byte, idem string) {
		for _, fe := range envs {
			req := httptest.NewRequest(http.MethodPost, "/api/v1/tracker", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+fe.key)
			if idem != "" {
				req.Header["Idempotency-Key"] = []string{idem}
			}
			rec := httptest.NewRecorder()
			fe.env.Server.ServeHTTP(rec, req)
			res := checkAnswer(t, fe.engine, rec, "body "+strings.ToValidUTF8(string(body), "?")+", Idempotency-Key "+idem)
			if res.Status == http.StatusCreated || res.Status == http.StatusOK {
				var out struct {
					Data struct {
						ID string `json:"id"`
					} `json:"data"`
				}
				if err := json.Unmarshal(res.Body, &out); err != nil || out.Data.ID == "" {
					t.Fatalf("%s: %d without an entity: %s", fe.engine, res.Status, res.Body)
				}
			}
		}
	})
}

// queryRoutes are the reads a fuzzed query string is sent to, by the fuzzer's choice of index.
var queryRoutes = []string{
	"/api/v1/tracker", "/api/v1/signals", "/api/v1/alerts", "/api/v1/leads",
	"/api/v1/tracker/%s", "/api/v1/signals/%s", "/api/v1/alerts/%s", "/api/v1/leads/%s",
}

// FuzzQueryParameters sends any raw query string to every list and read on every engine, with a company,
// a signal, an alert and a lead stored so that lookups and filters reach the database: never a 5xx.
func FuzzQueryParameters(f *testing.F) {
	envs := fuzzEnvs(f)
	ids := make([]map[string]string, len(envs))
	for i, fe := range envs {
		e := fe.env.InsertEntity(f, fe.env.OrgA, "Northwind Analytics", time.Now())
		run := fe.env.SeedRun(f, fe.env.OrgA, e.ID)
		ids[i] = map[string]string{"tracker": e.ID, "signals": run.SignalID, "alerts": run.AlertID, "leads": run.LeadID}
	}
	for _, seed := range []string{
		"", "limit=5", "limit=abc", "limit=-1", "view=full", "view=%00", "cursor=AAAA", "cursor=%00%ff",
		"q=funding", "q=%00", "q=a%00b", "q=%0d%0a", "q=%ff%fe", "q=%ed%a0%80", "q=%e2%80%8b",
		"entityQuery=northwind", "entityQuery=%00", "entityQuery=north%00wind", "entityId=%00",
		"sourceQuery=northwind", "sourceQuery=%00", "sourceEntityId=not-a-uuid",
		"name=%00", "name=ada", "classification=fintech", "classification=%00", "sector=a,b,c,d,e", "sectors=%1b",
		"updatedAfter=2026-01-01", "updatedAfter=%00", "since=2026-01-01T00:00:00Z", "until=%00",
		"type=funding", "type=%00", "severity=high", "needsAttention=maybe", "changed=true", "decision=%00",
		"stage=series_a", "status=%00", "a%00=1", "%zz", "q=%", ";;;", "q=" + strings.Repeat("x", 300),
	} {
		for i := range queryRoutes {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, query string) {
		tmpl := queryRoutes[int(route)%len(queryRoutes)]
		for i, fe := range envs {
			path := tmpl
			if strings.Contains(tmpl, "%s") {
				list := strings.Split(tmpl, "/")[3]
				path = strings.Replace(tmpl, "%s", ids[i][list], 1)
			}
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.URL.RawQuery = query
			req.RequestURI = path + "?" + query
			req.Header.Set("Authorization", "Bearer "+fe.key)
			rec := httptest.NewRecorder()
			fe.env.Server.ServeHTTP(rec, req)
			checkAnswer(t, fe.engine, rec, "GET "+path+"?"+strings.ToValidUTF8(query, "?"))
		}
	})
}
