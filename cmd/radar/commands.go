package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"radar"
	"radar/internal/app"
	"radar/internal/config"
)

// parse reads the configuration and the command's flags; flags and positional arguments may interleave.
func (m *Main) parse(name string, args []string, define func(fs *flag.FlagSet)) (*config.Config, []string, error) {
	fs := flag.NewFlagSet("radar "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg, err := config.Load(m.Getenv, fs)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if define != nil {
		define(fs)
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, usagef("%s: %v", name, err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if err := cfg.Finish(); err != nil {
		return nil, nil, usagef("%v", err)
	}
	return cfg, pos, nil
}

func (m *Main) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// open opens the database and service quietly, for administrative commands.
func (m *Main) open(ctx context.Context, cfg *config.Config) (*app.App, error) {
	return app.Open(ctx, cfg, slog.New(slog.DiscardHandler))
}

// withOrg opens the service and finds the organisation of slug for fn.
func (m *Main) withOrg(ctx context.Context, cfg *config.Config, slug string, fn func(a *app.App, o *radar.Org) error) error {
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	o, err := a.Service.Store().OrgBySlug(ctx, slug)
	if err != nil {
		return cliError(err)
	}
	return fn(a, o)
}

func (m *Main) migrate(ctx context.Context, args []string) error {
	cfg, pos, err := m.parse("migrate", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("migrate takes no arguments")
	}
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout, "migrations applied")
	return a.Close(ctx)
}

func (m *Main) config(args []string) error {
	cfg, _, err := m.parse("config", args, nil)
	if err != nil {
		return err
	}
	for _, l := range cfg.Dump() {
		fmt.Fprintln(m.Stdout, l)
	}
	return nil
}

func (m *Main) serve(ctx context.Context, args []string) error {
	cfg, pos, err := m.parse("serve", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments")
	}
	log := m.logger()
	a, err := app.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	if err := a.Start(ctx); err != nil {
		a.Close(context.Background())
		return err
	}
	log.Info("radar serving", "addr", a.Addr(), "base_url", cfg.BaseURL, "database", a.DB.Engine())
	if m.Ready != nil {
		m.Ready <- a.Addr()
	}
	<-ctx.Done()
	log.Info("radar stopping")
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return a.Close(stopCtx)
}

func (m *Main) orgsCreate(ctx context.Context, args []string) error {
	var name string
	cfg, pos, err := m.parse("orgs create", args, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", "", "display name")
	})
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: radar orgs create SLUG [--name NAME]")
	}
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	o, err := a.Service.CreateOrg(ctx, pos[0], name)
	if err != nil {
		return cliError(err)
	}
	fmt.Fprintln(m.Stdout, o.ID)
	return nil
}

// cliError shows a service error in one line; bad input exits with status 2.
func cliError(err error) error {
	if e, ok := radar.AsError(err); ok && e.Code != radar.EInternal {
		if e.Code == radar.EValidation {
			return usagef("%s", e.Message)
		}
		return errors.New(e.Message)
	}
	return err
}

// parseDuration accepts Go durations and a number of days ("90d").
func parseDuration(v string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("want a positive number of days like 90d, got %q", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration like 720h or 90d, got %q", v)
	}
	return d, nil
}

