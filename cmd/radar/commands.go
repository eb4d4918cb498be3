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

// errHelpShown ends a command whose help was asked for: Run turns it into exit status 0.
var errHelpShown = errors.New("help shown")

// parse reads the configuration and the command's flags; flags and positional arguments may interleave.
// With -h or --help it prints the command's help on stdout and returns errHelpShown.
func (m *Main) parse(name string, args []string, define func(fs *flag.FlagSet)) (*config.Config, []string, error) {
	fs := flag.NewFlagSet("radar "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg, loadErr := config.Load(m.Getenv, fs)
	if define != nil {
		define(fs)
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				m.help(name, fs)
				return nil, nil, errHelpShown
			}
			return nil, nil, usagef("%s: %v (radar %s --help shows the flags)", name, err, name)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch err := cfg.Finish(); {
	case loadErr != nil && err != nil:
		return nil, nil, usagef("%v; %v", loadErr, err)
	case loadErr != nil:
		return nil, nil, usagef("%v", loadErr)
	case err != nil:
		return nil, nil, usagef("%v", err)
	}
	return cfg, pos, nil
}

// help prints the usage, description, flags with their defaults and an example of the command name.
func (m *Main) help(name string, fs *flag.FlagSet) {
	c, _ := lookup(strings.Fields(name))
	w := m.Stdout
	fmt.Fprintf(w, "usage: radar %s %s\n\n%s\n", c.name, c.args, c.summary)
	configFlags := map[string]bool{}
	for _, o := range config.Options() {
		configFlags[o.Flag] = true
	}
	var own []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !configFlags[f.Name] {
			own = append(own, f)
		}
	})
	if len(own) > 0 {
		fmt.Fprintln(w, "\nflags:")
		for _, f := range own {
			kind, text := flag.UnquoteUsage(f)
			fmt.Fprintf(w, "  --%s\n", strings.TrimSpace(f.Name+" "+kind))
			fmt.Fprintf(w, "        %s%s\n", text, defaultNote(f.DefValue))
		}
	}
	fmt.Fprintln(w, "\nconfiguration flags (each overrides the environment variable named after it):")
	for _, o := range config.Options() {
		fmt.Fprintf(w, "  --%s (%s)\n        %s%s\n", o.Flag, o.Env, o.Help, defaultNote(o.Default))
	}
	fmt.Fprintf(w, "\nexample:\n  %s\n", c.example)
}

func defaultNote(v string) string {
	switch v {
	case "", "false", "0", "0s":
		return ""
	}
	return " (default " + v + ")"
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
	applied := a.DB.Applied()
	if len(applied) == 0 {
		fmt.Fprintln(m.Stdout, "no migrations pending: the database is up to date")
	}
	for _, name := range applied {
		fmt.Fprintln(m.Stdout, "applied", name)
	}
	return a.Close(ctx)
}

func (m *Main) config(_ context.Context, args []string) error {
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
		fs.StringVar(&org, "org", "", "organisation slug (required)")
		fs.StringVar(&name, "name", "", "key name (required)")
		fs.StringVar(&scopes, "scopes", "", "comma-separated scopes of "+strings.Join(radar.Scopes, ", ")+" (required)")
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
	cfg, pos, err := m.parse("keys list", args, func(fs *flag.FlagSet) { fs.StringVar(&org, "org", "", "organisation slug (required)") })
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
		fs.StringVar(&org, "org", "", "organisation slug (required)")
		fs.StringVar(&email, "email", "", "e-mail address (required)")
		fs.StringVar(&role, "role", "owner", "owner or member")
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the password from standard input (required)")
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

func (m *Main) orgsList(ctx context.Context, args []string) error {
	cfg, pos, err := m.parse("orgs list", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("usage: radar orgs list")
	}
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	orgs, err := a.DB.Orgs(ctx)
	if err != nil {
		return err
	}
	for _, o := range orgs {
		fmt.Fprintf(m.Stdout, "%s\t%s\t%s\n", o.Slug, o.Name, o.ID)
	}
	return nil
}

func (m *Main) usersList(ctx context.Context, args []string) error {
	var org string
	cfg, pos, err := m.parse("users list", args, func(fs *flag.FlagSet) {
		fs.StringVar(&org, "org", "", "only the users of the organisation with this slug")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("usage: radar users list [--org SLUG]")
	}
	a, err := m.open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	orgID := ""
	if org != "" {
		o, err := a.DB.OrgBySlug(ctx, org)
		if err != nil {
			return cliError(err)
		}
		orgID = o.ID
	}
	users, err := a.DB.Users(ctx, orgID)
	if err != nil {
		return err
	}
	for _, u := range users {
		fmt.Fprintf(m.Stdout, "%s\t%s\n", u.Email, u.OrgSlug)
	}
	return nil
}
