package tracker_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/crawl"
	"radar/internal/fetch"
	"radar/internal/mail"
	"radar/internal/mail/smtptest"
	"radar/internal/simweb"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/tracker"
)

// clock is a settable clock shared by the simulated web and the engine.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is one store, a simulated web, an SMTP server and the pieces of an engine. Each tracked company gets an
// organisation of its own.
type env struct {
	t     testing.TB
	db    *sqldb.DB
	web   *simweb.Web
	smtp  *smtptest.Server
	clock *clock
	orgOf map[string]string
}

// newEnv starts a simulated web with the default companies and the given events.
func newEnv(t testing.TB, engine string, events []simweb.Event) *env {
	t.Helper()
	c := newClock()
	web, err := simweb.Start(simweb.Options{Now: c.Now, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	db := storetest.Open(t, engine)
	return &env{t: t, db: db, web: web, smtp: smtptest.Start(t, smtptest.Options{}), clock: c, orgOf: map[string]string{}}
}

// newOrg creates an organisation.
func (v *env) newOrg() string {
	v.t.Helper()
	id := uuid.NewString()
	org := &radar.Org{ID: id, Slug: "fund-" + id[:8], Name: "Fund", CreatedAt: radar.NewTime(v.clock.Now())}
	if err := v.db.CreateOrg(context.Background(), org); err != nil {
		v.t.Fatal(err)
	}
	return id
}

// config returns an engine configuration over env that retries at once and polls the queue often.
func (v *env) config() tracker.Config {
	fetcher := fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second})
	sender, err := mail.New(mail.Config{URL: v.smtp.URL})
	if err != nil {
		v.t.Fatal(err)
	}
	return tracker.Config{
		Store:        v.db,
		Crawler:      crawl.New(crawl.Config{Fetcher: fetcher, NewsFeedURL: v.web.NewsFeedURL(), GitHubAPIURL: v.web.GitHubAPIURL()}),
		Mailer:       sender,
		Clock:        v.clock.Now,
		BaseURL:      "https://radar.example",
		PollInterval: 20 * time.Millisecond,
		RetryDelay:   func(int) time.Duration { return 10 * time.Millisecond },
	}
}

// start runs an engine until the test ends.
func (v *env) start(cfg tracker.Config) *tracker.Engine {
	v.t.Helper()
	e, err := tracker.New(cfg)
	if err != nil {
		v.t.Fatal(err)
	}
	if err := e.Start(context.Background()); err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e.Stop(ctx)
	})
	return e
}

func (v *env) company(slug string) simweb.Company {
	v.t.Helper()
	for _, c := range v.web.Companies() {
		if c.Slug == slug {
			return c
		}
	}
	v.t.Fatalf("no company %q", slug)
	return simweb.Company{}
}

// entityOption changes an entity before it is created.
type entityOption func(*radar.Entity)

func withRules(text string) entityOption {
	return func(e *radar.Entity) {
		p := tracker.Compile(text)
		p.Version = 1
		e.ThingsToTrack, e.Policy = text, &p
	}
}

func withRecipients(to ...string) entityOption {
	return func(e *radar.Entity) { e.AlertEmails = to }
}

func withAlertsOff() entityOption { return func(e *radar.Entity) { e.EmailAlertsEnabled = false } }

// track creates an entity for a company of the simulated web the way the service does: saved with its founders'
// names only, enrichment queued with the first run to follow.
func (v *env) track(c simweb.Company, opts ...entityOption) *radar.Entity {
	v.t.Helper()
	return v.trackSite(c.Name, c.Website, founderNames(c), opts...)
}

func founderNames(c simweb.Company) []string {
	names := make([]string, len(c.Founders))
	for i, f := range c.Founders {
		names[i] = f.Name
	}
	return names
}

func (v *env) trackSite(name, website string, founders []string, opts ...entityOption) *radar.Entity {
	v.t.Helper()
	now := radar.NewTime(v.clock.Now())
	id, _ := uuid.NewV7()
	org := v.newOrg()
	v.orgOf[id.String()] = org
	e := &radar.Entity{
		ID: id.String(), OrgID: org, CompanyName: name, CompanyWebsite: website,
		AlertEmails: []string{"partner@fund.example"}, EmailAlertsEnabled: true, CadenceDays: 7,
		Status: radar.StatusOK, Tags: []string{}, Sectors: []string{}, Stage: radar.StageUnknown,
		EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending, CreatedAt: now, UpdatedAt: now,
	}
	for _, f := range founders {
		e.Founders = append(e.Founders, radar.Founder{ID: uuid.NewString(), Name: f})
	}
	withRules("Tell me about funding rounds.")(e)
	for _, o := range opts {
		o(e)
	}
	jobs := []radar.JobArgs{radar.EnrichArgs{OrgID: org, EntityID: e.ID, ThenRun: true}}
	if err := v.db.CreateEntity(context.Background(), e, jobs, nil); err != nil {
		v.t.Fatal(err)
	}
	return e
}

func (v *env) entity(id string) *radar.Entity {
	v.t.Helper()
	e, err := v.db.Entity(context.Background(), v.orgOf[id], id)
	if err != nil {
		v.t.Fatal(err)
	}
	return e
}

func (v *env) signals(entityID string) []*radar.Signal {
	v.t.Helper()
	s, err := v.db.Signals(context.Background(), radar.SignalFilter{OrgID: v.orgOf[entityID], EntityID: entityID})
	if err != nil {
		v.t.Fatal(err)
	}
	return s
}

func (v *env) alerts(entityID string) []*radar.Alert {
	v.t.Helper()
	a, err := v.db.Alerts(context.Background(), radar.AlertFilter{OrgID: v.orgOf[entityID], EntityID: entityID})
	if err != nil {
		v.t.Fatal(err)
	}
	return a
}

func (v *env) outbox(entityID string) []*radar.OutboxMessage {
	v.t.Helper()
	m, err := v.db.OutboxMessages(context.Background(), radar.OutboxFilter{OrgID: v.orgOf[entityID], EntityID: entityID})
	if err != nil {
		v.t.Fatal(err)
	}
	return m
}

// runs waits until the entity has n signals and no run in progress, and returns its signals, newest first.
func (v *env) runs(entityID string, n int) []*radar.Signal {
	v.t.Helper()
	var sigs []*radar.Signal
	eventually(v.t, fmt.Sprintf("%d finished runs", n), func() bool {
		sigs = v.signals(entityID)
		return len(sigs) >= n && v.entity(entityID).RunningSince == nil
	})
	if len(sigs) != n {
		v.t.Fatalf("%d signals, want %d", len(sigs), n)
	}
	return sigs
}

// refresh starts a run the way POST /refresh does.
func (v *env) refresh(entityID string) radar.RunArgs {
	v.t.Helper()
	args := radar.RunArgs{OrgID: v.orgOf[entityID], EntityID: entityID, RunID: uuid.NewString(), Trigger: radar.TriggerRefresh}
	if _, err := v.db.StartRefresh(context.Background(), args.OrgID, entityID, radar.NewTime(v.clock.Now()), []radar.JobArgs{args}); err != nil {
		v.t.Fatal(err)
	}
	return args
}

// eventually polls cond until it holds, failing the test after a bounded wait.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	eventuallyWithin(t, 30*time.Second, what, cond)
}

func eventuallyWithin(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// event is a news item of a company, relative to the start of the simulated web.
func event(slug string, at time.Duration, kind, title, body string) simweb.Event {
	return simweb.Event{At: at, Company: slug, Kind: kind, Title: title, Body: body}
}

const day = 24 * time.Hour
