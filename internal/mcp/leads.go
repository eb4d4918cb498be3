package mcp

import (
	"context"

	"radar"
	"radar/internal/api"
	"radar/internal/service"
)

type listLeadsArgs struct {
	pageArgs
	Decision       string `json:"decision,omitempty" enum:"unreviewed,accepted,rejected" jsonschema:"Only leads with this decision; unreviewed are those nobody has decided on yet"`
	SourceEntityID string `json:"sourceEntityId,omitempty" jsonschema:"Only leads found around this tracked company, by its exact id (a UUID); not combinable with sourceQuery"`
	SourceQuery    string `json:"sourceQuery,omitempty" jsonschema:"Only leads found around this tracked company, named by its company or a founder name; tolerates case, spacing, legal suffixes, a domain and small typos. Not combinable with sourceEntityId. When several companies match about equally the call fails with ambiguous_source: show error.details.candidates to the user, let them choose, and call again with sourceEntityId"`
	Classification string `json:"classification,omitempty" jsonschema:"Sector filter: up to 4 comma-separated plain-language terms such as \"fintech, climate tech\"; sub-sectors are included, and classificationResolution in the result shows what each term matched"`
	Stage          string `json:"stage,omitempty" enum:"pre_seed_seed,series_a,series_b_plus,unknown" jsonschema:"Only leads whose company is at this funding stage"`
	Name           string `json:"name,omitempty" maxLength:"200" jsonschema:"Only leads whose name contains this text"`
}

func listLeads() *tool {
	return newTool(spec{
		name:  "list_leads",
		title: "List founder leads",
		description: "List leads, newest first: founders discovered around tracked companies (people who leave one to " +
			"found or join a company, their co-founders, and founders of companies it partners with, invests in or " +
			"acquires), with their company, source company, sector, stage and decision. Filter by source company with sourceEntityId or sourceQuery (a name); on ambiguous_source show the " +
			"candidates to the user and never choose one yourself. Returns {data, nextCursor, sourceResolution?, " +
			"classificationResolution?}; compact view unless view is \"full\".",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeLeadsRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in listLeadsArgs) (*service.List[*radar.Lead], error) {
		return e.svc.ListLeads(ctx, e.p, service.LeadQuery{
			PageQuery: in.query(), Decision: in.Decision, SourceEntityID: in.SourceEntityID, SourceQuery: in.SourceQuery,
			Classification: in.Classification, Stage: in.Stage, Name: in.Name,
		})
	})
}

type leadID struct {
	ID string `json:"id" jsonschema:"The lead's id (a UUID), as returned by list_leads"`
}

func (a leadID) resourceID() string { return a.ID }

func getLead() *tool {
	return newTool(spec{
		name:        "get_lead",
		title:       "Get a founder lead",
		description: "Read one lead in full, with the complete detail of its company and all evidence. Returns {data}.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeLeadsRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in leadID) (api.DataBody[*radar.Lead], error) {
		x, err := e.svc.GetLead(ctx, e.p, in.ID, radar.ViewFull)
		if err != nil {
			return api.DataBody[*radar.Lead]{}, err
		}
		return api.DataBody[*radar.Lead]{Data: x}, nil
	})
}

type trackLeadArgs struct {
	leadID
	ThingsToTrack      string   `json:"thingsToTrack" minLength:"1" maxLength:"10000" jsonschema:"Alert rules in plain language for the lead's company, 1-10000 characters"`
	AlertEmails        []string `json:"alertEmails" minItems:"1" maxItems:"20" format:"email" jsonschema:"Addresses that receive the alert e-mails, 1-20, no repeats"`
	EmailAlertsEnabled *bool    `json:"emailAlertsEnabled,omitempty" jsonschema:"Whether matching runs send e-mails; default true"`
	CadenceDays        *int     `json:"cadenceDays,omitempty" enum:"3,7,30" jsonschema:"Days between scheduled tracker runs: 3, 7 or 30; default 7"`
	CompanyWebsite     string   `json:"companyWebsite,omitempty" format:"uri" jsonschema:"The company's website; required only when the lead has none"`
	IdempotencyKey     string   `json:"idempotencyKey,omitempty" minLength:"8" maxLength:"200" jsonschema:"Optional key of 8-200 printable ASCII characters without spaces that makes retries safe for 24 hours"`
}

func trackLead() *tool {
	return newTool(spec{
		name:  "track_lead",
		title: "Accept a lead and track its company",
		description: "Accept a lead and start tracking its company, like add_company with the lead's company and founder. " +
			"Safe to retry: a lead already tracked returns its company with existingEntity true. Returns " +
			"{data, operation, idempotencyReplayed, existingEntity}; then poll get_company with data.id until " +
			"operation.enrichmentComplete is true, and then until lastScrapedAt is set. The lead's decision becomes " +
			"accepted with decision.trackedEntityId.",
		annotations: writes(true, false, true),
		scopes:      []string{radar.ScopeLeadsWrite, radar.ScopeTrackerWrite},
		buckets:     createBucket(),
	}, func(ctx context.Context, e env, in trackLeadArgs) (api.EntityEnvelope, error) {
		r, err := e.svc.TrackLead(ctx, e.p, in.ID, service.TrackInput{
			ThingsToTrack: in.ThingsToTrack, AlertEmails: in.AlertEmails, EmailAlertsEnabled: in.EmailAlertsEnabled,
			CadenceDays: in.CadenceDays, CompanyWebsite: in.CompanyWebsite,
		}, in.IdempotencyKey)
		if err != nil {
			return api.EntityEnvelope{}, err
		}
		return createdEnvelope(r), nil
	})
}

type decideLeadArgs struct {
	leadID
	Accepted *bool `json:"accepted" jsonschema:"true accepts the lead, false rejects it; ask the user before rejecting"`
}

func decideLead() *tool {
	return newTool(spec{
		name:  "decide_lead",
		title: "Accept or reject a lead",
		description: "Record the user's decision on a lead without tracking anything: accepted true accepts, false " +
			"rejects. Ask the user before rejecting. To accept and start tracking the lead's company, use track_lead " +
			"instead. Returns {data} with the lead.",
		annotations: writes(true, false, false),
		scopes:      []string{radar.ScopeLeadsWrite},
		buckets:     writeBucket(),
	}, func(ctx context.Context, e env, in decideLeadArgs) (api.DataBody[*radar.Lead], error) {
		x, err := e.svc.DecideLead(ctx, e.p, in.ID, in.Accepted)
		if err != nil {
			return api.DataBody[*radar.Lead]{}, err
		}
		return api.DataBody[*radar.Lead]{Data: x}, nil
	})
}
