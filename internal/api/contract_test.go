package api_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"pgregory.net/rapid"

	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// kinds of generated requests: valid ones stay inside every schema, boundary ones sit on its limits (lengths,
// item counts, minimums, each enum value), invalid ones break one rule of it.
const (
	kindValid    = "valid"
	kindBoundary = "boundary"
	kindInvalid  = "invalid"
)

// TestGeneratedRequestsFromTheDocument derives requests from the served document's own schemas: for every
// operation, path ids (existing ones, unknown ones, malformed ones), query parameters, headers and JSON bodies
// that are valid, on the boundaries of the schemas, or invalid. Every answer must be documented for its
// operation (status, Content-Type, body schema, via apitest's conformance check), a request that breaks the
// document must be answered with a 4xx, and no answer may be a 5xx. Cases run per operation with
// pgregory.net/rapid (-rapid.checks sets how many; 100 by default), which shrinks a failing request.
func TestGeneratedRequestsFromTheDocument(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := apitest.StartWith(t, engine, apitest.Options{Enricher: draftEnricher{}})
		key := env.Key(t, env.OrgA)
		doc, err := openapi3.NewLoader().LoadFromData(env.Server.OpenAPI())
		if err != nil {
			t.Fatal(err)
		}
		check, err := apitest.NewConformance(env.Server.OpenAPI())
		if err != nil {
			t.Fatal(err)
		}
		// Resources that exist, so that generated ids also reach the handlers' success paths.
		ids := map[string][]string{}
		for i := range 3 {
			id := create(t, env, key, fmt.Sprintf("Seeded %d", i))
			run := env.SeedRun(t, env.OrgA, id)
			ids["tracker"] = append(ids["tracker"], id)
			ids["signals"] = append(ids["signals"], run.SignalID)
			ids["alerts"] = append(ids["alerts"], run.AlertID)
			ids["leads"] = append(ids["leads"], run.LeadID)
		}

		var mu sync.Mutex
		counts := map[string]int{}
		count := func(k string) { mu.Lock(); counts[k]++; mu.Unlock() }
		paths := doc.Paths.Map()
		for _, tmpl := range slices.Sorted(maps.Keys(paths)) {
			ops := paths[tmpl].Operations()
			for _, method := range slices.Sorted(maps.Keys(ops)) {
				op := ops[method]
				t.Run(method+" "+tmpl, func(t *testing.T) {
					rapid.Check(t, func(rt *rapid.T) {
						kind := rapid.SampledFrom([]string{kindValid, kindBoundary, kindInvalid}).Draw(rt, "kind")
						g := &gen{rt: rt, kind: kind}
						// An invalid case breaks one value of one part of the request; the rest stays valid.
						var parts []string
						for _, pr := range op.Parameters {
							if !slices.Contains(parts, pr.Value.In) {
								parts = append(parts, pr.Value.In)
							}
						}
						if op.RequestBody != nil {
							parts = append(parts, "body")
						}
						broken := ""
						if kind == kindInvalid && len(parts) > 0 {
							broken = rapid.SampledFrom(parts).Draw(rt, "broken part")
						}
						var brokenParam string
						if broken != "" && broken != "body" {
							var names []string
							for _, pr := range op.Parameters {
								if pr.Value.In == broken {
									names = append(names, pr.Value.Name)
								}
							}
							brokenParam = rapid.SampledFrom(names).Draw(rt, "broken parameter")
						}
						path := tmpl
						q := url.Values{}
						h := http.Header{}
						for _, pr := range op.Parameters {
							p := pr.Value
							pg := g.part(p.Name == brokenParam && p.In == broken)
							switch p.In {
							case "path":
								path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(pg.id(ids[resourceOf(tmpl)])))
							case "query":
								if pg.kind != kindInvalid && (p.Name == "cursor" || !rapid.Bool().Draw(rt, "with "+p.Name)) {
									continue
								}
								q.Set(p.Name, pg.param(p.Schema.Value, p.Name))
							case "header":
								if pg.kind == kindInvalid || rapid.Bool().Draw(rt, "with "+p.Name) {
									h.Set(p.Name, pg.param(p.Schema.Value, p.Name))
								}
							}
						}
						var body any
						if rb := op.RequestBody; rb != nil {
							b := g.part(broken == "body").value(rb.Value.Content.Get("application/json").Schema.Value, "body", 0)
							raw, _ := json.Marshal(b)
							body = raw
						}
						if len(q) > 0 {
							path += "?" + q.Encode()
						}
						req, err := env.NewRequest(apitest.Request{Method: method, Path: path, Key: key, Body: body, Header: h})
						if err != nil {
							rt.Fatalf("build request: %v", err)
						}
						rec := httptest.NewRecorder()
						env.Server.ServeHTTP(rec, req)
						res := &apitest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
						var v any
						if json.Unmarshal(res.Body, &v) == nil {
							res.JSON = v
						}
						sent, _ := body.([]byte)
						class := kind
						if kind == kindInvalid && check.RequestError(req, sent) == nil {
							// The broken part was optional and left out: the request keeps to the document.
							class = "invalid drawn but valid"
						}
						count(class)
						count(class + " " + strconv.Itoa(res.Status/100) + "xx")
						if res.Status >= 500 {
							count("failed: 5xx")
							rt.Fatalf("%s %s answered %d: %s", method, path, res.Status, res.Body)
						}
						if msgs := check.Check(req, sent, false, res); len(msgs) > 0 {
							count("failed: not documented")
							rt.Fatalf("%s", strings.Join(msgs, "\n"))
						}
					})
				})
			}
		}
		keys := slices.Sorted(maps.Keys(counts))
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%d", k, counts[k])
		}
		t.Logf("generated requests on %s:%s", engine, b.String())
	})
}

