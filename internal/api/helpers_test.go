package api_test

import (
	"encoding/json"
	"net/http"
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

// document is the served OpenAPI document's operations, used to see which documented responses a test reached.
type document struct {
	root   map[string]any
	routes []route

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

// check records which documented status of which operation a response had, and checks the promises every
// response keeps (X-Request-Id, the one form of timestamps). Its status, Content-Type and body are checked
// against the served document by apitest's conformance layer, which every request of these tests goes through.
func (d *document) check(t testing.TB, req *http.Request, res *apitest.Response) {
	where := req.Method + " " + req.URL.RequestURI()
	if res.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s: %d response without X-Request-Id", where, res.Status)
	}
	if res.JSON != nil {
		checkTimestamps(t, where, "", res.JSON)
	}
	if r := d.route(req.Method, req.URL.Path); r != nil {
		d.mu.Lock()
		d.seen[r.method+" "+r.template+" "+strconv.Itoa(res.Status)] = true
		d.mu.Unlock()
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

func list(v any) []any {
	l, _ := v.([]any)
	return l
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
