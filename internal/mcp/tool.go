package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"radar"
	"radar/internal/api"
	"radar/internal/ratelimit"
	"radar/internal/service"
)

// tool is one agent tool: its definition as listed to clients, the scopes a key needs to use it, the rate
// buckets each call counts in, and the handler of a call whose arguments have passed the type check.
type tool struct {
	def     *mcp.Tool
	scopes  []string
	buckets []string
	handle  func(ctx context.Context, e env, args json.RawMessage) (any, error)
}

// env is what a tool call runs with: the service, the limiter and the caller.
type env struct {
	svc     *service.Service
	limiter *ratelimit.Limiter
	p       *radar.Principal
}

// identified is an input naming one resource by its id.
type identified interface{ resourceID() string }

// spec describes a tool for newTool.
type spec struct {
	name, title, description string
	annotations              *mcp.ToolAnnotations
	scopes                   []string
	buckets                  []string
}

// newTool builds a tool whose arguments are the JSON object of In and whose result is Out. Calls are
// type-checked against the schema derived from In; an id argument is checked to be a UUID before run is called.
// The output schema is Out's schema in the REST API's OpenAPI document (api.JSONSchema), so that a tool's
// structured result and the REST body of the same resource are described alike.
func newTool[In, Out any](s spec, run func(ctx context.Context, e env, in In) (Out, error)) *tool {
	schema := inputSchema[In]()
	def := &mcp.Tool{
		Name: s.name, Title: s.title, Description: s.description, Annotations: s.annotations, InputSchema: schema,
		OutputSchema: api.JSONSchema(reflect.TypeFor[Out]()),
	}
	def.Annotations.Title = s.title
	return &tool{
		def:     def,
		scopes:  s.scopes,
		buckets: s.buckets,
		handle: func(ctx context.Context, e env, args json.RawMessage) (any, error) {
			in, err := decode[In](args, schema)
			if err != nil {
				return nil, err
			}
			out, err := run(ctx, e, in)
			if err != nil {
				return nil, err
			}
			return out, nil
		},
	}
}

// decode type-checks args against schema and converts them to In, failing with a validation_error that lists
// every faulty argument, including an id that is missing or not a UUID.
func decode[In any](args json.RawMessage, schema *jsonschema.Schema) (In, error) {
	var in In
	obj, probs := checkArgs(args, schema)
	if len(obj) > 0 && len(probs) == 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			probs.Add("(arguments)", "do not fit the tool's input schema")
		}
	}
	if x, ok := any(in).(identified); ok && !slices.ContainsFunc(probs, func(f radar.FieldError) bool { return f.Path == "id" }) {
		switch id := x.resourceID(); {
		case id == "":
			probs.Add("id", "is required")
		case !isUUID(id):
			probs.Addf("id", "must be a UUID, got %q", id)
		}
	}
	return in, probs.Err()
}

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

// Annotation sets of the tools. An unset hint means destructive and open-world by the MCP defaults, so every
// tool states openWorldHint, and every tool that writes states destructiveHint. A read-only tool is also
// idempotent: calling it again changes nothing.
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
}

func writes(idempotent, destructive, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{IdempotentHint: idempotent, DestructiveHint: new(destructive), OpenWorldHint: new(openWorld)}
}

// Rate buckets of the tools, as the REST routes count them: a create or a refresh also counts as a write.
func readBucket() []string    { return []string{ratelimit.Read} }
func writeBucket() []string   { return []string{ratelimit.Write} }
func createBucket() []string  { return []string{ratelimit.Write, ratelimit.Create} }
func refreshBucket() []string { return []string{ratelimit.Write, ratelimit.Refresh} }

// tools is the registry: every agent tool, in the order of the specification's table.
func tools() []*tool {
	return []*tool{
		whoami(),
		listCompanies(), getCompany(), addCompany(), updateCompany(), refreshCompany(), removeCompany(),
		listSignals(), getSignal(), listAlerts(), getAlert(),
		listLeads(), getLead(), trackLead(), decideLead(),
	}
}
