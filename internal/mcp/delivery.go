package mcp

import (
	"context"
	"time"

	"radar"
	"radar/internal/api"
)

// Toolsets names the groups of tools a server can offer. The default toolset is the specification's tools and
// is always offered; the others are opt-in (RADAR_MCP_TOOLSETS, or ?toolsets= on the endpoint).
var Toolsets = []string{"default", "delivery"}

// toolset returns the tools of an opt-in toolset.
func toolset(name string) []*tool {
	switch name {
	case "delivery":
		return []*tool{markSignalsSeen(), previewRules()}
	}
	return nil
}

type markSeenArgs struct {
	UpTo   string `json:"upTo,omitempty" jsonschema:"A signal id (a UUID): it and every signal and alert created up to it become seen"`
	Before string `json:"before,omitempty" format:"date-time" jsonschema:"An RFC 3339 timestamp: every signal and alert created before it becomes seen. Give upTo or before, not both"`
}

func markSignalsSeen() *tool {
	return newTool(spec{
		name:  "mark_signals_seen",
		title: "Mark signals as seen",
		description: "Move your read position forwards, so that list_signals and list_alerts with unseen=true list only " +
			"what came after it: to the signal upTo (usually the newest one you showed the user), or to just before the " +
			"timestamp before. The position is per API key and never moves backwards. Returns {data: {seenThrough}}.",
		annotations: writes(true, false, false),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     writeBucket(),
	}, func(ctx context.Context, e env, in markSeenArgs) (any, error) {
		var before *radar.Time
		if in.Before != "" {
			t, err := time.Parse(time.RFC3339Nano, in.Before)
			if err != nil {
				var probs radar.Problems
				probs.Addf("before", "must be an RFC 3339 timestamp, got %q", in.Before)
				return nil, probs.Err()
			}
			v := radar.NewTime(t)
			before = &v
		}
		t, err := e.svc.MarkSeen(ctx, e.p, in.UpTo, before)
		if err != nil {
			return nil, err
		}
		return api.DataBody[api.SeenPosition]{Data: api.SeenPosition{SeenThrough: t}}, nil
	})
}

type previewRulesArgs struct {
	ID            string `json:"id" jsonschema:"The company's id (a UUID), as returned by list_companies or add_company"`
	ThingsToTrack string `json:"thingsToTrack" minLength:"1" maxLength:"10000" jsonschema:"Draft alert rules in plain language, one rule a sentence, as update_company would save them"`
}

func (a previewRulesArgs) resourceID() string { return a.ID }

func previewRules() *tool {
	return newTool(spec{
		name:  "preview_rules",
		title: "Preview alert rules",
		description: "Try draft alert rules on a company before saving them: compiles thingsToTrack into a policy and " +
			"says, rule by rule, whether it would have matched what the company's earlier runs found, why, and on which " +
			"items. Nothing is saved and no e-mail is sent; save the rules with update_company. Returns " +
			"{data: {policy, evaluations: [{ruleId, rule, matched, reason, evidence}], runsChecked, findingsChecked}}.",
		annotations: readOnly(),
		scopes:      []string{radar.ScopeTrackerRead},
		buckets:     writeBucket(),
	}, func(ctx context.Context, e env, in previewRulesArgs) (any, error) {
		r, err := e.svc.PreviewRules(ctx, e.p, in.ID, in.ThingsToTrack)
		if err != nil {
			return nil, err
		}
		return api.DataBody[any]{Data: r}, nil
	})
}
