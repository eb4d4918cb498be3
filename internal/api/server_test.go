package api_test

import (
	"context"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar"
	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/mcp"
	"radar/internal/ratelimit"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// TestUnknownRoutesAndMethods checks the API's own 404 and 405 answers, on the API alone and with the MCP
// endpoint, operations and the web UI mounted as in production (the web UI takes every other path).
func TestUnknownRoutesAndMethods(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		t.Run("api alone", func(t *testing.T) { testUnknownRoutes(t, start(t, engine)) })
		t.Run("as in production", func(t *testing.T) {
			env := startWith(t, engine, apitest.Options{Configure: func(env *apitest.Env, cfg *api.Config) {
				cfg.MCP = mcp.NewHandler(env.Service, env.Limiter, nil)
				cfg.Ops = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
				cfg.Web = web.NewHandler(web.Config{Service: env.Service, Outbox: env.DB, BaseURL: apitest.BaseURL})
			}})
			testUnknownRoutes(t, env)
			// Outside /api/ the web UI answers as before: a page that needs a session sends the browser to sign in.
			req, _ := http.NewRequest(http.MethodGet, env.URL+"/no-such-page", nil)
			res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode == http.StatusOK || strings.Contains(res.Header.Get("Content-Type"), "application/json") {
				t.Errorf("GET /no-such-page: %d %s, want the web UI's answer", res.StatusCode, res.Header.Get("Content-Type"))
			}
		})
	})
}

func testUnknownRoutes(t *testing.T, env *apitest.Env) {
	{
		key := env.Key(t, env.OrgA)
		id := create(t, env, key, "Northwind")
		for name, c := range map[string]struct {
			method, path string
			status       int
			code, allow  string
		}{
			"unknown path":              {http.MethodGet, "/api/v1/companies", 404, radar.ENotFound, ""},
			"unknown version":           {http.MethodGet, "/api/v2/tracker", 404, radar.ENotFound, ""},
			"unknown sub-resource":      {http.MethodGet, "/api/v1/tracker/" + id + "/history", 404, radar.ENotFound, ""},
			"api root":                  {http.MethodGet, "/api/", 404, radar.ENotFound, ""},
			"no such resource":          {http.MethodGet, "/api/v1/no-such-resource", 404, radar.ENotFound, ""},
			"POST on an unknown path":   {http.MethodPost, "/api/v1/no-such-resource", 404, radar.ENotFound, ""},
			"PUT on an entity":          {http.MethodPut, "/api/v1/tracker/" + id, 405, radar.EMethodNotAllowed, "DELETE"},
			"DELETE on the list":        {http.MethodDelete, "/api/v1/tracker", 405, radar.EMethodNotAllowed, "POST"},
			"GET on refresh":            {http.MethodGet, "/api/v1/tracker/" + id + "/refresh", 405, radar.EMethodNotAllowed, "POST"},
			"POST on a signal":          {http.MethodPost, "/api/v1/signals/" + radarUUID, 405, radar.EMethodNotAllowed, "GET"},
			"PATCH on the openapi path": {http.MethodPatch, "/api/v1/openapi", 405, radar.EMethodNotAllowed, "GET"},
		} {
			t.Run(name, func(t *testing.T) {
				for _, k := range []string{key, ""} {
					res := env.Do(t, c.method, c.path, k, nil)
					wantError(t, res, c.status, c.code)
					if ct := res.Header.Get("Content-Type"); ct != "application/json" {
						t.Errorf("Content-Type = %q, want application/json", ct)
					}
					if c.allow != "" && !strings.Contains(res.Header.Get("Allow"), c.allow) {
						t.Errorf("Allow = %q, want it to list %s", res.Header.Get("Allow"), c.allow)
					}
				}
			})
		}
	}
}

func TestRequestID(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		seen := map[string]bool{}
		for _, r := range []apitest.Request{
			{Method: http.MethodGet, Path: "/api/v1/tracker", Key: key},
			{Method: http.MethodGet, Path: "/api/v1/tracker"},
			{Method: http.MethodGet, Path: "/api/v1/openapi"},
			{Method: http.MethodGet, Path: "/api/v1/nowhere", Key: key},
			{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key, Body: "{"},
			{Method: http.MethodGet, Path: "/api/v1/tracker/" + radarUUID, Key: key},
		} {
			res := env.Send(t, r)
			id := res.Header.Get("X-Request-Id")
			if id == "" || seen[id] {
				t.Errorf("%s %s: X-Request-Id %q is missing or repeated", r.Method, r.Path, id)
			}
			seen[id] = true
		}
		res := env.Send(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: key, Header: http.Header{"X-Request-Id": {"client-chosen-42"}}})
		if got := res.Header.Get("X-Request-Id"); got != "client-chosen-42" {
			t.Errorf("X-Request-Id = %q, want the client's id echoed", got)
		}
		res = env.Send(t, apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: key, Header: http.Header{"X-Request-Id": {strings.Repeat("x", 65)}}})
		if got := res.Header.Get("X-Request-Id"); got == "" || len(got) > 64 {
			t.Errorf("an overlong client id gave X-Request-Id %q, want a fresh one", got)
		}
	})
}

