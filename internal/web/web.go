// Package web serves Radar's own web UI: server-rendered pages over the same service as the REST API, so that
// a company added here is indistinguishable from one added through the API, and lead decisions are shared both
// ways. Users sign in with e-mail and password; sessions live in the database.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"radar"
	"radar/internal/digest"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/taxonomy"
)

// OutboxReader lists an organisation's alert e-mails, sent or kept (the engine's outbox).
type OutboxReader interface {
	OutboxMessages(ctx context.Context, f radar.OutboxFilter) ([]*radar.OutboxMessage, error)
}

// Defaults of Config.
const (
	DefaultLoginLimit  = 10
	DefaultLoginWindow = 15 * time.Minute
	SessionLifetime    = 14 * 24 * time.Hour
)

// maxFormBytes bounds every form body.
const maxFormBytes = 1 << 20

// Config holds what the web UI needs.
type Config struct {
	Service *service.Service
	// Outbox lists alert e-mails; without it the outbox page says that e-mails are not recorded.
	Outbox OutboxReader
	// Digests serves the digest settings, previews and unsubscribe links; without it those pages are absent.
	Digests *digest.Digests
	// BaseURL is the public address; an https address makes the session cookie Secure.
	BaseURL string
	Logger  *slog.Logger
	Clock   radar.Clock
	// LoginLimit failed sign-in attempts are allowed per e-mail address and per client address in each
	// LoginWindow; after that, sign-ins wait for the window to end.
	LoginLimit  int
	LoginWindow time.Duration
	// LoginStore holds the sign-in counters, shared by replicas (Redis); default in-process counters.
	LoginStore ratelimit.Store
	// LoginPrefix starts the sign-in counter keys in LoginStore; default "radar:web:".
	LoginPrefix string
	// TrustedProxies are the networks of the reverse proxies whose X-Forwarded-For names the client address
	// that sign-ins are counted by; none by default, so the connection's address counts.
	TrustedProxies []netip.Prefix
	// HashSlots bounds the password checks running at once (default the number of usable CPUs); a sign-in that
	// finds none free within HashWait (default DefaultHashWait) is answered 503 with Retry-After.
	HashSlots int
	HashWait  time.Duration

	// verify checks a password against a stored hash; default service.VerifyPassword.
	verify func(hash, password string) bool
}

// Handler is the web UI.
type Handler struct {
	svc     *service.Service
	store   radar.Store
	outbox  OutboxReader
	digests *digest.Digests
	logger  *slog.Logger
	now     radar.Clock
	secure  bool
	pages   *pages
	// sectors are the taxonomy's top-level sectors, suggested in the sector filters.
	sectors []string
	logins  *ratelimit.Limiter
	// trustedProxies may name the client in X-Forwarded-For; hashes bounds the password checks at once.
	trustedProxies []netip.Prefix
	hashes         *hashGate
	verify         func(hash, password string) bool
	// dummyHash is checked when a sign-in names an unknown e-mail, so that it takes as long as a wrong password.
	dummyHash func() string
	handler   http.Handler
}

// Login rate buckets.
const (
	bucketLoginEmail = "login-email"
	bucketLoginIP    = "login-ip"
)

// NewHandler parses the templates and builds the routes.
func NewHandler(cfg Config) *Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.LoginLimit <= 0 {
		cfg.LoginLimit = DefaultLoginLimit
	}
	if cfg.LoginWindow <= 0 {
		cfg.LoginWindow = DefaultLoginWindow
	}
	if cfg.LoginStore == nil {
		cfg.LoginStore = ratelimit.NewMemory(cfg.Clock)
	}
	if cfg.LoginPrefix == "" {
		cfg.LoginPrefix = "radar:web:"
	}
	if cfg.HashSlots <= 0 {
		cfg.HashSlots = runtime.GOMAXPROCS(0)
	}
	if cfg.HashWait <= 0 {
		cfg.HashWait = DefaultHashWait
	}
	if cfg.verify == nil {
		cfg.verify = service.VerifyPassword
	}
	h := &Handler{
		svc:     cfg.Service,
		store:   cfg.Service.Store(),
		outbox:  cfg.Outbox,
		digests: cfg.Digests,
		logger:  cfg.Logger,
		now:     cfg.Clock,
		secure:  strings.HasPrefix(cfg.BaseURL, "https://"),
		pages:   parsePages(),
		logins: ratelimit.New(ratelimit.Config{
			Store: cfg.LoginStore,
			Now:   cfg.Clock,
			Buckets: map[string]ratelimit.Bucket{
				bucketLoginEmail: {Name: bucketLoginEmail, Limit: cfg.LoginLimit, Window: cfg.LoginWindow},
				bucketLoginIP:    {Name: bucketLoginIP, Limit: cfg.LoginLimit, Window: cfg.LoginWindow},
			},
			Logger:  cfg.Logger,
			Prefix:  cfg.LoginPrefix,
			Timeout: DefaultLoginTimeout,
		}),
		trustedProxies: cfg.TrustedProxies,
		hashes:         newHashGate(cfg.HashSlots, cfg.HashWait),
		verify:         cfg.verify,
		sectors:        topSectors(taxonomy.Default()),
		dummyHash:      sync.OnceValue(func() string { return service.HashPassword("radar: no such user") }),
	}
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(h.crossOrigin))
	// A one-click unsubscribe is posted by the recipient's mail service (RFC 8058); its signed link is the
	// authority.
	cop.AddInsecureBypassPattern("POST /unsubscribe/{token}")
	h.handler = h.secureHeaders(cop.Handler(h.routes()))
	return h
}

