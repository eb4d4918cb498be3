package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"radar"
	"radar/internal/fetch"
	"radar/internal/mail"
	"radar/internal/sqldb"
)

// Defaults of Config.
const (
	DefaultTimeout    = 15 * time.Second
	DefaultFailWindow = 24 * time.Hour
	DefaultRetention  = 30 * 24 * time.Hour
	DefaultCleanEvery = time.Hour
)

// backoff is the wait after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; about 28 hours from
// the first attempt to the eighth and last.
var backoff = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// Backoff is the wait after the failed attempt number attempt (1 for the first).
func Backoff(attempt int) time.Duration {
	return backoff[min(max(attempt, 1), len(backoff))-1]
}

// Mailer sends the notice of a disabled endpoint; *mail.Sender is the implementation.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Config wires a Deliverer; Store is required.
type Config struct {
	Store *sqldb.DB
	// AllowPrivate lets deliveries reach loopback and private addresses (RADAR_FETCH_ALLOW_PRIVATE).
	AllowPrivate bool
	// Client sends deliveries; default a client with the fetcher's guard and Timeout.
	Client *http.Client
	// Timeout bounds one delivery attempt; default DefaultTimeout.
	Timeout time.Duration
	// Mailer sends the notice of a disabled endpoint to the organisation's owners; nil logs it only.
	Mailer Mailer
	// BaseURL is Radar's public address, for links back.
	BaseURL string
	// FailWindow is how long an endpoint may fail before it is disabled; default DefaultFailWindow.
	FailWindow time.Duration
	// RetryDelay, when set, replaces Backoff.
	RetryDelay func(attempt int) time.Duration
	// Retention is how long the delivery log is kept; default DefaultRetention. CleanEvery is how often it is
	// cleaned; default DefaultCleanEvery.
	Retention  time.Duration
	CleanEvery time.Duration
	Clock      radar.Clock
	Logger     *slog.Logger
	// OnDelivered, when set, is told of every successful delivery with the time from the event to the answer.
	OnDelivered func(event string, sinceEvent time.Duration)
}

// Deliverer works the webhook jobs of the queue.
type Deliverer struct{ cfg Config }

// New returns a Deliverer of cfg.
func New(cfg Config) (*Deliverer, error) {
	if cfg.Store == nil {
		return nil, errors.New("webhook: a store is required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Client == nil {
		cfg.Client = fetch.NewHTTPClient(fetch.Config{AllowPrivate: cfg.AllowPrivate, Timeout: cfg.Timeout, PerHostConcurrency: 8})
	}
	if cfg.FailWindow <= 0 {
		cfg.FailWindow = DefaultFailWindow
	}
	if cfg.RetryDelay == nil {
		cfg.RetryDelay = Backoff
	}
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.CleanEvery <= 0 {
		cfg.CleanEvery = DefaultCleanEvery
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if s, ok := cfg.Mailer.(*mail.Sender); ok && s == nil {
		cfg.Mailer = nil
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Deliverer{cfg: cfg}, nil
}

// Register adds the webhook workers to workers and returns the periodic job that cleans the delivery log.
func (d *Deliverer) Register(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &deliveryWorker{d: d})
	river.AddWorker(workers, &noticeWorker{d: d})
	river.AddWorker(workers, &cleanWorker{d: d})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(d.cfg.CleanEvery),
		func() (river.JobArgs, *river.InsertOpts) { return cleanArgs{}, &river.InsertOpts{MaxAttempts: 1} },
		&river.PeriodicJobOpts{ID: "webhook_clean"})}
}

// errAttempt makes the queue retry a message after a failed attempt.
var errAttempt = errors.New("webhook: delivery failed")

// Deliver makes one attempt to deliver a queued message and records it. It returns an error, for the queue to
// retry, when the attempt failed and was not the last one.
func (d *Deliverer) Deliver(ctx context.Context, a radar.WebhookArgs, final bool) error {
	m, ep, err := d.cfg.Store.WebhookMessage(ctx, a.OrgID, a.MessageID)
	if errors.Is(err, radar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("webhook: deliver %s: %w", a.MessageID, err)
	}
	if m.Status != radar.WebhookMessagePending {
		return nil
	}
	if !ep.Enabled && m.EventType != radar.EventWebhookTest {
		return d.cfg.Store.SkipWebhookMessage(ctx, m.ID)
	}
	body, err := Body(ep.Kind, m.Payload, d.cfg.BaseURL)
	if err != nil {
		return d.cfg.Store.SkipWebhookMessage(ctx, m.ID)
	}
	now := d.cfg.Clock()
	sig, err := Signature(ep, m.ID, now, body)
	if err != nil {
		return d.cfg.Store.SkipWebhookMessage(ctx, m.ID)
	}
	del := &radar.WebhookDelivery{ID: newID(), EndpointID: ep.ID, MessageID: m.ID, EventType: m.EventType,
		Attempt: m.Attempts, AttemptedAt: radar.NewTime(now)}
	d.send(ctx, ep.URL, m.ID, now, sig, body, del)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	disabled, err := d.cfg.Store.RecordWebhookAttempt(rctx, a.OrgID, sqldb.WebhookAttempt{
		Delivery: del, Final: final, DisableBefore: radar.NewTime(now.Add(-d.cfg.FailWindow)),
		Reason: fmt.Sprintf("deliveries failed for %s; the last one: %s", d.cfg.FailWindow, outcome(del)),
	})
	if err != nil {
		return fmt.Errorf("webhook: deliver %s: %w", m.ID, err)
	}
	if del.Success {
		if d.cfg.OnDelivered != nil {
			d.cfg.OnDelivered(m.EventType, d.cfg.Clock().Sub(m.CreatedAt.Time))
		}
		return nil
	}
	d.cfg.Logger.Warn("webhook delivery failed", "endpoint", ep.ID, "message", m.ID, "attempt", del.Attempt, "outcome", outcome(del))
	if disabled {
		d.cfg.Logger.Warn("webhook endpoint disabled", "endpoint", ep.ID)
	}
	if final || disabled {
		return nil
	}
	return fmt.Errorf("%w: %s", errAttempt, outcome(del))
}