// failingEntities is a store whose entity list fails the way a broken database would.
type failingEntities struct{ radar.Store }

func (failingEntities) Entities(context.Context, radar.EntityFilter) ([]*radar.Entity, error) {
	return nil, errors.New("sqldb: entities: disk I/O error at /var/lib/radar/radar.db")
}

// slowEntities reads entities only after the request has ended, as a slow database would.
type slowEntities struct{ radar.Store }

func (slowEntities) Entities(ctx context.Context, _ radar.EntityFilter) ([]*radar.Entity, error) {
	<-ctx.Done()
	return nil, fmt.Errorf("sqldb: entities: %w", context.Canceled)
}

// wantInternal checks a 500 envelope: internal_error, the request id in the message, nothing of the cause.
func wantInternal(t *testing.T, res *apitest.Response, secrets ...string) {
	t.Helper()
	wantError(t, res, http.StatusInternalServerError, radar.EInternal)
	id := res.Header.Get("X-Request-Id")
	if e := res.Err(); e == nil || id == "" || !strings.Contains(e.Message, id) {
		t.Errorf("500 message does not quote the request id %q: %s", id, res.Body)
	}
	for _, s := range append(secrets, "goroutine", ".go:", "panic", "runtime.") {
		if strings.Contains(string(res.Body), s) {
			t.Errorf("500 body shows %q: %s", s, res.Body)
		}
	}
}

func TestInternalErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		t.Run("store fails in a handler", func(t *testing.T) {
			logs := &apitest.Buffer{}
			env := startWith(t, engine, apitest.Options{
				Logger: slog.New(slog.NewTextHandler(logs, nil)),
				Store:  func(db radar.Store) radar.Store { return failingEntities{db} },
			})
			res := env.Do(t, http.MethodGet, "/api/v1/tracker", env.Key(t, env.OrgA), nil)
			wantInternal(t, res, "disk I/O", "/var/lib")
			if id := res.Header.Get("X-Request-Id"); !strings.Contains(logs.String(), id) || !strings.Contains(logs.String(), "disk I/O") {
				t.Errorf("the cause is not logged with the request id %s: %s", id, logs.String())
			}
		})
		t.Run("client gone", func(t *testing.T) {
			// A client that hangs up while its list is read: nobody is told of an internal error, and the
			// metrics record 499, not 500.
			logs := &apitest.Buffer{}
			var mu sync.Mutex
			var statuses []int
			env := startWith(t, engine, apitest.Options{
				Logger: slog.New(slog.NewTextHandler(logs, nil)),
				Store:  func(db radar.Store) radar.Store { return slowEntities{db} },
				Configure: func(_ *apitest.Env, cfg *api.Config) {
					cfg.Observe = func(route string, status int, d time.Duration) {
						mu.Lock()
						statuses = append(statuses, status)
						mu.Unlock()
					}
				},
			})
			req, err := env.NewRequest(apitest.Request{Method: http.MethodGet, Path: "/api/v1/tracker", Key: env.Key(t, env.OrgA)})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(req.Context())
			defer cancel()
			time.AfterFunc(50*time.Millisecond, cancel)
			rec := httptest.NewRecorder()
			env.Server.ServeHTTP(rec, req.WithContext(ctx))
			mu.Lock()
			defer mu.Unlock()
			if len(statuses) != 1 || statuses[0] != 499 {
				t.Errorf("observed statuses %v, want [499]", statuses)
			}
			if strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("an abandoned request is logged as an error: %s", logs.String())
			}
		})
		t.Run("store closed under the server", func(t *testing.T) {
			env := start(t, engine)
			key := env.Key(t, env.OrgA)
			id := create(t, env, key, "Northwind")
			env.DB.Close()
			for _, r := range []struct{ method, path string }{
				{http.MethodGet, "/api/v1/tracker"},
				{http.MethodGet, "/api/v1/tracker/" + id},
				{http.MethodPost, "/api/v1/tracker"},
			} {
				var body any
				if r.method == http.MethodPost {
					body = apitest.CreateBody("Contoso")
				}
				wantInternal(t, env.Do(t, r.method, r.path, key, body), "sql", "closed")
			}
			wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/openapi", "", nil), http.StatusOK)
		})
		t.Run("panic", func(t *testing.T) {
			env := startWith(t, engine, apitest.Options{Configure: func(_ *apitest.Env, cfg *api.Config) {
				cfg.Web = http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
					panic("template exploded at web/page.go:12")
				})
			}})
			res := env.Do(t, http.MethodGet, "/dashboard", "", nil)
			wantInternal(t, res, "template exploded")
			wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/tracker", env.Key(t, env.OrgA), nil), http.StatusOK)
		})
	})
}

