package mcp

import (
	"context"

	"radar"
	"radar/internal/api"
	"radar/internal/service"
)

// companyFilterArgs select the company, sector and period of signals and alerts.
type companyFilterArgs struct {
	EntityID       string `json:"entityId,omitempty" jsonschema:"Only this company, by its exact id (a UUID); not combinable with entityQuery"`
	EntityQuery    string `json:"entityQuery,omitempty" jsonschema:"Only this company, named by its company or a founder name; tolerates case, spacing, legal suffixes, a domain and small typos. Not combinable with entityId. When several companies match about equally the call fails with ambiguous_entity: show error.details.candidates to the user, let them choose, and call again with entityId"`
	Classification string `json:"classification,omitempty" jsonschema:"Sector filter: up to 4 comma-separated plain-language terms such as \"fintech, climate tech\"; sub-sectors are included, and classificationResolution in the result shows what each term matched"`
	Since          string `json:"since,omitempty" jsonschema:"Only items created at or after this date (YYYY-MM-DD) or RFC 3339 timestamp"`
	Until          string `json:"until,omitempty" jsonschema:"Only items created before this RFC 3339 timestamp, or up to the end of this date (YYYY-MM-DD, the whole UTC day included); must be later than since"`
}

type listSignalsArgs struct {
	pageArgs
	companyFilterArgs
	NeedsAttention *bool  `json:"needsAttention,omitempty" jsonschema:"true: only signals that need a human's attention; false: only those that do not"`
	Type           string `json:"type,omitempty" enum:"funding,acquisition,executive_change,founder_departure,new_venture,team_growth,contraction,product_launch,partnership,expansion,legal,recognition,open_source,website_change,other,no_change" jsonschema:"Only signals of this type"`
	Severity       string `json:"severity,omitempty" enum:"low,medium,high,critical" jsonschema:"Only signals of this severity"`
	Recommendation string `json:"recommendation,omitempty" enum:"reach_out,review,monitor,no_action" jsonschema:"Only signals with this recommendation"`
	Q              string `json:"q,omitempty" maxLength:"200" jsonschema:"Free text searched in summaries, analyses and company names"`
	Changed        *bool  `json:"changed,omitempty" jsonschema:"true: only runs that found something (every type but no_change); false: only quiet runs (no_change); omitted: all. Pass true to see what happened without the quiet runs, which are most of them"`
	Unseen         bool   `json:"unseen,omitempty" jsonschema:"true: only signals created after your read position (what is new since you last looked); mark_signals_seen, in the delivery toolset, moves the position"`
}

func listSignals() *tool {
	return newTool(spec{
		name:  "list_signals",
		title: "List signals",
		description: "List signals, newest first. A signal is the analysed result of one tracker run of a company: what " +
			"happened (type), how serious it is (severity), what to do (recommendation) and whether it needs attention. " +
			"Filter by company with entityId or entityQuery (a name); on ambiguous_entity show the candidates to the user " +
			"and never choose one yourself. Returns {data, nextCursor, entityResolution?, classificationResolution?}; " +
			"compact view unless view is \"full\"; get_signal gives one signal with its full analysis and evidence. Most runs " +
			"find nothing (type no_change): pass changed=true to list only the runs that found something, which is what " +
			"a user asking what happened wants.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in listSignalsArgs) (*service.List[*radar.Signal], error) {
		return e.svc.ListSignals(ctx, e.p, service.SignalQuery{
			PageQuery: in.query(), EntityID: in.EntityID, EntityQuery: in.EntityQuery, Classification: in.Classification,
			Since: in.Since, Until: in.Until, NeedsAttention: in.NeedsAttention, Type: in.Type, Severity: in.Severity,
			Recommendation: in.Recommendation, Q: in.Q, Changed: in.Changed, Unseen: in.Unseen,
		})
	})
}

type signalID struct {
	ID string `json:"id" jsonschema:"The signal's id (a UUID), as returned by list_signals"`
}

func (a signalID) resourceID() string { return a.ID }

func getSignal() *tool {
	return newTool(spec{
		name:        "get_signal",
		title:       "Get a signal",
		description: "Read one signal in full: the complete analysis, every finding and evidence link, and the health of each source the run read. Returns {data}.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in signalID) (api.DataBody[*radar.Signal], error) {
		x, err := e.svc.GetSignal(ctx, e.p, in.ID, radar.ViewFull)
		if err != nil {
			return api.DataBody[*radar.Signal]{}, err
		}
		return api.DataBody[*radar.Signal]{Data: x}, nil
	})
}

type listAlertsArgs struct {
	pageArgs
	companyFilterArgs
	Outcome         string `json:"outcome,omitempty" enum:"all,sent,no_match,disabled,failed" jsonschema:"Only alerts with this outcome: sent (e-mailed), no_match (no rule matched), disabled (e-mails off or company paused), failed (delivery failed), or all (default)"`
	LatestPerEntity bool   `json:"latestPerEntity,omitempty" jsonschema:"true: only the latest alert of each company"`
	Changed         *bool  `json:"changed,omitempty" jsonschema:"true: only alerts of runs that found something (their signal is not no_change); false: only those of quiet runs; omitted: all"`
	Unseen          bool   `json:"unseen,omitempty" jsonschema:"true: only alerts created after your read position (what is new since you last looked)"`
}

func listAlerts() *tool {
	return newTool(spec{
		name:  "list_alerts",
		title: "List alerts",
		description: "List alerts, newest first. Each tracker run leaves one alert that says whether it e-mailed the " +
			"company's recipients and why (outcome and reason). Filter by company with entityId or entityQuery (a name); " +
			"on ambiguous_entity show the candidates to the user and never choose one yourself. Returns " +
			"{data, nextCursor, entityResolution?, classificationResolution?}; compact view unless view is \"full\", " +
			"which adds the rule evaluations. Most runs find nothing and leave a no_match alert: pass changed=true to " +
			"list only the alerts of runs that found something.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in listAlertsArgs) (*service.List[*radar.Alert], error) {
		return e.svc.ListAlerts(ctx, e.p, service.AlertQuery{
			PageQuery: in.query(), EntityID: in.EntityID, EntityQuery: in.EntityQuery, Classification: in.Classification,
			Since: in.Since, Until: in.Until, Outcome: in.Outcome, LatestPerEntity: in.LatestPerEntity, Changed: in.Changed, Unseen: in.Unseen,
		})
	})
}

type alertID struct {
	ID string `json:"id" jsonschema:"The alert's id (a UUID), as returned by list_alerts"`
}

func (a alertID) resourceID() string { return a.ID }

func getAlert() *tool {
	return newTool(spec{
		name:        "get_alert",
		title:       "Get an alert",
		description: "Read one alert in full: its outcome, reason, recipients and how each alert rule judged the run (rule evaluations with evidence). Returns {data}.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, in alertID) (api.DataBody[*radar.Alert], error) {
		x, err := e.svc.GetAlert(ctx, e.p, in.ID, radar.ViewFull)
		if err != nil {
			return api.DataBody[*radar.Alert]{}, err
		}
		return api.DataBody[*radar.Alert]{Data: x}, nil
	})
}
