package api_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// wantDetailsObject fails unless the error envelope of res has details as an object.
func wantDetailsObject(t *testing.T, res *apitest.Response) {
	t.Helper()
	var env struct {
		Error map[string]json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(res.Body, &env); err != nil || env.Error == nil {
		t.Fatalf("no error envelope: %s", res.Body)
	}
	var details map[string]any
	if d := env.Error["details"]; d == nil || json.Unmarshal(d, &details) != nil || details == nil {
		t.Errorf("error.details = %s, want an object; body %s", env.Error["details"], res.Body)
	}
}

// Every error carries details as an object, empty when there is nothing to add: 401, 404 and 409 as much
// as a validation_error.
func TestEveryErrorHasDetails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		id := create(t, env, key, "Northwind")
		idem := http.Header{"Idempotency-Key": {"details-key-1"}}
		env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: apitest.CreateBody("Eastwind"), Header: idem})
		for name, c := range map[string]struct {
			req    apitest.Request
			status int
		}{
			"401 no key":        {apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker"}, http.StatusUnauthorized},
			"401 unknown key":   {apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: "rdr_nope_nope"}, http.StatusUnauthorized},
			"404 unknown id":    {apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker/" + radarUUID, Key: key}, http.StatusNotFound},
			"404 unknown route": {apitest.Request{Method: http.MethodGet, Path: "/api/v1/nothing", Key: key}, http.StatusNotFound},
			"405 wrong method":  {apitest.Request{Method: http.MethodPut, Path: "/api/v1/tracker", Key: key}, http.StatusMethodNotAllowed},
			"409 idempotency":   {apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: apitest.CreateBody("Westwind"), Header: idem}, http.StatusConflict},
			"400 validation":    {apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker?view=medium", Key: key}, http.StatusBadRequest},
			"400 invalid JSON":  {apitest.Request{Method: http.MethodPatch, Path: "/api/v1/tracker/" + id, Key: key, Body: "{"}, http.StatusBadRequest},
			"415 not JSON":      {apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: "x", Header: http.Header{"Content-Type": {"text/plain"}}}, http.StatusUnsupportedMediaType},
			"413 too large":     {apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: strings.Repeat(" ", 2<<20)}, http.StatusRequestEntityTooLarge},
		} {
			t.Run(name, func(t *testing.T) {
				res := env.Send(t, c.req)
				if res.Status != c.status {
					t.Fatalf("status %d, want %d: %s", res.Status, c.status, res.Body)
				}
				wantDetailsObject(t, res)
			})
		}
	})
}

// rawExchange writes request bytes on a fresh connection and reads the answer.
func rawExchange(t *testing.T, env *apitest.Env, request string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", env.HTTP.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// The answers net/http writes itself, before any handler runs (a control character in a header, a
// malformed request line, headers over the limit, an unknown transfer coding), are error envelopes too.
func TestServerLevelErrorsUseTheEnvelope(t *testing.T) {
	env := apitest.Start(t, "sqlite")
	key := env.Key(t, env.OrgA)
	huge := "X-Pad: " + strings.Repeat("x", 1<<20+8192) + "\r\n"
	for name, c := range map[string]struct {
		request string
		status  int
		code    string
	}{
		"control character in a header value": {"GET /api/v1/tracker HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n", 400, radar.EValidation},
		"NUL in a header value":               {"GET /api/v1/tracker HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \x00\r\n\r\n", 400, radar.EValidation},
		"space in a header name":              {"GET /api/v1/tracker HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400, radar.EValidation},
		"control character in the path":       {"GET /api/v1/\x7ftracker HTTP/1.1\r\nHost: x\r\n\r\n", 400, radar.EValidation},
		"malformed request line":              {"NONSENSE\r\n\r\n", 400, radar.EValidation},
		"missing Host":                        {"GET /api/v1/tracker HTTP/1.1\r\n\r\n", 400, radar.EValidation},
		"headers over the limit":              {"GET /api/v1/tracker HTTP/1.1\r\nHost: x\r\n" + huge + "\r\n", 431, radar.EHeaderTooLarge},
		"unknown transfer coding":             {"POST /api/v1/tracker HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, radar.ENotImplemented},
		"unsupported protocol version":        {"GET /api/v1/tracker HTTP/2.5\r\nHost: x\r\n\r\n", 505, radar.EHTTPVersionNotSupported},
	} {
		t.Run(name, func(t *testing.T) {
			res, body := rawExchange(t, env, c.request)
			var out struct{ Error *radar.Error }
			if res.StatusCode != c.status || res.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &out) != nil || out.Error == nil {
				t.Fatalf("answer %d %q %q, want %d with the error envelope", res.StatusCode, res.Header.Get("Content-Type"), body, c.status)
			}
			if out.Error.Code != c.code || radar.StatusOf(out.Error.Code) != c.status || out.Error.Message == "" || out.Error.Details == nil {
				t.Errorf("envelope %+v, want code %s with a message and details", out.Error, c.code)
			}
			if res.Header.Get("X-Request-Id") == "" {
				t.Errorf("no X-Request-Id")
			}
			if name == "missing Host" && out.Error.Message != "malformed request: missing required Host header" {
				t.Errorf("message %q does not say what net/http found", out.Error.Message)
			}
		})
	}
	// A handler's own answers pass through as they are, on the same kind of connection.
	res, body := rawExchange(t, env, "GET /api/v1/tracker?view=medium HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key+"\r\nConnection: close\r\n\r\n")
	var out struct{ Error *radar.Error }
	if res.StatusCode != 400 || json.Unmarshal(body, &out) != nil || out.Error == nil || !strings.HasPrefix(out.Error.Message, "view: ") {
		t.Errorf("handler answer %d %s, want its own validation_error about view", res.StatusCode, body)
	}
}
