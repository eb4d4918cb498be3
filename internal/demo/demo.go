// Package demo prepares Radar's self-contained demonstration: a data folder holding an embedded database, a
// demo organisation with a web user and an API key, and companies of the simulated web tracked through the
// service, as a client would track them. It also compresses time: the simulated news arrives every few seconds,
// so the demo runs each company every minute instead of every few days. Start runs all of it; radar demo and the
// test of the documentation's examples both use it.
package demo

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"radar"
	"radar/internal/app"
	"radar/internal/config"
	"radar/internal/service"
	"radar/internal/simweb"
)

// Defaults of the demo.
const (
	OrgSlug  = "demo"
	Email    = "demo@radar.local"
	orgName  = "Demo Ventures"
	keyName  = "demo"
	dbFile   = "radar.db"
	credFile = "demo.json"
	// marker marks a folder made by the demo, so that a fresh start never deletes anyone else's files.
	marker = ".radar-demo"
	// DefaultCompanies is how many of the simulated companies the demo tracks.
	DefaultCompanies = 7
	// DefaultStep spaces the simulated news.
	DefaultStep = 15 * time.Second
	// DefaultRunEvery is how often the demo runs each tracked company.
	DefaultRunEvery = time.Minute
)

// Rules are the alert rules of the demo's companies.
const Rules = "Tell me about funding rounds and acquisitions. Tell me when a founder leaves or starts something new. " +
	"Tell me about layoffs and office closures."

// ErrForeignDir is returned when the data folder holds files that the demo did not make.
var ErrForeignDir = errors.New("demo: the data folder is not empty and was not made by radar demo")

// ErrNoCredentials is returned when a kept demo database has lost the file with its sign-in and key.
var ErrNoCredentials = errors.New("demo: the kept demo has no credentials file")

// PrepareDir makes the data folder and returns the database URL in it. Unless keep is set, the database and
// credentials of an earlier demo are removed so that the demo starts afresh; a non-empty folder that the demo
// did not make is refused rather than touched.
func PrepareDir(dir string, keep bool) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("demo: data folder: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("demo: data folder: %w", err)
	}
	mine := slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == marker })
	if len(entries) > 0 && !mine {
		return "", fmt.Errorf("%s: %w; choose another folder with --data", dir, ErrForeignDir)
	}
	if !mine {
		if err := os.WriteFile(filepath.Join(dir, marker), []byte("made by radar demo\n"), 0o600); err != nil {
			return "", fmt.Errorf("demo: data folder: %w", err)
		}
	}
	if !keep {
		for _, name := range []string{dbFile, dbFile + "-wal", dbFile + "-shm", dbFile + "-journal", credFile} {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("demo: start afresh: %w", err)
			}
		}
	}
	return "sqlite:" + filepath.Join(dir, dbFile), nil
}

// Credentials are how to use the demo: the web sign-in and an API key with every scope.
type Credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	APIKey   string `json:"apiKey"`
}

// Setup creates the demo organisation with its owner and API key, and writes them to the data folder; when
// the organisation exists (a kept demo) it reads them back. p is how the demo acts as the organisation.
func Setup(ctx context.Context, svc *service.Service, dir string) (*Credentials, *radar.Principal, error) {
	org, err := svc.Store().OrgBySlug(ctx, OrgSlug)
	switch {
	case err == nil:
		c, err := readCredentials(dir)
		if err != nil {
			return nil, nil, err
		}
		return c, principal(org), nil
	case radar.ErrorCode(err) != radar.ENotFound:
		return nil, nil, err
	}
	org, err = svc.CreateOrg(ctx, OrgSlug, orgName)
	if err != nil {
		return nil, nil, err
	}
	c := &Credentials{Email: Email, Password: password()}
	if _, err := svc.CreateUser(ctx, org.ID, c.Email, c.Password, service.RoleOwner); err != nil {
		return nil, nil, err
	}
	k, err := svc.CreateKey(ctx, org.ID, keyName, radar.Scopes, 0)
	if err != nil {
		return nil, nil, err
	}
	c.APIKey = k.Secret
	b, _ := json.MarshalIndent(c, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, credFile), b, 0o600); err != nil {
		return nil, nil, fmt.Errorf("demo: save credentials: %w", err)
	}
	return c, principal(org), nil
}

func readCredentials(dir string) (*Credentials, error) {
	b, err := os.ReadFile(filepath.Join(dir, credFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: start without --keep", ErrNoCredentials)
	}
	if err != nil {
		return nil, fmt.Errorf("demo: read credentials: %w", err)
	}
	var c Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("demo: read credentials: %w", err)
	}
	return &c, nil
}

