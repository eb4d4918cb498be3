package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newTestClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	cfg.AllowPrivate = true
	c := New(cfg)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func newServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// testClock is a settable clock for the robots.txt cache.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestGetReturnsPage(t *testing.T) {
	var gotUA, gotAccept, gotAuth string
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		gotUA, gotAccept, gotAuth = r.UserAgent(), r.Header.Get("Accept"), r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"abc"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		fmt.Fprint(w, "<h1>Acme</h1>")
	}))
	c := newTestClient(t, Config{})

	resp, err := c.Get(context.Background(), Request{
		URL:    srv.URL + "/about",
		Header: http.Header{"Accept": {"text/html"}, "Authorization": {"Bearer t"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Response{
		URL:          srv.URL + "/about",
		StatusCode:   http.StatusOK,
		Body:         []byte("<h1>Acme</h1>"),
		ContentType:  "text/html; charset=utf-8",
		ETag:         `"abc"`,
		LastModified: "Mon, 02 Jan 2006 15:04:05 GMT",
	}
	if resp.URL != want.URL || resp.StatusCode != want.StatusCode || !bytes.Equal(resp.Body, want.Body) ||
		resp.ContentType != want.ContentType || resp.ETag != want.ETag || resp.LastModified != want.LastModified || resp.NotModified {
		t.Errorf("got %+v, want %+v", *resp, want)
	}
	if resp.Header.Get("Content-Type") != want.ContentType {
		t.Errorf("got header Content-Type %q, want %q", resp.Header.Get("Content-Type"), want.ContentType)
	}
	if gotUA != DefaultUserAgent {
		t.Errorf("server saw User-Agent %q, want %q", gotUA, DefaultUserAgent)
	}
	if gotAccept != "text/html" || gotAuth != "Bearer t" {
		t.Errorf("server saw Accept %q Authorization %q, want %q %q", gotAccept, gotAuth, "text/html", "Bearer t")
	}
}

func TestGetStatusError(t *testing.T) {
	tests := map[string]int{
		"not found":    http.StatusNotFound,
		"forbidden":    http.StatusForbidden,
		"server error": http.StatusInternalServerError,
		"rate limited": http.StatusTooManyRequests,
	}
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.WriteHeader(code)
	}))
	c := newTestClient(t, Config{})
	for name, code := range tests {
		t.Run(name, func(t *testing.T) {
			u := fmt.Sprintf("%s/status?code=%d", srv.URL, code)
			_, err := c.Get(context.Background(), Request{URL: u, IgnoreRobots: true})
			if !errors.Is(err, ErrStatus) {
				t.Fatalf("got %v, want %v", err, ErrStatus)
			}
			var se *StatusError
			if !errors.As(err, &se) {
				t.Fatalf("got %T, want *StatusError", err)
			}
			if se.Code != code || se.URL != u {
				t.Errorf("got StatusError{%d, %s}, want {%d, %s}", se.Code, se.URL, code, u)
			}
		})
	}
}

func TestGetRedirectLimit(t *testing.T) {
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), http.StatusFound)
			return
		}
		fmt.Fprint(w, "landed")
	}))
	c := newTestClient(t, Config{})
	tests := map[string]struct {
		redirects int
		want      error
	}{
		"no redirect":   {0, nil},
		"5 redirects":   {5, nil},
		"6 redirects":   {6, ErrTooManyRedirects},
		"20 redirects":  {20, ErrTooManyRedirects},
		"one redirect":  {1, nil},
		"four redirect": {4, nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := c.Get(context.Background(), Request{URL: fmt.Sprintf("%s/r/%d", srv.URL, tt.redirects)})
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want success", err)
			}
			if resp.URL != srv.URL+"/r/0" || string(resp.Body) != "landed" {
				t.Errorf("got URL %s body %q, want %s %q", resp.URL, resp.Body, srv.URL+"/r/0", "landed")
			}
		})
	}
}

func TestGetBodyCap(t *testing.T) {
	const limit = 1000
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		body := bytes.Repeat([]byte("a"), n)
		switch r.URL.Query().Get("mode") {
		case "chunked":
			w.(http.Flusher).Flush()
		case "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write(body)
			zw.Close()
			return
		default:
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		w.Write(body)
	}))
	c := newTestClient(t, Config{MaxBytes: limit})
	tests := map[string]struct {
		n    int
		mode string
		want error
	}{
		"at the cap with length":      {limit, "", nil},
		"at the cap chunked":          {limit, "chunked", nil},
		"one over with length":        {limit + 1, "", ErrTooLarge},
		"one over chunked":            {limit + 1, "chunked", ErrTooLarge},
		"far over chunked":            {50 * limit, "chunked", ErrTooLarge},
		"gzip within the cap":         {limit, "gzip", nil},
		"gzip expanding past the cap": {100 * limit, "gzip", ErrTooLarge},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := c.Get(context.Background(), Request{
				URL:          fmt.Sprintf("%s/?n=%d&mode=%s", srv.URL, tt.n, tt.mode),
				IgnoreRobots: true,
			})
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want success", err)
			}
			if len(resp.Body) != tt.n {
				t.Errorf("got %d bytes, want %d", len(resp.Body), tt.n)
			}
		})
	}
}

