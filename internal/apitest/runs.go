package apitest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
)

// SeedQuietRun writes one finished tracker run of the entity that found nothing: a no_change signal and a
// no_match alert, as the tracker engine writes them.
func (e *Env) SeedQuietRun(t testing.TB, org *radar.Org, entityID string) Run {
	t.Helper()
	return e.seedPlainRun(t, org, entityID, &radar.Signal{
		Type: radar.TypeNoChange, Severity: "low", Recommendation: "no_action", Summary: "Nothing new this run.",
		Sources: []radar.SourceHealth{{Source: "website", OK: true}},
	}, "ok: website read", "no rule matched: nothing new this run")
}

// SeedFailedRun writes one finished tracker run of the entity that could read no source, as the tracker engine
// writes it.
func (e *Env) SeedFailedRun(t testing.TB, org *radar.Org, entityID string) Run {
	t.Helper()
	return e.seedPlainRun(t, org, entityID, &radar.Signal{
		Type: radar.TypeOther, Severity: "medium", Recommendation: "review", NeedsAttention: true,
		Summary: "Nothing could be checked: the website did not answer (connection refused)",
		Sources: []radar.SourceHealth{{Source: "website", Error: "the site did not answer (connection refused)", ConsecutiveFailures: 1}},
	}, "failed: website: the site did not answer (connection refused)", "no rule matched: nothing could be checked this run")
}

func (e *Env) seedPlainRun(t testing.TB, org *radar.Org, entityID string, sig *radar.Signal, health, reason string) Run {
	t.Helper()
	ctx := context.Background()
	ent, err := e.DB.Entity(ctx, org.ID, entityID)
	if err != nil {
		t.Fatalf("seed run: %v", err)
	}
	args := radar.RunArgs{OrgID: org.ID, EntityID: entityID, RunID: uuid.NewString(), Trigger: radar.TriggerSchedule}
	now := e.Clock.Now()
	if _, err := e.DB.StartRun(ctx, args, radar.NewTime(now)); err != nil {
		t.Fatalf("seed run: start: %v", err)
	}
	at := radar.NewTime(now.Add(time.Millisecond))
	sig.ID, sig.CompanyName, sig.Evidence, sig.Analyser, sig.CreatedAt = uuid.NewString(), ent.CompanyName, []radar.Evidence{}, "builtin", at
	alert := &radar.Alert{
		ID: uuid.NewString(), CompanyName: ent.CompanyName, SignalID: sig.ID, Outcome: radar.OutcomeNoMatch,
		Reason: reason, Recipients: ent.AlertEmails, CreatedAt: at,
	}
	rep := &radar.RunReport{
		OrgID: org.ID, EntityID: entityID, RunID: args.RunID, Signal: sig, Alert: alert,
		Sources: sig.Sources, HealthReason: health, FinishedAt: at,
	}
	if _, err := e.DB.FinishRun(ctx, rep); err != nil {
		t.Fatalf("seed run: finish: %v", err)
	}
	return Run{SignalID: sig.ID, AlertID: alert.ID}
}

// SeedSignal writes one finished tracker run of the entity whose signal has the type and severity given and
// whose alert matched no rule, as the tracker engine writes it.
func (e *Env) SeedSignal(t testing.TB, org *radar.Org, entityID, typ, severity, summary string) Run {
	t.Helper()
	return e.seedPlainRun(t, org, entityID, &radar.Signal{
		Type: typ, Severity: severity, Recommendation: "review", Summary: summary,
		Sources: []radar.SourceHealth{{Source: "website", OK: true}},
	}, "ok: website read", "no rule matched")
}
