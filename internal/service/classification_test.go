package service_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
	"radar/internal/taxonomy"
)

// failing is a classifier that is down, as an LLM endpoint can be.
type failing struct{}

func (failing) ClassifyCompany(context.Context, string, string, string) ([]taxonomy.Assignment, error) {
	return nil, errors.New("classifier unavailable")
}

func (failing) ResolveTerm(context.Context, string) ([]taxonomy.Assignment, error) {
	return nil, errors.New("classifier unavailable")
}

// TestSectorFilter filters the four lists by sector terms on both engines: broad sectors include their
// descendants, narrow terms keep to their category, generic words do not match everything, five terms are
// refused, nothing matching is an empty list, and a failing classifier degrades to text matching.
func TestSectorFilter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		for _, degraded := range []bool{false, true} {
			name := "classifier"
			opts := apitest.Options{}
			if degraded {
				name, opts.Classifier = "failing classifier", failing{}
			}
			t.Run(name, func(t *testing.T) {
				env := apitest.StartWith(t, engine, opts)
				key := env.Key(t, env.OrgA)
				at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
				sectors := map[string]string{
					"Paywise":   "Financial Services > Fintech > Payments",
					"Lendly":    "Financial Services > Fintech > Lending",
					"Scanwell":  "Healthcare > Medtech",
					"Gridspark": "Climate & Energy",
				}
				ids := map[string]string{}
				i := 0
				for company, path := range sectors {
					if _, ok := taxonomyPath(path); !ok {
						t.Fatalf("%s is not a category of the taxonomy", path)
					}
					i++
					e := env.InsertEntityWith(t, env.OrgA, company, at.Add(time.Duration(i)*time.Minute), func(e *radar.Entity) {
						e.Sectors = []string{path}
					})
					ids[company] = e.ID
					env.SeedRun(t, env.OrgA, e.ID)
				}
				names := func(res *apitest.Response, idOf func(map[string]any) string) []string {
					var out []string
					for _, item := range res.Items() {
						for company, id := range ids {
							if idOf(item) == id {
								out = append(out, company)
							}
						}
					}
					slices.Sort(out)
					return out
				}
				lists := []struct {
					path string
					id   func(map[string]any) string
				}{
					{"/api/v1/tracker", func(m map[string]any) string { s, _ := m["id"].(string); return s }},
					{"/api/v1/signals", func(m map[string]any) string { s, _ := m["entityId"].(string); return s }},
					{"/api/v1/alerts", func(m map[string]any) string { s, _ := m["entityId"].(string); return s }},
				}
				cases := []struct {
					name, terms string
					want        []string
				}{
					{"broad sector includes descendants", "fintech", []string{"Lendly", "Paywise"}},
					{"narrow term", "payments", []string{"Paywise"}},
					{"two terms", "payments, medtech", []string{"Paywise", "Scanwell"}},
					{"top-level sector", "climate", []string{"Gridspark"}},
					{"nothing matches", "underwater basket weaving", nil},
				}
				if !degraded {
					cases = append(cases,
						struct {
							name, terms string
							want        []string
						}{"generic word alone matches nothing here", "platform", nil},
						struct {
							name, terms string
							want        []string
						}{"typo", "fintec", []string{"Lendly", "Paywise"}})
				}
				for _, l := range lists {
					for _, c := range cases {
						t.Run(l.path+"/"+c.name, func(t *testing.T) {
							res := env.Do(t, http.MethodGet, l.path+"?classification="+url.QueryEscape(c.terms), key, nil)
							if res.Status != http.StatusOK {
								t.Fatalf("%d %s", res.Status, res.Body)
							}
							if got := names(res, l.id); !slices.Equal(got, c.want) {
								t.Errorf("%q: got %v, want %v", c.terms, got, c.want)
							}
							cr, _ := res.Object()["classificationResolution"].(map[string]any)
							if cr == nil || cr["degradedToTextMatching"] != degraded {
								t.Errorf("classificationResolution = %v, want degradedToTextMatching %v", cr, degraded)
							}
						})
					}
				}
				t.Run("aliases", func(t *testing.T) {
					for _, p := range []string{"sector", "sectors"} {
						res := env.Do(t, http.MethodGet, "/api/v1/tracker?"+p+"=payments", key, nil)
						if got := names(res, lists[0].id); !slices.Equal(got, []string{"Paywise"}) {
							t.Errorf("%s=payments: got %v", p, got)
						}
					}
				})
				t.Run("leads by sector", func(t *testing.T) {
					res := env.Do(t, http.MethodGet, "/api/v1/leads?classification=software", key, nil)
					if res.Status != http.StatusOK || len(res.Items()) != len(ids) {
						t.Errorf("leads in Software: %d %d rows, want %d", res.Status, len(res.Items()), len(ids))
					}
				})
				t.Run("five terms", func(t *testing.T) {
					for _, l := range append(lists, struct {
						path string
						id   func(map[string]any) string
					}{"/api/v1/leads", nil}) {
						res := env.Do(t, http.MethodGet, l.path+"?classification=a,b,c,d,e", key, nil)
						if res.Status != http.StatusBadRequest || res.Code() != radar.EValidation {
							t.Errorf("%s: %d %s, want 400 validation_error", l.path, res.Status, res.Body)
						}
					}
				})
			})
		}
	})
}

func taxonomyPath(p string) (taxonomy.Category, bool) {
	return taxonomy.Default().Lookup(p)
}