// password is a random password of 16 lower-case letters and digits.
func password() string {
	b := make([]byte, 10)
	rand.Read(b)
	return base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding).EncodeToString(b)
}

// principal acts as the demo organisation with every scope, as its owner does in the web UI.
func principal(o *radar.Org) *radar.Principal {
	return &radar.Principal{OrgID: o.ID, OrgSlug: o.Slug, OrgName: o.Name, KeyID: "demo", KeyName: "demo", Scopes: slices.Clone(radar.Scopes)}
}

// Track tracks the first n companies through the service, as a client of the API would: the website, the
// company's LinkedIn page (so that a kept demo finds its companies again when the simulated web has moved to
// new ports) and the founders' names; enrichment finds the other profiles. A company tracked already is
// updated and run again at once.
func Track(ctx context.Context, svc *service.Service, p *radar.Principal, companies []simweb.Company, n int) ([]*radar.Entity, error) {
	var out []*radar.Entity
	yes := true
	cadence := 3
	for _, c := range companies[:min(n, len(companies))] {
		in := radar.CreateInput{Confirmed: &yes, EntityInput: radar.EntityInput{
			CompanyName: c.Name, CompanyWebsite: c.Website, CompanyLinkedinURL: c.LinkedIn, CompanySummary: c.Summary,
			ThingsToTrack: Rules, AlertEmails: []string{Email}, CadenceDays: &cadence,
		}}
		for _, f := range c.Founders {
			in.Founders = append(in.Founders, radar.FounderInput{Name: f.Name})
		}
		res, err := svc.CreateEntity(ctx, p, in, "")
		if err != nil {
			return nil, fmt.Errorf("demo: track %s: %w", c.Name, err)
		}
		if res.Existing {
			if err := refresh(ctx, svc, p, res.Entity.ID); err != nil {
				return nil, err
			}
		}
		out = append(out, res.Entity)
	}
	return out, nil
}

// refresh starts a run unless one is running or the company is paused.
func refresh(ctx context.Context, svc *service.Service, p *radar.Principal, id string) error {
	_, err := svc.RefreshEntity(ctx, p, id)
	if c := radar.ErrorCode(err); err == nil || c == radar.ERefreshInProgress || c == radar.EEntityPaused {
		return nil
	}
	return err
}

// Options configure Start.
type Options struct {
	// Dir is the data folder; Keep keeps the data of the previous demo in it.
	Dir  string
	Keep bool
	// Step spaces the simulated news; RunEvery is how often each company runs; Companies is how many are tracked.
	Step, RunEvery time.Duration
	Companies      int
	// Config is the configuration to run with; Start points its database, fetcher, news search, GitHub source
	// and schedule at the demo's.
	Config *config.Config
	Logger *slog.Logger
	// Listener, when set, is where the demo serves instead of Config.Addr.
	Listener net.Listener
}

// Demo is a running demo.
type Demo struct {
	App         *app.App
	Web         *simweb.Web
	Credentials *Credentials
	// Principal acts as the demo organisation with every scope.
	Principal *radar.Principal
	// Tracked is how many companies are tracked.
	Tracked int
}

// Start prepares the data folder, starts the simulated web, sets up the organisation, tracks the companies and
// serves everything on o.Config.Addr; the scheduler runs each company o.RunEvery after its last run.
func Start(ctx context.Context, o Options) (*Demo, error) {
	dbURL, err := PrepareDir(o.Dir, o.Keep)
	if err != nil {
		return nil, err
	}
	web, err := simweb.Start(simweb.Options{Step: o.Step})
	if err != nil {
		return nil, err
	}
	cfg := o.Config
	cfg.DatabaseURL = dbURL
	cfg.RunEvery = o.RunEvery
	cfg.FetchAllowPrivate = true
	cfg.NewsFeedURL = web.NewsFeedURL()
	cfg.GitHubAPIURL = web.GitHubAPIURL()
	a, err := app.Open(ctx, cfg, o.Logger)
	if err != nil {
		web.Close()
		return nil, err
	}
	a.Listener = o.Listener
	d := &Demo{App: a, Web: web, Tracked: min(o.Companies, len(web.Companies()))}
	d.Credentials, d.Principal, err = Setup(ctx, a.Service, o.Dir)
	if err == nil {
		_, err = Track(ctx, a.Service, d.Principal, web.Companies(), o.Companies)
	}
	if err == nil {
		err = a.Start(ctx)
	}
	if err != nil {
		a.Close(context.Background())
		web.Close()
		return nil, err
	}
	return d, nil
}

// Close stops the server, the workers and the simulated web.
func (d *Demo) Close(ctx context.Context) error {
	err := d.App.Close(ctx)
	d.Web.Close()
	return err
}
