// Package apitest starts a real Radar API server for a test, on a fresh database of one engine, with two
// organisations, a way to issue API keys of chosen scopes, and a small JSON client. REST, MCP and web UI tests
// share it.
package apitest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"radar"
	"radar/internal/api"
	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/taxonomy"
)

// Secret signs the cursors of every Env, and BaseURL is the public address in its links.
const (
	Secret  = "apitest-secret"
	BaseURL = "http://radar.test"
)

// Options change how Start builds the server; the zero value is what most tests want.
type Options struct {
	// Buckets replace the rate limits; nil means limits so large that no test reaches them.
	Buckets map[string]ratelimit.Bucket
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
	// Enricher, when set, serves draft enrichment (POST /api/v1/tracker/enrich).
	Enricher service.DraftEnricher
	// Store, when set, wraps the database the service uses, e.g. to make one of its methods fail.
	Store func(radar.Store) radar.Store
	// Compile, when set, compiles alert rules into policies (tracker.Compile); nil keeps policies without
	// rules, still versioned.
	Compile func(thingsToTrack string) radar.Policy
	// Classifier, when set, resolves sector terms instead of the built-in classifier.
	Classifier taxonomy.Classifier
	// Configure, when set, may change the server's configuration before the server is built, e.g. to mount
	// the MCP or web handler made from env.Service and env.Limiter.
	Configure func(env *Env, cfg *api.Config)
	// PublicWebsitesOnly refuses websites the guarded fetcher cannot reach, as a server without
	// RADAR_FETCH_ALLOW_PRIVATE does; by default tests allow them, since their websites are local servers.
	PublicWebsitesOnly bool
	// DatabaseURL, when set, rewrites the fresh database's URL before the server connects to it, e.g. to
	// reach PostgreSQL through a Proxy.
	DatabaseURL func(url string) string
}

// Env is a running API server on a fresh database.
type Env struct {
	Engine  string
	DB      *sqldb.DB
	Service *service.Service
	Limiter *ratelimit.Limiter
	Server  *api.Server
	HTTP    *httptest.Server
	// URL is the server's base address, without a trailing slash.
	URL string
	// Clock is the service's clock; tests move it to expire keys.
	Clock *Clock
	// OrgA and OrgB are two organisations; nothing of one is visible with a key of the other.
	OrgA, OrgB *radar.Org
	// Check, when set, is called with every response the client receives (e.g. to validate it against the
	// OpenAPI document). It may be called from several goroutines at once.
	Check func(t testing.TB, req *http.Request, res *Response)

	conformOnce sync.Once
	checker     *Conformance

	dbURL  string
	client *http.Client
	rawMu  sync.Mutex
	raw    *sql.DB
}

// Unlimited returns rate limits that no test reaches.
func Unlimited() map[string]ratelimit.Bucket {
	b := ratelimit.Defaults()
	for name, v := range b {
		v.Limit = 1 << 30
		b[name] = v
	}
	return b
}

// Start serves the API on a fresh database of engine with the default Options.
func Start(t testing.TB, engine string) *Env {
	t.Helper()
	return StartWith(t, engine, Options{})
}

// StartWith serves the API on a fresh database of engine; everything is closed when the test ends.
func StartWith(t testing.TB, engine string, o Options) *Env {
	t.Helper()
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Buckets == nil {
		o.Buckets = Unlimited()
	}
	url := databaseURL(t, engine)
	if o.DatabaseURL != nil {
		url = o.DatabaseURL(url)
	}
	db, err := sqldb.Open(context.Background(), url, sqldb.Options{Logger: o.Logger})
	if err != nil {
		t.Fatalf("open %s store: %v", engine, err)
	}
	env := &Env{Engine: engine, DB: db, Clock: &Clock{}, dbURL: url}
	var store radar.Store = db
	if o.Store != nil {
		store = o.Store(db)
	}
	env.Service = service.New(service.Config{
		Store: store, BaseURL: BaseURL, Secret: []byte(Secret), Clock: env.Clock.Now,
		Logger: o.Logger, Compile: o.Compile, Enricher: o.Enricher, Classifier: o.Classifier,
		FetchAllowPrivate: !o.PublicWebsitesOnly,
	})
	env.Limiter = ratelimit.New(ratelimit.Config{Buckets: o.Buckets, Logger: o.Logger})
	cfg := api.Config{Service: env.Service, Limiter: env.Limiter, Logger: o.Logger}
	if o.Configure != nil {
		o.Configure(env, &cfg)
	}
	env.Server = api.New(cfg)
	env.HTTP = httptest.NewUnstartedServer(env.Server)
	env.HTTP.Listener = api.Listener(env.HTTP.Listener)
	env.HTTP.Start()
	env.URL = env.HTTP.URL
	env.client = env.HTTP.Client()
	t.Cleanup(func() {
		env.HTTP.Close()
		env.rawMu.Lock()
		if env.raw != nil {
			env.raw.Close()
		}
		env.rawMu.Unlock()
		db.Close()
	})
	env.OrgA = env.org(t, "org-a")
	env.OrgB = env.org(t, "org-b")
	return env
}

