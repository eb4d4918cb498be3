package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"radar"
	"radar/internal/api"
	"radar/internal/sqldb/storetest"
)

// fieldReason returns the reason a validation_error gives for path, "" when it names no such field.
func fieldReason(details map[string]any, path string) string {
	fields, _ := details["fields"].([]any)
	for _, f := range fields {
		if str(obj(f)["path"]) == path {
			return str(obj(f)["reason"])
		}
	}
	return ""
}

// Tool arguments pass the same text check as REST bodies and query parameters, on both engines.
func TestToolsRefuseControlText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		cs := e.connect(t, e.key(t, org, radar.Scopes...), Path)
		id := str(ok(t, cs, "add_company", companyArgs("Northwind", "northwind.example")).data()["id"])
		nul := companyArgs("North\x00wind", "northwind-two.example")
		line := companyArgs("Southwind", "southwind.example")
		line["founders"] = []any{map[string]any{"name": "Ada\nLovelace"}}
		tests := map[string]struct {
			tool   string
			args   map[string]any
			path   string
			reason string
		}{
			"add_company with a NUL":       {"add_company", nul, "companyName", "NUL"},
			"add_company with a line feed": {"add_company", line, "founders[0].name", "single line"},
			"update_company with a NUL":    {"update_company", map[string]any{"id": id, "thingsToTrack": "a\x00"}, "thingsToTrack", "NUL"},
			"update_company zero-width":    {"update_company", map[string]any{"id": id, "companyName": "\u200b"}, "companyName", "visible"},
			"list_signals q with a NUL":    {"list_signals", map[string]any{"q": "\x00"}, "q", "NUL"},
			"list_alerts entityQuery ESC":  {"list_alerts", map[string]any{"entityQuery": "North\x1b"}, "entityQuery", "U+001B"},
			"list_leads name with a NUL":   {"list_leads", map[string]any{"name": "a\x00"}, "name", "NUL"},
			"list_leads sourceQuery CR":    {"list_leads", map[string]any{"sourceQuery": "a\rb"}, "sourceQuery", "single line"},
			"list_companies sector NUL":    {"list_companies", map[string]any{"classification": "fin\x00"}, "classification", "NUL"},
		}
		for name, tt := range tests {
			t.Run(name, func(t *testing.T) {
				r := fails(t, cs, tt.tool, tt.args, radar.EValidation)
				if got := fieldReason(r.errDetails(), tt.path); !strings.Contains(got, tt.reason) {
					t.Errorf("reason for %s = %q, want one containing %q; %s", tt.path, got, tt.reason, r.text)
				}
			})
		}
	})
}

// rpc posts a raw JSON-RPC body to the MCP endpoint and returns the status and the decoded answer.
func (e *testEnv) rpc(t *testing.T, key string, body []byte) (int, http.Header, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+Path, strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("status %d, Content-Type %q: body is not JSON: %q", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	return res.StatusCode, res.Header, out
}

// Failures of the transport itself (a body over the limit, an unknown method, a malformed request, text
// that is not valid Unicode) are JSON-RPC error objects for the request's id, with Radar's envelope in
// their data, never plain text.
func TestTransportErrorsAreJSONRPCErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		key := e.key(t, e.org(t, "acme"), radar.Scopes...)
		big := `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", api.MaxBodyBytes) + `"}}`
		tests := map[string]struct {
			body    string
			status  int
			id      any
			rpcCode float64
			code    string
		}{
			"body over the limit":       {big, http.StatusRequestEntityTooLarge, nil, api.RPCInvalidRequest, radar.EPayloadTooLarge},
			"unknown method":            {`{"jsonrpc":"2.0","id":3,"method":"tools/destroy","params":{}}`, http.StatusBadRequest, 3.0, api.RPCMethodNotFound, radar.ENotFound},
			"unknown method, string id": {`{"jsonrpc":"2.0","id":"a","method":"nope"}`, http.StatusBadRequest, "a", api.RPCMethodNotFound, radar.ENotFound},
			"not JSON":                  {`{"jsonrpc":`, http.StatusBadRequest, nil, api.RPCParseError, radar.EInvalidJSON},
			"call without params":       {`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`, http.StatusBadRequest, 4.0, api.RPCInvalidRequest, radar.EValidation},
			"invalid UTF-8 in an argument": {`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add_company","arguments":{"companyName":"a` + "\xff" + `"}}}`,
				http.StatusBadRequest, 5.0, api.RPCInvalidParams, radar.EValidation},
			"lone surrogate in an argument": {`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list_signals","arguments":{"q":"\udfff"}}}`,
				http.StatusBadRequest, 6.0, api.RPCInvalidParams, radar.EValidation},
		}
		for name, tt := range tests {
			t.Run(name, func(t *testing.T) {
				status, header, res := e.rpc(t, key, []byte(tt.body))
				if status != tt.status || !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
					t.Errorf("status %d, Content-Type %q; want %d, application/json", status, header.Get("Content-Type"), tt.status)
				}
				rpcErr := obj(res["error"])
				if res["jsonrpc"] != "2.0" || res["id"] != tt.id || rpcErr["code"] != tt.rpcCode || str(rpcErr["message"]) == "" {
					t.Errorf("answer %v, want a JSON-RPC error %v for id %v", res, tt.rpcCode, tt.id)
				}
				env := obj(obj(rpcErr["data"])["error"])
				if env["code"] != tt.code || str(env["message"]) == "" || env["details"] == nil {
					t.Errorf("data %v, want the envelope with code %s and details", rpcErr["data"], tt.code)
				}
			})
		}
		_, _, res := e.rpc(t, key, []byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"add_company","arguments":{"companyName":"a`+"\xff"+`"}}}`))
		if got := fieldReason(obj(obj(obj(res["error"])["data"])["error"])["details"].(map[string]any), "params.arguments.companyName"); got != "must be valid UTF-8" {
			t.Errorf("invalid UTF-8: reason for params.arguments.companyName = %q; answer %v", got, res)
		}
	})
}

// A key without a tool's scope learns nothing of the tool's arguments: the scope is checked before them.
func TestToolScopeBeforeArguments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		e := startEnv(t, engine, envOptions{})
		org := e.org(t, "acme")
		reader := e.connect(t, e.key(t, org, radar.ScopeTrackerRead, radar.ScopeLeadsRead), Path)
		bad := map[string]any{"id": "not-a-uuid", "companyName": 5, "founders": "x", "bogus": true, "accepted": "maybe", "thingsToTrack": "\x00"}
		for _, tl := range tools() {
			if tl.def.Annotations.ReadOnlyHint {
				continue
			}
			t.Run(tl.def.Name, func(t *testing.T) {
				fails(t, reader, tl.def.Name, bad, radar.EInsufficientScope)
			})
		}
	})
}
