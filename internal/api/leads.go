package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

type listLeadsInput struct {
	PageParams
	Decision       string `query:"decision" enum:"unreviewed,accepted,rejected"`
	SourceEntityID string `query:"sourceEntityId" doc:"Exact source company id; not combinable with sourceQuery"`
	SourceQuery    string `query:"sourceQuery" doc:"Fuzzy source company or founder name; not combinable with sourceEntityId"`
	Classification string `query:"classification" doc:"Up to 4 comma-separated sector terms (aliases: sector, sectors)"`
	Sector         string `query:"sector" doc:"Alias of classification"`
	Sectors        string `query:"sectors" doc:"Alias of classification"`
	Stage          string `query:"stage" enum:"pre_seed_seed,series_a,series_b_plus,unknown"`
	Name           string `query:"name" doc:"Part of the lead's name"`
}

// DecisionInput accepts or rejects a lead.
type DecisionInput struct {
	Accepted *bool `json:"accepted" required:"true" doc:"true accepts, false rejects"`
}

type decisionInput struct {
	IDParam
	Body DecisionInput
}

type trackInput struct {
	IDParam
	IdempotencyKey string `header:"Idempotency-Key" doc:"8-200 printable ASCII characters without spaces; remembered 24 hours"`
	Body           service.TrackInput
}

func (s *Server) registerLeads() {
	a, log := s.api, s.logger
	huma.Register(a, op("listLeads", http.MethodGet, "/api/v1/leads", "List founder leads, newest first", "leads",
		http.StatusOK, 400, 404, 409),
		func(ctx context.Context, in *listLeadsInput) (*body[*service.List[*radar.Lead]], error) {
			q := service.LeadQuery{
				PageQuery: in.query(), Decision: in.Decision, SourceEntityID: in.SourceEntityID, SourceQuery: in.SourceQuery,
				Classification: sectorParam(in.Classification, in.Sector, in.Sectors), Stage: in.Stage, Name: in.Name,
			}
			if wantsCSV(ctx) {
				return csvExport(ctx, s, LeadsCSV, func(cursor string, first *service.List[*radar.Lead]) (*service.List[*radar.Lead], error) {
					q.PageQuery = service.PageQuery{Limit: exportPageSize, Cursor: cursor, View: radar.ViewCompact}
					if first != nil && first.SourceResolution != nil {
						q.SourceEntityID, q.SourceQuery = resolvedID(first.SourceResolution), ""
					}
					return s.svc.ListLeads(ctx, PrincipalFrom(ctx), q)
				})
			}
			return listPage(ctx, s, "leads", radar.ScopeLeadsRead, q.Classification == "", func() (*service.List[*radar.Lead], error) {
				return s.svc.ListLeads(ctx, PrincipalFrom(ctx), q)
			})
		})
	huma.Register(a, op("getLead", http.MethodGet, "/api/v1/leads/{id}", "Read a lead with full company detail", "leads",
		http.StatusOK, 400, 404),
		func(ctx context.Context, in *getInput) (*body[DataBody[*radar.Lead]], error) {
			l, err := s.svc.GetLead(ctx, PrincipalFrom(ctx), in.ID, in.View)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[DataBody[*radar.Lead]]{DataBody[*radar.Lead]{l}}, nil
		})
	huma.Register(a, op("trackLead", http.MethodPost, "/api/v1/leads/{id}/track", "Accept a lead and track its company (poll like a create)", "leads",
		http.StatusCreated, 400, 404, 409, 413, 415),
		func(ctx context.Context, in *trackInput) (*createOutput, error) {
			r, err := s.svc.TrackLead(ctx, PrincipalFrom(ctx), in.ID, in.Body, in.IdempotencyKey)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return created(r, s.base()), nil
		})
	huma.Register(a, op("decideLead", http.MethodPost, "/api/v1/leads/{id}/decision", "Accept or reject a lead without tracking", "leads",
		http.StatusOK, 400, 404, 413, 415),
		func(ctx context.Context, in *decisionInput) (*body[DataBody[*radar.Lead]], error) {
			l, err := s.svc.DecideLead(ctx, PrincipalFrom(ctx), in.ID, in.Body.Accepted)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[DataBody[*radar.Lead]]{DataBody[*radar.Lead]{l}}, nil
		})
}
