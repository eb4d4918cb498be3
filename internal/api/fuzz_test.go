package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// FuzzCreateBody posts any bytes as a create body, with any Idempotency-Key: the answer is a created or
// reused entity, or a 4xx error envelope whose code matches its status; never a 5xx.
func FuzzCreateBody(f *testing.F) {
	env := apitest.Start(f, sqldb.SQLite)
	key := env.Key(f, env.OrgA)
	valid, _ := json.Marshal(apitest.CreateBody("Northwind"))
	for _, seed := range []struct{ body, idem string }{
		{string(valid), ""},
		{string(valid), "fuzz-key-0001"},
		{string(valid), "short"},
		{strings.Replace(string(valid), `"confirmed":true`, `"confirmed":false`, 1), ""},
		{strings.Replace(string(valid), `"cadenceDays":7`, `"cadenceDays":1e400`, 1), ""},
		{strings.Replace(string(valid), `"cadenceDays":7`, `"cadenceDays":-0`, 1), ""},
		{strings.Replace(string(valid), `"Northwind"`, `"\u0000\ud800"`, 1), ""},
		{strings.Replace(string(valid), `https://northwind.example`, `https://[::1]:99999/%zz`, 1), ""},
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
		req := httptest.NewRequest(http.MethodPost, "/api/v1/tracker", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		if idem != "" {
			req.Header["Idempotency-Key"] = []string{idem}
		}
		rec := httptest.NewRecorder()
		env.Server.ServeHTTP(rec, req)
		res := &apitest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		switch {
		case res.Status == http.StatusCreated || res.Status == http.StatusOK:
			var out struct {
				Data struct {
					ID string `json:"id"`
				} `json:"data"`
			}
			if err := json.Unmarshal(res.Body, &out); err != nil || out.Data.ID == "" {
				t.Fatalf("%d without an entity: %s", res.Status, res.Body)
			}
		case res.Status >= 400 && res.Status < 500:
			e := res.Err()
			if e == nil || e.Code == "" || e.Message == "" {
				t.Fatalf("%d without an error envelope: %s", res.Status, res.Body)
			}
			if radar.StatusOf(e.Code) != res.Status {
				t.Fatalf("code %s answered with status %d", e.Code, res.Status)
			}
		default:
			t.Fatalf("body %q, Idempotency-Key %q: %d %s", body, idem, res.Status, res.Body)
		}
	})
}
