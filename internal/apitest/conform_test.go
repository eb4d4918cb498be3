package apitest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// TestConformanceCatchesDepartures shows that the conformance check of every exchange fails on each kind of
// departure from the served document, and passes the server's real answers.
func TestConformanceCatchesDepartures(t *testing.T) {
	env := apitest.Start(t, sqldb.SQLite)
	key := env.Key(t, env.OrgA)
	check, err := apitest.NewConformance(env.Server.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	created := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Northwind"))
	id, _ := created.Data()["id"].(string)
	read := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id, key, nil)
	if read.Status != http.StatusOK {
		t.Fatalf("read: %s", read)
	}

	request := func(method, path string, body []byte) *http.Request {
		r, err := env.NewRequest(apitest.Request{Method: method, Path: path, Key: key, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	answer := func(status int, contentType, body string) *apitest.Response {
		h := http.Header{}
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		return &apitest.Response{Status: status, Header: h, Body: []byte(body)}
	}
	without := func(field string) string {
		var m map[string]any
		json.Unmarshal(read.Body, &m)
		delete(m["data"].(map[string]any), field)
		b, _ := json.Marshal(m)
		return string(b)
	}
	validBody, _ := json.Marshal(apitest.CreateBody("Contoso"))

	for _, c := range []struct {
		name    string
		req     *http.Request
		body    []byte
		res     *apitest.Response
		departs string // "" when the exchange keeps to the document
	}{
		{"the server's answer", request("GET", "/api/v1/tracker/"+id, nil), nil, read, ""},
		{"a missing required field", request("GET", "/api/v1/tracker/"+id, nil), nil,
			answer(200, "application/json", without("companyName")), "does not match"},
		{"a status not documented", request("GET", "/api/v1/tracker/"+id, nil), nil,
			answer(201, "application/json", string(read.Body)), "not documented"},
		{"another content type", request("GET", "/api/v1/tracker/"+id, nil), nil,
			answer(200, "text/plain", string(read.Body)), "Content-Type"},
		{"an error that is not the envelope", request("GET", "/api/v1/tracker/"+id, nil), nil,
			answer(404, "application/json", `{"message":"gone"}`), "does not match"},
		{"an invalid parameter answered 200", request("GET", "/api/v1/tracker?limit=abc", nil), nil,
			answer(200, "application/json", `{"data":[],"nextCursor":null}`), "breaks the document"},
		{"an id that is not a UUID answered 200", request("GET", "/api/v1/tracker/nope", nil), nil,
			answer(200, "application/json", string(read.Body)), "breaks the document"},
		{"an invalid body answered 201", request("POST", "/api/v1/tracker", []byte(`{}`)), []byte(`{}`),
			answer(201, "application/json", string(created.Body)), "breaks the document"},
		{"a valid body answered 201", request("POST", "/api/v1/tracker", validBody), validBody,
			created, ""},
		{"an unknown route answered 200", request("GET", "/api/v1/nowhere", nil), nil,
			answer(200, "application/json", `{}`), "does not have"},
		{"an unknown route answered with the envelope", request("GET", "/api/v1/nowhere", nil), nil,
			answer(404, "application/json", `{"error":{"code":"not_found","message":"no route","details":{}}}`), ""},
	} {
		got := strings.Join(check.Check(c.req, c.body, false, c.res), "\n")
		switch {
		case c.departs == "" && got != "":
			t.Errorf("%s: reported %s", c.name, got)
		case c.departs != "" && !strings.Contains(got, c.departs):
			t.Errorf("%s: reported %q, want a report containing %q", c.name, got, c.departs)
		}
	}
}