// robotsServer serves robots.txt with the given status and body, counting fetches.
func robotsServer(t *testing.T, status int, robots string) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	t.Helper()
	var robotsHits, pageHits atomic.Int64
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			robotsHits.Add(1)
			w.WriteHeader(status)
			fmt.Fprint(w, robots)
		case "/to-private":
			pageHits.Add(1)
			http.Redirect(w, r, "/private/page", http.StatusFound)
		default:
			pageHits.Add(1)
			fmt.Fprint(w, "page")
		}
	}))
	return srv, &robotsHits, &pageHits
}

func TestGetRobots(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /\n\nUser-agent: RadarBot\nDisallow: /private\nAllow: /\n"
	tests := map[string]struct {
		status       int
		robots       string
		userAgent    string
		path         string
		ignoreRobots bool
		want         error
	}{
		"allowed path":                      {200, rules, "", "/public", false, nil},
		"disallowed path":                   {200, rules, "", "/private/page", false, ErrRobots},
		"disallowed path with query":        {200, rules, "", "/private?id=1", false, ErrRobots},
		"redirect into a disallowed path":   {200, rules, "", "/to-private", false, ErrRobots},
		"disallowed path ignored for APIs":  {200, rules, "", "/private/page", true, nil},
		"other agent falls under the star":  {200, rules, "OtherBot/2.0", "/public", false, ErrRobots},
		"agent token matched ignoring case": {200, rules, "radarbot/9", "/private/page", false, ErrRobots},
		"missing robots.txt allows all":     {404, "", "", "/private/page", false, nil},
		"server error allows all":           {503, "", "", "/private/page", false, nil},
		"empty robots.txt allows all":       {200, "", "", "/private/page", false, nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			srv, _, pageHits := robotsServer(t, tt.status, tt.robots)
			c := newTestClient(t, Config{UserAgent: tt.userAgent})
			_, err := c.Get(context.Background(), Request{URL: srv.URL + tt.path, IgnoreRobots: tt.ignoreRobots})
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v, want success", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.path != "/to-private" && pageHits.Load() != 0 {
				t.Errorf("server served the disallowed page %d times, want 0", pageHits.Load())
			}
		})
	}
}

func TestGetRobotsUnreachableAllowsAll(t *testing.T) {
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		fmt.Fprint(w, "page")
	}))
	c := newTestClient(t, Config{})
	resp, err := c.Get(context.Background(), Request{URL: srv.URL + "/news"})
	if err != nil {
		t.Fatalf("got %v, want success", err)
	}
	if string(resp.Body) != "page" {
		t.Errorf("got body %q, want %q", resp.Body, "page")
	}
}

func TestGetRobotsCache(t *testing.T) {
	tests := map[string]struct {
		status int
		robots string
	}{
		"rules file":   {200, "User-agent: *\nDisallow: /private\n"},
		"missing file": {404, ""},
		"server error": {500, ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			srv, robotsHits, _ := robotsServer(t, tt.status, tt.robots)
			other, otherHits, _ := robotsServer(t, 404, "")
			clock := &testClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			c := newTestClient(t, Config{RobotsTTL: time.Hour, Now: clock.Now})

			var wg sync.WaitGroup
			for i := range 6 {
				wg.Go(func() {
					if _, err := c.Get(context.Background(), Request{URL: fmt.Sprintf("%s/page/%d", srv.URL, i)}); err != nil {
						t.Errorf("page %d: %v", i, err)
					}
				})
			}
			wg.Wait()
			if got := robotsHits.Load(); got != 1 {
				t.Fatalf("robots.txt fetched %d times for concurrent pages, want 1", got)
			}

			clock.Advance(59 * time.Minute)
			if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/later"}); err != nil {
				t.Fatal(err)
			}
			if got := robotsHits.Load(); got != 1 {
				t.Fatalf("robots.txt fetched %d times within the TTL, want 1", got)
			}

			clock.Advance(2 * time.Minute)
			if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/expired"}); err != nil {
				t.Fatal(err)
			}
			if got := robotsHits.Load(); got != 2 {
				t.Fatalf("robots.txt fetched %d times after the TTL, want 2", got)
			}

			clock.Advance(2 * time.Hour)
			if _, err := c.Get(context.Background(), Request{URL: other.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			if got := otherHits.Load(); got != 1 {
				t.Fatalf("second site's robots.txt fetched %d times, want 1", got)
			}
			c.robots.mu.Lock()
			entries := len(c.robots.entries)
			c.robots.mu.Unlock()
			if entries != 1 {
				t.Errorf("robots cache holds %d sites after the first expired, want 1", entries)
			}
		})
	}
}