func (m *Main) keysCreate(ctx context.Context, args []string) error {
	var org, name, scopes, expires string
	var asJSON bool
	cfg, pos, err := m.parse("keys create", args, func(fs *flag.FlagSet) {
		fs.StringVar(&org, "org", "", "organisation slug")
		fs.StringVar(&name, "name", "", "key name")
		fs.StringVar(&scopes, "scopes", "", "comma-separated scopes of "+strings.Join(radar.Scopes, ", "))
		fs.StringVar(&expires, "expires", "", "lifetime, e.g. 720h or 90d")
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 || org == "" || name == "" || scopes == "" {
		return usagef("usage: radar keys create --org SLUG --name NAME --scopes LIST [--expires DURATION] [--json]")
	}
	var ttl time.Duration
	if expires != "" {
		if ttl, err = parseDuration(expires); err != nil {
			return usagef("--expires: %v", err)
		}
	}
	var list []string
	for _, s := range strings.Split(scopes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			list = append(list, s)
		}
	}
	return m.withOrg(ctx, cfg, org, func(a *app.App, o *radar.Org) error {
		k, err := a.Service.CreateKey(ctx, o.ID, name, list, ttl)
		if err != nil {
			return cliError(err)
		}
		if asJSON {
			return json.NewEncoder(m.Stdout).Encode(map[string]any{
				"id": k.Key.ID, "key": k.Secret, "org": o.Slug, "name": k.Key.Name, "scopes": k.Key.Scopes, "expiresAt": k.Key.ExpiresAt,
			})
		}
		fmt.Fprintln(m.Stdout, k.Secret)
		fmt.Fprintf(m.Stderr, "key %s created for %s with scopes %s; the secret above is shown only once\n", k.Key.ID, o.Slug, strings.Join(k.Key.Scopes, ","))
		return nil
	})
}

func (m *Main) keysList(ctx context.Context, args []string) error {
	var org string
	cfg, pos, err := m.parse("keys list", args, func(fs *flag.FlagSet) { fs.StringVar(&org, "org", "", "organisation slug") })
	if err != nil {
		return err
	}
	if len(pos) > 0 || org == "" {
		return usagef("usage: radar keys list --org SLUG")
	}
	var keys []*radar.APIKey
	err = m.withOrg(ctx, cfg, org, func(a *app.App, o *radar.Org) error {
		keys, err = a.Service.Keys(ctx, o.ID)
		return err
	})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSCOPES\tCREATED\tEXPIRES\tLAST USED\tSTATE")
	for _, k := range keys {
		state := "active"
		switch {
		case k.RevokedAt != nil:
			state = "revoked"
		case k.ExpiresAt != nil && !time.Now().Before(k.ExpiresAt.Time):
			state = "expired"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, strings.Join(k.Scopes, ","), k.CreatedAt, orDash(k.ExpiresAt), orDash(k.LastUsedAt), state)
	}
	return tw.Flush()
}

func orDash(t *radar.Time) string {
	if t == nil {
		return "-"
	}
	return t.String()
}

func (m *Main) keysRevoke(ctx context.Context, args []string) error {
	cfg, pos, err := m.parse("keys revoke", args, nil)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: radar keys revoke KEY_ID")
	}
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	if err := a.Service.RevokeKeyByID(ctx, pos[0]); err != nil {
		if errors.Is(err, radar.ErrNotFound) {
			return fmt.Errorf("no API key %q", pos[0])
		}
		return cliError(err)
	}
	fmt.Fprintf(m.Stdout, "revoked %s\n", pos[0])
	return nil
}

func (m *Main) usersCreate(ctx context.Context, args []string) error {
	var org, email, role string
	var fromStdin bool
	cfg, pos, err := m.parse("users create", args, func(fs *flag.FlagSet) {
		fs.StringVar(&org, "org", "", "organisation slug")
		fs.StringVar(&email, "email", "", "e-mail address")
		fs.StringVar(&role, "role", "owner", "owner or member")
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the password from standard input")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 || org == "" || email == "" || !fromStdin {
		return usagef("usage: radar users create --org SLUG --email EMAIL --password-stdin")
	}
	b, err := io.ReadAll(io.LimitReader(m.Stdin, 4096))
	if err != nil {
		return fmt.Errorf("read password: %w", err)
	}
	password := strings.TrimRight(string(b), "\r\n")
	return m.withOrg(ctx, cfg, org, func(a *app.App, o *radar.Org) error {
		u, err := a.Service.CreateUser(ctx, o.ID, email, password, role)
		if err != nil {
			return cliError(err)
		}
		fmt.Fprintln(m.Stdout, u.ID)
		return nil
	})
}
