package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"radar"
	"radar/internal/api"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// testEnv is a real API server with the MCP handler mounted, on a fresh database of one engine.
type testEnv struct {
	engine  string
	db      *sqldb.DB
	svc     *service.Service
	limiter *ratelimit.Limiter
	srv     *httptest.Server
}

// envOptions change how startEnv builds the server; the zero value suits most tests.
type envOptions struct {
	// buckets replace the rate limits.
	buckets map[string]ratelimit.Bucket
	// store wraps the database the service uses.
	store  func(radar.Store) radar.Store
	logger *slog.Logger
	// toolsets are the toolsets configured besides the default one.
	toolsets []string
}

// startEnv starts the server on a fresh database of engine.
func startEnv(t testing.TB, engine string, o envOptions) *testEnv {
	t.Helper()
	db := storetest.Open(t, engine)
	var store radar.Store = db
	if o.store != nil {
		store = o.store(db)
	}
	svc := service.New(service.Config{Store: store, BaseURL: "http://radar.test", Secret: []byte("mcp test secret")})
	// A fixed clock keeps every call of a test in one rate window.
	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	limiter := ratelimit.New(ratelimit.Config{Buckets: o.buckets, Now: func() time.Time { return now }, Timeout: time.Second})
	srv := httptest.NewServer(api.New(api.Config{Service: svc, Limiter: limiter, Logger: o.logger, MCP: NewHandler(svc, limiter, o.logger, o.toolsets...)}))
	t.Cleanup(srv.Close)
	return &testEnv{engine: engine, db: db, svc: svc, limiter: limiter, srv: srv}
}

// org creates an organisation.
func (e *testEnv) org(t testing.TB, slug string) *radar.Org {
	t.Helper()
	o, err := e.svc.CreateOrg(context.Background(), slug, "Org "+slug)
	if err != nil {
		t.Fatalf("create org %s: %v", slug, err)
	}
	return o
}

// key issues an API key of org with scopes and returns its secret.
func (e *testEnv) key(t testing.TB, org *radar.Org, scopes ...string) string {
	t.Helper()
	k, err := e.svc.CreateKey(context.Background(), org.ID, "agent", scopes, 0)
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	return k.Secret
}

// bearer adds an API key to every request.
type bearer struct {
	key  string
	base http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.base.RoundTrip(r)
}

// connect opens an MCP client session at path (Path or Path+"/readonly") with key, speaking the newest
// protocol version.
func (e *testEnv) connect(t testing.TB, key, path string) *mcp.ClientSession {
	t.Helper()
	return e.connectVersion(t, key, path, "")
}

// connectVersion opens a session speaking protocol version, or the newest one when version is "".
func (e *testEnv) connectVersion(t testing.TB, key, path, version string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "radar-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             e.srv.URL + path,
		HTTPClient:           &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}, Timeout: 30 * time.Second},
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
	}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect to %s: %v", path, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// result is a decoded tool result.
type result struct {
	isError bool
	text    string
	body    map[string]any
}

