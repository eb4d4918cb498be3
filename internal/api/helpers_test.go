package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"radar/internal/apitest"
)

// timestampRE is the only form of a timestamp the API may send.
var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$`)

// looksLikeTime catches timestamps in fields whose name does not end in "At".
var looksLikeTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d`)

// start serves the API on engine and checks every response the test receives against the served OpenAPI
// document and the API's promises (X-Request-Id, timestamp form).
func start(t testing.TB, engine string) *apitest.Env {
	t.Helper()
	return startWith(t, engine, apitest.Options{})
}

func startWith(t testing.TB, engine string, o apitest.Options) *apitest.Env {
	t.Helper()
	env := apitest.StartWith(t, engine, o)
	doc := loadDocument(t, env.Server.OpenAPI())
	env.Check = func(t testing.TB, req *http.Request, res *apitest.Response) {
		doc.check(t, req, res)
	}
	return env
}

// document is the served OpenAPI document, used to check responses against their operation's schema.
type document struct {
	root    map[string]any
	schemas map[string]any
	routes  []route

	mu   sync.Mutex
	seen map[string]bool // "METHOD /template STATUS" of every checked response
}

type route struct {
	method, template string
	re               *regexp.Regexp
	op               map[string]any
}

func loadDocument(t testing.TB, b []byte) *document {
	t.Helper()
	d := &document{seen: map[string]bool{}}
	if err := json.Unmarshal(b, &d.root); err != nil {
		t.Fatalf("OpenAPI document is not JSON: %v", err)
	}
	comps, _ := d.root["components"].(map[string]any)
	d.schemas, _ = comps["schemas"].(map[string]any)
	paths, _ := d.root["paths"].(map[string]any)
	for tmpl, item := range paths {
		pattern := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		for method, op := range item.(map[string]any) {
			if m, ok := op.(map[string]any); ok {
				d.routes = append(d.routes, route{strings.ToUpper(method), tmpl, regexp.MustCompile(pattern), m})
			}
		}
	}
	return d
}

// operations lists "METHOD /template" of every documented operation.
func (d *document) operations() []string {
	var out []string
	for _, r := range d.routes {
		out = append(out, r.method+" "+r.template)
	}
	slices.Sort(out)
	return out
}

