package api_test

import (
	"net/http"
	"strings"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func TestEntityDigestField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)

		plain := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Northwind"))
		wantStatus(t, plain, http.StatusCreated)
		if got := str(plain.Data(), "digest"); got != radar.DigestOff {
			t.Errorf("digest of a create without it = %q, want off", got)
		}

		body := apitest.CreateBody("Tallowmere")
		body["digest"] = "weekly"
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, body)
		wantStatus(t, res, http.StatusCreated)
		id := str(res.Data(), "id")
		if got := str(res.Data(), "digest"); got != "weekly" {
			t.Errorf("created digest = %q, want weekly", got)
		}

		patched := env.Do(t, http.MethodPatch, "/api/v1/tracker/"+id, key, map[string]any{"digest": "daily"})
		wantStatus(t, patched, http.StatusOK)
		if got := str(patched.Data(), "digest"); got != "daily" {
			t.Errorf("patched digest = %q, want daily", got)
		}
		full := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id+"?view=full", key, nil)
		wantStatus(t, full, http.StatusOK)
		if got := str(full.Data(), "digest"); got != "daily" {
			t.Errorf("read digest = %q, want daily", got)
		}
		other := env.Do(t, http.MethodPatch, "/api/v1/tracker/"+id, key, map[string]any{"cadenceDays": 30})
		if got := str(other.Data(), "digest"); got != "daily" {
			t.Errorf("a patch without digest changed it to %q", got)
		}

		bad := apitest.CreateBody("Bad digest")
		bad["digest"] = "hourly"
		for name, res := range map[string]*apitest.Response{
			"create": env.Do(t, http.MethodPost, "/api/v1/tracker", key, bad),
			"patch":  env.Do(t, http.MethodPatch, "/api/v1/tracker/"+id, key, map[string]any{"digest": "monthly"}),
		} {
			wantError(t, res, http.StatusBadRequest, radar.EValidation)
			if !strings.Contains(string(res.Body), "digest") || !strings.Contains(string(res.Body), "off") ||
				!strings.Contains(string(res.Body), "weekly") {
				t.Errorf("%s with a bad digest: the error does not name the field and its values: %s", name, res.Body)
			}
		}
		if got := str(env.Do(t, http.MethodGet, "/api/v1/tracker/"+id, key, nil).Data(), "digest"); got != "daily" {
			t.Errorf("a refused patch changed the digest to %q", got)
		}
	})
}
