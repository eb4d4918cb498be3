// Package api serves Radar's REST API under /api/v1 with its live OpenAPI document, and hosts the other
// handlers (MCP, web UI, operations) behind the same request ids, recovery, authentication and rate limits.
package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"radar"
	"radar/internal/ratelimit"
	"radar/internal/service"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// Config holds what the server needs.
type Config struct {
	Service *service.Service
	Limiter *ratelimit.Limiter
	Logger  *slog.Logger
	// MCP, when set, is served at /api/mcp behind authentication (it applies its own per-tool rate limits).
	MCP http.Handler
	// Web, when set, serves every path outside /api.
	Web http.Handler
	// Ops, when set, serves /healthz, /readyz and /metrics, unauthenticated and not rate-limited.
	Ops http.Handler
	// Observe, when set, is told of every request's route pattern, status and duration.
	Observe func(route string, status int, d time.Duration)
	// ListCacheBytes bounds the list pages kept (see listCache); 0 means DefaultListCacheBytes, negative none.
	ListCacheBytes int
	// OnListCache, when set, is told of every list request that may be served from the cache: which list, and
	// whether it was.
	OnListCache func(list string, hit bool)
	// OnEntityCache, when set, is told of every read of one company that may be served from the cache (it shares
	// the list cache's room), and whether it was.
	OnEntityCache func(hit bool)
}

// Server is the HTTP front of Radar.
type Server struct {
	cfg     Config
	svc     *service.Service
	logger  *slog.Logger
	api     huma.API
	openapi []byte
	// mux routes the API, MCP and operations; every other path goes to the web UI.
	mux   *http.ServeMux
	lists *listCache
	// scopes maps a route pattern to the scopes its operation needs.
	scopes map[string][]string
}

// New builds the server and its OpenAPI document.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, svc: cfg.Service, logger: cfg.Logger, mux: http.NewServeMux()}
	switch {
	case cfg.ListCacheBytes == 0:
		s.lists = newListCache(DefaultListCacheBytes)
	case cfg.ListCacheBytes > 0:
		s.lists = newListCache(cfg.ListCacheBytes)
	}
	s.api = humago.New(s.mux, humaConfig())
	s.register()
	s.scopes = routeScopes(s.api.OpenAPI())
	doc := s.api.OpenAPI()
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("api: OpenAPI document does not marshal: " + err.Error())
	}
	s.openapi = b
	s.mux.HandleFunc("GET /api/v1/openapi", s.serveOpenAPI)
	if cfg.MCP != nil {
		s.mux.Handle("/api/mcp", cfg.MCP)
		s.mux.Handle("/api/mcp/", cfg.MCP)
	}
	if cfg.Ops != nil {
		for _, p := range []string{"GET /healthz", "GET /readyz", "GET /metrics"} {
			s.mux.Handle(p, cfg.Ops)
		}
	}
	return s
}

// OpenAPI returns the served OpenAPI document.
func (s *Server) OpenAPI() []byte { return s.openapi }

func humaConfig() huma.Config {
	c := huma.DefaultConfig("Radar Partner Tracking API", "1.0.0")
	c.OpenAPIPath, c.DocsPath, c.SchemasPath = "", "", ""
	c.CreateHooks = nil
	c.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat, CSV: csvFormat}
	c.Info.Description = "Track companies and their founders: tracked entities, signals, alerts and founder leads, " +
		"scoped to the organisation that owns the API key. Errors use the envelope {\"error\": {\"code\", \"message\", " +
		"\"details\"}}; 401 unauthorized, 403 insufficient_scope (details.required, details.granted), 404 not_found, " +
		"405 method_not_allowed, 413 payload_too_large (bodies over 1 MiB), 415 unsupported_media_type, 429 rate_limited " +
		"(Retry-After), 500 internal_error. Timestamps are UTC with six fractional digits and +00:00. Every response " +
		"carries X-Request-Id."
	c.Servers = nil
	c.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer", Description: "An API key: rdr_<id>_<secret>"},
	}
	c.Security = []map[string][]string{{"bearer": {}}}
	c.Components.Schemas = newRegistry()
	return c
}

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.openapi)
}