// databaseURL returns a fresh, empty, isolated database of engine. A SQLite database is a copy of one
// migrated once per test process: migrating costs far more than copying, above all under the race detector.
func databaseURL(t testing.TB, engine string) string {
	t.Helper()
	if engine != sqldb.SQLite {
		return storetest.URL(t, engine)
	}
	data, err := migratedSQLite()
	if err != nil {
		t.Fatalf("migrate a SQLite database: %v", err)
	}
	path := filepath.Join(t.TempDir(), "radar.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatalf("copy the migrated SQLite database: %v", err)
	}
	return "sqlite:" + path
}

// migratedSQLite returns the file of a freshly migrated SQLite database.
var migratedSQLite = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "radar-apitest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "radar.db")
	db, err := sqldb.Open(context.Background(), "sqlite:"+path, sqldb.Options{})
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, errors.New("the write-ahead log was not folded into the database on close")
	}
	return os.ReadFile(path)
})

func (e *Env) org(t testing.TB, slug string) *radar.Org {
	t.Helper()
	o, err := e.Service.CreateOrg(context.Background(), slug, strings.ToUpper(slug))
	if err != nil {
		t.Fatalf("create organisation %s: %v", slug, err)
	}
	return o
}

// Key issues an API key of org with scopes, all four when none are given, and returns its secret.
func (e *Env) Key(t testing.TB, org *radar.Org, scopes ...string) string {
	t.Helper()
	return e.KeyExpiring(t, org, 0, scopes...)
}

// KeyExpiring issues a key that expires after d on the Env's clock (never when d is 0).
func (e *Env) KeyExpiring(t testing.TB, org *radar.Org, d time.Duration, scopes ...string) string {
	t.Helper()
	if len(scopes) == 0 {
		scopes = radar.Scopes
	}
	k, err := e.Service.CreateKey(context.Background(), org.ID, "test key", scopes, d)
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	return k.Secret
}

// Revoke revokes the key whose secret is key.
func (e *Env) Revoke(t testing.TB, key string) {
	t.Helper()
	if err := e.Service.RevokeKeyByID(context.Background(), KeyID(key)); err != nil {
		t.Fatalf("revoke key: %v", err)
	}
}

// KeyID returns the id part of an API key secret (rdr_<id>_<secret>).
func KeyID(key string) string {
	parts := strings.SplitN(key, "_", 3)
	if len(parts) != 3 {
		return ""
	}
	return parts[1]
}

// Request is one request of the client.
type Request struct {
	Method string
	// Path is the path and query, e.g. /api/v1/tracker?limit=5.
	Path string
	// Key is sent as a bearer token when not empty.
	Key string
	// Body is sent as is when it is []byte, string or an io.Reader (of unknown length), else encoded as JSON;
	// nil sends no body.
	Body any
	// Header holds extra headers; a Content-Type here replaces application/json.
	Header http.Header
}

// Response is a response as the client received it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// JSON is the decoded body, nil when the body is empty or not JSON.
	JSON any
}

// Do sends a request and fails the test when the server cannot be reached.
func (e *Env) Do(t testing.TB, method, path, key string, body any) *Response {
	t.Helper()
	return e.Send(t, Request{Method: method, Path: path, Key: key, Body: body})
}

// Send sends r and fails the test when the server cannot be reached.
func (e *Env) Send(t testing.TB, r Request) *Response {
	t.Helper()
	res, err := e.Try(t, r)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	return res
}

