package apitest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
)

// CreateBody returns a valid create body for a company called name, whose website and founder profile are
// derived from name so that bodies of different names never reuse each other's entity.
func CreateBody(name string) map[string]any {
	slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	return map[string]any{
		"companyName":    name,
		"companyWebsite": "https://" + slug + ".example",
		"companySummary": name + " builds things.",
		"founders": []any{
			map[string]any{"name": "Ada " + name, "linkedinUrl": "https://www.linkedin.com/in/ada-" + slug},
		},
		"thingsToTrack": "Tell me when " + name + " raises money or a founder leaves.",
		"alertEmails":   []any{"alerts@fund.example"},
		"cadenceDays":   7,
		"confirmed":     true,
	}
}

// InsertEntity stores an entity of org named name, created at created, straight through the store (tests
// of paging use it to make many entities share one creation time).
func (e *Env) InsertEntity(t testing.TB, org *radar.Org, name string, created time.Time) *radar.Entity {
	t.Helper()
	return e.InsertEntityWith(t, org, name, created, nil)
}

// InsertEntityWith is InsertEntity with edit applied before the insert, for fields only the engine writes
// afterwards (sectors, stage, enrichment and run state).
func (e *Env) InsertEntityWith(t testing.TB, org *radar.Org, name string, created time.Time, edit func(*radar.Entity)) *radar.Entity {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatalf("uuid: %v", err)
	}
	slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	at := radar.NewTime(created)
	ent := &radar.Entity{
		ID: id.String(), OrgID: org.ID, CompanyName: name, CompanyWebsite: "https://" + slug + ".example",
		Founders:      []radar.Founder{{ID: uuid.NewString(), Name: "Ada " + name}},
		ThingsToTrack: "funding", AlertEmails: []string{"alerts@fund.example"}, EmailAlertsEnabled: true, CadenceDays: 7,
		Status: radar.StatusOK, Tags: []string{}, Sectors: []string{}, Stage: radar.StageUnknown,
		Policy:           &radar.Policy{Version: 1, Rules: []radar.PolicyRule{}},
		EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
		CreatedAt: at, UpdatedAt: at,
	}
	if edit != nil {
		edit(ent)
	}
	if err := e.DB.CreateEntity(context.Background(), ent, nil, nil); err != nil {
		t.Fatalf("insert entity %s: %v", name, err)
	}
	return ent
}

// Run names what SeedRun wrote.
type Run struct {
	SignalID, AlertID, LeadID string
}

// SeedRun writes one finished tracker run of the entity through the store, as the tracker engine would: a
// signal, an alert that was sent, and a lead found around the company.
func (e *Env) SeedRun(t testing.TB, org *radar.Org, entityID string) Run {
	t.Helper()
	ctx := context.Background()
	ent, err := e.DB.Entity(ctx, org.ID, entityID)
	if err != nil {
		t.Fatalf("seed run: %v", err)
	}
	args := radar.RunArgs{OrgID: org.ID, EntityID: entityID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
	now := e.Clock.Now()
	if _, err := e.DB.StartRun(ctx, args, radar.NewTime(now)); err != nil {
		t.Fatalf("seed run: start: %v", err)
	}
	at := radar.NewTime(now.Add(time.Millisecond))
	evidence := []radar.Evidence{
		{URL: "https://news.example/1", Title: ent.CompanyName + " raises a Series A", Source: "news", PublishedAt: &at},
		{URL: "https://news.example/2", Title: "Second", Source: "news"},
		{URL: "https://news.example/3", Title: "Third", Source: "feed"},
		{URL: "https://news.example/4", Title: "Fourth", Source: "website"},
	}
	sig := &radar.Signal{
		ID: uuid.NewString(), CompanyName: ent.CompanyName, Type: radar.TypeFunding, Severity: "high",
		Recommendation: "reach_out", NeedsAttention: true, Summary: strings.Repeat("Raised a Series A. ", 30),
		Analysis: "The company raised money.", Evidence: evidence, Analyser: "builtin", CreatedAt: at,
		Findings: []radar.Finding{{Type: radar.TypeFunding, Severity: "high", Title: "Series A", URL: evidence[0].URL, Source: "news"}},
		Sources:  []radar.SourceHealth{{Source: "website", OK: true}},
	}
	alert := &radar.Alert{
		ID: uuid.NewString(), CompanyName: ent.CompanyName, Outcome: radar.OutcomeSent, Reason: "a rule matched",
		Recipients: ent.AlertEmails, Subject: ent.CompanyName + ": funding", SentAt: &at, CreatedAt: at,
		RuleEvaluations: []radar.RuleEvaluation{{RuleID: "r1", Sentence: "raises money", Matched: true, Reason: "funding", Evidence: []string{evidence[0].URL}}},
	}
	lead := &radar.Lead{
		ID: uuid.NewString(), OrgID: org.ID, Key: "lead|" + entityID, PersonName: "Oskar Lind", PersonRole: "Founder",
		LinkedinURL: "https://www.linkedin.com/in/oskar-" + entityID[:8],
		Company:     radar.LeadCompany{Name: "Kestrel " + entityID[:8], Website: "https://kestrel-" + entityID[:8] + ".example", Summary: "Grips."},
		Relation:    "departed_to_found", Source: radar.LeadSource{EntityID: entityID, CompanyName: ent.CompanyName},
		Sector: "Software", Stage: radar.StagePreSeedSeed, Evidence: evidence, CreatedAt: at, UpdatedAt: at,
	}
	rep := &radar.RunReport{
		OrgID: org.ID, EntityID: entityID, RunID: args.RunID, Signal: sig, Alert: alert, Leads: []*radar.Lead{lead},
		Sources: []radar.SourceHealth{{Source: "website", OK: true}}, HealthReason: "ok: 1 source read", FinishedAt: at,
	}
	if _, err := e.DB.FinishRun(ctx, rep); err != nil {
		t.Fatalf("seed run: finish: %v", err)
	}
	return Run{SignalID: sig.ID, AlertID: alert.ID, LeadID: lead.ID}
}
