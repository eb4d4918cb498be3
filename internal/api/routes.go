package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

// Common errors of authenticated operations: every one reads the key from the database, which may be out of reach (503).
var authErrors = []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable}

// op describes an operation of the API.
//
// BodyReadTimeout is off: the middleware has read the body whole by the time huma runs, under the server's
// read timeout. A deadline huma set then would fall on net/http's read of the connection behind the
// finished request, and net/http ends the request's context when that read fails: a request still being
// answered after the deadline would be abandoned while its client waits.
func op(id, method, path, summary, tag string, status int, errs ...int) huma.Operation {
	return huma.Operation{
		OperationID: id, Method: method, Path: path, Summary: summary, Tags: []string{tag},
		DefaultStatus: status, Errors: append(append([]int{}, errs...), authErrors...), MaxBodyBytes: MaxBodyBytes,
		BodyReadTimeout: -1,
	}
}

// opScopes names the scopes each operation needs. The middleware checks them before it reads anything of
// the request, so that a key without them learns nothing of what the request should look like.
var opScopes = map[string][]string{
	"getOpenAPI":     nil, // served to anyone, without authentication
	"createTracker":  {radar.ScopeTrackerWrite},
	"listTracker":    {radar.ScopeTrackerRead},
	"getTracker":     {radar.ScopeTrackerRead},
	"updateTracker":  {radar.ScopeTrackerWrite},
	"deleteTracker":  {radar.ScopeTrackerWrite},
	"refreshTracker": {radar.ScopeTrackerWrite},
	"enrichDraft":    {radar.ScopeTrackerWrite},
	"listSignals":    {radar.ScopeTrackerRead},
	"getSignal":      {radar.ScopeTrackerRead},
	"listAlerts":     {radar.ScopeTrackerRead},
	"getAlert":       {radar.ScopeTrackerRead},
	"listLeads":      {radar.ScopeLeadsRead},
	"getLead":        {radar.ScopeLeadsRead},
	"trackLead":      {radar.ScopeLeadsWrite, radar.ScopeTrackerWrite},
	"decideLead":     {radar.ScopeLeadsWrite},

	"createWebhook":         {radar.ScopeWebhooksManage},
	"listWebhooks":          {radar.ScopeWebhooksManage},
	"getWebhook":            {radar.ScopeWebhooksManage},
	"updateWebhook":         {radar.ScopeWebhooksManage},
	"deleteWebhook":         {radar.ScopeWebhooksManage},
	"testWebhook":           {radar.ScopeWebhooksManage},
	"rotateWebhookSecret":   {radar.ScopeWebhooksManage},
	"listWebhookDeliveries": {radar.ScopeWebhooksManage},
	"markSignalsSeen":       {radar.ScopeTrackerRead},
	"previewRules":          {radar.ScopeTrackerRead},
	"batchTracker":          {radar.ScopeTrackerWrite},
}

// routeScopes maps every operation's route pattern ("POST /api/v1/tracker") to its scopes; an operation
// missing from opScopes stops the server from being built.
func routeScopes(doc *huma.OpenAPI) map[string][]string {
	out := map[string][]string{}
	for path, item := range doc.Paths {
		for _, o := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if o == nil {
				continue
			}
			sc, ok := opScopes[o.OperationID]
			if !ok {
				panic("api: operation " + o.OperationID + " has no entry in opScopes")
			}
			out[o.Method+" "+path] = sc
		}
	}
	return out
}

