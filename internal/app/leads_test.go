package app_test

import (
	"net/http"
	"testing"
	"time"

	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
)

// TestLeadFromAnArticleIsTrackedAsIs drives a run through the HTTP API against a simulated web whose only
// news is an article about a founder leaving to start a company: the lead it yields carries the stage the
// article names ("a $2.5 million seed round"), the website it names and a description of the company, and
// tracking it needs nothing more than the alert rules and recipients.
func TestLeadFromAnArticleIsTrackedAsIs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		web, err := simweb.Start(simweb.Options{
			Companies: []simweb.Company{{
				Name: "Loamwise", Slug: "loamwise", Sector: "Agritech",
				Summary: "Irrigation planning for orchards.",
				Founders: []simweb.Founder{
					{Name: "Ines Carvalho", Role: "Co-founder and CEO"},
					{Name: "Tomas Reis", Role: "Co-founder and CTO"},
				},
			}},
			Events: []simweb.Event{{
				At: -2 * 24 * time.Hour, Company: "loamwise", Kind: simweb.KindFounderDeparture,
				Title: "Loamwise engineer Ana Duarte starts Fieldgrid",
				Body: "Ana Duarte, who led hardware at Loamwise for four years, has left to start Fieldgrid, a Lisbon start-up " +
					"that makes soil sensors for vineyards. The start-up has closed a $2.5 million seed round led by Douro " +
					"Ventures. Details are at https://www.fieldgrid.example/.",
			}},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(web.Close)
		_, c := startApp(t, engine, web, "", "tracker:read", "tracker:write", "leads:read", "leads:write")

		co := web.Companies()[0]
		status, body := c.do(http.MethodPost, "/api/v1/tracker", map[string]any{
			"companyName": co.Name, "companyWebsite": co.Website,
			"founders":      []map[string]any{{"name": co.Founders[0].Name}, {"name": co.Founders[1].Name}},
			"thingsToTrack": "Any founder leaving.", "alertEmails": []string{"ana@fund.example"}, "confirmed": true,
		})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %v", status, body)
		}
		source := data(body)["id"].(string)
		c.poll("/api/v1/tracker/"+source, func(m map[string]any) bool { return data(m)["lastScrapedAt"] != nil })

		_, leads := c.do(http.MethodGet, "/api/v1/leads?stage=pre_seed_seed&sourceEntityId="+source, nil)
		if len(list(leads)) != 1 {
			t.Fatalf("seed-stage leads: %v, want Ana Duarte of Fieldgrid", leads)
		}
		lead := list(leads)[0].(map[string]any)
		_, full := c.do(http.MethodGet, "/api/v1/leads/"+lead["id"].(string), nil)
		company, _ := data(full)["company"].(map[string]any)
		wantSummary := "Fieldgrid is a Lisbon start-up that makes soil sensors for vineyards."
		if data(full)["personName"] != "Ana Duarte" || company["name"] != "Fieldgrid" ||
			company["website"] != "https://fieldgrid.example" || company["summary"] != wantSummary {
			t.Errorf("lead: %v, want Ana Duarte of Fieldgrid at https://fieldgrid.example, summary %q", data(full), wantSummary)
		}

		status, tracked := c.do(http.MethodPost, "/api/v1/leads/"+lead["id"].(string)+"/track", map[string]any{
			"thingsToTrack": "Any funding round.", "alertEmails": []string{"ana@fund.example"},
		})
		if status != http.StatusCreated {
			t.Fatalf("track lead without a website: %d %v", status, tracked)
		}
		e := data(tracked)
		if e["companyName"] != "Fieldgrid" || e["companyWebsite"] != "https://fieldgrid.example" || e["companySummary"] != wantSummary {
			t.Errorf("tracked company: %v, want Fieldgrid at https://fieldgrid.example described as %q", e, wantSummary)
		}
		_, read := c.do(http.MethodGet, "/api/v1/leads/"+lead["id"].(string), nil)
		if d, _ := data(read)["decision"].(map[string]any); d["status"] != "accepted" || d["trackedEntityId"] != e["id"] {
			t.Errorf("tracked lead: decision %v, want accepted with trackedEntityId %v", d, e["id"])
		}
	})
}
