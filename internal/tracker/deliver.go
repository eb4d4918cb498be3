package tracker

import (
	"context"
	"errors"
	"fmt"

	"radar"
	"radar/internal/mail"
)

// errSending makes a mail job wait while another job holds the e-mail.
var errSending = errors.New("tracker: the e-mail is being sent by another job")

// Deliver sends one alert e-mail of the outbox. It claims the message first and records the delivery right
// after the SMTP transaction, so that a repeated job never sends it twice. A failed attempt is retried by the
// queue unless it is the last one (final) or the server refused for good; then the message and its alert are
// marked failed.
func (e *Engine) Deliver(ctx context.Context, a radar.MailArgs, final bool) error {
	now := e.now()
	m, claimed, err := e.cfg.Store.ClaimOutbox(ctx, a.OrgID, a.OutboxID, now, radar.NewTime(now.Add(-mailLease)))
	if errors.Is(err, radar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tracker: deliver %s: %w", a.OutboxID, err)
	}
	if !claimed {
		if m.Status == radar.OutboxSending {
			return errSending
		}
		return nil
	}
	rctx, cancel := recordCtx(ctx)
	defer cancel()
	if e.cfg.Mailer == nil {
		return e.failDelivery(rctx, a, "no SMTP server is configured", true, m.Attempts)
	}
	sendErr := e.cfg.Mailer.Send(ctx, mail.Message{Key: a.OutboxID, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML})
	if sendErr == nil {
		if err := e.cfg.Store.MarkOutboxSent(rctx, a.OrgID, a.OutboxID, e.now()); err != nil && !errors.Is(err, radar.ErrNotFound) {
			return fmt.Errorf("tracker: deliver %s: sent, but not recorded: %w", a.OutboxID, err)
		}
		e.cfg.Logger.Info("alert e-mail sent", "outbox", a.OutboxID, "recipients", len(m.To))
		return nil
	}
	e.cfg.Logger.Warn("alert e-mail not sent", "outbox", a.OutboxID, "attempt", m.Attempts, "err", sendErr)
	final = final || mail.IsPermanent(sendErr)
	if err := e.failDelivery(rctx, a, sendErr.Error(), final, m.Attempts); err != nil {
		return err
	}
	if final {
		return nil
	}
	return fmt.Errorf("tracker: deliver %s: %w", a.OutboxID, sendErr)
}

func (e *Engine) failDelivery(ctx context.Context, a radar.MailArgs, cause string, final bool, attempts int) error {
	reason := fmt.Sprintf("rules matched, but the e-mail could not be delivered after %d attempts: %s", attempts, cause)
	err := e.cfg.Store.MarkOutboxFailed(ctx, a.OrgID, a.OutboxID, cause, final, reason)
	if err != nil && !errors.Is(err, radar.ErrNotFound) {
		return fmt.Errorf("tracker: deliver %s: %w", a.OutboxID, err)
	}
	return nil
}

// Schedule enqueues a run of every due entity (status ok, next run time passed, no run in progress) and
// marks each running so that it is not enqueued twice; it returns how many it enqueued. It claims due entities
// in batches over an index, so its cost follows the number that are due.
func (e *Engine) Schedule(ctx context.Context) (int, error) {
	now := e.now()
	stale := radar.NewTime(now.Add(-staleRun))
	newRun := func(orgID, entityID string) radar.JobArgs {
		return radar.RunArgs{OrgID: orgID, EntityID: entityID, RunID: newID(), Trigger: radar.TriggerSchedule}
	}
	total := 0
	for {
		n, err := e.cfg.Store.ClaimDueRuns(ctx, now, stale, scheduleBatch, newRun)
		total += n
		if err != nil {
			return total, fmt.Errorf("tracker: schedule: %w", err)
		}
		if n < scheduleBatch {
			return total, nil
		}
	}
}
