package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"radar"
	"radar/internal/api"
	"radar/internal/service"
)

// pageArgs are the paging arguments of every list tool.
type pageArgs struct {
	Limit  *int   `json:"limit,omitempty" minimum:"1" jsonschema:"Page size, 1-100 (default 25); larger values are reduced to 100"`
	Cursor string `json:"cursor,omitempty" jsonschema:"The nextCursor of the previous page, passed back exactly as returned; omit it for the first page"`
	View   string `json:"view,omitempty" enum:"compact,full" jsonschema:"compact (default) cuts long texts to 300 characters and keeps at most three evidence links; full returns everything"`
}

func (a pageArgs) query() service.PageQuery {
	q := service.PageQuery{Cursor: a.Cursor, View: a.View}
	if a.Limit != nil {
		q.Limit = *a.Limit
	}
	return q
}

type companyID struct {
	ID string `json:"id" jsonschema:"The company's id (a UUID), as returned by add_company or list_companies"`
}

func (a companyID) resourceID() string { return a.ID }

type listCompaniesArgs struct {
	pageArgs
	Classification string `json:"classification,omitempty" jsonschema:"Sector filter: up to 4 comma-separated plain-language terms such as \"fintech, climate tech\"; sub-sectors are included, and classificationResolution in the result shows what each term matched. A broad sector name works best"`
	Status         string `json:"status,omitempty" enum:"ok,paused" jsonschema:"Only companies in this state: ok (tracked) or paused"`
	Stage          string `json:"stage,omitempty" enum:"pre_seed_seed,series_a,series_b_plus,unknown" jsonschema:"Only companies at this funding stage"`
	UpdatedAfter   string `json:"updatedAfter,omitempty" jsonschema:"Only companies changed after this date (YYYY-MM-DD) or RFC 3339 timestamp"`
}

func listCompanies() *tool {
	return newTool(spec{
		name:  "list_companies",
		title: "List tracked companies",
		description: "List the organisation's tracked companies, newest first, each with its latest signal. Returns " +
			"{data, nextCursor}: pass nextCursor back as cursor for the next page; null means there are no more. " +
			"Compact view unless view is \"full\"; use get_company for one company with its enrichment progress.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in listCompaniesArgs) (*service.List[*radar.Entity], error) {
		return e.svc.ListEntities(ctx, e.p, service.EntityQuery{
			PageQuery: in.query(), Status: in.Status, Stage: in.Stage, UpdatedAfter: in.UpdatedAfter,
			Classification: in.Classification,
		})
	})
}

func getCompany() *tool {
	return newTool(spec{
		name:  "get_company",
		title: "Get a tracked company",
		description: "Read one tracked company in full with its operation (enrichment progress). This is the call to " +
			"poll: after add_company or track_lead, call it every operation.suggestedPollIntervalSeconds seconds until " +
			"operation.enrichmentComplete is true, then until lastScrapedAt is set (the first tracker run has finished). " +
			"After refresh_company, poll until lastScrapedAt differs from the baselineLastScrapedAt it returned.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in companyID) (api.EntityEnvelope, error) {
		x, err := e.svc.GetEntity(ctx, e.p, in.ID, radar.ViewFull)
		if err != nil {
			return api.EntityEnvelope{}, err
		}
		return api.EntityEnvelope{Data: x, Operation: x.Operation}, nil
	})
}

type founderArgs struct {
	Name        string `json:"name" minLength:"1" maxLength:"200" jsonschema:"The founder's full name"`
	LinkedinURL string `json:"linkedinUrl,omitempty" format:"uri" jsonschema:"LinkedIn profile URL, if known"`
	TwitterURL  string `json:"twitterUrl,omitempty" format:"uri" jsonschema:"X/Twitter profile URL, if known"`
	GithubURL   string `json:"githubUrl,omitempty" format:"uri" jsonschema:"GitHub profile URL, if known"`
}

