// Package mcp offers Radar's operations as agent tools over the Model Context Protocol: streamable HTTP,
// stateless so that any replica serves any call, behind the REST API's authentication. Every tool calls the
// service layer with the key's principal and counts in the same rate buckets as its REST equivalent.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"radar"
	"radar/internal/api"
	"radar/internal/ratelimit"
	"radar/internal/service"
)

// Path is where the API server mounts the handler; Path+"/readonly" offers only the read-only tools.
const Path = "/api/mcp"

// instructions teach a connected agent the workflows that span several tools.
const instructions = `Radar tracks companies and their founders for an investor organisation. Every call acts for the organisation of your API key: call whoami to see it, the key's scopes and the rate budget left.

Workflows
- Track a company: add_company saves it at once, then finds its missing profiles (enrichment) and runs the tracker for the first time in the background. Poll get_company every operation.suggestedPollIntervalSeconds seconds until operation.enrichmentComplete is true, then until lastScrapedAt is set: the first run has finished and its signal is in list_signals. track_lead starts tracking a lead's company the same way.
- Run now: refresh_company returns baselineLastScrapedAt; poll get_company until lastScrapedAt differs from it.
- What happened: list_signals gives one signal per run (type, severity, recommendation, needsAttention); list_alerts says whether each run e-mailed the recipients and why. get_signal and get_alert give the full detail.
- What is new: list_signals with unseen=true and changed=true lists the runs that found something since your key last looked; with the delivery toolset (?toolsets=delivery), mark_signals_seen moves that position once you have shown them, and preview_rules tries draft alert rules on a company's earlier runs before update_company saves them.
- Leads: list_leads shows founders discovered around tracked companies; decide_lead accepts or rejects one; track_lead accepts one and tracks its company.

Rules
- entityQuery (list_signals, list_alerts) and sourceQuery (list_leads) take a company or founder name. When the call fails with ambiguous_entity or ambiguous_source, show the user error.details.candidates and let them choose; never pick one yourself. Then call again with entityId or sourceEntityId.
- Ask the user before removing a company (remove_company deletes its history for good), before pausing one (update_company with status "paused") and before rejecting a lead (decide_lead with accepted false).
- Lists are newest first, compact unless view is "full", and paged: pass nextCursor back as cursor; null means no more.
- A failed call returns isError with {"error": {"code", "message", "details"}}. validation_error lists every faulty argument as "path: reason": fix them all, then retry once. On rate_limited wait error.details.retryAfterSeconds seconds before calling again, and never retry add_company or refresh_company in a loop.`

// NewHandler returns the MCP endpoint: every tool at Path and the read-only tools at Path+"/readonly". It must
// run behind api.Server, which authenticates the bearer key and puts its principal in the request context.
// Each key sees only the tools its scopes allow; a call of another tool fails with insufficient_scope.
// toolsets (names of Toolsets) adds opt-in tools to the specification's; a request adds more with ?toolsets=.
func NewHandler(svc *service.Service, limiter *ratelimit.Limiter, logger *slog.Logger, toolsets ...string) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &handler{svc: svc, limiter: limiter, logger: logger, variants: map[string]*variant{}}
	for _, name := range toolsets {
		if err := CheckToolset(name); err != nil {
			panic("mcp: " + err.Error())
		}
		h.toolsets = append(h.toolsets, name)
	}
	return h
}

// CheckToolset fails unless name is one of Toolsets.
func CheckToolset(name string) error {
	if slices.Contains(Toolsets, name) {
		return nil
	}
	return fmt.Errorf("unknown toolset %q; the toolsets are %s", name, strings.Join(Toolsets, ", "))
}

type handler struct {
	svc      *service.Service
	limiter  *ratelimit.Limiter
	logger   *slog.Logger
	toolsets []string

	mu       sync.Mutex
	variants map[string]*variant
}

// variant is the endpoint for one combination of toolsets: all its tools, and its read-only ones.
type variant struct {
	full, readOnly http.Handler
}