// errCode is the error code of a failed result, "" for a success.
func (r result) errCode() string {
	if !r.isError {
		return ""
	}
	e, _ := r.body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func (r result) errMessage() string {
	e, _ := r.body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

func (r result) errDetails() map[string]any {
	e, _ := r.body["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return d
}

func (r result) data() map[string]any {
	d, _ := r.body["data"].(map[string]any)
	return d
}

func (r result) items() []map[string]any {
	var out []map[string]any
	list, _ := r.body["data"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

// call calls a tool and decodes its text content, checking that the structured content holds the same JSON.
func call(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", name, res.Content[0])
	}
	r := result{isError: res.IsError, text: tc.Text}
	if err := json.Unmarshal([]byte(tc.Text), &r.body); err != nil {
		t.Fatalf("%s: text content is not a JSON object: %v\n%s", name, err, tc.Text)
	}
	sc, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("%s: structured content: %v", name, err)
	}
	var structured map[string]any
	if err := json.Unmarshal(sc, &structured); err != nil || !jsonEqual(structured, r.body) {
		t.Errorf("%s: structuredContent %s differs from the text content %s", name, sc, tc.Text)
	}
	if !res.IsError {
		if err := outputSchemas()[name].Validate(structured); err != nil {
			t.Errorf("%s: structuredContent does not validate against the tool's outputSchema: %v\n%s", name, err, sc)
		}
	}
	return r
}

// outputSchemas resolves the declared output schema of every tool, by name.
var outputSchemas = sync.OnceValue(func() map[string]*jsonschema.Resolved {
	out := map[string]*jsonschema.Resolved{}
	all := tools()
	for _, ts := range Toolsets {
		all = append(all, toolset(ts)...)
	}
	for _, tl := range all {
		b, err := json.Marshal(tl.def.OutputSchema)
		if err != nil {
			panic(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			panic(fmt.Sprintf("%s: output schema: %v", tl.def.Name, err))
		}
		r, err := s.Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("%s: output schema does not resolve: %v", tl.def.Name, err))
		}
		out[tl.def.Name] = r
	}
	return out
})

// ok calls a tool that must succeed.
func ok(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) result {
	t.Helper()
	r := call(t, cs, name, args)
	if r.isError {
		t.Fatalf("%s(%v) failed: %s", name, args, r.text)
	}
	return r
}

// fails calls a tool that must fail with code.
func fails(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any, code string) result {
	t.Helper()
	r := call(t, cs, name, args)
	if got := r.errCode(); got != code {
		t.Fatalf("%s(%v): error code %q, want %q; result %s", name, args, got, code, r.text)
	}
	return r
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// companyArgs are valid add_company arguments for a company called name.
func companyArgs(name, domain string) map[string]any {
	return map[string]any{
		"companyName":    name,
		"companyWebsite": "https://" + domain + "/",
		"founders":       []any{map[string]any{"name": "Ada " + name}},
		"thingsToTrack":  "Tell me about funding rounds and founders leaving.",
		"alertEmails":    []any{"partner@example.com"},
		"confirmed":      true,
	}
}

// seedRun writes a finished tracker run of an entity: one signal, its alert and one lead.
func (e *testEnv) seedRun(t testing.TB, orgID, entityID, company, person string) (signalID, alertID, leadID string) {
	t.Helper()
	now := radar.NewTime(time.Now())
	runID, signalID, alertID, leadID := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	evidence := []radar.Evidence{
		{URL: "https://news.example/1", Title: "Raises Series A", Source: "news"},
		{URL: "https://news.example/2", Title: "Hires a CFO", Source: "news"},
		{URL: "https://news.example/3", Title: "Opens Berlin office", Source: "news"},
		{URL: "https://news.example/4", Title: "Launches product", Source: "news"},
	}
	_, err := e.db.FinishRun(context.Background(), &radar.RunReport{
		OrgID: orgID, EntityID: entityID, RunID: runID,
		Signal: &radar.Signal{
			ID: signalID, EntityID: entityID, CompanyName: company, RunID: runID, Type: radar.TypeFunding,
			Severity: "high", Recommendation: "reach_out", NeedsAttention: true,
			Summary: company + " raised a $12M Series A.", Analysis: "A long analysis of the round.",
			Evidence: evidence, Analyser: "builtin", CreatedAt: now,
		},
		Alert: &radar.Alert{
			ID: alertID, EntityID: entityID, CompanyName: company, SignalID: signalID, Outcome: radar.OutcomeSent,
			Reason: "rule 1 matched", Recipients: []string{"partner@example.com"}, Subject: company + ": funding",
			RuleEvaluations: []radar.RuleEvaluation{{RuleID: "r1", Sentence: "funding rounds", Matched: true, Reason: "Series A", Evidence: []string{"https://news.example/1"}}},
			SentAt:          &now, CreatedAt: now,
		},
		Leads: []*radar.Lead{{
			ID: leadID, Key: "lead:" + person, PersonName: person, PersonRole: "co-founder",
			Company:  radar.LeadCompany{Name: person + " Labs", Website: "https://" + uuid.NewString()[:8] + ".example/", Summary: "A new venture."},
			Relation: "departed_founder", Source: radar.LeadSource{EntityID: entityID, CompanyName: company},
			Sector: "Software", Stage: radar.StagePreSeedSeed, Evidence: evidence[:1], CreatedAt: now, UpdatedAt: now,
		}},
		HealthReason: "ok", FinishedAt: now,
	})
	if err != nil {
		t.Fatalf("seed run: %v", err)
	}
	return signalID, alertID, leadID
}