func TestGetConditional(t *testing.T) {
	const etag = `"v1"`
	const lastMod = "Tue, 03 Feb 2026 10:00:00 GMT"
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag || r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		fmt.Fprint(w, "<rss/>")
	}))
	c := newTestClient(t, Config{})
	ctx := context.Background()

	first, err := c.Get(ctx, Request{URL: srv.URL + "/feed.xml", IgnoreRobots: true})
	if err != nil {
		t.Fatal(err)
	}
	if first.NotModified || first.ETag != etag || first.LastModified != lastMod || string(first.Body) != "<rss/>" {
		t.Fatalf("first fetch: got NotModified=%v ETag=%q LastModified=%q body %q, want false %q %q %q",
			first.NotModified, first.ETag, first.LastModified, first.Body, etag, lastMod, "<rss/>")
	}

	tests := map[string]Request{
		"etag":          {ETag: first.ETag},
		"last modified": {LastModified: first.LastModified},
		"both":          {ETag: first.ETag, LastModified: first.LastModified},
	}
	for name, req := range tests {
		t.Run(name, func(t *testing.T) {
			req.URL = srv.URL + "/feed.xml"
			req.IgnoreRobots = true
			resp, err := c.Get(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !resp.NotModified || resp.StatusCode != http.StatusNotModified || len(resp.Body) != 0 {
				t.Errorf("got NotModified=%v status %d body %q, want true 304 empty", resp.NotModified, resp.StatusCode, resp.Body)
			}
			if resp.ETag != req.ETag || resp.LastModified != req.LastModified {
				t.Errorf("got validators %q %q, want %q %q", resp.ETag, resp.LastModified, req.ETag, req.LastModified)
			}
		})
	}
}

func TestGetPerHostConcurrency(t *testing.T) {
	const limit, requests = 2, 8
	var inFlight, maxInFlight atomic.Int64
	arrived := make(chan struct{})
	gate := make(chan struct{})
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		arrived <- struct{}{}
		<-gate
		inFlight.Add(-1)
		fmt.Fprint(w, "ok")
	}))
	c := newTestClient(t, Config{PerHostConcurrency: limit})

	errs := make(chan error, requests)
	for i := range requests {
		go func() {
			_, err := c.Get(context.Background(), Request{URL: fmt.Sprintf("%s/%d", srv.URL, i), IgnoreRobots: true})
			errs <- err
		}()
	}
	for range limit {
		<-arrived
	}
	for range requests - limit {
		gate <- struct{}{}
		<-arrived
	}
	for range limit {
		gate <- struct{}{}
	}
	for range requests {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := maxInFlight.Load(); got != limit {
		t.Errorf("got at most %d requests in flight, want %d", got, limit)
	}
	if got := c.limiter.inUse(); got != 0 {
		t.Errorf("limiter still tracks %d hosts after all requests ended, want 0", got)
	}
}

func TestGetTimeout(t *testing.T) {
	stop := make(chan struct{})
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall-body" {
			w.Header().Set("Content-Length", "100")
			fmt.Fprint(w, "partial")
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(func() { close(stop) })
	c := newTestClient(t, Config{Timeout: 50 * time.Millisecond})
	for _, path := range []string{"/no-headers", "/stall-body"} {
		t.Run(path, func(t *testing.T) {
			_, err := c.Get(context.Background(), Request{URL: srv.URL + path, IgnoreRobots: true})
			if !IsTimeout(err) {
				t.Fatalf("got %v, want a timeout", err)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("got %v, want it to wrap %v", err, context.DeadlineExceeded)
			}
		})
	}
}

func TestGetCallerCancel(t *testing.T) {
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	}))
	c := newTestClient(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Get(ctx, Request{URL: srv.URL + "/"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want %v", err, context.Canceled)
	}
	if IsTimeout(err) {
		t.Errorf("IsTimeout(%v): got true, want false", err)
	}
}

func BenchmarkGet(b *testing.B) {
	srv := newServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><h1>Acme</h1><p>News.</p></body></html>")
	}))
	c := newTestClient(b, Config{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Get(ctx, Request{URL: srv.URL + "/news"}); err != nil {
			b.Fatal(err)
		}
	}
}
