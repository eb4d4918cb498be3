package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"radar"
	"radar/internal/sqldb/storetest"
)

// A key without an operation's scope is refused before anything of its request is looked at: a malformed
// id, unknown or mistyped body fields, invalid JSON, text with a NUL or invalid UTF-8, or bad query
// parameters all answer 403 insufficient_scope, so that the key learns nothing of what the request should
// look like.
func TestScopeBeforeValidation(t *testing.T) {
	bodies := map[string]any{
		"mistyped fields":   map[string]any{"companyName": 5, "founders": "x", "bogus": true, "accepted": "maybe", "status": "gone"},
		"invalid JSON":      []byte(`{"companyName":`),
		"a NUL":             map[string]any{"companyName": "a\x00", "thingsToTrack": "\x00"},
		"invalid UTF-8":     []byte("{\"companyName\":\"\xff\"}"),
		"a private website": map[string]any{"companyName": "A", "companyWebsite": "http://127.0.0.1:6379/"},
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		env := startWith(t, engine, publicOnly())
		f := seed(t, env, env.Key(t, env.OrgA), "Northwind")
		for _, ep := range endpoints(f) {
			for _, missing := range ep.scopes {
				granted := slices.DeleteFunc(slices.Clone(radar.Scopes), func(s string) bool { return s == missing })
				key := env.Key(t, env.OrgA, granted...)
				paths := []string{ep.path + "?limit=abc&view=medium&q=%00&status=gone"}
				if ep.byID {
					for _, id := range []string{f.entityID, f.SignalID, f.AlertID, f.LeadID} {
						if strings.Contains(ep.path, id) {
							paths = append(paths, strings.Replace(ep.path, id, "not-a-uuid", 1))
						}
					}
				}
				for _, path := range paths {
					if ep.method == http.MethodGet || ep.method == http.MethodDelete {
						t.Run(ep.name+" without "+missing+" "+path, func(t *testing.T) {
							wantError(t, env.Do(t, ep.method, path, key, nil), http.StatusForbidden, radar.EInsufficientScope)
						})
						continue
					}
					for name, body := range bodies {
						t.Run(ep.name+" without "+missing+" with "+name+" "+path, func(t *testing.T) {
							wantError(t, env.Do(t, ep.method, path, key, body), http.StatusForbidden, radar.EInsufficientScope)
						})
					}
				}
			}
		}
	})
}
