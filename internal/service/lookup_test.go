package service_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// TestFuzzyLookup resolves company and founder names through /signals, /alerts and /leads on both engines:
// every tolerance of the specification, the not-found and ambiguity errors, and organisation isolation.
func TestFuzzyLookup(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := apitest.Start(t, engine)
		key := env.Key(t, env.OrgA)
		keyB := env.Key(t, env.OrgB)
		at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		companies := map[string]struct {
			name, website string
			founders      []string
		}{
			"northwind":  {"Northwind Labs Inc.", "https://www.northwind.io/", []string{"Jane Doe", "John Roe"}},
			"northstar":  {"Northstar Analytics", "https://northstar.ai", []string{"Priya Raman"}},
			"acme":       {"Acme Robotics GmbH", "https://acme-robotics.de", []string{"Hans Müller"}},
			"quillfern":  {"Quillfern Health Ltd", "https://quillfern.health", []string{"Amara Osei", "Felix Harrowgate"}},
			"bluefin":    {"Bluefin Capital LLC", "https://bluefin.vc", []string{"Sam O'Neil"}},
			"bluefinbio": {"Bluefin Bio", "https://bluefinbio.com", []string{"Lea Kurz"}},
			"kite":       {"Kite & Crane SAS", "https://kiteandcrane.fr", []string{"Élodie Marchand"}},
			"thornbury":  {"Thornbury Robotics Ltd", "https://www.thornbury.example/", []string{"Ines Ward"}},
			"wrenfield":  {"Wrenfield Analytics", "https://wrenfield-data.example", []string{"Kofi Mensah"}},
			"larkspur":   {"Larkspur", "https://larkspur.example", []string{"Olu Bello"}},
			"larkspar":   {"Larkspar GmbH", "https://larkspar.example", []string{"Uma Rao"}},
		}
		ids := map[string]string{}
		i := 0
		for slug, c := range companies {
			i++
			e := env.InsertEntityWith(t, env.OrgA, c.name, at.Add(time.Duration(i)*time.Minute), func(e *radar.Entity) {
				e.CompanyWebsite = c.website
				e.Founders = nil
				for _, f := range c.founders {
					e.Founders = append(e.Founders, radar.Founder{ID: uuid.NewString(), Name: f})
				}
			})
			ids[slug] = e.ID
			env.SeedRun(t, env.OrgA, e.ID)
		}
		other := env.InsertEntity(t, env.OrgB, "Zephyr Dynamics", at)
		env.SeedRun(t, env.OrgB, other.ID)

		type want struct {
			slug string // the company the query resolves to
			code string // or the error code
		}
		cases := []struct {
			name, query string
			want        want
		}{
			{"exact name", "Northwind Labs Inc.", want{slug: "northwind"}},
			{"lower case", "northwind labs", want{slug: "northwind"}},
			{"upper case", "NORTHWIND LABS", want{slug: "northwind"}},
			{"extra spaces", "  northwind   labs ", want{slug: "northwind"}},
			{"joined words", "northwindlabs", want{slug: "northwind"}},
			{"punctuation", "northwind-labs!", want{slug: "northwind"}},
			{"legal suffix dropped", "Northwind Labs", want{slug: "northwind"}},
			{"other legal suffix", "Northwind Labs Ltd", want{slug: "northwind"}},
			{"domain", "northwind.io", want{slug: "northwind"}},
			{"domain with www", "www.northwind.io", want{slug: "northwind"}},
			{"url", "https://northwind.io/about", want{slug: "northwind"}},
			{"typo", "nortwind labs", want{slug: "northwind"}},
			{"typo in second word", "northwind lasb", want{slug: "northwind"}},
			{"founder name", "Jane Doe", want{slug: "northwind"}},
			{"founder lower case", "jane doe", want{slug: "northwind"}},
			{"second founder", "John Roe", want{slug: "northwind"}},
			{"founder typo", "Jane Dooe", want{slug: "northwind"}},
			{"name of one word", "Northstar", want{slug: "northstar"}},
			{"northstar analytics", "northstar analytics", want{slug: "northstar"}},
			{"northstar domain", "northstar.ai", want{slug: "northstar"}},
			{"northstar founder", "Priya Raman", want{slug: "northstar"}},
			{"shared prefix is ambiguous", "north", want{code: "ambiguous"}},
			{"shared prefix upper case", "NORTH", want{code: "ambiguous"}},
			{"GmbH suffix", "Acme Robotics", want{slug: "acme"}},
			{"hyphenated domain", "acme-robotics.de", want{slug: "acme"}},
			{"joined acme", "acmerobotics", want{slug: "acme"}},
			{"umlaut founder", "Hans Muller", want{slug: "acme"}},
			{"umlaut founder exact", "Hans Müller", want{slug: "acme"}},
			{"Ltd suffix", "Quillfern Health", want{slug: "quillfern"}},
			{"quillfern one word", "quillfern", want{slug: "quillfern"}},
			{"quillfern typo", "quilfern health", want{slug: "quillfern"}},
			{"quillfern founder", "Felix Harrowgate", want{slug: "quillfern"}},
			{"quillfern domain", "quillfern.health", want{slug: "quillfern"}},
			{"LLC suffix", "Bluefin Capital", want{slug: "bluefin"}},
			{"apostrophe founder", "Sam ONeil", want{slug: "bluefin"}},
			{"bluefin bio", "Bluefin Bio", want{slug: "bluefinbio"}},
			{"bluefin bio domain", "bluefinbio.com", want{slug: "bluefinbio"}},
			{"bluefin prefix ambiguous", "bluefin", want{code: "ambiguous"}},
			{"ampersand", "Kite and Crane", want{slug: "kite"}},
			{"ampersand kept", "Kite & Crane", want{slug: "kite"}},
			{"SAS suffix", "kite & crane sas", want{slug: "kite"}},
			{"accented founder", "Elodie Marchand", want{slug: "kite"}},
			{"one-word typo", "thornbry", want{slug: "thornbury"}},
			{"one-word typo early", "thrnbury", want{slug: "thornbury"}},
			{"one-word transposition", "thronbury", want{slug: "thornbury"}},
			{"one-word two typos", "thrnbry", want{slug: "thornbury"}},
			{"one-word typo upper case", "THORNBRY", want{slug: "thornbury"}},
			{"one-word typo closer to one", "larkspurr", want{slug: "larkspur"}},
			{"one-word typo equally close to two", "larkspor", want{code: "ambiguous"}},
			{"one-word three typos", "thrnbr", want{code: "not_found"}},
			{"typo of a first word", "wrenfeld", want{slug: "wrenfield"}},
			{"transposed first word", "wernfield", want{slug: "wrenfield"}},
			{"own domain", "thornbury.example", want{slug: "thornbury"}},
			{"own domain with www", "www.thornbury.example", want{slug: "thornbury"}},
			{"own website url", "https://www.thornbury.example/about", want{slug: "thornbury"}},
			{"own website url upper case with port", "HTTP://Thornbury.Example:443/", want{slug: "thornbury"}},
			{"own domain of a similar name", "larkspar.example", want{slug: "larkspar"}},
			{"nothing alike", "Zanzibar Shipping", want{code: "not_found"}},
			{"gibberish", "qqxxzz", want{code: "not_found"}},
			{"another organisation's company", "Zephyr Dynamics", want{code: "not_found"}},
			{"another organisation's domain", "zephyr-dynamics.example", want{code: "not_found"}},
			{"punctuation only", "!!!", want{code: "not_found"}},
			{"legal suffix only", "GmbH", want{code: "not_found"}},
			{"founder of nothing", "Alan Turing", want{code: "not_found"}},
			{"domain of nothing", "nothing-here.example", want{code: "not_found"}},
		}
		endpoints := []struct {
			path, param, notFound, ambiguous, resolution string
		}{
			{"/api/v1/signals", "entityQuery", radar.EEntityNotFound, radar.EAmbiguousEntity, "entityResolution"},
			{"/api/v1/alerts", "entityQuery", radar.EEntityNotFound, radar.EAmbiguousEntity, "entityResolution"},
			{"/api/v1/leads", "sourceQuery", radar.ESourceNotFound, radar.EAmbiguousSource, "sourceResolution"},
		}
		for _, ep := range endpoints {
			for _, c := range cases {
				t.Run(ep.path+"/"+c.name, func(t *testing.T) {
					res := env.Do(t, http.MethodGet, ep.path+"?"+ep.param+"="+url.QueryEscape(c.query), key, nil)
					switch c.want.code {
					case "":
						if res.Status != http.StatusOK {
							t.Fatalf("%q: status %d %s, want 200 resolving to %s", c.query, res.Status, res.Body, c.want.slug)
						}
						r, _ := res.Object()[ep.resolution].(map[string]any)
						ent, _ := r["entity"].(map[string]any)
						if ent["id"] != ids[c.want.slug] {
							t.Fatalf("%q resolved to %v, want %s", c.query, r, c.want.slug)
						}
						if r["query"] != c.query || r["matchedOn"] == "" || r["score"] == nil {
							t.Errorf("%q: resolution %v lacks query, matchedOn or score", c.query, r)
						}
						for _, item := range res.Items() {
							id, _ := item["entityId"].(string)
							if src, ok := item["source"].(map[string]any); ok {
								id, _ = src["entityId"].(string)
							}
							if id != ids[c.want.slug] {
								t.Errorf("%q: row of entity %s in a list resolved to %s", c.query, id, c.want.slug)
							}
						}
						if len(res.Items()) == 0 {
							t.Errorf("%q: no rows for the resolved company", c.query)
						}
					case "ambiguous":
						if res.Status != http.StatusConflict || res.Code() != ep.ambiguous {
							t.Fatalf("%q: %d %s, want 409 %s", c.query, res.Status, res.Body, ep.ambiguous)
						}
						cands, _ := res.Err().Details["candidates"].([]any)
						if len(cands) < 2 || len(cands) > 5 {
							t.Errorf("%q: %d candidates, want 2-5", c.query, len(cands))
						}
					case "not_found":
						if res.Status != http.StatusNotFound || res.Code() != ep.notFound {
							t.Fatalf("%q: %d %s, want 404 %s", c.query, res.Status, res.Body, ep.notFound)
						}
					}
				})
			}
		}

		t.Run("exact and fuzzy together", func(t *testing.T) {
			res := env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery=northwind&entityId="+ids["northwind"], key, nil)
			if res.Status != http.StatusBadRequest || res.Code() != radar.EValidation {
				t.Errorf("got %d %s, want 400 validation_error", res.Status, res.Body)
			}
			res = env.Do(t, http.MethodGet, "/api/v1/leads?sourceQuery=northwind&sourceEntityId="+ids["northwind"], key, nil)
			if res.Status != http.StatusBadRequest || res.Code() != radar.EValidation {
				t.Errorf("leads: got %d %s, want 400 validation_error", res.Status, res.Body)
			}
		})
		t.Run("the other organisation finds its own company", func(t *testing.T) {
			res := env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery=zephyr", keyB, nil)
			r, _ := res.Object()["entityResolution"].(map[string]any)
			if ent, _ := r["entity"].(map[string]any); res.Status != http.StatusOK || ent["id"] != other.ID {
				t.Errorf("got %d %s", res.Status, res.Body)
			}
			res = env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery=northwind", keyB, nil)
			if res.Code() != radar.EEntityNotFound {
				t.Errorf("org B looking up org A's company: %d %s, want entity_not_found", res.Status, res.Body)
			}
		})
		t.Run("index follows changes", func(t *testing.T) {
			e := env.InsertEntity(t, env.OrgA, "Vantage Bio", at.Add(time.Hour))
			env.SeedRun(t, env.OrgA, e.ID)
			res := env.Do(t, http.MethodGet, "/api/v1/signals?entityQuery=vantage", key, nil)
			if res.Status != http.StatusOK {
				t.Errorf("a company added after the index was built: %d %s", res.Status, res.Body)
			}
		})
	})
}
