// Package app assembles Radar from its parts: the store, the service, the engine, the HTTP server and its
// handlers. The radar command and the end-to-end tests both start it.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/riverqueue/river"

	"radar/internal/api"
	"radar/internal/config"
	"radar/internal/crawl"
	"radar/internal/digest"
	"radar/internal/fetch"
	"radar/internal/mail"
	"radar/internal/mcp"
	"radar/internal/ops"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
	"radar/internal/taxonomy"
	"radar/internal/tracker"
	"radar/internal/web"
	"radar/internal/webhook"
)

// App is a running Radar.
type App struct {
	Config  *config.Config
	Logger  *slog.Logger
	DB      *sqldb.DB
	Service *service.Service
	Limiter *ratelimit.Limiter
	Server  *api.Server
	Engine  *tracker.Engine
	// Digests sends the digest e-mails (a job of Engine) and serves their unsubscribe links and previews.
	Digests *digest.Digests
	// Listener, when set before Start, is where the server accepts connections instead of Config.Addr.
	Listener net.Listener
	// RateLimits, when set before Start, replace the default rate limits (ratelimit.Defaults).
	RateLimits map[string]ratelimit.Bucket

	metrics *ops.Ops

	redis    *redis.Client
	http     *http.Server
	listener net.Listener
	// debugAddr is where net/http/pprof is served, when RADAR_DEBUG_ADDR is set.
	debugAddr string
	closers   []func(context.Context) error
}

// Open connects to the database (applying pending migrations) and builds the service.
func Open(ctx context.Context, cfg *config.Config, logger *slog.Logger) (*App, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	db, err := sqldb.Open(ctx, cfg.DatabaseURL, sqldb.Options{Logger: logger, RunEvery: cfg.RunEvery})
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, Logger: logger, DB: db}
	secret, err := a.secret(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := a.build(secret); err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

// build makes the engine and the service from the configuration.
func (a *App) build(secret []byte) error {
	cfg := a.Config
	var mailer tracker.Mailer
	if cfg.SMTPURL != "" {
		s, err := mail.New(mail.Config{URL: cfg.SMTPURL, From: cfg.MailFrom})
		if err != nil {
			return fmt.Errorf("app: RADAR_SMTP_URL: %w", err)
		}
		mailer = s
	}
	tax := taxonomy.Default()
	classifier := taxonomy.NewBuiltin(tax)
	if cfg.LLMURL != "" {
		classifier = taxonomy.NewLLM(tax, cfg.LLMURL, cfg.LLMModel, cfg.LLMAPIKey, nil)
	}
	crawler := crawl.New(crawl.Config{
		Fetcher:     fetch.New(fetch.Config{AllowPrivate: cfg.FetchAllowPrivate}),
		NewsFeedURL: cfg.NewsFeedURL, GitHubAPIURL: cfg.GitHubAPIURL, GitHubToken: cfg.GitHubToken,
	})
	a.metrics = ops.New(ops.Config{DB: a.DB, Logger: a.Logger})
	var scheduleEvery time.Duration
	if cfg.RunEvery > 0 {
		// Companies that run more often than the scheduler looks would run late.
		scheduleEvery = min(tracker.DefaultScheduleEvery, max(cfg.RunEvery/2, time.Second))
	}
	hooks, err := webhook.New(webhook.Config{Store: a.DB, AllowPrivate: cfg.FetchAllowPrivate, Mailer: mailer,
		BaseURL: cfg.BaseURL, Logger: a.Logger})
	if err != nil {
		return err
	}
	digests, err := digest.New(digest.Config{Store: a.DB, Mailer: mailer, Secret: secret, BaseURL: cfg.BaseURL,
		Logger: a.Logger, Every: scheduleEvery})
	if err != nil {
		return err
	}
	a.Digests = digests
	eng, err := tracker.New(tracker.Config{
		Store: a.DB, Crawler: crawler, Analyser: tracker.NewAnalyser(cfg.LLMURL, cfg.LLMModel, cfg.LLMAPIKey, nil),
		Classifier: classifier, Mailer: mailer, Logger: a.Logger, BaseURL: cfg.BaseURL, JobTimeout: cfg.JobTimeout,
		MaxWorkers:  cfg.JobWorkers,
		OnJobFailed: a.metrics.JobFailed, ScheduleEvery: scheduleEvery,
		AddWorkers: func(ws *river.Workers) []*river.PeriodicJob {
			return append(hooks.Register(ws), digests.Register(ws)...)
		},
	})
	if err != nil {
		return err
	}
	a.Engine = eng
	a.Service = service.New(service.Config{
		Store: a.DB, BaseURL: cfg.BaseURL, Secret: secret, Logger: a.Logger, Compile: tracker.Compile,
		Taxonomy: tax, Classifier: classifier, Enricher: eng, FetchAllowPrivate: cfg.FetchAllowPrivate,
	})
	return nil
}

// secret returns the configured secret, or the one generated and stored in the database on first start.
func (a *App) secret(ctx context.Context) ([]byte, error) {
	if a.Config.Secret != "" {
		return []byte(a.Config.Secret), nil
	}
	b := make([]byte, 32)
	rand.Read(b)
	v, err := a.DB.SetSettingOnce(ctx, "secret", hex.EncodeToString(b))
	if err != nil {
		return nil, fmt.Errorf("app: secret: %w", err)
	}
	return []byte(v), nil
}

// Start builds the HTTP server, starts the background engine and listens on the configured address.
func (a *App) Start(ctx context.Context) error {
	metrics := a.metrics
	store := ratelimit.Store(ratelimit.NewMemory(time.Now))
	if a.Config.RedisURL != "" {
		opts, err := ratelimit.ParseRedisURL(a.Config.RedisURL)
		if err != nil {
			return fmt.Errorf("app: RADAR_REDIS_URL: %w", err)
		}
		a.redis = redis.NewClient(opts)
		store = ratelimit.NewBreaker(ratelimit.NewRedis(a.redis), ratelimit.BreakerConfig{Logger: a.Logger, OnChange: metrics.BreakerChanged})
	}
	a.Limiter = ratelimit.New(ratelimit.Config{Store: store, Buckets: a.RateLimits, Logger: a.Logger, OnStoreError: metrics.StoreError, OnDenied: metrics.RateLimited})
	a.Server = api.New(api.Config{Service: a.Service, Limiter: a.Limiter, Logger: a.Logger,
		MCP: mcp.NewHandler(a.Service, a.Limiter, a.Logger, a.Config.Toolsets()...),
		Ops: metrics, Observe: metrics.Observe, OnListCache: metrics.ListCache,
		Web: web.NewHandler(web.Config{Service: a.Service, Outbox: a.DB, Digests: a.Digests, BaseURL: a.Config.BaseURL, Logger: a.Logger,
			LoginStore: store, TrustedProxies: a.Config.Proxies})})
	ln := a.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", a.Config.Addr); err != nil {
			return fmt.Errorf("app: listen on %s: %w", a.Config.Addr, err)
		}
	}
	if err := a.Engine.Start(ctx); err != nil {
		ln.Close()
		return fmt.Errorf("app: start workers: %w", err)
	}
	a.closers = append(a.closers, a.Engine.Stop)
	if a.Config.DebugAddr != "" {
		if err := a.startDebug(); err != nil {
			ln.Close()
			return err
		}
	}
	a.listener = api.Listener(ln)
	a.http = api.NewHTTPServer(a.Server, api.DefaultTimeouts, slog.NewLogLogger(a.Logger.Handler(), slog.LevelWarn))
	go func() {
		if err := a.http.Serve(a.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.Logger.Error("http server", "err", err)
		}
	}()
	return nil
}