// Paging and view parameters shared by lists.
type PageParams struct {
	Limit  int    `query:"limit" minimum:"1" doc:"Page size 1-100, default 25; larger values are reduced to 100"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
	View   string `query:"view" enum:"compact,full" doc:"compact (default for lists) or full"`
}

func (p PageParams) query() service.PageQuery {
	return service.PageQuery{Limit: p.Limit, Cursor: p.Cursor, View: p.View}
}

type IDParam struct {
	ID string `path:"id" doc:"Resource id (a UUID)"`
}

type ViewParam struct {
	View string `query:"view" enum:"compact,full" doc:"full (default for single reads) or compact"`
}

type body[T any] struct {
	Body T
}

// EntityEnvelope is the response of a create, a lead track and a read with its operation.
type EntityEnvelope struct {
	Data                *radar.Entity    `json:"data"`
	Operation           *radar.Operation `json:"operation"`
	IdempotencyReplayed bool             `json:"idempotencyReplayed"`
	ExistingEntity      bool             `json:"existingEntity"`
	// encoded, when set, is the envelope's JSON encoding, kept by the read cache; the fields are then empty.
	encoded []byte
}

// Encoded returns the envelope's JSON encoding when it carries one (a read served from the cache), else nil.
func (e EntityEnvelope) Encoded() []byte { return e.encoded }

type createOutput struct {
	Status   int
	Location string `header:"Location"`
	Replayed string `header:"Idempotency-Replayed"`
	Body     EntityEnvelope
}

func created(r *service.CreateResult, base string) *createOutput {
	out := &createOutput{Status: http.StatusOK, Body: EntityEnvelope{
		Data: r.Entity, Operation: r.Entity.Operation, IdempotencyReplayed: r.Replayed, ExistingEntity: r.Existing,
	}}
	if r.Created {
		out.Status = http.StatusCreated
		out.Location = base + "/api/v1/tracker/" + r.Entity.ID
	}
	if r.Replayed {
		out.Replayed = "true"
	}
	return out
}

// DataBody wraps a single resource.
type DataBody[T any] struct {
	Data T `json:"data"`
}

// RefreshBody is the response of a refresh.
type RefreshBody struct {
	Data                  *radar.Entity    `json:"data"`
	Operation             *radar.Operation `json:"operation"`
	BaselineLastScrapedAt *radar.Time      `json:"baselineLastScrapedAt" nullable:"true" doc:"lastScrapedAt before this run; the run is finished when lastScrapedAt differs from it"`
}

// DraftInput is the body of a draft enrichment: the creation fields, of which only companyName and
// companyWebsite are required.
type DraftInput struct {
	radar.EntityInput
}

// TransformSchema requires only the company's name and website.
func (DraftInput) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Required = []string{"companyName", "companyWebsite"}
	return s
}

// Draft is an enriched draft: the creation fields as far as the draft and enrichment know them. Lists are
// always present, empty when unknown; thingsToTrack is empty when the draft had none.
type Draft radar.EntityInput

// TransformSchema describes a draft as it is answered, not as a create requires it.
func (Draft) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Required = []string{"companyName", "companyWebsite", "founders", "thingsToTrack", "alertEmails"}
	for _, name := range []string{"founders", "alertEmails"} {
		if p := s.Properties[name]; p != nil {
			p.MinItems, p.Nullable = nil, false
		}
	}
	if p := s.Properties["thingsToTrack"]; p != nil {
		p.MinLength = nil
		p.Description = "Alert rules in plain language; empty when the draft had none"
	}
	return s
}

// EnrichResult is the answer of a draft enrichment: the completed draft and each profile found.
type EnrichResult struct {
	Data  Draft         `json:"data"`
	Found []radar.Found `json:"found"`
}

func enriched(r *service.EnrichResult) EnrichResult {
	d := Draft(r.Data)
	if d.Founders == nil {
		d.Founders = []radar.FounderInput{}
	}
	if d.AlertEmails == nil {
		d.AlertEmails = []string{}
	}
	found := r.Found
	if found == nil {
		found = []radar.Found{}
	}
	return EnrichResult{Data: d, Found: found}
}

type createInput struct {
	IdempotencyKey string `header:"Idempotency-Key" doc:"8-200 printable ASCII characters without spaces; a repeated create with the same key and body answers the first result (remembered 24 hours)"`
	Body           radar.CreateInput
}

type listTrackerInput struct {
	PageParams
	Classification string `query:"classification" doc:"Up to 4 comma-separated sector terms (aliases: sector, sectors)"`
	Sector         string `query:"sector" doc:"Alias of classification"`
	Sectors        string `query:"sectors" doc:"Alias of classification"`
	Status         string `query:"status" enum:"ok,paused" doc:"Entity status"`
	Stage          string `query:"stage" enum:"pre_seed_seed,series_a,series_b_plus,unknown" doc:"Funding stage"`
	UpdatedAfter   string `query:"updatedAfter" doc:"A date (YYYY-MM-DD) or an RFC 3339 timestamp"`
}

func sectorParam(a, b, c string) string {
	for _, v := range []string{a, b, c} {
		if v != "" {
			return v
		}
	}
	return ""
}

type getInput struct {
	IDParam
	ViewParam
}

type patchInput struct {
	IDParam
	Body radar.EntityPatch
}

type deleteOutput struct {
	Status int
}

func (s *Server) base() string { return s.svc.BaseURL() }

func (s *Server) register() {
	a, log := s.api, s.logger
	huma.Register(a, op("createTracker", http.MethodPost, "/api/v1/tracker", "Track a company", "tracker",
		http.StatusCreated, 400, 409, 413, 415),
		func(ctx context.Context, in *createInput) (*createOutput, error) {
			r, err := s.svc.CreateEntity(ctx, PrincipalFrom(ctx), in.Body, in.IdempotencyKey)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return created(r, s.base()), nil
		})
	huma.Register(a, op("listTracker", http.MethodGet, "/api/v1/tracker", "List tracked companies, newest first, each with its latest signal", "tracker",
		http.StatusOK, 400),
		func(ctx context.Context, in *listTrackerInput) (*body[*service.List[*radar.Entity]], error) {
			q := service.EntityQuery{
				PageQuery: in.query(), Status: in.Status, Stage: in.Stage, UpdatedAfter: in.UpdatedAfter,
				Classification: sectorParam(in.Classification, in.Sector, in.Sectors),
			}
			if wantsCSV(ctx) {
				return csvExport(ctx, s, EntitiesCSV, func(cursor string, _ *service.List[*radar.Entity]) (*service.List[*radar.Entity], error) {
					q.PageQuery = service.PageQuery{Limit: exportPageSize, Cursor: cursor, View: radar.ViewCompact}
					return s.svc.ListEntities(ctx, PrincipalFrom(ctx), q)
				})
			}
			return listPage(ctx, s, "tracker", radar.ScopeTrackerRead, q.Classification == "", func() (*service.List[*radar.Entity], error) {
				return s.svc.ListEntities(ctx, PrincipalFrom(ctx), q)
			})
		})
	huma.Register(a, op("getTracker", http.MethodGet, "/api/v1/tracker/{id}", "Read a tracked company with its enrichment operation (poll this)", "tracker",
		http.StatusOK, 400, 404),
		func(ctx context.Context, in *getInput) (*body[EntityEnvelope], error) {
			return entityRead(ctx, s, in.ID, func() (*radar.Entity, error) {
				return s.svc.GetEntity(ctx, PrincipalFrom(ctx), in.ID, in.View)
			})
		})
	huma.Register(a, op("updateTracker", http.MethodPatch, "/api/v1/tracker/{id}", "Change a tracked company", "tracker",
		http.StatusOK, 400, 404, 413, 415),
		func(ctx context.Context, in *patchInput) (*body[DataBody[*radar.Entity]], error) {
			e, err := s.svc.UpdateEntity(ctx, PrincipalFrom(ctx), in.ID, in.Body)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[DataBody[*radar.Entity]]{DataBody[*radar.Entity]{e}}, nil
		})
	huma.Register(a, op("deleteTracker", http.MethodDelete, "/api/v1/tracker/{id}", "Stop tracking a company and delete its history", "tracker",
		http.StatusNoContent, 400, 404),
		func(ctx context.Context, in *IDParam) (*deleteOutput, error) {
			if err := s.svc.DeleteEntity(ctx, PrincipalFrom(ctx), in.ID); err != nil {
				return nil, fail(ctx, log, err)
			}
			return &deleteOutput{Status: http.StatusNoContent}, nil
		})
	huma.Register(a, op("refreshTracker", http.MethodPost, "/api/v1/tracker/{id}/refresh", "Run the tracker now", "tracker",
		http.StatusAccepted, 400, 404, 409),
		func(ctx context.Context, in *IDParam) (*body[RefreshBody], error) {
			r, err := s.svc.RefreshEntity(ctx, PrincipalFrom(ctx), in.ID)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[RefreshBody]{RefreshBody{Data: r.Entity, Operation: r.Entity.Operation, BaselineLastScrapedAt: r.Baseline}}, nil
		})
	enrich := op("enrichDraft", http.MethodPost, "/api/v1/tracker/enrich", "Find the missing profiles of a draft company before creating it (may take minutes)", "tracker",
		http.StatusOK, 400, 413, 415, 503)
	enrich.Description = "Only companyName and companyWebsite are required. Counts in the enrich bucket (60 per hour) and as a write."
	huma.Register(a, enrich,
		func(ctx context.Context, in *body[DraftInput]) (*body[EnrichResult], error) {
			r, err := s.svc.EnrichDraft(ctx, PrincipalFrom(ctx), in.Body.EntityInput)
			if err != nil {
				return nil, fail(ctx, log, err)
			}
			return &body[EnrichResult]{enriched(r)}, nil
		})
	s.registerSignals()
	s.registerLeads()
	s.registerWebhooks()
	s.registerDelivery()
	tidySchemas(a.OpenAPI().Components.Schemas)
	tidyDocument(a.OpenAPI(), s.base())
}
