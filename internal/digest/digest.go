// Package digest sends Radar's digest e-mails: once a day or once a week, at the hour an organisation chose in
// its time zone, one e-mail to each recipient address with the runs that found something at every company
// that lists the address with that digest, grouped by company and most severe first. A periodic job finds the
// digests that are due; a row per recipient and period start makes a repeated job send each digest once.
package digest

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"radar"
	"radar/internal/mail"
	"radar/internal/sqldb"
)

// Mailer delivers e-mails; *mail.Sender is the implementation.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Defaults of Config.
const (
	DefaultEvery = time.Minute
	// lease is how long a job's claim on a digest lasts before another job may send it.
	lease   = 5 * time.Minute
	timeout = 4 * time.Minute
)

// ErrBadToken reports an unsubscribe link that was not made by this server (or was changed).
var ErrBadToken = errors.New("digest: the unsubscribe link is not valid")

// Config wires Digests. Store and Secret are required.
type Config struct {
	Store *sqldb.DB
	// Mailer sends the digests; nil keeps them in the digests table (no SMTP server configured).
	Mailer Mailer
	// Secret signs the unsubscribe links (RADAR_SECRET).
	Secret []byte
	// BaseURL is the public address of Radar, for links in e-mails.
	BaseURL string
	Clock   radar.Clock
	Logger  *slog.Logger
	// Every is how often the job looks for due digests; default DefaultEvery.
	Every time.Duration
}

// Digests builds and sends digest e-mails.
type Digests struct{ cfg Config }