// resourceOf names the resource of a path template: /api/v1/signals/{id} → signals.
func resourceOf(tmpl string) string {
	parts := strings.Split(strings.TrimPrefix(tmpl, "/api/v1/"), "/")
	return parts[0]
}

// gen draws values from schemas for one kind of case.
type gen struct {
	rt   *rapid.T
	kind string
}

// part returns the generator of one part of the request: an invalid case breaks only the chosen part.
func (g *gen) part(broken bool) *gen {
	if g.kind == kindInvalid && !broken {
		return &gen{rt: g.rt, kind: kindValid}
	}
	return g
}

func (g *gen) id(existing []string) string {
	switch g.kind {
	case kindInvalid:
		return rapid.SampledFrom([]string{"not-a-uuid", "123", strings.Repeat("a", 300), "00000000-0000-0000-0000-00000000000g"}).Draw(g.rt, "bad id")
	case kindBoundary:
		return rapid.SampledFrom([]string{uuid.Nil.String(), "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF", uuid.NewString()}).Draw(g.rt, "edge id")
	}
	if len(existing) > 0 && rapid.IntRange(0, 3).Draw(g.rt, "existing") > 0 {
		return rapid.SampledFrom(existing).Draw(g.rt, "id")
	}
	return uuid.NewString()
}

// param renders a drawn value of s as a query or header parameter.
func (g *gen) param(s *openapi3.Schema, name string) string {
	switch v := g.value(s, name, 0).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return strings.Trim(string(b), `"`)
	}
}

// value draws a JSON value of schema s.
func (g *gen) value(s *openapi3.Schema, name string, depth int) any {
	rt := g.rt
	if len(s.AnyOf) > 0 {
		alt := rapid.IntRange(0, len(s.AnyOf)-1).Draw(rt, name+" alternative")
		return g.value(s.AnyOf[alt].Value, name, depth)
	}
	if g.kind == kindInvalid {
		return g.breakOne(s, name, depth)
	}
	if len(s.Enum) > 0 {
		return rapid.SampledFrom(s.Enum).Draw(rt, name)
	}
	switch {
	case s.Type.Is("string") || s.Type.Includes("string"):
		return g.str(s, name)
	case s.Type.Includes("integer"):
		lo, hi := int64(-5), int64(500)
		if s.Min != nil {
			lo = int64(*s.Min)
		}
		if s.Max != nil {
			hi = int64(*s.Max)
		}
		if g.kind == kindBoundary {
			return rapid.SampledFrom([]int64{lo, hi, hi + 1}).Draw(rt, name)
		}
		return rapid.Int64Range(lo, hi).Draw(rt, name)
	case s.Type.Includes("number"):
		return rapid.Float64Range(-1e6, 1e6).Draw(rt, name)
	case s.Type.Includes("boolean"):
		return rapid.Bool().Draw(rt, name)
	case s.Type.Includes("array"):
		lo, hi := int(s.MinItems), int(s.MinItems)+3
		if s.MaxItems != nil {
			hi = int(*s.MaxItems)
		}
		n := rapid.IntRange(lo, min(hi, lo+3)).Draw(rt, name+" length")
		if g.kind == kindBoundary {
			n = rapid.SampledFrom([]int{lo, hi}).Draw(rt, name+" length")
		}
		out := make([]any, n)
		for i := range out {
			out[i] = g.value(s.Items.Value, fmt.Sprintf("%s[%d]", name, i), depth+1)
		}
		return out
	case s.Type.Includes("object") || len(s.Properties) > 0:
		out := map[string]any{}
		for _, p := range slices.Sorted(maps.Keys(s.Properties)) {
			if !slices.Contains(s.Required, p) && !rapid.Bool().Draw(rt, name+"."+p+" present") {
				continue
			}
			out[p] = g.value(s.Properties[p].Value, name+"."+p, depth+1)
		}
		return out
	}
	return nil
}