type addCompanyArgs struct {
	CompanyName        string        `json:"companyName" minLength:"1" maxLength:"200" jsonschema:"The company's name, 1-200 characters"`
	CompanyWebsite     string        `json:"companyWebsite" format:"uri" jsonschema:"The company's website, an absolute http or https URL"`
	CompanyLinkedinURL string        `json:"companyLinkedinUrl,omitempty" format:"uri" jsonschema:"The company's LinkedIn page, if known; found automatically otherwise"`
	CompanyTwitterURL  string        `json:"companyTwitterUrl,omitempty" format:"uri" jsonschema:"The company's X/Twitter profile, if known; found automatically otherwise"`
	CompanyGithubURL   string        `json:"companyGithubUrl,omitempty" format:"uri" jsonschema:"The company's GitHub organisation, if known; found automatically otherwise"`
	CompanySummary     string        `json:"companySummary,omitempty" maxLength:"5000" jsonschema:"What the company does, up to 5000 characters"`
	Founders           []founderArgs `json:"founders" minItems:"1" maxItems:"10" jsonschema:"The founders, 1-10 people"`
	ThingsToTrack      string        `json:"thingsToTrack" minLength:"1" maxLength:"10000" jsonschema:"Alert rules in plain language, 1-10000 characters, e.g. \"Tell me about funding rounds over $5M and any founder leaving\"; a run e-mails the recipients when a rule matches"`
	AlertEmails        []string      `json:"alertEmails" minItems:"1" maxItems:"20" format:"email" jsonschema:"Addresses that receive the alert e-mails, 1-20, no repeats"`
	EmailAlertsEnabled *bool         `json:"emailAlertsEnabled,omitempty" jsonschema:"Whether matching runs send e-mails; default true"`
	CadenceDays        *int          `json:"cadenceDays,omitempty" enum:"3,7,30" jsonschema:"Days between scheduled tracker runs: 3, 7 or 30; default 7"`
	Digest             *string       `json:"digest,omitempty" enum:"off,daily,weekly" jsonschema:"A digest e-mail per recipient of the runs that found something: off, daily or weekly; default off"`
	Confirmed          *bool         `json:"confirmed" enum:"true" jsonschema:"Must be true: the user has confirmed that this company should be tracked"`
	IdempotencyKey     string        `json:"idempotencyKey,omitempty" minLength:"8" maxLength:"200" jsonschema:"Optional key of 8-200 printable ASCII characters without spaces that makes retries safe for 24 hours; without it a key is derived from the other arguments, so an identical call returns the first result"`
}

func (a addCompanyArgs) input() radar.CreateInput {
	in := radar.CreateInput{
		EntityInput: radar.EntityInput{
			CompanyName: a.CompanyName, CompanyWebsite: a.CompanyWebsite, CompanyLinkedinURL: a.CompanyLinkedinURL,
			CompanyTwitterURL: a.CompanyTwitterURL, CompanyGithubURL: a.CompanyGithubURL, CompanySummary: a.CompanySummary,
			ThingsToTrack: a.ThingsToTrack, AlertEmails: a.AlertEmails, EmailAlertsEnabled: a.EmailAlertsEnabled,
			CadenceDays: a.CadenceDays, Digest: a.Digest,
		},
		Confirmed: a.Confirmed,
	}
	if a.Founders != nil {
		in.Founders = make([]radar.FounderInput, len(a.Founders))
		for i, f := range a.Founders {
			in.Founders[i] = radar.FounderInput{Name: f.Name, LinkedinURL: f.LinkedinURL, TwitterURL: f.TwitterURL, GithubURL: f.GithubURL}
		}
	}
	return in
}

// derivedKeyPrefix starts the idempotency keys add_company derives from its arguments.
const derivedKeyPrefix = "mcp-add_company-"

