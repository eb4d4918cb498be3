package mcp

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"radar"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
)

var update = flag.Bool("update", false, "rewrite the golden tool definitions in testdata/tools")

// toolSpec is a row of the specification's tool table.
type toolSpec struct {
	scopes                                       []string
	buckets                                      []string
	readOnly, idempotent, destructive, openWorld bool
}

var (
	tr, tw, lr, lw = radar.ScopeTrackerRead, radar.ScopeTrackerWrite, radar.ScopeLeadsRead, radar.ScopeLeadsWrite
	read           = []string{ratelimit.Read}
	write          = []string{ratelimit.Write}
)

func specTable() map[string]toolSpec {
	return map[string]toolSpec{
		"whoami":          {scopes: nil, buckets: read, readOnly: true, idempotent: true},
		"list_companies":  {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"get_company":     {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"add_company":     {scopes: []string{tw}, buckets: []string{ratelimit.Write, ratelimit.Create}, idempotent: true, openWorld: true},
		"update_company":  {scopes: []string{tw}, buckets: write, idempotent: true},
		"refresh_company": {scopes: []string{tw}, buckets: []string{ratelimit.Write, ratelimit.Refresh}, openWorld: true},
		"remove_company":  {scopes: []string{tw}, buckets: write, destructive: true},
		"list_signals":    {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"get_signal":      {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"list_alerts":     {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"get_alert":       {scopes: []string{tr}, buckets: read, readOnly: true, idempotent: true},
		"list_leads":      {scopes: []string{lr}, buckets: read, readOnly: true, idempotent: true},
		"get_lead":        {scopes: []string{lr}, buckets: read, readOnly: true, idempotent: true},
		"track_lead":      {scopes: []string{lw, tw}, buckets: []string{ratelimit.Write, ratelimit.Create}, idempotent: true, openWorld: true},
		"decide_lead":     {scopes: []string{lw}, buckets: write, idempotent: true},
	}
}

func TestRegistryMatchesSpecification(t *testing.T) {
	want := specTable()
	seen := map[string]bool{}
	for _, tl := range tools() {
		name := tl.def.Name
		if seen[name] {
			t.Errorf("tool %s is registered twice", name)
		}
		seen[name] = true
		w, known := want[name]
		if !known {
			t.Errorf("tool %s is not in the specification", name)
			continue
		}
		if !slices.Equal(tl.scopes, w.scopes) {
			t.Errorf("%s scopes = %v, want %v", name, tl.scopes, w.scopes)
		}
		if !slices.Equal(tl.buckets, w.buckets) {
			t.Errorf("%s buckets = %v, want %v", name, tl.buckets, w.buckets)
		}
		a := tl.def.Annotations
		// The MCP defaults of the pointer hints are true; destructiveHint means nothing on a read-only tool.
		if a == nil || a.OpenWorldHint == nil || (a.DestructiveHint == nil && !a.ReadOnlyHint) {
			t.Errorf("%s annotations %+v: want every meaningful hint stated", name, a)
			continue
		}
		got := toolSpec{readOnly: a.ReadOnlyHint, idempotent: a.IdempotentHint, openWorld: *a.OpenWorldHint}
		if a.DestructiveHint != nil {
			got.destructive = *a.DestructiveHint
		}
		if got.readOnly != w.readOnly || got.idempotent != w.idempotent || got.destructive != w.destructive || got.openWorld != w.openWorld {
			t.Errorf("%s hints readOnly=%t idempotent=%t destructive=%t openWorld=%t, want %t %t %t %t", name,
				got.readOnly, got.idempotent, got.destructive, got.openWorld, w.readOnly, w.idempotent, w.destructive, w.openWorld)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("tool %s of the specification is missing", name)
		}
	}
}

func TestEveryToolIsDescribed(t *testing.T) {
	for _, tl := range tools() {
		d := tl.def
		if d.Title == "" || len(d.Description) < 60 || d.Annotations.Title != d.Title {
			t.Errorf("%s: title %q and description %q: want both, the title also in the annotations", d.Name, d.Title, d.Description)
		}
		s, ok := d.InputSchema.(*jsonschema.Schema)
		if !ok || s.Type != "object" {
			t.Errorf("%s: input schema %v is not an object schema", d.Name, d.InputSchema)
			continue
		}
		for _, r := range s.Required {
			if s.Properties[r] == nil {
				t.Errorf("%s: required argument %s has no schema", d.Name, r)
			}
		}
		for path, p := range properties("", s) {
			if strings.TrimSpace(p.Description) == "" {
				t.Errorf("%s: argument %s has no description", d.Name, path)
			}
			if p.Type == "" {
				t.Errorf("%s: argument %s has no single type (types %v)", d.Name, path, p.Types)
			}
		}
	}
}

// properties lists every property of s, nested ones by their path.
func properties(prefix string, s *jsonschema.Schema) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for name, p := range s.Properties {
		path := prefix + name
		out[path] = p
		if p.Items != nil && p.Items.Type == "object" {
			for k, v := range properties(path+"[].", p.Items) {
				out[k] = v
			}
		}
	}
	return out
}

// jsonFields lists the JSON names of the fields of struct type t, embedded fields flattened.
func jsonFields(t reflect.Type) []string {
	var out []string
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "-" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func argNames(name string, except ...string) []string {
	for _, tl := range tools() {
		if tl.def.Name != name {
			continue
		}
		var out []string
		for k := range tl.def.InputSchema.(*jsonschema.Schema).Properties {
			if !slices.Contains(except, k) {
				out = append(out, k)
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

func TestWriteToolsTakeEveryFieldOfTheirREST(t *testing.T) {
	tests := map[string]struct {
		tool   string
		except []string
		body   reflect.Type
	}{
		"add_company takes the create body":   {"add_company", []string{"idempotencyKey"}, reflect.TypeFor[radar.CreateInput]()},
		"update_company takes the patch body": {"update_company", []string{"id"}, reflect.TypeFor[radar.EntityPatch]()},
		"track_lead takes the track body":     {"track_lead", []string{"id", "idempotencyKey"}, reflect.TypeFor[service.TrackInput]()},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, want := argNames(tt.tool, tt.except...), jsonFields(tt.body)
			if !slices.Equal(got, want) {
				t.Errorf("%s arguments %v, want the body fields %v", tt.tool, got, want)
			}
		})
	}
	founder := jsonFields(reflect.TypeFor[radar.FounderInput]())
	if got := jsonFields(reflect.TypeFor[founderPatchArgs]()); !slices.Equal(got, founder) {
		t.Errorf("update_company founder fields %v, want %v", got, founder)
	}
	if got := jsonFields(reflect.TypeFor[founderArgs]()); !slices.Equal(got, slices.DeleteFunc(slices.Clone(founder), func(s string) bool { return s == "id" })) {
		t.Errorf("add_company founder fields %v, want %v without id", got, founder)
	}
}

func TestArgumentEnumsMatchTheDomain(t *testing.T) {
	enum := func(tool, arg string) []string {
		for _, tl := range tools() {
			if tl.def.Name == tool {
				var out []string
				for _, v := range tl.def.InputSchema.(*jsonschema.Schema).Properties[arg].Enum {
					out = append(out, fmt.Sprint(v))
				}
				return out
			}
		}
		return nil
	}
	var cadences []string
	for _, c := range service.CadenceDays {
		cadences = append(cadences, fmt.Sprint(c))
	}
	tests := map[string]struct {
		tool, arg string
		want      []string
	}{
		"signal types":            {"list_signals", "type", radar.SignalTypes},
		"signal severities":       {"list_signals", "severity", radar.Severities},
		"signal recommendations":  {"list_signals", "recommendation", radar.Recommendations},
		"alert outcomes":          {"list_alerts", "outcome", append([]string{radar.OutcomeAll}, radar.Outcomes...)},
		"company stages":          {"list_companies", "stage", radar.Stages},
		"lead stages":             {"list_leads", "stage", radar.Stages},
		"lead decisions":          {"list_leads", "decision", []string{radar.DecisionUnreviewed, radar.DecisionAccepted, radar.DecisionRejected}},
		"company statuses":        {"list_companies", "status", []string{radar.StatusOK, radar.StatusPaused}},
		"add_company cadences":    {"add_company", "cadenceDays", cadences},
		"update_company cadences": {"update_company", "cadenceDays", cadences},
		"track_lead cadences":     {"track_lead", "cadenceDays", cadences},
		"list views":              {"list_signals", "view", []string{radar.ViewCompact, radar.ViewFull}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := enum(tt.tool, tt.arg); !slices.Equal(got, tt.want) {
				t.Errorf("%s %s enum = %v, want %v", tt.tool, tt.arg, got, tt.want)
			}
		})
	}
}

func TestInstructionsTeachTheWorkflows(t *testing.T) {
	e := startEnv(t, sqldb.SQLite, envOptions{})
	cs := e.connect(t, e.key(t, e.org(t, "acme"), radar.ScopeTrackerRead), Path)
	got := cs.InitializeResult().Instructions
	for _, want := range []string{
		"operation.enrichmentComplete", "lastScrapedAt is set", "baselineLastScrapedAt", "error.details.candidates",
		"never pick one yourself", "Ask the user before removing", "pausing", "rejecting a lead", "retryAfterSeconds",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
}

// TestToolDefinitionsSnapshot compares every listed tool with its golden copy in testdata/tools, so that each
// change to the agent contract shows up in review. Run with -update to rewrite the copies.
func TestToolDefinitionsSnapshot(t *testing.T) {
	e := startEnv(t, sqldb.SQLite, envOptions{})
	cs := e.connect(t, e.key(t, e.org(t, "acme"), radar.Scopes...), Path+"?toolsets="+strings.Join(Toolsets, ","))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	optional := 0
	for _, name := range Toolsets {
		optional += len(toolset(name))
	}
	dir := filepath.Join("testdata", "tools")
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	listed := map[string]bool{}
	for _, tl := range res.Tools {
		listed[tl.Name+".json"] = true
		got, err := json.MarshalIndent(tl, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(dir, tl.Name+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no golden copy (run go test -update): %v", tl.Name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s changed; if intended, run go test ./internal/mcp -run Snapshot -update\ngot:\n%s\nwant:\n%s", tl.Name, got, want)
		}
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if !listed[f.Name()] {
			t.Errorf("golden copy %s belongs to no listed tool", f.Name())
		}
	}
	if len(res.Tools) != len(specTable())+optional {
		t.Errorf("listed %d tools, want %d", len(res.Tools), len(specTable())+optional)
	}
}

// TestEveryToolDeclaresItsOutput checks that each tool declares an object output schema that a client can
// resolve, and that it holds the result to its shape: an empty object lacks the required fields.
func TestEveryToolDeclaresItsOutput(t *testing.T) {
	for _, tl := range tools() {
		var top struct {
			Type string `json:"type"`
		}
		b, _ := json.Marshal(tl.def.OutputSchema)
		if err := json.Unmarshal(b, &top); err != nil || top.Type != "object" {
			t.Errorf("%s: output schema %s is not an object schema", tl.def.Name, b)
			continue
		}
		if err := outputSchemas()[tl.def.Name].Validate(map[string]any{}); err == nil {
			t.Errorf("%s: output schema accepts an empty object", tl.def.Name)
		}
		if a := tl.def.Annotations; a.ReadOnlyHint && !a.IdempotentHint {
			t.Errorf("%s: read-only but not idempotentHint", tl.def.Name)
		}
	}
}