// str draws a string of s: of its format, within (or on) its length limits.
func (g *gen) str(s *openapi3.Schema, name string) string {
	rt := g.rt
	lo, hi := int(s.MinLength), int(s.MinLength)+40
	if s.MaxLength != nil {
		hi = int(*s.MaxLength)
	}
	n := rapid.IntRange(lo, min(hi, lo+40)).Draw(rt, name+" length")
	if g.kind == kindBoundary {
		n = rapid.SampledFrom([]int{lo, hi}).Draw(rt, name+" length")
	}
	pad := func(prefix string, n int) string {
		if n <= len(prefix) {
			return prefix
		}
		return prefix + strings.Repeat("a", n-len(prefix))
	}
	switch s.Format {
	case "uri":
		return pad("https://x"+strconv.Itoa(rapid.IntRange(0, 1e6).Draw(rt, name+" host"))+".example/", n)
	case "email":
		return rapid.SampledFrom([]string{"a@fund.example", "b@fund.example", "c@x.example"}).Draw(rt, name)
	case "uuid":
		return uuid.NewString()
	case "date":
		return rapid.SampledFrom([]string{"2026-01-01", "1970-01-01", "2099-12-31"}).Draw(rt, name)
	case "date-time":
		return rapid.SampledFrom([]string{"2026-01-01T00:00:00Z", "2026-11-21T09:30:00.123456+00:00", "2000-02-29T23:59:59-05:00"}).Draw(rt, name)
	}
	if strings.HasPrefix(s.Pattern, "^([!-~]{8,") {
		// Idempotency-Key: 8 or more printable ASCII characters.
		return pad("k-"+strconv.Itoa(rapid.IntRange(0, 1e6).Draw(rt, name+" key")), max(n, 8))
	}
	alphabet := []rune("abcXYZ 019-_é漢\u00a0")
	var b strings.Builder
	for range n {
		b.WriteRune(rapid.SampledFrom(alphabet).Draw(rt, name+" rune"))
	}
	out := b.String()
	if lo > 0 && strings.TrimSpace(out) == "" {
		out = strings.Repeat("x", max(lo, 1))
	}
	return out
}

// breakOne draws a value of s in which exactly one value breaks its schema: s itself, or one property or item.
func (g *gen) breakOne(s *openapi3.Schema, name string, depth int) any {
	rt := g.rt
	valid := &gen{rt: rt, kind: kindValid}
	switch {
	case len(s.Properties) > 0 && rapid.IntRange(0, 3).Draw(rt, name+" break inside") > 0:
		target := rapid.SampledFrom(slices.Sorted(maps.Keys(s.Properties))).Draw(rt, name+" broken property")
		out, _ := valid.value(s, name, depth).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		out[target] = g.breakOne(s.Properties[target].Value, name+"."+target, depth+1)
		return out
	case s.Items != nil && rapid.Bool().Draw(rt, name+" break an item"):
		items, _ := valid.value(s, name, depth).([]any)
		if len(items) == 0 {
			items = []any{nil}
		}
		i := rapid.IntRange(0, len(items)-1).Draw(rt, name+" broken item")
		items[i] = g.breakOne(s.Items.Value, fmt.Sprintf("%s[%d]", name, i), depth+1)
		return items
	}
	if len(s.AnyOf) > 0 {
		return g.broken(s.AnyOf[0].Value, name)
	}
	if v := g.broken(s, name); v != nil {
		return v
	}
	return valid.value(s, name, depth)
}

// broken draws a value that breaks s: of another type, outside its limits or its enumeration, or malformed.
func (g *gen) broken(s *openapi3.Schema, name string) any {
	rt := g.rt
	var options []any
	switch {
	case len(s.Enum) > 0:
		options = append(options, "not-a-member", 12345)
	case s.Type.Includes("string"):
		options = append(options, 42.5, true)
		if s.MaxLength != nil {
			options = append(options, strings.Repeat("x", int(*s.MaxLength)+1))
		}
		if s.MinLength > 0 {
			options = append(options, "")
		}
		if strings.HasPrefix(s.Pattern, "^([!-~]{8,") {
			options = append(options, "short", "has space")
		}
		switch s.Format {
		case "uri":
			options = append(options, "not a url", "ftp://x.example", "https://")
		case "email":
			options = append(options, "not-an-email", "a@")
		case "date", "date-time":
			options = append(options, "yesterday", "2026-13-45")
		}
	case s.Type.Includes("integer"):
		options = append(options, "seven", 1.5, math.MaxInt64)
		if s.Min != nil {
			options = append(options, int64(*s.Min)-1)
		}
	case s.Type.Includes("boolean"):
		options = append(options, "maybe", 2)
	case s.Type.Includes("array"):
		options = append(options, "not-an-array", map[string]any{})
		if s.MaxItems != nil {
			items := make([]any, *s.MaxItems+1)
			for i := range items {
				items[i] = g.value(s.Items.Value, name+" item", 1)
			}
			options = append(options, items)
		}
		if s.MinItems > 0 {
			options = append(options, []any{})
		}
	case s.Type.Includes("object"):
		options = append(options, []any{1}, "object?", map[string]any{"unknownField": 1})
		if len(s.Required) > 0 {
			options = append(options, map[string]any{})
		}
	}
	if len(options) == 0 {
		return nil
	}
	i := rapid.IntRange(0, len(options)-1).Draw(rt, name+" broken")
	return options[i]
}
