// Package ops serves what operators and load balancers ask of a Radar replica: Prometheus metrics on a
// registry of its own at /metrics, liveness at /healthz and readiness (the database answers) at /readyz.
package ops

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"radar"
	"radar/internal/ratelimit"
	"radar/internal/sqldb"
)

// Defaults of Config.
const (
	DefaultReadyTimeout = time.Second
	DefaultJobsTimeout  = time.Second
)

// DB is the database as ops reads it; *sqldb.DB is one.
type DB interface {
	Ping(ctx context.Context) error
	JobCounts(ctx context.Context) (sqldb.JobCounts, error)
}

// Config configures New; zero fields take their defaults.
type Config struct {
	DB     DB
	Logger *slog.Logger
	// ReadyTimeout bounds the database ping of /readyz; default DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// JobsTimeout bounds the job queue count of one scrape of /metrics; default DefaultJobsTimeout.
	JobsTimeout time.Duration
}

// Ops holds the metrics of one process and serves /metrics, /healthz and /readyz.
type Ops struct {
	db           DB
	logger       *slog.Logger
	readyTimeout time.Duration
	jobsTimeout  time.Duration

	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	rejections  *prometheus.CounterVec
	storeErrors prometheus.Counter
	jobFailures *prometheus.CounterVec
	jobsErrors  prometheus.Counter
	listCache   *prometheus.CounterVec
	breaker     breakerMetrics
	draining    atomic.Bool
}

// New returns the operations endpoints of a process whose database is cfg.DB.
func New(cfg Config) *Ops {
	o := &Ops{
		db:           cfg.DB,
		logger:       cfg.Logger,
		readyTimeout: cfg.ReadyTimeout,
		jobsTimeout:  cfg.JobsTimeout,
		reg:          prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "radar_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status code.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "radar_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "radar_rate_limit_rejections_total",
			Help: "Requests answered 429 because an API key's rate bucket ran out, by bucket.",
		}, []string{"bucket"}),
		storeErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "radar_rate_limit_store_errors_total",
			Help: "Rate-limit counter store calls that failed or timed out; the requests were allowed uncounted.",
		}),
		jobFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "radar_job_failures_total",
			Help: "Failed job attempts, by job kind; final=\"true\" when the job is given up.",
		}, []string{"kind", "final"}),
		jobsErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "radar_job_stats_errors_total",
			Help: "Scrapes whose job queue count failed or timed out; those scrapes carry no radar_jobs series.",
		}),
		listCache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "radar_list_cache_requests_total",
			Help: "List requests that could be served from the page cache, by list and result (hit or miss).",
		}, []string{"list", "result"}),
		breaker: newBreakerMetrics(),
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if o.readyTimeout <= 0 {
		o.readyTimeout = DefaultReadyTimeout
	}
	if o.jobsTimeout <= 0 {
		o.jobsTimeout = DefaultJobsTimeout
	}
	buckets := make([]string, 0, len(ratelimit.Defaults()))
	for name := range ratelimit.Defaults() {
		buckets = append(buckets, name)
	}
	slices.Sort(buckets)
	for _, b := range buckets {
		o.rejections.WithLabelValues(b)
	}
	o.reg.MustRegister(o.requests, o.latency, o.rejections, o.storeErrors, o.jobFailures, o.jobsErrors, o.listCache,
		o.breaker.open, o.breaker.transitions,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return o
}

// Observe counts one answered request; it fits api.Config.Observe.
func (o *Ops) Observe(route string, status int, d time.Duration) {
	o.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	o.latency.WithLabelValues(route).Observe(d.Seconds())
}

// RateLimited counts one request denied by bucket; it fits ratelimit.Config.OnDenied.
func (o *Ops) RateLimited(bucket string) { o.rejections.WithLabelValues(bucket).Inc() }

