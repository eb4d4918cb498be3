package api_test

import (
	"net/http"
	"testing"

	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// TestEnrichDraftKeepsItsSchema checks that an enriched draft which had no founders, recipients or rules is
// answered with empty lists and an empty thingsToTrack, as its Draft schema says, never null.
func TestEnrichDraftKeepsItsSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := startWith(t, engine, apitest.Options{Enricher: draftEnricher{}})
		key := env.Key(t, env.OrgA)
		res := env.Do(t, http.MethodPost, "/api/v1/tracker/enrich", key,
			map[string]any{"companyName": "Draft", "companyWebsite": "https://draft.example"})
		wantStatus(t, res, http.StatusOK)
		d := res.Data()
		for _, field := range []string{"founders", "alertEmails"} {
			if v, ok := d[field].([]any); !ok || len(v) != 0 {
				t.Errorf("data.%s = %#v, want []", field, d[field])
			}
		}
		if v, ok := d["thingsToTrack"].(string); !ok || v != "" {
			t.Errorf("data.thingsToTrack = %#v, want \"\"", d["thingsToTrack"])
		}
		if found, ok := res.Object()["found"].([]any); !ok || len(found) != 1 {
			t.Errorf("found = %#v, want the one profile found", res.Object()["found"])
		}
	})
}