// derivedKey is the idempotency key of a call without one: a hash of the canonical JSON of its arguments,
// which stays within the 8-200 printable ASCII characters of the key rule.
func derivedKey(a addCompanyArgs) string {
	a.IdempotencyKey = ""
	b, _ := json.Marshal(a) // strings, numbers and booleans: marshalling cannot fail
	sum := sha256.Sum256(b)
	return derivedKeyPrefix + hex.EncodeToString(sum[:])
}

func addCompany() *tool {
	return newTool(spec{
		name:  "add_company",
		title: "Track a company",
		description: "Start tracking a company: saves it at once (about 2-3 seconds), then finds its missing LinkedIn, " +
			"X/Twitter and GitHub profiles (enrichment) and starts the first tracker run in the background. Set confirmed " +
			"to true only after the user has confirmed. A company already tracked (same website or profile URL) is updated " +
			"instead, with existingEntity true. Safe to retry: an identical call within 24 hours returns the first result " +
			"with idempotencyReplayed true and changes nothing (use update_company to change a tracked company). " +
			"Returns {data, operation, idempotencyReplayed, existingEntity}; then poll get_company until " +
			"operation.enrichmentComplete is true, and then until lastScrapedAt is set. Never call it in a loop.",
		annotations: writes(true, false, true),
		scopes:      []string{radar.ScopeTrackerWrite},
		buckets:     createBucket(),
	}, func(ctx context.Context, e env, in addCompanyArgs) (api.EntityEnvelope, error) {
		key := in.IdempotencyKey
		if key == "" {
			key = derivedKey(in)
		}
		r, err := e.svc.CreateEntity(ctx, e.p, in.input(), key)
		if err != nil {
			return api.EntityEnvelope{}, err
		}
		return createdEnvelope(r), nil
	})
}

func createdEnvelope(r *service.CreateResult) api.EntityEnvelope {
	return api.EntityEnvelope{Data: r.Entity, Operation: r.Entity.Operation, IdempotencyReplayed: r.Replayed, ExistingEntity: r.Existing}
}

type founderPatchArgs struct {
	ID          string `json:"id,omitempty" jsonschema:"The id of a stored founder to update in place; omit it to add a founder"`
	Name        string `json:"name" minLength:"1" maxLength:"200" jsonschema:"The founder's full name"`
	LinkedinURL string `json:"linkedinUrl,omitempty" format:"uri" jsonschema:"LinkedIn profile URL"`
	TwitterURL  string `json:"twitterUrl,omitempty" format:"uri" jsonschema:"X/Twitter profile URL"`
	GithubURL   string `json:"githubUrl,omitempty" format:"uri" jsonschema:"GitHub profile URL"`
}

type updateCompanyArgs struct {
	companyID
	CompanyName        *string            `json:"companyName,omitempty" minLength:"1" maxLength:"200" jsonschema:"New company name, 1-200 characters"`
	CompanySummary     *string            `json:"companySummary,omitempty" maxLength:"5000" jsonschema:"New summary, up to 5000 characters"`
	AlertEmails        []string           `json:"alertEmails,omitempty" minItems:"1" maxItems:"20" format:"email" jsonschema:"Replaces the alert recipients: 1-20 addresses"`
	CadenceDays        *int               `json:"cadenceDays,omitempty" enum:"3,7,30" jsonschema:"Days between scheduled runs: 3, 7 or 30"`
	Tags               []string           `json:"tags,omitempty" maxItems:"50" jsonschema:"Replaces the tags as a whole (an empty array clears them); up to 50 tags of up to 50 characters"`
	Founders           []founderPatchArgs `json:"founders,omitempty" maxItems:"10" jsonschema:"Founders to change or add: an item with id updates that founder in place, an item without id adds one; founders not named stay"`
	Status             *string            `json:"status,omitempty" enum:"ok,paused" jsonschema:"paused stops tracking runs and e-mails, ok resumes them. Ask the user before pausing"`
	ThingsToTrack      *string            `json:"thingsToTrack,omitempty" minLength:"1" maxLength:"10000" jsonschema:"New alert rules in plain language, 1-10000 characters"`
	EmailAlertsEnabled *bool              `json:"emailAlertsEnabled,omitempty" jsonschema:"Whether matching runs send e-mails"`
	Digest             *string            `json:"digest,omitempty" enum:"off,daily,weekly" jsonschema:"A digest e-mail per recipient of the runs that found something: off, daily or weekly"`
}