// successStatuses returns the documented 2xx statuses of an operation.
func (d *document) successStatuses(op string) []string {
	for _, r := range d.routes {
		if r.method+" "+r.template != op {
			continue
		}
		var out []string
		for code := range r.op["responses"].(map[string]any) {
			if strings.HasPrefix(code, "2") {
				out = append(out, code)
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

func (d *document) checked(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen[key]
}

// check validates one response: the promises every response keeps, and the body against the schema of
// the operation's documented response for its status.
func (d *document) check(t testing.TB, req *http.Request, res *apitest.Response) {
	where := req.Method + " " + req.URL.RequestURI()
	if res.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s: %d response without X-Request-Id", where, res.Status)
	}
	if res.JSON != nil {
		checkTimestamps(t, where, "", res.JSON)
	}
	if req.URL.Path == "/api/v1/openapi" {
		return
	}
	var errs []string
	r := d.route(req.Method, req.URL.Path)
	if r == nil {
		// Unknown routes and methods answer with the error envelope.
		if res.Status < 400 {
			t.Errorf("%s: status %d on an undocumented operation", where, res.Status)
			return
		}
		d.validate(map[string]any{"$ref": "#/components/schemas/ErrorBody"}, res.JSON, "body", &errs)
	} else {
		code := strconv.Itoa(res.Status)
		d.mu.Lock()
		d.seen[r.method+" "+r.template+" "+code] = true
		d.mu.Unlock()
		resp, ok := r.op["responses"].(map[string]any)[code].(map[string]any)
		if !ok {
			t.Errorf("%s: status %d is not documented for %s %s: %s", where, res.Status, r.method, r.template, res.Body)
			return
		}
		content, _ := resp["content"].(map[string]any)
		if len(content) == 0 {
			if len(res.Body) != 0 {
				t.Errorf("%s: %d has a body where the document describes none: %s", where, res.Status, res.Body)
			}
			return
		}
		if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/csv") {
			if content["text/csv"] == nil {
				t.Errorf("%s: %d answers CSV where the document describes none", where, res.Status)
			}
			return
		} else if !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q, want application/json", where, ct)
		}
		media, _ := content["application/json"].(map[string]any)
		schema, _ := media["schema"].(map[string]any)
		if res.JSON == nil {
			t.Errorf("%s: body is not JSON: %q", where, res.Body)
			return
		}
		d.validate(schema, res.JSON, "body", &errs)
	}
	for _, e := range errs {
		t.Errorf("%s: %d response does not match the OpenAPI document: %s", where, res.Status, e)
	}
}

func (d *document) route(method, path string) *route {
	for i, r := range d.routes {
		if r.method == method && r.re.MatchString(path) {
			// A literal path (/tracker/enrich) wins over a template (/tracker/{id}).
			if !strings.Contains(r.template, "{") {
				return &d.routes[i]
			}
		}
	}
	for i, r := range d.routes {
		if r.method == method && r.re.MatchString(path) {
			return &d.routes[i]
		}
	}
	return nil
}

// validate is a small JSON Schema check covering what the document uses: $ref, type (with null), enum,
// properties, required, additionalProperties, items, anyOf/oneOf/allOf and the date-time format.
func (d *document) validate(s map[string]any, v any, path string, errs *[]string) {
	fail := func(format string, args ...any) {
		*errs = append(*errs, path+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		target, ok := d.schemas[name].(map[string]any)
		if !ok {
			fail("unresolvable $ref %s", ref)
			return
		}
		d.validate(target, v, path, errs)
		return
	}
	for _, sub := range list(s["allOf"]) {
		d.validate(sub.(map[string]any), v, path, errs)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alts := list(s[key])
		if len(alts) == 0 {
			continue
		}
		matched := 0
		var first []string
		for _, alt := range alts {
			var e []string
			d.validate(alt.(map[string]any), v, path, &e)
			if len(e) == 0 {
				matched++
			} else if first == nil {
				first = e
			}
		}
		if matched == 0 || (key == "oneOf" && matched > 1) {
			fail("%s: %d alternatives match (first failure: %v)", key, matched, first)
		}
	}
	if types := typesOf(s["type"]); len(types) > 0 && !slices.Contains(types, jsonType(v)) {
		if !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			fail("is %s, want %v", jsonType(v), types)
			return
		}
	}
	if enum := list(s["enum"]); enum != nil && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		fail("%v is not one of %v", v, enum)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, req := range list(s["required"]) {
			if _, ok := v[req.(string)]; !ok {
				fail("required property %q is missing", req)
			}
		}
		props, _ := s["properties"].(map[string]any)
		for k, val := range v {
			if ps, ok := props[k].(map[string]any); ok {
				d.validate(ps, val, path+"."+k, errs)
				continue
			}
			switch addl := s["additionalProperties"].(type) {
			case bool:
				if !addl {
					fail("property %q is not in the schema", k)
				}
			case map[string]any:
				d.validate(addl, val, path+"."+k, errs)
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, it := range v {
				d.validate(items, it, path+"["+strconv.Itoa(i)+"]", errs)
			}
		}
	case string:
		switch s["format"] {
		case "date-time":
			if !timestampRE.MatchString(v) {
				fail("%q is not a timestamp of the form 2026-11-21T09:30:00.123456+00:00", v)
			}
		case "uri":
			if u, err := url.Parse(v); err != nil || !u.IsAbs() {
				fail("%q is not an absolute URI", v)
			}
		}
	}
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func typesOf(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, len(t))
		for i, x := range t {
			out[i], _ = x.(string)
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// checkTimestamps fails on any timestamp not in the API's one form: every field named …At, and any string
// that starts like a timestamp.
func checkTimestamps(t testing.TB, where, key string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			checkTimestamps(t, where, k, x)
		}
	case []any:
		for _, x := range v {
			checkTimestamps(t, where, key, x)
		}
	case string:
		if (strings.HasSuffix(key, "At") || looksLikeTime.MatchString(v)) && !timestampRE.MatchString(v) {
			t.Errorf("%s: %s = %q, want the form 2026-11-21T09:30:00.123456+00:00", where, key, v)
		}
	}
}

// wantError fails unless res is the error envelope with status and code.
func wantError(t testing.TB, res *apitest.Response, status int, code string) {
	t.Helper()
	if res.Status != status || res.Code() != code {
		t.Errorf("got %s, want %d %s", res, status, code)
	}
}

// wantStatus fails unless res has status.
func wantStatus(t testing.TB, res *apitest.Response, status int) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("got %s, want status %d", res, status)
	}
}

// create posts a valid create body of name with key and returns the new entity's id.
func create(t testing.TB, env *apitest.Env, key, name string) string {
	t.Helper()
	res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody(name))
	wantStatus(t, res, http.StatusCreated)
	id, _ := res.Data()["id"].(string)
	if id == "" {
		t.Fatalf("create %s: no data.id in %s", name, res.Body)
	}
	return id
}

// str reads a string at a dotted path of a decoded JSON object ("operation.entityId").
func str(m map[string]any, path string) string {
	v := dig(m, path)
	s, _ := v.(string)
	return s
}

func dig(m map[string]any, path string) any {
	var cur any = m
	for _, part := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[part]
	}
	return cur
}
