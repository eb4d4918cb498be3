package sqldb_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

func TestCompactReadsLeaveOutWhatTheCompactViewHides(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := storetest.Open(t, engine)
		org := engineOrg(t, db)
		e := policyEntity(t, db, org)
		args := radar.RunArgs{OrgID: org, EntityID: e.ID, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
		at := time.Now()
		if _, err := db.StartRun(ctx, args, radar.NewTime(at)); err != nil {
			t.Fatalf("start run: %v", err)
		}
		rep := runReport(org, e, args.RunID, at.Add(time.Second))
		rep.Signal.Summary = strings.Repeat("Raised a Series A. ", 30)
		rep.Signal.Analysis = "The company raised money."
		rep.Signal.Findings = []radar.Finding{{Type: radar.TypeFunding, Severity: "high", Title: "Series A"}}
		rep.Signal.Sources = []radar.SourceHealth{{Source: "news", OK: true}}
		rep.Signal.Evidence = []radar.Evidence{{URL: "https://news.example/1"}, {URL: "https://news.example/2"},
			{URL: "https://news.example/3"}, {URL: "https://news.example/4"}, {URL: "https://news.example/5"}}
		if _, err := db.FinishRun(ctx, rep); err != nil {
			t.Fatalf("finish run: %v", err)
		}

		latest, err := db.LatestSignals(ctx, org, []string{e.ID})
		if err != nil {
			t.Fatalf("latest signals: %v", err)
		}
		got, want := latest[e.ID], rep.Signal.Compact()
		if got == nil {
			t.Fatalf("latest signal of %s missing", e.ID)
		}
		if got.ID != want.ID || got.Summary != want.Summary || got.Analysis != "" || got.Findings != nil || got.Sources != nil {
			t.Errorf("latest signal = %+v, want the compact view %+v", got, want)
		}
		if len(got.Evidence) != radar.CompactEvidence || got.Evidence[2].URL != "https://news.example/3" {
			t.Errorf("latest signal evidence = %+v, want the first %d", got.Evidence, radar.CompactEvidence)
		}
		full, err := db.Signal(ctx, org, rep.Signal.ID)
		if err != nil {
			t.Fatalf("signal: %v", err)
		}
		if full.Analysis == "" || len(full.Findings) != 1 || len(full.Sources) != 1 || len(full.Evidence) != 5 || full.Summary != rep.Signal.Summary {
			t.Errorf("full signal = %+v, want analysis, findings, sources and all evidence", full)
		}

		for name, c := range map[string]struct {
			compact    bool
			wantPolicy bool
		}{"full": {false, true}, "compact": {true, false}} {
			es, err := db.Entities(ctx, radar.EntityFilter{OrgID: org, Compact: c.compact})
			if err != nil || len(es) != 1 {
				t.Fatalf("%s entities: %d, %v", name, len(es), err)
			}
			if got := es[0].Policy != nil; got != c.wantPolicy {
				t.Errorf("%s entities: has policy = %v, want %v", name, got, c.wantPolicy)
			}
			if es[0].CompanyName != e.CompanyName || len(es[0].Founders) != 2 || len(es[0].AlertEmails) != 1 {
				t.Errorf("%s entities: %+v", name, es[0])
			}
		}
	})
}

func policyEntity(t *testing.T, db *sqldb.DB, orgID string) *radar.Entity {
	t.Helper()
	e := trackedEntity(t, db, orgID, "northwind")
	e.Policy = &radar.Policy{Version: 1, Rules: []radar.PolicyRule{}}
	e.UpdatedAt = radar.NewTime(time.Now())
	if err := db.UpdateEntity(context.Background(), e, nil, nil); err != nil {
		t.Fatalf("set policy: %v", err)
	}
	return e
}