// topSectors lists the top-level sectors of the taxonomy.
func topSectors(t *taxonomy.Taxonomy) []string {
	var out []string
	for _, c := range t.Categories() {
		if c.Parent == "" {
			out = append(out, c.Name)
		}
	}
	return out
}

// ServeHTTP serves the UI.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.handler.ServeHTTP(w, r) }

func (h *Handler) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", staticHandler()))
	mux.HandleFunc("GET /login", h.loginPage)
	mux.HandleFunc("POST /login", h.login)
	mux.HandleFunc("POST /logout", h.logout)
	if h.digests != nil {
		mux.HandleFunc("GET /unsubscribe/{token}", h.unsubscribePage)
		mux.HandleFunc("POST /unsubscribe/{token}", h.unsubscribe)
	}

	auth := func(pattern string, fn func(http.ResponseWriter, *http.Request, *viewer)) {
		mux.Handle(pattern, h.authed(fn))
	}
	auth("GET /{$}", h.overview)
	auth("POST /signals/mark-read", h.markRead)
	auth("GET /companies", h.companies)
	auth("GET /companies/new", h.newCompany)
	auth("GET /companies/import", h.importPage)
	auth("POST /companies/import/preview", h.previewImport)
	auth("POST /companies/import", h.runImport)
	auth("POST /companies", h.createCompany)
	auth("GET /companies/{id}", h.company)
	auth("GET /companies/{id}/progress", h.progress)
	auth("GET /companies/{id}/edit", h.editCompany)
	auth("POST /companies/{id}/edit", h.updateCompany)
	auth("GET /companies/{id}/pause", h.confirmPause)
	auth("POST /companies/{id}/pause", h.pause)
	auth("POST /companies/{id}/resume", h.resume)
	auth("POST /companies/{id}/refresh", h.refresh)
	auth("GET /companies/{id}/delete", h.confirmDelete)
	auth("POST /companies/{id}/delete", h.deleteCompany)
	auth("GET /signals", h.signals)
	auth("GET /signals/{id}", h.signal)
	auth("GET /alerts", h.alerts)
	auth("GET /alerts/{id}", h.alert)
	auth("GET /leads", h.leads)
	auth("GET /leads/{id}", h.lead)
	auth("POST /leads/{id}/accept", h.acceptLead)
	auth("GET /leads/{id}/reject", h.confirmReject)
	auth("POST /leads/{id}/reject", h.rejectLead)
	auth("GET /leads/{id}/track", h.trackForm)
	auth("POST /leads/{id}/track", h.trackLead)
	auth("GET /keys", h.owner(h.keys))
	auth("POST /keys", h.owner(h.createKey))
	auth("GET /keys/{id}/revoke", h.owner(h.confirmRevoke))
	auth("POST /keys/{id}/revoke", h.owner(h.revokeKey))
	auth("GET /outbox", h.outboxPage)
	auth("GET /settings", h.settings)
	auth("POST /settings", h.saveSettings)
	auth("GET /webhooks", h.webhooks)
	auth("POST /webhooks", h.createWebhook)
	auth("GET /webhooks/{id}", h.webhook)
	auth("POST /webhooks/{id}/enable", h.setWebhookEnabled(true))
	auth("POST /webhooks/{id}/disable", h.setWebhookEnabled(false))
	auth("POST /webhooks/{id}/test", h.testWebhook)
	auth("POST /webhooks/{id}/rotate", h.rotateWebhook)
	auth("GET /webhooks/{id}/delete", h.confirmDeleteWebhook)
	auth("POST /webhooks/{id}/delete", h.deleteWebhook)
	mux.Handle("/", h.authed(func(w http.ResponseWriter, r *http.Request, v *viewer) {
		h.notFound(w, r, v)
	}))
	return mux
}

// secureHeaders forbids framing, inline scripts and anything fetched from elsewhere, and bounds form bodies.
func (h *Handler) secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin answers a state-changing request that another site's page sent.
func (h *Handler) crossOrigin(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusForbidden, "error", page{Title: "Request refused", Data: errorData{
		Title:   "Request refused",
		Message: "This form was sent from another site, so Radar did not act on it. Open Radar directly and try again.",
	}})
}