type ctxKey int

const (
	keyState ctxKey = iota
	keyPrincipal
)

// requestState is what the middleware knows of a request, in the request's context under one key.
type requestState struct {
	id string
	// principal is the authenticated key of an API request.
	principal *radar.Principal
	// header is the response header, for a handler that knows a header huma's typed responses cannot declare
	// (the length of a page written whole).
	header http.Header
	// query is the raw query string.
	query string
	// csv is set when the request asks for a CSV export of a list (Accept: text/csv).
	csv bool
}

func stateOf(ctx context.Context) *requestState {
	s, _ := ctx.Value(keyState).(*requestState)
	return s
}

// RequestID returns the id of the request in ctx.
func RequestID(ctx context.Context) string {
	if s := stateOf(ctx); s != nil {
		return s.id
	}
	return ""
}

// PrincipalFrom returns the authenticated principal of the request in ctx.
func PrincipalFrom(ctx context.Context) *radar.Principal {
	if p, ok := ctx.Value(keyPrincipal).(*radar.Principal); ok {
		return p
	}
	if s := stateOf(ctx); s != nil {
		return s.principal
	}
	return nil
}

// WithPrincipal returns ctx carrying p (the web UI authenticates by session and calls the service itself).
func WithPrincipal(ctx context.Context, p *radar.Principal) context.Context {
	return context.WithValue(ctx, keyPrincipal, p)
}

func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	var id [16]byte
	hex.Encode(id[:], b[:])
	return string(id[:])
}

// ServeHTTP runs the middleware chain: request id, recovery, observation; for the API, JSON 404 and 405 for
// unknown routes, authentication, rate limits, the operation's scopes, then the text of the query parameters
// and of a JSON body (in that order, so that a key without the scopes learns nothing of the request's form);
// then the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("X-Request-Id")
	if id == "" || len(id) > 64 {
		id = newRequestID()
	}
	w.Header().Set("X-Request-Id", id)
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	st := &requestState{id: id, header: w.Header(), query: r.URL.RawQuery}
	r = r.WithContext(context.WithValue(r.Context(), keyState, st))
	start := time.Now()
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			if !rec.wrote {
				internal(rec, s.logger, r, v)
			} else {
				s.logger.ErrorContext(r.Context(), "panic after response started", "request_id", id, "err", v)
			}
		}
		if s.cfg.Observe != nil {
			route := rec.pattern
			if route == "" {
				route = "unmatched"
			}
			s.cfg.Observe(route, rec.status, time.Since(start))
		}
	}()
	s.route(rec, r, st)
}

