package mcp

import (
	"context"

	"radar/internal/ratelimit"
)

// identity is the result of whoami.
type identity struct {
	Organisation organisation `json:"organisation"`
	Key          keyInfo      `json:"key"`
	Scopes       []string     `json:"scopes" nullable:"false"`
	RateLimits   []budget     `json:"rateLimits" nullable:"false"`
}

type organisation struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

type keyInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// budget is one rate bucket's state for the key in its current window.
type budget struct {
	Bucket            string `json:"bucket"`
	Limit             int    `json:"limit"`
	WindowSeconds     int64  `json:"windowSeconds"`
	Remaining         int    `json:"remaining"`
	ResetAfterSeconds int64  `json:"resetAfterSeconds"`
	// RemainingUnknown reports that the counters could not be read; Remaining then shows the full limit.
	RemainingUnknown bool `json:"remainingUnknown,omitempty"`
}

// noArgs is the input of a tool without arguments.
type noArgs struct{}

func whoami() *tool {
	return newTool(spec{
		name:  "whoami",
		title: "Who am I",
		description: "Show who this API key acts for: the organisation (id, slug, name), the key's name and id, its " +
			"scopes, and each rate bucket's limit, window and remaining budget. Call it first to learn which tools the " +
			"key may use and how many calls it has left. Counts as a read.",
		annotations: readOnly(),
		buckets:     readBucket(),
	}, func(ctx context.Context, e env, _ noArgs) (identity, error) {
		scopes := e.p.Scopes
		if scopes == nil {
			scopes = []string{}
		}
		out := identity{
			Organisation: organisation{ID: e.p.OrgID, Slug: e.p.OrgSlug, Name: e.p.OrgName},
			Key:          keyInfo{ID: e.p.KeyID, Name: e.p.KeyName},
			Scopes:       scopes,
			RateLimits:   []budget{},
		}
		if e.limiter != nil {
			for _, s := range e.limiter.Status(ctx, e.p.KeyID) {
				out.RateLimits = append(out.RateLimits, budget{
					Bucket: s.Bucket.Name, Limit: s.Bucket.Limit, WindowSeconds: s.Bucket.WindowSeconds(),
					Remaining: s.Remaining, ResetAfterSeconds: ratelimit.CeilSeconds(s.ResetAfter), RemainingUnknown: s.Unknown,
				})
			}
		}
		return out, nil
	})
}
