package radarclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	radarclient "radar/clients/go"
	"radar/internal/apitest"
	"radar/internal/app"
	"radar/internal/config"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
)

// clock is the simulated web's clock, moved by the test.
type clock struct{ offset atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// conforming checks every exchange of the generated client against the served document, as the REST suites do.
type conforming struct {
	t     *testing.T
	check *apitest.Conformance
}

func (c conforming) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(b))
	got := &apitest.Response{Status: res.StatusCode, Header: res.Header, Body: b}
	var v any
	if json.Unmarshal(b, &v) == nil {
		got.JSON = v
	}
	for _, msg := range c.check.Check(req, sent, false, got) {
		c.t.Errorf("OpenAPI conformance: %s", msg)
	}
	return res, nil
}

// TestGeneratedClientWorkflow drives one investor's workflow with the client generated from the served
// document, on both engines, against the whole product and a simulated web: track a company, poll its
// enrichment until the first run has finished, refresh it after news, list its signals, and decide a lead.
func TestGeneratedClientWorkflow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		clk := &clock{}
		step := time.Hour
		web, err := simweb.Start(simweb.Options{Now: clk.now, Step: step})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(web.Close)
		cfg := &config.Config{
			Addr: "127.0.0.1:0", DatabaseURL: storetest.URL(t, engine), FetchAllowPrivate: true,
			NewsFeedURL: web.NewsFeedURL(), GitHubAPIURL: web.GitHubAPIURL(),
		}
		if err := cfg.Finish(); err != nil {
			t.Fatal(err)
		}
		a, err := app.Open(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(context.Background()) })
		org, err := a.Service.CreateOrg(ctx, "fund", "Fund")
		if err != nil {
			t.Fatal(err)
		}
		key, err := a.Service.CreateKey(ctx, org.ID, "client", []string{"tracker:read", "tracker:write", "leads:read", "leads:write"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		base := "http://" + a.Addr()
		check, err := apitest.NewConformance(a.Server.OpenAPI())
		if err != nil {
			t.Fatal(err)
		}

		c, err := radarclient.NewClientWithResponses(base,
			radarclient.WithHTTPClient(&http.Client{Transport: conforming{t: t, check: check}, Timeout: time.Minute}),
			radarclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
				req.Header.Set("Authorization", "Bearer "+key.Secret)
				return nil
			}))
		if err != nil {
			t.Fatal(err)
		}
		var co simweb.Company
		for _, x := range web.Companies() {
			if x.Slug == "tallowmere" {
				co = x
			}
		}

		// Track a company.
		created, err := c.CreateTrackerWithResponse(ctx, &radarclient.CreateTrackerParams{}, radarclient.CreateInput{
			CompanyName: co.Name, CompanyWebsite: co.Website,
			Founders:      []radarclient.FounderInput{{Name: co.Founders[0].Name}, {Name: co.Founders[1].Name}},
			ThingsToTrack: "Tell me when they raise more than $1M.\nAny founder leaving.",
			AlertEmails:   []openapi_types.Email{"ana@fund.example"}, Confirmed: radarclient.True,
		})
		if err != nil || created.JSON201 == nil {
			t.Fatalf("create: %v %s", err, body(created))
		}
		id := uuid(t, created.JSON201.Data.Id)
		if created.JSON201.Operation.EnrichmentStatus != radarclient.EnrichmentStatusQueued {
			t.Errorf("operation.enrichmentStatus = %s, want queued", created.JSON201.Operation.EnrichmentStatus)
		}

		// Poll it until enrichment is complete and the first run has finished.
		e := poll(t, func() (*radarclient.EntityEnvelope, bool) {
			r, err := c.GetTrackerWithResponse(ctx, id, nil)
			if err != nil || r.JSON200 == nil {
				t.Fatalf("poll: %v %s", err, body(r))
			}
			return r.JSON200, r.JSON200.Operation.EnrichmentComplete && r.JSON200.Data.LastScrapedAt != nil
		})
		if e.Data.CompanyLinkedinUrl == nil || *e.Data.CompanyLinkedinUrl != co.LinkedIn {
			t.Errorf("enrichment: companyLinkedinUrl = %v, want %s", e.Data.CompanyLinkedinUrl, co.LinkedIn)
		}
		if e.Data.LatestSignal == nil {
			t.Errorf("latestSignal is null after the first run")
		}

		// News arrives: refresh, and poll until the run has finished.
		clk.advance(16 * step)
		ref, err := c.RefreshTrackerWithResponse(ctx, id)
		if err != nil || ref.JSON202 == nil {
			t.Fatalf("refresh: %v %s", err, body(ref))
		}
		baseline := ref.JSON202.BaselineLastScrapedAt
		if baseline == nil {
			t.Fatal("refresh: baselineLastScrapedAt is null after a finished run")
		}
		poll(t, func() (*radarclient.EntityEnvelope, bool) {
			r, err := c.GetTrackerWithResponse(ctx, id, nil)
			if err != nil || r.JSON200 == nil {
				t.Fatalf("poll: %v %s", err, body(r))
			}
			last := r.JSON200.Data.LastScrapedAt
			return r.JSON200, last != nil && !last.Equal(*baseline) && r.JSON200.Data.ScrapeHealthReason != "running: a tracker run is in progress"
		})

		// List its signals, only those that found something.
		changed := true
		sigs, err := c.ListSignalsWithResponse(ctx, &radarclient.ListSignalsParams{EntityId: &id, Changed: &changed})
		if err != nil || sigs.JSON200 == nil {
			t.Fatalf("list signals: %v %s", err, body(sigs))
		}
		if len(sigs.JSON200.Data) != 2 {
			t.Fatalf("signals after the refresh: %d, want 2", len(sigs.JSON200.Data))
		}
		if ty := sigs.JSON200.Data[0].Type; ty != radarclient.FounderDeparture && ty != radarclient.NewVenture {
			t.Errorf("latest signal type %s, want founder_departure or new_venture", ty)
		}
		if len(sigs.JSON200.Data[0].Evidence) == 0 || !sigs.JSON200.Data[0].NeedsAttention {
			t.Errorf("latest signal: evidence %v, needsAttention %t; want evidence and attention", sigs.JSON200.Data[0].Evidence, sigs.JSON200.Data[0].NeedsAttention)
		}

		// Decide a lead found around the company.
		leads, err := c.ListLeadsWithResponse(ctx, &radarclient.ListLeadsParams{SourceEntityId: &id})
		if err != nil || leads.JSON200 == nil || len(leads.JSON200.Data) == 0 {
			t.Fatalf("list leads: %v %s", err, body(leads))
		}
		lead := leads.JSON200.Data[0]
		if lead.Decision.Status != radarclient.Unreviewed {
			t.Errorf("new lead decision %s, want unreviewed", lead.Decision.Status)
		}
		decided, err := c.DecideLeadWithResponse(ctx, uuid(t, lead.Id), radarclient.DecisionInput{Accepted: false})
		if err != nil || decided.JSON200 == nil {
			t.Fatalf("decide lead: %v %s", err, body(decided))
		}
		if got := decided.JSON200.Data.Decision; got.Status != radarclient.Rejected || got.DecidedAt == nil {
			t.Errorf("decided lead: %+v, want rejected with decidedAt", got)
		}
		rejected := radarclient.Rejected
		again, err := c.ListLeadsWithResponse(ctx, &radarclient.ListLeadsParams{Decision: &rejected})
		if err != nil || again.JSON200 == nil || len(again.JSON200.Data) != 1 || again.JSON200.Data[0].Id != lead.Id {
			t.Errorf("rejected leads: %v %s, want the one decided", err, body(again))
		}
	})
}

// poll calls read until it reports done, for at most a minute.
func poll(t *testing.T, read func() (*radarclient.EntityEnvelope, bool)) *radarclient.EntityEnvelope {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		e, done := read()
		if done {
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not reached; last %+v", e.Data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func uuid(t *testing.T, id string) openapi_types.UUID {
	t.Helper()
	var u openapi_types.UUID
	if err := u.UnmarshalText([]byte(id)); err != nil {
		t.Fatalf("id %q: %v", id, err)
	}
	return u
}

// body shows a generated response's status and body in a failure.
func body(r any) string {
	v := reflect.ValueOf(r)
	if !v.IsValid() || v.IsNil() {
		return "(no response)"
	}
	res, _ := v.Elem().FieldByName("HTTPResponse").Interface().(*http.Response)
	b, _ := v.Elem().FieldByName("Body").Interface().([]byte)
	if res == nil {
		return string(b)
	}
	return res.Status + " " + string(b)
}