// route dispatches one request.
func (s *Server) route(w *recorder, r *http.Request, st *requestState) {
	path := r.URL.Path
	isAPI := strings.HasPrefix(path, "/api/")
	if isAPI && r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	}
	h, pattern := s.mux.Handler(r)
	w.pattern = pattern
	if !isAPI && pattern == "" && s.cfg.Web != nil {
		// The web UI serves every path outside /api/ that no other route took, whatever the method.
		w.pattern = "/"
		s.cfg.Web.ServeHTTP(w, r)
		return
	}
	negotiateCSV(r, pattern, st)
	if isAPI && pattern == "" {
		// The mux's own 404 and 405 answers, as JSON envelopes.
		probe := &recorder{ResponseWriter: discard{header: http.Header{}}, status: http.StatusOK}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", probe.Header().Get("Allow"))
			writeError(w, radar.Errorf(radar.EMethodNotAllowed, "method %s is not allowed on %s", r.Method, path))
			return
		}
		writeError(w, radar.Errorf(radar.ENotFound, "no route %s %s", r.Method, path))
		return
	}
	if isAPI && !(r.Method == http.MethodGet && path == "/api/v1/openapi") {
		cred := service.ReadCredential(r.Header.Get("Authorization"))
		limited := s.cfg.Limiter != nil && strings.HasPrefix(path, "/api/v1/")
		var counted <-chan ratelimit.Decision
		if limited && !s.cfg.Limiter.InProcess() {
			counted = s.countEarly(r, cred)
		}
		p, err := s.svc.Authenticate(r.Context(), cred)
		if err != nil {
			if e, ok := radar.AsError(err); ok {
				writeRequestError(w, r, e)
				return
			}
			internal(w, s.logger, r, err)
			return
		}
		st.principal = p
		if limited {
			var d ratelimit.Decision
			if counted != nil {
				d = <-counted
			} else {
				d = s.cfg.Limiter.Allow(r.Context(), p.KeyID, buckets(r)...)
			}
			if !s.allowed(w, d) {
				return
			}
		}
		if err := p.Require(s.scopes[pattern]...); err != nil {
			e, _ := radar.AsError(err)
			writeRequestError(w, r, e)
			return
		}
		if e := checkQueryText(r.URL.RawQuery); e != nil {
			writeRequestError(w, r, e)
			return
		}
		if e := refuseCSVBody(r); e != nil {
			writeRequestError(w, r, e)
			return
		}
		if strings.HasPrefix(path, "/api/v1/") && r.ContentLength != 0 && jsonBody(r) {
			b, e, err := ReadJSONBody(r.Body)
			if e != nil {
				writeRequestError(w, r, e)
				return
			}
			r.Body = replay{io.MultiReader(bytes.NewReader(b), failing{err}), r.Body}
		}
		if s.serveCached(w, r, st, pattern) {
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// The bucket lists of buckets, shared: readers only.
var (
	readBuckets    = []string{ratelimit.Read}
	writeBuckets   = []string{ratelimit.Write}
	createBuckets  = []string{ratelimit.Write, ratelimit.Create}
	enrichBuckets  = []string{ratelimit.Write, ratelimit.Enrich}
	refreshBuckets = []string{ratelimit.Write, ratelimit.Refresh}
)

// buckets names the rate buckets a REST request counts in.
func buckets(r *http.Request) []string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return readBuckets
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodPost && (path == "/api/v1/tracker" || path == "/api/v1/tracker/batch"):
		return createBuckets
	case r.Method == http.MethodPost && path == "/api/v1/tracker/enrich":
		return enrichBuckets
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/api/v1/tracker/") && strings.HasSuffix(path, "/refresh"):
		return refreshBuckets
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/api/v1/leads/") && strings.HasSuffix(path, "/track"):
		return createBuckets
	}
	return writeBuckets
}

// countEarly starts counting the request's rate when its key's secret is known to be right before the key is
// read, so that the round trips of the count and of the read (for the key's revocation) overlap; nil otherwise.
// A count the replica has reserved hits for needs no round trip, and is done at once.
func (s *Server) countEarly(r *http.Request, cred service.Credential) <-chan ratelimit.Decision {
	id, ok := s.svc.VerifiedKey(cred)
	if !ok {
		return nil
	}
	counted := make(chan ratelimit.Decision, 1)
	if d, ok := s.cfg.Limiter.AllowReserved(id, buckets(r)...); ok {
		counted <- d
		return counted
	}
	go func() { counted <- s.cfg.Limiter.Allow(r.Context(), id, buckets(r)...) }()
	return counted
}

// allowed sets the rate headers of d and answers 429 when d denies the request.
func (s *Server) allowed(w http.ResponseWriter, d ratelimit.Decision) bool {
	d.Headers(w.Header())
	if d.Allowed {
		return true
	}
	writeError(w, RateLimited(d))
	return false
}

// RateLimited is the 429 error of a denied decision.
func RateLimited(d ratelimit.Decision) *radar.Error {
	retry := d.RetryAfter()
	return &radar.Error{
		Code: radar.ERateLimited,
		Message: "rate limit of the " + d.Bucket.Name + " bucket exceeded; wait " + itoa(retry) +
			" seconds (Retry-After) before retrying, and do not loop creates or refreshes",
		Details: map[string]any{
			"bucket": d.Bucket.Name, "limit": d.Bucket.Limit,
			"windowSeconds": d.Bucket.WindowSeconds(), "retryAfterSeconds": retry,
		},
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// recorder remembers the status written and the route pattern matched (for metrics, never the raw path).
type recorder struct {
	http.ResponseWriter
	status  int
	wrote   bool
	pattern string
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (flushing for MCP streams).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
