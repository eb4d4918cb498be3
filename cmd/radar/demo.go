package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"time"

	"radar/internal/config"
	"radar/internal/demo"
)

// demo runs Radar with nothing else needed: an embedded database in a data folder, a simulated web of
// companies whose news changes over time, a demo organisation with a user and a key, and the full server.
func (m *Main) demo(ctx context.Context, args []string) error {
	var (
		dir       string
		keep      bool
		step      time.Duration
		every     time.Duration
		companies int
	)
	cfg, pos, err := m.parse("demo", args, func(fs *flag.FlagSet) {
		fs.StringVar(&dir, "data", "radar-demo", "data folder of the demo")
		fs.BoolVar(&keep, "keep", false, "keep the data of the previous demo instead of starting afresh")
		fs.DurationVar(&step, "step", demo.DefaultStep, "time between two pieces of simulated news")
		fs.DurationVar(&every, "runs-every", demo.DefaultRunEvery, "how often each tracked company is run")
		fs.IntVar(&companies, "companies", demo.DefaultCompanies, "how many simulated companies to track")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("usage: radar demo [--data DIR] [--keep] [--step 15s] [--runs-every 1m] [--companies 7]")
	}
	if step <= 0 || every <= 0 || companies < 1 {
		return usagef("demo: --step and --runs-every must be positive and --companies at least 1")
	}
	ln, err := listen(cfg)
	if err != nil {
		return err
	}
	d, err := demo.Start(ctx, demo.Options{Dir: dir, Keep: keep, Step: step, RunEvery: every, Companies: companies,
		Config: cfg, Listener: ln, Logger: slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	creds := d.Credentials
	addr := d.App.Addr()
	fmt.Fprintf(m.Stdout, `Radar demo is running.

  Web UI    %s/
  Sign in   %s  password %s
  API key   %s  (every scope)
  Data      %s (%s)

Try the API:
  curl -H "Authorization: Bearer %s" %s/api/v1/tracker

%d companies of a simulated web are tracked. News arrives every %s, and each company is run every %s.
Press Ctrl-C to stop.
`, cfg.BaseURL, creds.Email, creds.Password, creds.APIKey, dir, freshness(keep), creds.APIKey, cfg.BaseURL,
		d.Tracked, step, every)
	if m.Ready != nil {
		m.Ready <- addr
	}
	<-ctx.Done()
	fmt.Fprintln(m.Stdout, "Radar demo stopping.")
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return d.Close(stopCtx)
}

func freshness(keep bool) string {
	if keep {
		return "kept from the previous demo"
	}
	return "fresh; --keep keeps it for the next demo"
}

// listen opens the demo's listening socket before the server starts, so that with port 0 the base address in
// links, pollUrl and the printed commands names the port it really has.
func listen(cfg *config.Config) (net.Listener, error) {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("demo: listen on %s: %w", cfg.Addr, err)
	}
	chosen := ln.Addr().String()
	if cfg.BaseURL == "http://"+cfg.Addr {
		cfg.BaseURL = "http://" + chosen
	}
	cfg.Addr = chosen
	return ln, nil
}