// Try sends r and returns the transport error instead of failing; goroutines of a test use it.
func (e *Env) Try(t testing.TB, r Request) (*Response, error) {
	req, err := e.NewRequest(r)
	if err != nil {
		return nil, err
	}
	hres, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer hres.Body.Close()
	b, err := io.ReadAll(hres.Body)
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	res := &Response{Status: hres.StatusCode, Header: hres.Header, Body: b}
	if len(b) > 0 {
		var v any
		if json.Unmarshal(b, &v) == nil {
			res.JSON = v
		}
	}
	e.checkConformance(t, r, req, res)
	if e.Check != nil {
		e.Check(t, req, res)
	}
	return res, nil
}

// Try and Serve check every exchange under /api/v1 against the served OpenAPI document (see Conformance).

// Serve runs r through the server's handler in process, without the network: faster for tests that send
// many requests, and the same middleware, routing and checks.
func (e *Env) Serve(t testing.TB, r Request) *Response {
	t.Helper()
	req, err := e.NewRequest(r)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	res := &Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if len(res.Body) > 0 {
		var v any
		if json.Unmarshal(res.Body, &v) == nil {
			res.JSON = v
		}
	}
	e.checkConformance(t, r, req, res)
	if e.Check != nil {
		e.Check(t, req, res)
	}
	return res
}

// NewRequest builds the *http.Request of r against the Env's server.
func (e *Env) NewRequest(r Request) (*http.Request, error) {
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		body = bytes.NewReader(b)
	case string:
		body = strings.NewReader(b)
	case io.Reader:
		body = b
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("encode body: %w", err)
		}
		body = bytes.NewReader(j)
	}
	req, err := http.NewRequest(r.Method, e.URL+r.Path, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Key != "" {
		req.Header.Set("Authorization", "Bearer "+r.Key)
	}
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	return req, nil
}

// Object returns the body as a JSON object, or an empty one.
func (r *Response) Object() map[string]any {
	m, _ := r.JSON.(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

// Data returns the object under "data", or an empty one.
func (r *Response) Data() map[string]any {
	m, _ := r.Object()["data"].(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

// Items returns the array under "data" of a list, as objects.
func (r *Response) Items() []map[string]any {
	arr, _ := r.Object()["data"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, v := range arr {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out
}

// NextCursor returns the list's nextCursor, "" when it is null.
func (r *Response) NextCursor() string {
	s, _ := r.Object()["nextCursor"].(string)
	return s
}

// Err returns the decoded error envelope, or nil when the body is not one.
func (r *Response) Err() *radar.Error {
	var env struct {
		Error *radar.Error `json:"error"`
	}
	if json.Unmarshal(r.Body, &env) != nil {
		return nil
	}
	return env.Error
}

// Code returns error.code of the envelope, "" when there is none.
func (r *Response) Code() string {
	if e := r.Err(); e != nil {
		return e.Code
	}
	return ""
}

// Decode decodes the body into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

func (r *Response) String() string {
	return fmt.Sprintf("%d %s", r.Status, r.Body)
}

// Clock is a clock that runs with real time, shifted by what a test adds.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
}

// Now returns the shifted time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// SQL returns a plain connection pool to the Env's database, for tests that check what the store holds
// beyond its methods (such as the job queue).
func (e *Env) SQL(t testing.TB) *sql.DB {
	t.Helper()
	e.rawMu.Lock()
	defer e.rawMu.Unlock()
	if e.raw != nil {
		return e.raw
	}
	var (
		db  *sql.DB
		err error
	)
	if path, ok := strings.CutPrefix(e.dbURL, "sqlite:"); ok {
		db, err = sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	} else {
		var cfg *pgx.ConnConfig
		if cfg, err = pgx.ParseConfig(e.dbURL); err == nil {
			db = stdlib.OpenDB(*cfg)
		}
	}
	if err != nil {
		t.Fatalf("open %s database: %v", e.Engine, err)
	}
	e.raw = db
	return db
}

// Count returns the number of rows of table matching where ("" for all), with $n arguments.
func (e *Env) Count(t testing.TB, table, where string, args ...any) int {
	t.Helper()
	q := "SELECT count(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	var n int
	if err := e.SQL(t).QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}