// New returns Digests for cfg.
func New(cfg Config) (*Digests, error) {
	if cfg.Store == nil || len(cfg.Secret) == 0 {
		return nil, errors.New("digest: a store and a secret are required")
	}
	if s, ok := cfg.Mailer.(*mail.Sender); ok && s == nil {
		cfg.Mailer = nil
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Digests{cfg: cfg}, nil
}

// Args is the periodic job that sends the digests that are due.
type Args struct{}

// Kind names the job in the queue.
func (Args) Kind() string { return "digest" }

type worker struct {
	river.WorkerDefaults[Args]
	d *Digests
}

func (w *worker) Timeout(*river.Job[Args]) time.Duration { return timeout }

func (w *worker) Work(ctx context.Context, _ *river.Job[Args]) error {
	n, err := w.d.SendDue(ctx)
	if n > 0 {
		w.d.cfg.Logger.Info("digests sent", "count", n)
	}
	return err
}

// Register adds the digest worker and returns its periodic job.
func (d *Digests) Register(ws *river.Workers) []*river.PeriodicJob {
	river.AddWorker(ws, &worker{d: d})
	return []*river.PeriodicJob{river.NewPeriodicJob(
		river.PeriodicInterval(d.cfg.Every),
		func() (river.JobArgs, *river.InsertOpts) { return Args{}, &river.InsertOpts{MaxAttempts: 1} },
		&river.PeriodicJobOpts{ID: "digest", RunOnStart: true},
	)}
}

// ValidateSettings checks an organisation's digest settings: an hour from 0 to 23 and an IANA time zone name.
func ValidateSettings(s radar.DigestSettings) error {
	var p radar.Problems
	if s.Hour < 0 || s.Hour > 23 {
		p.Addf("hour", "must be an hour from 0 to 23, got %d", s.Hour)
	}
	if _, err := loadZone(s.TimeZone); err != nil {
		p.Addf("timeZone", "must be an IANA time zone name such as Europe/Berlin or UTC, got %q", s.TimeZone)
	}
	return p.Err()
}

func loadZone(name string) (*time.Location, error) {
	if name == "" || strings.EqualFold(name, "local") {
		return nil, fmt.Errorf("digest: time zone %q", name)
	}
	return time.LoadLocation(name)
}

// PeriodStart is when the current period of a digest began: the latest send time (the settings' hour in their
// time zone, every day for daily, on Mondays for weekly) at or before now.
func PeriodStart(period string, s radar.DigestSettings, now time.Time) time.Time {
	loc, err := loadZone(s.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	l := now.In(loc)
	start := time.Date(l.Year(), l.Month(), l.Day(), s.Hour, 0, 0, 0, loc)
	if start.After(l) {
		start = time.Date(l.Year(), l.Month(), l.Day()-1, s.Hour, 0, 0, 0, loc)
	}
	if period == radar.DigestWeekly {
		for start.Weekday() != time.Monday {
			start = time.Date(start.Year(), start.Month(), start.Day()-1, s.Hour, 0, 0, 0, loc)
		}
	}
	return start.UTC()
}

// periodBefore is when the period before the one starting at start began, in the settings' time zone.
func periodBefore(period string, s radar.DigestSettings, start time.Time) time.Time {
	days := 1
	if period == radar.DigestWeekly {
		days = 7
	}
	loc, err := loadZone(s.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	l := start.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day()-days, s.Hour, 0, 0, 0, loc).UTC()
}

// audience maps each recipient address (lower case) and period to the entities that list it with that digest,
// leaving out the addresses that unsubscribed.
type audience map[[2]string][]string

func (d *Digests) audience(ctx context.Context, orgID string) (audience, error) {
	ents, err := d.cfg.Store.DigestEntities(ctx, orgID)
	if err != nil {
		return nil, err
	}
	optOuts, err := d.cfg.Store.DigestOptOuts(ctx, orgID)
	if err != nil {
		return nil, err
	}
	out := audience{}
	for _, e := range ents {
		for _, a := range e.AlertEmails {
			a = normalize(a)
			if optOuts[a] {
				continue
			}
			k := [2]string{a, e.Digest}
			out[k] = append(out[k], e.ID)
		}
	}
	return out, nil
}

func normalize(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// SendDue sends every digest that is due now and returns how many it sent. A digest already sent for its
// period is not sent again; one that failed is tried again by the next job.
func (d *Digests) SendDue(ctx context.Context) (int, error) {
	orgs, err := d.cfg.Store.DigestOrgs(ctx)
	if err != nil {
		return 0, fmt.Errorf("digest: %w", err)
	}
	sent := 0
	var errs []error
	for orgID, settings := range orgs {
		n, err := d.sendOrg(ctx, orgID, settings)
		sent += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return sent, errors.Join(errs...)
}

func (d *Digests) sendOrg(ctx context.Context, orgID string, settings radar.DigestSettings) (int, error) {
	aud, err := d.audience(ctx, orgID)
	if err != nil {
		return 0, fmt.Errorf("digest: %w", err)
	}
	now := d.cfg.Clock()
	keys := make([][2]string, 0, len(aud))
	for k := range aud {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	sent := 0
	var errs []error
	for _, k := range keys {
		ok, err := d.sendOne(ctx, radar.DigestKey{OrgID: orgID, Recipient: k[0], Period: k[1],
			PeriodStart: radar.NewTime(PeriodStart(k[1], settings, now))}, settings, aud[k], now)
		if ok {
			sent++
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return sent, errors.Join(errs...)
}

// window is the time a digest covers: from the end of the recipient's last digest of the period (or, for the
// first one, the period before the current one) up to now.
func (d *Digests) window(ctx context.Context, k radar.DigestKey, settings radar.DigestSettings, now time.Time) (since, through radar.Time, err error) {
	last, ok, err := d.cfg.Store.LastDigest(ctx, k.OrgID, k.Recipient, k.Period)
	if err != nil {
		return since, through, err
	}
	if !ok {
		last = radar.NewTime(periodBefore(k.Period, settings, k.PeriodStart.Time))
	}
	return last, radar.NewTime(now), nil
}

func (d *Digests) sendOne(ctx context.Context, k radar.DigestKey, settings radar.DigestSettings, entityIDs []string, now time.Time) (bool, error) {
	status, err := d.cfg.Store.DigestStatus(ctx, k)
	if err != nil {
		return false, fmt.Errorf("digest: %w", err)
	}
	if status != "" && status != radar.DigestSending {
		return false, nil
	}
	since, through, err := d.window(ctx, k, settings, now)
	if err != nil {
		return false, fmt.Errorf("digest: %w", err)
	}
	claimed, err := d.cfg.Store.ClaimDigest(ctx, k, since, through, radar.NewTime(now), radar.NewTime(now.Add(-lease)))
	if err != nil || !claimed {
		return false, err
	}
	msg, items, err := d.build(ctx, k, entityIDs, since, through)
	if err != nil {
		return false, errors.Join(err, d.cfg.Store.ReleaseDigest(context.WithoutCancel(ctx), k))
	}
	finished := radar.NewTime(d.cfg.Clock())
	switch {
	case items == 0:
		return false, d.cfg.Store.FinishDigest(ctx, k, radar.DigestEmpty, 0, "", "", finished)
	case d.cfg.Mailer == nil:
		return false, d.cfg.Store.FinishDigest(ctx, k, radar.DigestKept, items, msg.Subject, msg.Text, finished)
	}
	msg.Key = fmt.Sprintf("digest/%s/%s/%s/%d", k.OrgID, k.Recipient, k.Period, k.PeriodStart.Micros())
	if err := d.cfg.Mailer.Send(ctx, msg); err != nil {
		d.cfg.Logger.Warn("digest not sent", "org", k.OrgID, "period", k.Period, "err", err)
		return false, errors.Join(fmt.Errorf("digest: send: %w", err), d.cfg.Store.ReleaseDigest(context.WithoutCancel(ctx), k))
	}
	if err := d.cfg.Store.FinishDigest(context.WithoutCancel(ctx), k, radar.DigestSent, items, msg.Subject, msg.Text, finished); err != nil {
		return true, fmt.Errorf("digest: sent, but not recorded: %w", err)
	}
	return true, nil
}

// build renders the digest of k over the runs of entityIDs from since to through; items is how many runs it
// holds.
func (d *Digests) build(ctx context.Context, k radar.DigestKey, entityIDs []string, since, through radar.Time) (mail.Message, int, error) {
	signals, err := d.cfg.Store.DigestSignals(ctx, k.OrgID, entityIDs, since, through)
	if err != nil {
		return mail.Message{}, 0, fmt.Errorf("digest: %w", err)
	}
	if len(signals) == 0 {
		return mail.Message{}, 0, nil
	}
	msg, err := mail.RenderDigest(mail.Digest{
		Recipient: k.Recipient, Period: k.Period, Since: since.Time, Through: through.Time, Signals: signals,
		SignalLink:     func(id string) string { return d.cfg.BaseURL + "/signals/" + id },
		UnsubscribeURL: d.UnsubscribeURL(k.OrgID, k.Recipient),
	})
	if err != nil {
		return mail.Message{}, 0, err
	}
	return msg, len(signals), nil
}

// Preview is a digest as it would be sent now.
type Preview struct {
	Period  string
	Runs    int
	Message mail.Message
}

// Preview renders, without sending or recording anything, the digests that recipient would get now from the
// organisation: one per period with an entity listing the address, empty ones included (Runs 0).
func (d *Digests) Preview(ctx context.Context, orgID, recipient string) ([]Preview, error) {
	settings, err := d.cfg.Store.DigestSettings(ctx, orgID)
	if err != nil {
		return nil, err
	}
	aud, err := d.audience(ctx, orgID)
	if err != nil {
		return nil, fmt.Errorf("digest: %w", err)
	}
	now := d.cfg.Clock()
	recipient = normalize(recipient)
	var out []Preview
	for _, period := range []string{radar.DigestDaily, radar.DigestWeekly} {
		ids, ok := aud[[2]string{recipient, period}]
		if !ok {
			continue
		}
		k := radar.DigestKey{OrgID: orgID, Recipient: recipient, Period: period, PeriodStart: radar.NewTime(PeriodStart(period, settings, now))}
		since, through, err := d.window(ctx, k, settings, now)
		if err != nil {
			return nil, fmt.Errorf("digest: %w", err)
		}
		msg, n, err := d.build(ctx, k, ids, since, through)
		if err != nil {
			return nil, err
		}
		out = append(out, Preview{Period: period, Runs: n, Message: msg})
	}
	return out, nil
}

// UnsubscribeURL is the signed one-click link that stops recipient's digests from the organisation.
func (d *Digests) UnsubscribeURL(orgID, recipient string) string {
	payload := base64.RawURLEncoding.EncodeToString([]byte(orgID + "\n" + normalize(recipient)))
	return d.cfg.BaseURL + "/unsubscribe/" + payload + "." + base64.RawURLEncoding.EncodeToString(d.sign(payload))
}

func (d *Digests) sign(payload string) []byte {
	m := hmac.New(sha256.New, d.cfg.Secret)
	m.Write([]byte("radar digest unsubscribe\n" + payload))
	return m.Sum(nil)
}

// ParseToken checks the token of an unsubscribe link and returns the organisation and recipient it names.
func (d *Digests) ParseToken(token string) (orgID, recipient string, err error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return "", "", ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, d.sign(payload)) {
		return "", "", ErrBadToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return "", "", ErrBadToken
	}
	orgID, recipient, ok = strings.Cut(string(raw), "\n")
	if !ok || orgID == "" || recipient == "" {
		return "", "", ErrBadToken
	}
	return orgID, recipient, nil
}

// Unsubscribe follows an unsubscribe link: the recipient it names gets no more digests from its organisation.
// It returns the recipient.
func (d *Digests) Unsubscribe(ctx context.Context, token string) (string, error) {
	orgID, recipient, err := d.ParseToken(token)
	if err != nil {
		return "", err
	}
	if err := d.cfg.Store.OptOutDigest(ctx, orgID, recipient, radar.NewTime(d.cfg.Clock())); err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	return recipient, nil
}

// Settings reads the organisation's digest settings.
func (d *Digests) Settings(ctx context.Context, orgID string) (radar.DigestSettings, error) {
	return d.cfg.Store.DigestSettings(ctx, orgID)
}

// SetSettings validates and stores the organisation's digest settings.
func (d *Digests) SetSettings(ctx context.Context, orgID string, s radar.DigestSettings) error {
	if err := ValidateSettings(s); err != nil {
		return err
	}
	return d.cfg.Store.SetDigestSettings(ctx, orgID, s)
}