// JobFailed counts one failed job attempt; it fits tracker.Config.OnJobFailed.
func (o *Ops) JobFailed(kind string, final bool) {
	o.jobFailures.WithLabelValues(kind, strconv.FormatBool(final)).Inc()
}

// ListCache counts one list request that could be served from the page cache; it fits api.Config.OnListCache.
func (o *Ops) ListCache(list string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	o.listCache.WithLabelValues(list, result).Inc()
}

// StoreError counts one failed call of the rate-limit counter store; it fits ratelimit.Config.OnStoreError.
func (o *Ops) StoreError() { o.storeErrors.Inc() }

// ServeHTTP answers /metrics, /healthz and /readyz, and 404 for anything else.
func (o *Ops) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/metrics":
		o.serveMetrics(w, r)
	case "/healthz":
		writeJSON(w, http.StatusOK, status{Status: "ok"})
	case "/readyz":
		o.serveReady(w, r)
	default:
		writeError(w, radar.Errorf(radar.ENotFound, "no route %s %s", r.Method, r.URL.Path))
	}
}

type status struct {
	Status string `json:"status"`
}

// Drain makes /readyz answer 503 from now on: the process is shutting down and takes no new work.
func (o *Ops) Drain() { o.draining.Store(true) }

// serveReady answers 200 when the database answers a ping in time and the process is not shutting down,
// else 503.
func (o *Ops) serveReady(w http.ResponseWriter, r *http.Request) {
	if o.draining.Load() {
		e := radar.Errorf(radar.EUnavailable, "not ready: shutting down")
		e.Details = map[string]any{"check": "shutdown"}
		writeError(w, e)
		return
	}
	if o.db == nil {
		writeJSON(w, http.StatusOK, status{Status: "ok"})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), o.readyTimeout)
	defer cancel()
	if err := o.db.Ping(ctx); err != nil {
		o.logger.WarnContext(r.Context(), "not ready: the database does not answer", "err", err)
		e := radar.Errorf(radar.EUnavailable, "not ready: the database does not answer within %s", o.readyTimeout)
		e.Details = map[string]any{"check": "database"}
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, status{Status: "ok"})
}

// serveMetrics counts the job queue, then writes every metric in the Prometheus exposition format.
func (o *Ops) serveMetrics(w http.ResponseWriter, r *http.Request) {
	g := prometheus.Gatherers{o.reg}
	if o.db != nil {
		if jobs := o.jobMetrics(r.Context()); jobs != nil {
			g = append(g, jobs)
		}
	}
	promhttp.HandlerFor(g, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(o.logger.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError,
	}).ServeHTTP(w, r)
}

// jobMetrics reads the job queue within the jobs timeout into a registry of this scrape, or returns nil.
func (o *Ops) jobMetrics(ctx context.Context) prometheus.Gatherer {
	ctx, cancel := context.WithTimeout(ctx, o.jobsTimeout)
	defer cancel()
	c, err := o.db.JobCounts(ctx)
	if err != nil {
		o.jobsErrors.Inc()
		o.logger.WarnContext(ctx, "metrics: job queue count failed", "err", err)
		return nil
	}
	jobs := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "radar_jobs",
		Help: "Jobs in the shared queue by state: available, running and retryable are the depth; retryable " +
			"jobs failed their last attempt, discarded ones failed for good. Every replica reports the same queue.",
	}, []string{"state"})
	for state, n := range c.ByState {
		jobs.WithLabelValues(state).Set(float64(n))
	}
	failed := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "radar_job_failed_attempts",
		Help: "Failed attempts recorded on the jobs the queue still keeps (finished jobs are pruned after a retention period).",
	})
	failed.Set(float64(c.FailedAttempts))
	reg := prometheus.NewRegistry()
	reg.MustRegister(jobs, failed)
	return reg
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// writeError writes the API's error envelope.
func writeError(w http.ResponseWriter, e *radar.Error) {
	writeJSON(w, radar.StatusOf(e.Code), struct {
		Err *radar.Error `json:"error"`
	}{e})
}
