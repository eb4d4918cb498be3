package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

type CompanyParams struct {
	EntityID       string `query:"entityId" doc:"Exact company id; not combinable with entityQuery"`
	EntityQuery    string `query:"entityQuery" doc:"Fuzzy company or founder name; not combinable with entityId"`
	Classification string `query:"classification" doc:"Up to 4 comma-separated sector terms (aliases: sector, sectors)"`
	Sector         string `query:"sector" doc:"Alias of classification"`
	Sectors        string `query:"sectors" doc:"Alias of classification"`
	Since          string `query:"since" doc:"Lower bound (inclusive): a date (YYYY-MM-DD) or an RFC 3339 timestamp"`
	Until          string `query:"until" doc:"Upper bound: a bare date includes that whole UTC day; a timestamp is exclusive"`
}

type listSignalsInput struct {
	PageParams
	CompanyParams
	NeedsAttention string `query:"needsAttention" enum:"true,false" doc:"Only signals that need (or do not need) attention"`
	Type           string `query:"type" doc:"Signal type, e.g. funding, founder_departure, no_change"`
	Severity       string `query:"severity" enum:"low,medium,high,critical"`
	Recommendation string `query:"recommendation" enum:"reach_out,review,monitor,no_action"`
	Q              string `query:"q" doc:"Free text searched in summaries, analyses and company names"`
	Changed        string `query:"changed" enum:"true,false" doc:"true: only runs that found something (signal type other than no_change); false: only quiet runs (no_change); absent: all"`
	Unseen         bool   `query:"unseen" doc:"true: only signals created after the caller's read position (see POST /api/v1/signals/mark-seen)"`
}

type listAlertsInput struct {
	PageParams
	CompanyParams
	Outcome         string `query:"outcome" enum:"all,sent,no_match,disabled,failed" doc:"Alert outcome; all (default)"`
	LatestPerEntity bool   `query:"latestPerEntity" doc:"One latest alert per company"`
	Changed         string `query:"changed" enum:"true,false" doc:"true: only alerts of runs that found something (their signal's type is not no_change); false: only those of quiet runs; absent: all. With latestPerEntity, the latest such alert per company"`
	Unseen          bool   `query:"unseen" doc:"true: only alerts created after the caller's read position (see POST /api/v1/signals/mark-seen)"`
}

func (in *listSignalsInput) signalQuery() service.SignalQuery {
	return service.SignalQuery{
		PageQuery: in.query(), EntityID: in.EntityID, EntityQuery: in.EntityQuery,
		Classification: sectorParam(in.Classification, in.Sector, in.Sectors), Since: in.Since, Until: in.Until,
		NeedsAttention: boolPtr(in.NeedsAttention), Type: in.Type, Severity: in.Severity,
		Recommendation: in.Recommendation, Q: in.Q, Changed: boolPtr(in.Changed), Unseen: in.Unseen,
	}
}

func (in *listAlertsInput) alertQuery() service.AlertQuery {
	return service.AlertQuery{
		PageQuery: in.query(), EntityID: in.EntityID, EntityQuery: in.EntityQuery,
		Classification: sectorParam(in.Classification, in.Sector, in.Sectors), Since: in.Since, Until: in.Until,
		Outcome: in.Outcome, LatestPerEntity: in.LatestPerEntity, Changed: boolPtr(in.Changed), Unseen: in.Unseen,
	}
}

func boolPtr(v string) *bool {
	if v == "" {
		return nil
	}
	b := v == "true"
	return &b
}

func (s *Server) registerSignals() {
	a, log := s.api, s.logger
	huma.Register(a, op("listSignals", http.MethodGet, "/api/v1/signals", "List signals, newest first", "signals",
		http.StatusOK, 400, 404, 409),
		func(ctx context.Context, in *listSignalsInput) (*body[*service.List[*radar.Signal]], error) {
			q := in.signalQuery()
			if wantsCSV(ctx) {
				return csvExport(ctx, s, SignalsCSV, func(cursor string, first *service.List[*radar.Signal]) (*service.List[*radar.Signal], error) {
					q.PageQuery = service.PageQuery{Limit: exportPageSize, Cursor: cursor, View: radar.ViewFull}
					if first != nil && first.EntityResolution != nil {
						q.EntityID, q.EntityQuery = resolvedID(first.EntityResolution), ""
					}
					return s.svc.ListSignals(ctx, PrincipalFrom(ctx), q)
				})
			}
			return listPage(ctx, s, "signals", radar.ScopeTrackerRead, q.Classification == "" && !in.Unseen, func() (*service.List[*radar.Signal], error) {
				return s.svc.ListSignals(ctx, PrincipalFrom(ctx), q)
			})
		})
	huma.Register(a, op("getSignal", http.MethodGet, "/api/v1/signals/{id}", "Read a signal with its full analysis and evidence", "signals",
		http.StatusOK, 400, 404),
		func(ctx context.Context, in *getInput) (*body[DataBody[*radar.Signal]], error) {
			x, err := s.svc.GetSignal(ctx, PrincipalFrom(ctx), in.ID, in.View)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[DataBody[*radar.Signal]]{DataBody[*radar.Signal]{x}}, nil
		})
	huma.Register(a, op("listAlerts", http.MethodGet, "/api/v1/alerts", "List alerts, newest first", "alerts",
		http.StatusOK, 400, 404, 409),
		func(ctx context.Context, in *listAlertsInput) (*body[*service.List[*radar.Alert]], error) {
			q := in.alertQuery()
			if wantsCSV(ctx) {
				return csvExport(ctx, s, AlertsCSV, func(cursor string, first *service.List[*radar.Alert]) (*service.List[*radar.Alert], error) {
					q.PageQuery = service.PageQuery{Limit: exportPageSize, Cursor: cursor, View: radar.ViewCompact}
					if first != nil && first.EntityResolution != nil {
						q.EntityID, q.EntityQuery = resolvedID(first.EntityResolution), ""
					}
					return s.svc.ListAlerts(ctx, PrincipalFrom(ctx), q)
				})
			}
			return listPage(ctx, s, "alerts", radar.ScopeTrackerRead, q.Classification == "" && !in.Unseen, func() (*service.List[*radar.Alert], error) {
				return s.svc.ListAlerts(ctx, PrincipalFrom(ctx), q)
			})
		})
	huma.Register(a, op("getAlert", http.MethodGet, "/api/v1/alerts/{id}", "Read an alert with its rule evaluations", "alerts",
		http.StatusOK, 400, 404),
		func(ctx context.Context, in *getInput) (*body[DataBody[*radar.Alert]], error) {
			x, err := s.svc.GetAlert(ctx, PrincipalFrom(ctx), in.ID, in.View)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[DataBody[*radar.Alert]]{DataBody[*radar.Alert]{x}}, nil
		})
}
