package ops_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"radar"
	"radar/internal/ops"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

func get(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// sample returns the value of the series written exactly as series (name and labels) in a text exposition.
func sample(body, series string) (float64, bool) {
	for line := range strings.Lines(body) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), series+" ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(rest, 64)
		return v, err == nil
	}
	return 0, false
}

// queueJob stores an entity whose enrichment job waits in the queue.
func queueJob(t *testing.T, db *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	now := radar.NewTime(time.Now())
	org := &radar.Org{ID: uuid.NewString(), Slug: "org-" + uuid.NewString()[:8], Name: "Org", CreatedAt: now}
	if err := db.CreateOrg(ctx, org); err != nil {
		t.Fatalf("create org: %v", err)
	}
	id, _ := uuid.NewV7()
	e := &radar.Entity{
		ID: id.String(), OrgID: org.ID, CompanyName: "Northwind", CompanyWebsite: "https://northwind.example/",
		Founders: []radar.Founder{{ID: uuid.NewString(), Name: "Ada Lovelace"}}, ThingsToTrack: "funding",
		AlertEmails: []string{"a@example.com"}, CadenceDays: 7, Status: radar.StatusOK, Tags: []string{},
		Sectors: []string{}, Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichQueued,
		ScrapeHealthReason: radar.HealthPending, CreatedAt: now, UpdatedAt: now,
	}
	if err := db.CreateEntity(ctx, e, []radar.JobArgs{radar.EnrichArgs{OrgID: org.ID, EntityID: e.ID}}, nil); err != nil {
		t.Fatalf("create entity: %v", err)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		db, err := sqldb.Open(context.Background(), storetest.URL(t, engine), sqldb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(ops.New(ops.Config{DB: db}))
		defer srv.Close()

		for _, path := range []string{"/healthz", "/readyz"} {
			code, h, body := get(t, srv.URL+path)
			if code != http.StatusOK || strings.TrimSpace(body) != `{"status":"ok"}` {
				t.Errorf("%s with the database up: got %d %s, want 200 {\"status\":\"ok\"}", path, code, body)
			}
			if ct := h.Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type %q, want application/json", path, ct)
			}
		}

		db.Close()
		code, _, body := get(t, srv.URL+"/readyz")
		var env struct {
			Error radar.Error `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &env); err != nil {
			t.Fatalf("/readyz with the database closed: body %q is not the error envelope: %v", body, err)
		}
		if code != http.StatusServiceUnavailable || env.Error.Code != radar.EUnavailable || env.Error.Details["check"] != "database" {
			t.Errorf("/readyz with the database closed: got %d %s, want 503 service_unavailable naming the database", code, body)
		}
		if code, _, body := get(t, srv.URL+"/healthz"); code != http.StatusOK {
			t.Errorf("/healthz with the database closed: got %d %s, want 200: the process still lives", code, body)
		}
	})
}

func TestMetrics(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		db := storetest.Open(t, engine)
		queueJob(t, db)
		queueJob(t, db)
		o := ops.New(ops.Config{DB: db})
		srv := httptest.NewServer(o)
		defer srv.Close()

		o.Observe("GET /api/v1/tracker", 200, 30*time.Millisecond)
		o.Observe("GET /api/v1/tracker", 200, 2*time.Second)
		o.Observe("GET /api/v1/tracker", 429, time.Millisecond)
		o.RateLimited("read")
		o.StoreError()
		o.StoreError()
		o.JobFailed("run", false)
		o.JobFailed("run", false)
		o.JobFailed("run", true)

		code, h, body := get(t, srv.URL+"/metrics")
		if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
			t.Fatalf("/metrics: got %d %s, want 200 text/plain", code, h.Get("Content-Type"))
		}
		tests := map[string]struct {
			series string
			want   float64
		}{
			"requests by route and status":                    {`radar_http_requests_total{route="GET /api/v1/tracker",status="200"}`, 2},
			"429s by route":                                   {`radar_http_requests_total{route="GET /api/v1/tracker",status="429"}`, 1},
			"latency count":                                   {`radar_http_request_duration_seconds_count{route="GET /api/v1/tracker"}`, 3},
			"latency under 50 ms":                             {`radar_http_request_duration_seconds_bucket{route="GET /api/v1/tracker",le="0.05"}`, 2},
			"rejections of the read bucket":                   {`radar_rate_limit_rejections_total{bucket="read"}`, 1},
			"rejections of an untouched bucket start at zero": {`radar_rate_limit_rejections_total{bucket="create"}`, 0},
			"counter store failures":                          {`radar_rate_limit_store_errors_total`, 2},
			"queued jobs":                                     {`radar_jobs{state="available"}`, 2},
			"running jobs":                                    {`radar_jobs{state="running"}`, 0},
			"retryable jobs":                                  {`radar_jobs{state="retryable"}`, 0},
			"failed attempts":                                 {`radar_job_failed_attempts`, 0},
			"job count failures":                              {`radar_job_stats_errors_total`, 0},
			"failed run attempts retried":                     {`radar_job_failures_total{final="false",kind="run"}`, 2},
			"run jobs given up":                               {`radar_job_failures_total{final="true",kind="run"}`, 1},
		}
		for name, tc := range tests {
			got, ok := sample(body, tc.series)
			if !ok || got != tc.want {
				t.Errorf("%s: %s = %v (present %v), want %v", name, tc.series, got, ok, tc.want)
			}
		}
		if _, ok := sample(body, "go_goroutines"); !ok {
			t.Error("the Go runtime metrics are missing")
		}
	})
}

func TestMetricsWhenTheJobCountFails(t *testing.T) {
	db, err := sqldb.Open(context.Background(), storetest.URL(t, sqldb.SQLite), sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	srv := httptest.NewServer(ops.New(ops.Config{DB: db}))
	defer srv.Close()

	code, _, body := get(t, srv.URL+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: got %d, want 200 with what is known", code)
	}
	if _, ok := sample(body, `radar_jobs{state="available"}`); ok {
		t.Error("radar_jobs is reported although the job queue could not be counted")
	}
	if got, _ := sample(body, "radar_job_stats_errors_total"); got != 1 {
		t.Errorf("radar_job_stats_errors_total = %v, want 1", got)
	}
}

func TestUnknownPath(t *testing.T) {
	srv := httptest.NewServer(ops.New(ops.Config{}))
	defer srv.Close()
	code, _, body := get(t, srv.URL+"/status")
	if code != http.StatusNotFound || !strings.Contains(body, `"code":"not_found"`) {
		t.Errorf("GET /status: got %d %s, want 404 not_found", code, body)
	}
}

// A process shutting down is not ready, though its database answers: a load balancer stops sending it work.
func TestNotReadyWhileDraining(t *testing.T) {
	db, err := sqldb.Open(context.Background(), storetest.URL(t, sqldb.SQLite), sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o := ops.New(ops.Config{DB: db})
	srv := httptest.NewServer(o)
	defer srv.Close()
	if code, _, body := get(t, srv.URL+"/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz before draining: %d %s", code, body)
	}
	o.Drain()
	code, _, body := get(t, srv.URL+"/readyz")
	var env struct {
		Error radar.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil || code != http.StatusServiceUnavailable || env.Error.Details["check"] != "shutdown" {
		t.Errorf("/readyz while draining: got %d %s, want 503 naming the shutdown", code, body)
	}
	if code, _, _ := get(t, srv.URL+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while draining: %d, want 200", code)
	}
}
