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
	"time"

	"github.com/redis/go-redis/v9"

	"radar"
	"radar/internal/analysis"
	"radar/internal/api"
	"radar/internal/config"
	"radar/internal/mcp"
	"radar/internal/ops"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
	"radar/internal/web"
)

// App is a running Radar.
type App struct {
	Config  *config.Config
	Logger  *slog.Logger
	DB      *sqldb.DB
	Service *service.Service
	Limiter *ratelimit.Limiter
	Server  *api.Server

	redis    *redis.Client
	http     *http.Server
	listener net.Listener
	closers  []func(context.Context) error
}

// Open connects to the database (applying pending migrations) and builds the service.
func Open(ctx context.Context, cfg *config.Config, logger *slog.Logger) (*App, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	db, err := sqldb.Open(ctx, cfg.DatabaseURL, sqldb.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, Logger: logger, DB: db}
	secret, err := a.secret(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	a.Service = service.New(service.Config{
		Store: db, BaseURL: cfg.BaseURL, Secret: secret, Logger: logger, Compile: CompilePolicy,
	})
	return a, nil
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

// CompilePolicy compiles alert rules into the stored policy form.
func CompilePolicy(text string) radar.Policy {
	p := analysis.Compile(text)
	out := radar.Policy{Rules: make([]radar.PolicyRule, len(p.Rules))}
	for i, r := range p.Rules {
		out.Rules[i] = radar.PolicyRule{
			ID: r.ID, Sentence: r.Sentence, Kind: r.Kind, Types: r.Types, Keywords: r.Keywords, People: r.People,
			MinAmountUSD: r.MinAmountUSD, MinSeverity: r.MinSeverity,
		}
	}
	return out
}

// Start builds the HTTP server, starts the background engine and listens on the configured address.
func (a *App) Start(ctx context.Context) error {
	store := ratelimit.Store(ratelimit.NewMemory(time.Now))
	if a.Config.RedisURL != "" {
		opts, err := ratelimit.ParseRedisURL(a.Config.RedisURL)
		if err != nil {
			return fmt.Errorf("app: RADAR_REDIS_URL: %w", err)
		}
		a.redis = redis.NewClient(opts)
		store = ratelimit.NewRedis(a.redis)
	}
	metrics := ops.New(ops.Config{DB: a.DB, Logger: a.Logger})
	a.Limiter = ratelimit.New(ratelimit.Config{Store: store, Logger: a.Logger, OnStoreError: metrics.StoreError})
	a.Server = api.New(api.Config{Service: a.Service, Limiter: a.Limiter, Logger: a.Logger,
		MCP: mcp.NewHandler(a.Service, a.Limiter, a.Logger),
		Ops: metrics, Observe: metrics.Observe, OnRateLimited: metrics.RateLimited,
		Web: web.NewHandler(web.Config{Service: a.Service, Outbox: a.DB, BaseURL: a.Config.BaseURL, Logger: a.Logger})})
	ln, err := net.Listen("tcp", a.Config.Addr)
	if err != nil {
		return fmt.Errorf("app: listen on %s: %w", a.Config.Addr, err)
	}
	a.listener = ln
	a.http = &http.Server{
		Handler:           a.Server,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.Logger.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := a.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.Logger.Error("http server", "err", err)
		}
	}()
	return nil
}

// Addr is the address the server listens on.
func (a *App) Addr() string { return a.listener.Addr().String() }

// Close stops accepting requests, lets requests in flight finish, stops the workers and closes the database.
func (a *App) Close(ctx context.Context) error {
	var errs []error
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