// variant returns the endpoint offering the default tools and those of the opt-in toolsets names, built on
// first use.
func (h *handler) variant(names []string) *variant {
	slices.Sort(names)
	names = slices.Compact(names)
	key := strings.Join(names, ",")
	h.mu.Lock()
	defer h.mu.Unlock()
	if v := h.variants[key]; v != nil {
		return v
	}
	all := tools()
	for _, n := range names {
		all = append(all, toolset(n)...)
	}
	var reads []*tool
	for _, t := range all {
		if t.def.Annotations.ReadOnlyHint {
			reads = append(reads, t)
		}
	}
	opts := &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       h.logger,
		// Every request carries a bearer key, which a page rebinding a name to a loopback address cannot
		// supply, and a reverse proxy on the same host forwards its public Host header: the SDK's loopback
		// Host check would refuse those requests and protect nothing.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        api.MaxBodyBytes,
	}
	v := &variant{
		full:     mcp.NewStreamableHTTPHandler(h.server(all), opts),
		readOnly: mcp.NewStreamableHTTPHandler(h.server(reads), opts),
	}
	h.variants[key] = v
	return v
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var readOnly bool
	switch strings.TrimPrefix(r.URL.Path, Path) {
	case "", "/":
	case "/readonly", "/readonly/":
		readOnly = true
	default:
		writeError(w, radar.Errorf(radar.ENotFound, "no route %s %s; the MCP endpoints are %s and %s/readonly", r.Method, r.URL.Path, Path, Path))
		return
	}
	if api.PrincipalFrom(r.Context()) == nil {
		writeError(w, radar.Errorf(radar.EUnauthorized, "missing API key: send Authorization: Bearer <key>"))
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, radar.Errorf(radar.EMethodNotAllowed, "method %s is not allowed on %s: this stateless MCP endpoint takes POST only", r.Method, r.URL.Path))
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, radar.Errorf(radar.EUnsupportedMediaType, "request body must be JSON-RPC: send Content-Type: application/json"))
		return
	}
	msg, ok := readRequest(w, r)
	if !ok {
		return
	}
	names := slices.Clone(h.toolsets)
	if q := r.URL.Query().Get("toolsets"); q != "" {
		for n := range strings.SplitSeq(q, ",") {
			n = strings.TrimSpace(n)
			if err := CheckToolset(n); err != nil {
				writeError(w, radar.Errorf(radar.EValidation, "toolsets: %s", err.Error()))
				return
			}
			names = append(names, n)
		}
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == "default" })
	v := h.variant(names)
	next := v.full
	if readOnly {
		next = v.readOnly
	}
	rw := &rpcErrors{ResponseWriter: w, msg: msg}
	next.ServeHTTP(rw, r)
	rw.finish()
}

// server returns the MCP server offering ts. It holds no per-request state: each call reads its principal
// from the request context.
func (h *handler) server(ts []*tool) func(*http.Request) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "radar", Title: "Radar", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       h.logger,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		// The tool list depends on the key's scopes.
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) { c.CacheScope = "private" },
	})
	byName := make(map[string]*tool, len(ts))
	for _, t := range ts {
		byName[t.def.Name] = t
		s.AddTool(t.def, h.toolHandler(t))
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if l, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				p := api.PrincipalFrom(ctx)
				l.Tools = slices.DeleteFunc(l.Tools, func(d *mcp.Tool) bool {
					t := byName[d.Name]
					return t == nil || p == nil || p.Require(t.scopes...) != nil
				})
			}
			return res, err
		}
	})
	return func(*http.Request) *mcp.Server { return s }
}

// toolHandler runs one call: it counts the call in the tool's rate buckets, checks the key's scopes and the
// arguments, calls the service, and renders the REST response body, or the error envelope with isError.
// The SDK runs handlers on goroutines of its own, out of reach of the API server's recovery, so a panic is
// recovered here and answered as internal_error.
func (h *handler) toolHandler(t *tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			if v := recover(); v != nil {
				res = h.failure(ctx, t, fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
			}
		}()
		out, err := h.call(ctx, t, req.Params.Arguments)
		if err != nil {
			return h.failure(ctx, t, err), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return h.failure(ctx, t, err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
	}
}

func (h *handler) call(ctx context.Context, t *tool, args json.RawMessage) (any, error) {
	p := api.PrincipalFrom(ctx)
	if p == nil {
		return nil, radar.Errorf(radar.EUnauthorized, "missing API key: send Authorization: Bearer <key>")
	}
	if h.limiter != nil {
		if d := h.limiter.Allow(ctx, p.KeyID, t.buckets...); !d.Allowed {
			return nil, api.RateLimited(d)
		}
	}
	if err := p.Require(t.scopes...); err != nil {
		return nil, err
	}
	return t.handle(ctx, env{svc: h.svc, limiter: h.limiter, p: p}, args)
}

// failure renders err as a failed tool result. Anything but a radar.Error is logged once, with the request
// id, and shown as internal_error.
func (h *handler) failure(ctx context.Context, t *tool, err error) *mcp.CallToolResult {
	e, ok := radar.AsError(err)
	if u := api.Unavailable(ctx, h.logger, err); u != nil && (!ok || e.Code == radar.EInternal) {
		e, ok = u, true
	}
	if !ok || e.Code == radar.EInternal {
		id := api.RequestID(ctx)
		h.logger.ErrorContext(ctx, "internal error", "request_id", id, "tool", t.def.Name, "err", err)
		e = radar.Errorf(radar.EInternal, "internal error; quote request id %s when reporting it", id)
	}
	b, _ := json.Marshal(api.ErrorBody{Err: e})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

// writeError answers a request the MCP transport never sees with a JSON-RPC error object carrying the API's
// error envelope.
func writeError(w http.ResponseWriter, e *radar.Error) {
	api.WriteRPCError(w, radar.StatusOf(e.Code), nil, api.RPCCode(e), e)
}