// Only a key's holder spends its budget: requests that name the key with another secret are refused without
// counting, even once the key is known to the process. On PostgreSQL the counts are in Redis when
// RADAR_TEST_REDIS_URL is set, as in production, where a known key's count starts before its read.
func TestForgedKeysSpendNoBudget(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		buckets := apitest.Unlimited()
		buckets[ratelimit.Read] = ratelimit.Bucket{Name: ratelimit.Read, Limit: 3, Window: time.Hour}
		o := apitest.Options{Buckets: buckets}
		if u := os.Getenv("RADAR_TEST_REDIS_URL"); u != "" && engine == sqldb.Postgres {
			opts, err := ratelimit.ParseRedisURL(u)
			if err != nil {
				t.Fatal(err)
			}
			client := redis.NewClient(opts)
			t.Cleanup(func() { client.Close() })
			o.Configure = func(_ *apitest.Env, cfg *api.Config) {
				cfg.Limiter = ratelimit.New(ratelimit.Config{Store: ratelimit.NewRedis(client), Buckets: buckets,
					Prefix: "radar:forged:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"})
			}
		}
		env := startWith(t, engine, o)
		key := env.Key(t, env.OrgA)
		wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil), http.StatusOK)
		forged := forgeSecret(key)
		for range 5 {
			wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker", forged, nil), http.StatusUnauthorized, radar.EUnauthorized)
		}
		for range 2 {
			wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil), http.StatusOK)
		}
		wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil), http.StatusTooManyRequests, radar.ERateLimited)
		id := strings.Split(key, "_")[1]
		if err := env.Service.RevokeKey(context.Background(), env.OrgA.ID, id); err != nil {
			t.Fatal(err)
		}
		wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil), http.StatusUnauthorized, radar.EUnauthorized)
	})
}

// forgeSecret returns key with another secret of the right form and check, so that only the secret's hash
// tells it from the key.
func forgeSecret(key string) string {
	const secretAt, secretLen = len("rdr_abcdefghijkl_"), 32
	secret := []byte(key[secretAt : secretAt+secretLen])
	secret[0] = map[bool]byte{true: 'b', false: 'a'}[secret[0] == 'a']
	b32 := base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
	sum := binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(secret))
	return key[:secretAt] + string(secret) + b32.EncodeToString(sum)[:7]
}

func TestRateLimited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		buckets := apitest.Unlimited()
		buckets[ratelimit.Create] = ratelimit.Bucket{Name: ratelimit.Create, Limit: 2, Window: time.Hour}
		env := startWith(t, engine, apitest.Options{Buckets: buckets})
		key := env.Key(t, env.OrgA)
		for i := range 2 {
			wantStatus(t, env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Company "+strconv.Itoa(i))), http.StatusCreated)
		}
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Company 3"))
		wantError(t, res, http.StatusTooManyRequests, radar.ERateLimited)
		retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
		if err != nil || retry < 1 || retry > 3600 {
			t.Errorf("Retry-After = %q, want whole seconds within the hour", res.Header.Get("Retry-After"))
		}
		if e := res.Err(); e != nil {
			d := e.Details
			if d["bucket"] != "create" || d["limit"] != 2.0 || d["windowSeconds"] != 3600.0 || d["retryAfterSeconds"] != float64(retry) {
				t.Errorf("details = %v", d)
			}
		}
		if n := env.Count(t, "entities", ""); n != 2 {
			t.Errorf("%d entities, want 2: a limited create must not run", n)
		}
		wantStatus(t, env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil), http.StatusOK)
		wantStatus(t, env.Do(t, http.MethodPost, "/api/v1/tracker", env.Key(t, env.OrgA), apitest.CreateBody("Company 4")), http.StatusCreated)
	})
}