func (a updateCompanyArgs) patch() radar.EntityPatch {
	p := radar.EntityPatch{
		CompanyName: a.CompanyName, CompanySummary: a.CompanySummary, AlertEmails: a.AlertEmails, CadenceDays: a.CadenceDays,
		Tags: a.Tags, Status: a.Status, ThingsToTrack: a.ThingsToTrack, EmailAlertsEnabled: a.EmailAlertsEnabled,
		Digest: a.Digest,
	}
	for _, f := range a.Founders {
		p.Founders = append(p.Founders, radar.FounderInput{ID: f.ID, Name: f.Name, LinkedinURL: f.LinkedinURL, TwitterURL: f.TwitterURL, GithubURL: f.GithubURL})
	}
	return p
}

func updateCompany() *tool {
	return newTool(spec{
		name:  "update_company",
		title: "Change a tracked company",
		description: "Change a tracked company: only the arguments given change. status \"paused\" stops its runs and " +
			"e-mails until status \"ok\" resumes them; ask the user before pausing. Returns {data} with the company in full.",
		annotations: writes(true, false, false),
		scopes:      []string{radar.ScopeTrackerWrite},
		buckets:     writeBucket(),
	}, func(ctx context.Context, e env, in updateCompanyArgs) (api.DataBody[*radar.Entity], error) {
		x, err := e.svc.UpdateEntity(ctx, e.p, in.ID, in.patch())
		if err != nil {
			return api.DataBody[*radar.Entity]{}, err
		}
		return api.DataBody[*radar.Entity]{Data: x}, nil
	})
}

func refreshCompany() *tool {
	return newTool(spec{
		name:  "refresh_company",
		title: "Run the tracker now",
		description: "Start a tracker run of a company now instead of waiting for its cadence. Returns " +
			"{data, operation, baselineLastScrapedAt}: poll get_company until lastScrapedAt differs from " +
			"baselineLastScrapedAt, then read the new signal with list_signals. Fails with entity_paused on a paused " +
			"company (resume it with update_company status \"ok\" once the user agrees) and refresh_in_progress while a " +
			"run is going. Counts against 60 refreshes per hour: never call it in a loop.",
		annotations: writes(false, false, true),
		scopes:      []string{radar.ScopeTrackerWrite},
		buckets:     refreshBucket(),
	}, func(ctx context.Context, e env, in companyID) (api.RefreshBody, error) {
		r, err := e.svc.RefreshEntity(ctx, e.p, in.ID)
		if err != nil {
			return api.RefreshBody{}, err
		}
		return api.RefreshBody{Data: r.Entity, Operation: r.Entity.Operation, BaselineLastScrapedAt: r.Baseline}, nil
	})
}

// removed is the result of remove_company, whose REST equivalent answers 204 without a body.
type removed struct {
	ID      string `json:"id"`
	Removed bool   `json:"removed"`
}

func removeCompany() *tool {
	return newTool(spec{
		name:  "remove_company",
		title: "Stop tracking a company",
		description: "Stop tracking a company for good and delete its whole history: signals, alerts, e-mails " +
			"and the leads found around it. " +
			"This cannot be undone: ask the user before calling it, and suggest pausing (update_company status " +
			"\"paused\") when they only want a break. Returns {id, removed: true}.",
		annotations: writes(false, true, false),
		scopes:      []string{radar.ScopeTrackerWrite},
		buckets:     writeBucket(),
	}, func(ctx context.Context, e env, in companyID) (removed, error) {
		if err := e.svc.DeleteEntity(ctx, e.p, in.ID); err != nil {
			return removed{}, err
		}
		return removed{ID: in.ID, Removed: true}, nil
	})
}