// send POSTs body and fills the outcome into del.
func (d *Deliverer) send(ctx context.Context, url, id string, now time.Time, sig string, body []byte, del *radar.WebhookDelivery) {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	if err := fetch.CheckDestination(ctx, url, d.cfg.AllowPrivate); err != nil {
		del.Error = err.Error()
		return
	}
	start := time.Now()
	defer func() { del.LatencyMs = time.Since(start).Milliseconds() }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		del.Error = err.Error()
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Radar-Webhooks/1.0")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	res, err := d.cfg.Client.Do(req)
	if err != nil {
		del.Error = plainError(err)
		return
	}
	defer res.Body.Close()
	head, err := io.ReadAll(io.LimitReader(res.Body, radar.WebhookResponseKeep))
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	code := res.StatusCode
	del.StatusCode = &code
	del.Response = strings.ToValidUTF8(string(head), "")
	del.Success = code >= 200 && code < 300
	if err != nil && del.Success {
		del.Success, del.Error = false, plainError(err)
	}
}

// plainError is err without the request's method and URL, which the log shows beside it.
func plainError(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		return ue.Unwrap().Error()
	}
	return err.Error()
}

// outcome says in a few words how an attempt ended.
func outcome(del *radar.WebhookDelivery) string {
	if del.StatusCode != nil {
		return "HTTP " + strconv.Itoa(*del.StatusCode)
	}
	return del.Error
}

func newID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// Notify e-mails the organisation's owners that Radar disabled an endpoint.
func (d *Deliverer) Notify(ctx context.Context, a radar.WebhookNoticeArgs) error {
	ep, err := d.cfg.Store.Webhook(ctx, a.OrgID, a.EndpointID)
	if errors.Is(err, radar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("webhook: notice: %w", err)
	}
	to, err := d.cfg.Store.OwnerEmails(ctx, a.OrgID)
	if err != nil {
		return fmt.Errorf("webhook: notice: %w", err)
	}
	if len(to) == 0 || d.cfg.Mailer == nil {
		d.cfg.Logger.Warn("webhook endpoint disabled; no e-mail sent", "endpoint", ep.ID, "owners", len(to))
		return nil
	}
	text := fmt.Sprintf("Radar disabled the webhook endpoint %s.\n\n%s\n\nFix the receiver, then enable the endpoint again: %s/webhooks\n",
		ep.URL, ep.DisabledReason, d.cfg.BaseURL)
	return d.cfg.Mailer.Send(ctx, mail.Message{To: to, Subject: "Radar disabled a webhook endpoint", Text: text})
}

// Clean deletes the delivery log older than the retention.
func (d *Deliverer) Clean(ctx context.Context) (int64, error) {
	return d.cfg.Store.CleanWebhookLog(ctx, radar.NewTime(d.cfg.Clock().Add(-d.cfg.Retention)))
}

type deliveryWorker struct {
	river.WorkerDefaults[radar.WebhookArgs]
	d *Deliverer
}

func (w *deliveryWorker) Timeout(*river.Job[radar.WebhookArgs]) time.Duration {
	return w.d.cfg.Timeout + time.Minute
}

func (w *deliveryWorker) NextRetry(j *river.Job[radar.WebhookArgs]) time.Time {
	return time.Now().Add(w.d.cfg.RetryDelay(j.Attempt))
}

func (w *deliveryWorker) Work(ctx context.Context, j *river.Job[radar.WebhookArgs]) error {
	return w.d.Deliver(ctx, j.Args, j.Attempt >= j.MaxAttempts)
}

type noticeWorker struct {
	river.WorkerDefaults[radar.WebhookNoticeArgs]
	d *Deliverer
}

func (w *noticeWorker) Work(ctx context.Context, j *river.Job[radar.WebhookNoticeArgs]) error {
	return w.d.Notify(ctx, j.Args)
}

// cleanArgs asks for a cleaning of the delivery log.
type cleanArgs struct{}

func (cleanArgs) Kind() string { return "webhook_clean" }

type cleanWorker struct {
	river.WorkerDefaults[cleanArgs]
	d *Deliverer
}

func (w *cleanWorker) Work(ctx context.Context, _ *river.Job[cleanArgs]) error {
	n, err := w.d.Clean(ctx)
	if n > 0 {
		w.d.cfg.Logger.Info("webhook delivery log cleaned", "attempts", n)
	}
	return err
}