// startDebug serves net/http/pprof on Config.DebugAddr, apart from the API, until Close.
func (a *App) startDebug() error {
	ln, err := net.Listen("tcp", a.Config.DebugAddr)
	if err != nil {
		return fmt.Errorf("app: debug listener on %s: %w", a.Config.DebugAddr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// Block and mutex profiles are empty unless sampled: a blocking event of about 10µs or more, and one
	// mutex contention in 100, are recorded while the listener is on.
	runtime.SetBlockProfileRate(int(10 * time.Microsecond))
	runtime.SetMutexProfileFraction(100)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	a.debugAddr = ln.Addr().String()
	a.closers = append(a.closers, srv.Shutdown)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.Logger.Error("debug server", "err", err)
		}
	}()
	a.Logger.Info("serving profiles", "addr", a.debugAddr)
	return nil
}

// DebugAddr is the address of the profiling listener, "" when RADAR_DEBUG_ADDR is unset.
func (a *App) DebugAddr() string { return a.debugAddr }

// Addr is the address the server listens on.
func (a *App) Addr() string { return a.listener.Addr().String() }

// Close stops accepting requests, lets requests in flight finish, stops the workers and closes the database.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	a.metrics.Drain()
	if a.http != nil {
		errs = append(errs, a.http.Shutdown(ctx))
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i](ctx))
	}
	if a.redis != nil {
		errs = append(errs, a.redis.Close())
	}
	errs = append(errs, a.DB.Close())
	return errors.Join(errs...)
}
