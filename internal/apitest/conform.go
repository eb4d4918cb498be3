package apitest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/google/uuid"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Conformance checks every request a test sends and every answer it receives under /api/v1 against the served
// OpenAPI document, with kin-openapi's validator (OpenAPI 3.1, JSON Schema 2020-12):
//   - the answer's status is documented for the operation, its Content-Type is the documented one and its body
//     validates against the documented schema;
//   - a request that breaks the document (a parameter or body outside its schema) is answered with a 4xx;
//   - a request to no documented operation is answered with a 4xx error envelope.
type Conformance struct {
	doc    *openapi3.T
	router routers.Router
	server *url.URL

	// Bodies are checked with schemas compiled once from the document (kin-openapi compiles them again for
	// every value it checks).
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

// documentURL names the document among the compiler's resources.
const documentURL = "https://radar.test/openapi.json"

// defineFormats asserts the string formats the document uses beyond date and date-time, as the API reads them.
var defineFormats = sync.OnceFunc(func() {
	openapi3.DefineStringFormatCallback("uuid", func(v string) error {
		if _, err := uuid.Parse(v); err != nil || len(v) != 36 {
			return fmt.Errorf("%q is not a UUID", v)
		}
		return nil
	})
	openapi3.DefineStringFormatCallback("uri", func(v string) error {
		if u, err := url.Parse(v); err != nil || !u.IsAbs() || u.Host == "" {
			return fmt.Errorf("%q is not an absolute URI", v)
		}
		return nil
	})
	openapi3.DefineStringFormatCallback("email", func(v string) error {
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
			return fmt.Errorf("%q is not an e-mail address", v)
		}
		return nil
	})
})

// NewConformance loads the served document.
func NewConformance(served []byte) (*Conformance, error) {
	defineFormats()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(served)
	if err != nil {
		return nil, fmt.Errorf("load the OpenAPI document: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not valid: %w", err)
	}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route the OpenAPI document: %w", err)
	}
	if doc.Components == nil || doc.Components.Schemas["ErrorBody"] == nil {
		return nil, errors.New("the OpenAPI document has no ErrorBody schema")
	}
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(served))
	if err != nil {
		return nil, err
	}
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	compiler.AssertFormat()
	if err := compiler.AddResource(documentURL, raw); err != nil {
		return nil, err
	}
	if len(doc.Servers) == 0 {
		return nil, errors.New("the OpenAPI document lists no server")
	}
	server, err := url.Parse(doc.Servers[0].URL)
	if err != nil {
		return nil, fmt.Errorf("the OpenAPI document's server: %w", err)
	}
	return &Conformance{doc: doc, router: r, server: server, compiler: compiler, schemas: map[string]*jsonschema.Schema{}}, nil
}

// conformance returns the Env's checker, loaded once from its server's document.
func (e *Env) conformance(t testing.TB) *Conformance {
	e.conformOnce.Do(func() {
		c, err := NewConformance(e.Server.OpenAPI())
		if err != nil {
			t.Errorf("OpenAPI conformance: %v", err)
			return
		}
		e.checker = c
	})
	return e.checker
}

// RequestError returns how req (with body reqBody) breaks the document, nil when it keeps to it or names no
// documented operation.
func (c *Conformance) RequestError(req *http.Request, reqBody []byte) error {
	probe, route, params, err := c.route(req)
	if err != nil {
		return nil
	}
	return c.requestError(probe, route, params, reqBody, false)
}

// route finds the documented operation of req, routed against the document's server whatever address the test
// server listens on.
func (c *Conformance) route(req *http.Request) (*http.Request, *routers.Route, map[string]string, error) {
	probe := req.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = c.server.Scheme, c.server.Host, c.server.Host
	probe.Body = http.NoBody
	route, params, err := c.router.FindRoute(probe)
	for _, v := range params {
		if v == "" {
			// The router lets a template's last segment match nothing (/tracker for /tracker/{id}).
			err = routers.ErrPathNotFound
		}
	}
	return probe, route, params, err
}

// requestError checks the parameters with kin-openapi and the body with the compiled schema of the operation.
func (c *Conformance) requestError(probe *http.Request, route *routers.Route, params map[string]string, reqBody []byte, stream bool) error {
	opts := &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true, ExcludeRequestBody: true,
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return err
	}
	rb := route.Operation.RequestBody
	if rb == nil || rb.Value == nil || stream {
		return nil
	}
	if len(reqBody) == 0 {
		if rb.Value.Required {
			return errors.New("the request body is required")
		}
		return nil
	}
	if ct := mediaType(probe.Header); rb.Value.Content.Get(ct) == nil {
		return fmt.Errorf("request Content-Type %q is not one the document lists", ct)
	}
	return c.validate(pointer("paths", route.Path, strings.ToLower(route.Method), "requestBody", "content", "application/json", "schema"), reqBody)
}

// Check reports every way the exchange departs from the document. reqBody is the body sent; stream is true
// when it was a stream the client did not keep, whose body is then not checked.
func (c *Conformance) Check(req *http.Request, reqBody []byte, stream bool, res *Response) []string {
	if !strings.HasPrefix(req.URL.Path, "/api/v1/") {
		return nil
	}
	var out []string
	where := req.Method + " " + req.URL.RequestURI()
	fail := func(format string, args ...any) {
		out = append(out, where+": "+fmt.Sprintf(format, args...))
	}
	if res.Status == statusClientGone {
		// A request its client abandoned: the answer is recorded, never read.
		return nil
	}
	if res.Status == statusClientGone {
		// A request its client abandoned: the answer is recorded, never read.
		return nil
	}
	probe, route, params, err := c.route(req)
	if err != nil {
		if res.Status < 400 || res.Status >= 500 {
			fail("%d on an operation the document does not have: %s", res.Status, res.Body)
			return out
		}
		if ct := mediaType(res.Header); ct != "application/json" {
			fail("%d with Content-Type %q, want application/json", res.Status, ct)
		}
		if err := c.validate(pointer("components", "schemas", "ErrorBody"), res.Body); err != nil {
			fail("%d is not the error envelope: %v: %s", res.Status, err, res.Body)
		}
		return out
	}
	if err := c.requestError(probe, route, params, reqBody, stream); err != nil && res.Status < 400 {
		fail("the request breaks the document (%v) but was answered %d", oneLine(err), res.Status)
	}
	code := strconv.Itoa(res.Status)
	doc := route.Operation.Responses.Value(code)
	if doc == nil || doc.Value == nil {
		fail("status %d is not documented for %s %s: %s", res.Status, route.Method, route.Path, res.Body)
		return out
	}
	if len(doc.Value.Content) == 0 {
		if len(res.Body) > 0 {
			fail("%d has a body where the document describes none: %s", res.Status, res.Body)
		}
		return out
	}
	ct := mediaType(res.Header)
	if doc.Value.Content.Get(ct) == nil {
		fail("%d with Content-Type %q, which the document does not list", res.Status, ct)
		return out
	}
	if ct == "text/csv" {
		if _, err := csv.NewReader(bytes.NewReader(res.Body)).ReadAll(); err != nil {
			fail("%d answer is not RFC 4180 CSV: %v", res.Status, err)
		}
		return out
	}
	ptr := pointer("paths", route.Path, strings.ToLower(route.Method), "responses", code, "content", ct, "schema")
	if err := c.validate(ptr, res.Body); err != nil {
		fail("%d answer does not match the document: %v\nbody: %s", res.Status, oneLine(err), res.Body)
	}
	return out
}

// statusClientGone is the status recorded for a request whose client went away (nginx's 499).
const statusClientGone = 499

// pointer is the location of a schema in the document, as a JSON pointer fragment.
func pointer(parts ...string) string {
	var b strings.Builder
	b.WriteString(documentURL + "#")
	for _, p := range parts {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// validate checks a JSON body against the schema at ptr, compiled once (JSON Schema 2020-12, formats asserted).
func (c *Conformance) validate(ptr string, body []byte) error {
	c.mu.Lock()
	s, ok := c.schemas[ptr]
	if !ok {
		var err error
		if s, err = c.compiler.Compile(ptr); err != nil {
			c.mu.Unlock()
			return fmt.Errorf("compile %s: %w", ptr, err)
		}
		c.schemas[ptr] = s
	}
	c.mu.Unlock()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	return s.Validate(v)
}

func mediaType(h http.Header) string {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt
}

func oneLine(err error) string {
	s := err.Error()
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return s
}

// sentBody returns the bytes r sends as its body (nil for none), and whether it sends a stream instead.
func sentBody(r Request) ([]byte, bool) {
	switch b := r.Body.(type) {
	case nil:
		return nil, false
	case []byte:
		return b, false
	case string:
		return []byte(b), false
	case io.Reader:
		return nil, true
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, true
		}
		return j, false
	}
}

// checkConformance checks one exchange of the Env's client; a departure from the document fails the test.
func (e *Env) checkConformance(t testing.TB, r Request, req *http.Request, res *Response) {
	c := e.conformance(t)
	if c == nil {
		return
	}
	body, stream := sentBody(r)
	for _, msg := range c.Check(req, body, stream, res) {
		t.Errorf("OpenAPI conformance: %s", msg)
	}
}
