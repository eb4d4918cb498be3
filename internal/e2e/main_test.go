package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// RedisEnv names the variable holding the Redis server used by the tests.
const RedisEnv = "RADAR_TEST_REDIS_URL"

// cluster is the shared set-up: the radar binary, an isolated database schema and two replicas serving it.
type cluster struct {
	bin      string
	dir      string
	base     string
	schema   string
	dbURL    string
	redisURL string
	secret   string
	a, b     *replica
}

// The cluster is built once, by the first test that needs it, and torn down by TestMain.
var (
	setUpOnce sync.Once
	shared    *cluster
	setUpErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.close()
	}
	os.Exit(code)
}

// replicas returns the running cluster, or skips the test when PostgreSQL or Redis is not configured.
func replicas(t *testing.T) *cluster {
	t.Helper()
	pg, rd := os.Getenv(storetest.PostgresEnv), os.Getenv(RedisEnv)
	if pg == "" || rd == "" {
		t.Skipf("replicas need PostgreSQL and Redis: set %s and %s", storetest.PostgresEnv, RedisEnv)
	}
	setUpOnce.Do(func() { shared, setUpErr = setUp(pg, rd) })
	if setUpErr != nil {
		t.Fatalf("set up the replicas: %v", setUpErr)
	}
	return shared
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func setUp(pg, rd string) (*cluster, error) {
	dir, err := os.MkdirTemp("", "radar-e2e-")
	if err != nil {
		return nil, err
	}
	c := &cluster{bin: filepath.Join(dir, "radar"), dir: dir, base: pg, redisURL: rd, secret: randomHex(32)}
	build := exec.Command("go", "build", "-o", c.bin, "radar/cmd/radar")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		c.close()
		return nil, fmt.Errorf("go build: %w\n%s", err, out)
	}
	if c.dbURL, err = c.createSchema(); err != nil {
		c.close()
		return nil, err
	}
	if _, err := c.radar("migrate"); err != nil {
		c.close()
		return nil, err
	}
	for _, r := range []**replica{&c.a, &c.b} {
		if *r, err = c.start(); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// createSchema makes a fresh PostgreSQL schema and returns the database URL that places every table in it.
func (c *cluster) createSchema() (string, error) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.base)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", storetest.PostgresEnv, err)
	}
	defer conn.Close(ctx)
	schema := "e2e_" + randomHex(8)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", fmt.Errorf("create schema: %w", err)
	}
	c.schema = schema
	u, err := url.Parse(c.base)
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", storetest.PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func (c *cluster) close() {
	for _, r := range []*replica{c.a, c.b} {
		if r != nil {
			r.stop()
		}
	}
	if c.schema != "" {
		ctx := context.Background()
		if conn, err := pgx.Connect(ctx, c.base); err == nil {
			conn.Exec(ctx, "DROP SCHEMA "+c.schema+" CASCADE")
			conn.Close(ctx)
		}
	}
	os.RemoveAll(c.dir)
}

// environ is the environment of a radar process of the cluster; later entries of extra override earlier ones.
func (c *cluster) environ(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RADAR_") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"RADAR_ADDR=127.0.0.1:0",
		"RADAR_BASE_URL=http://radar.test",
		"RADAR_DATABASE_URL="+c.dbURL,
		"RADAR_REDIS_URL="+c.redisURL,
		"RADAR_SECRET="+c.secret,
		"RADAR_FETCH_ALLOW_PRIVATE=true",
	)
	return append(env, extra...)
}

// radar runs an administrative command of the binary and returns its standard output.
func (c *cluster) radar(args ...string) (string, error) {
	cmd := exec.Command(c.bin, args...)
	cmd.Env = c.environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("radar %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// tenant creates an organisation with an API key of scopes and returns the key: fresh rate counters too.
func (c *cluster) tenant(t *testing.T, scopes string) string {
	t.Helper()
	slug := "e2e-" + randomHex(4)
	if _, err := c.radar("orgs", "create", slug); err != nil {
		t.Fatal(err)
	}
	out, err := c.radar("keys", "create", "--org", slug, "--name", "e2e", "--scopes", scopes, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var k struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal([]byte(out), &k); err != nil || k.Key == "" {
		t.Fatalf("keys create --json printed %q: %v", out, err)
	}
	return k.Key
}

// replica is one running radar serve process.
type replica struct {
	url  string
	cmd  *exec.Cmd
	log  *logBuffer
	done chan struct{}
	err  error
}

var servingAddr = regexp.MustCompile(`msg="radar serving" addr=(\S+)`)

// start runs radar serve on a free loopback port and waits until it listens.
func (c *cluster) start(extraEnv ...string) (*replica, error) {
	r := &replica{log: &logBuffer{}, done: make(chan struct{})}
	r.cmd = exec.Command(c.bin, "serve")
	r.cmd.Env = c.environ(extraEnv...)
	r.cmd.Stdout = io.Discard
	r.cmd.Stderr = r.log
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start radar serve: %w", err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.done)
	}()
	deadline := time.After(60 * time.Second)
	for {
		if m := servingAddr.FindStringSubmatch(r.log.String()); m != nil {
			r.url = "http://" + m[1]
			return r, nil
		}
		select {
		case <-r.done:
			return nil, fmt.Errorf("radar serve exited (%v) before listening:\n%s", r.err, r.log)
		case <-deadline:
			r.stop()
			return nil, fmt.Errorf("radar serve did not listen within a minute:\n%s", r.log)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// signal sends SIGTERM, as a process manager does to stop a replica.
func (r *replica) signal() error { return r.cmd.Process.Signal(syscall.SIGTERM) }

// wait returns the exit of the process, killing it when it has not stopped within a minute.
func (r *replica) wait() error {
	select {
	case <-r.done:
		return r.err
	case <-time.After(time.Minute):
		r.cmd.Process.Kill()
		<-r.done
		return fmt.Errorf("radar serve did not stop within a minute after SIGTERM, killed: %w", r.err)
	}
}

// stop ends the process gracefully and returns how it exited.
func (r *replica) stop() error {
	select {
	case <-r.done:
		return r.err
	default:
	}
	r.signal()
	return r.wait()
}

// waitLog waits until the process has logged s.
func (r *replica) waitLog(s string) error {
	deadline := time.After(30 * time.Second)
	for !strings.Contains(r.log.String(), s) {
		select {
		case <-deadline:
			return fmt.Errorf("radar serve did not log %q:\n%s", s, r.log)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// logBuffer collects a process's log as it is written.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errorBody is the API's error envelope.
type errorBody struct {
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func (r response) errorCode() string {
	var e errorBody
	json.Unmarshal(r.body, &e)
	return e.Error.Code
}

var client = &http.Client{Timeout: time.Minute}

// call sends one request with key as bearer token (none when empty) and body as JSON (none when nil).
func call(method, url, key string, body any, header map[string]string) (response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return response{}, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// mustCall is call that fails the test on a transport error, and on an exchange under /api/v1 that departs
// from the served OpenAPI document (apitest.Conformance).
func mustCall(t *testing.T, method, url, key string, body any, header map[string]string) response {
	t.Helper()
	r, err := call(method, url, key, body, header)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	checkConformance(t, method, url, key, body, header, r)
	return r
}

// conformance is the checker of the served document, loaded from the first replica asked.
var conformance struct {
	once  sync.Once
	check *apitest.Conformance
	err   error
}

func checkConformance(t *testing.T, method, rawURL, key string, body any, header map[string]string, r response) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil || !strings.HasPrefix(u.Path, "/api/v1/") {
		return
	}
	conformance.once.Do(func() {
		doc, err := call(http.MethodGet, u.Scheme+"://"+u.Host+"/api/v1/openapi", "", nil, nil)
		if err != nil {
			conformance.err = err
			return
		}
		conformance.check, conformance.err = apitest.NewConformance(doc.body)
	})
	if conformance.err != nil {
		t.Fatalf("load the OpenAPI document: %v", conformance.err)
	}
	req, _ := http.NewRequest(method, rawURL, nil)
	var sent []byte
	if body != nil {
		sent, _ = json.Marshal(body)
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res := &apitest.Response{Status: r.status, Header: r.header, Body: r.body}
	for _, msg := range conformance.check.Check(req, sent, false, res) {
		t.Errorf("OpenAPI conformance: %s", msg)
	}
}

// decode unmarshals the body of r into v.
func decode(t *testing.T, r response, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
}

// createBody is a valid create of a company named name. Its website is the discard port on loopback, where
// nothing listens, so that enrichment and runs fail at once without touching the network; the cluster
// fetches private addresses, or the website would be refused.
func createBody(name string) map[string]any {
	slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	return map[string]any{
		"companyName":    name,
		"companyWebsite": "http://127.0.0.1:9/" + slug,
		"founders":       []map[string]string{{"name": "Ada " + name}},
		"thingsToTrack":  "funding rounds",
		"alertEmails":    []string{"partner@example.com"},
		"confirmed":      true,
	}
}

// metric reads one series, written exactly as name{labels}, from a replica's /metrics.
func metric(t *testing.T, r *replica, series string) float64 {
	t.Helper()
	v, ok := metricValue(t, r, series)
	if !ok {
		t.Fatalf("GET /metrics has no series %s", series)
	}
	return v
}

// metricValue reads one series, reporting whether the replica has it yet (a labelled counter appears at its
// first count).
func metricValue(t *testing.T, r *replica, series string) (float64, bool) {
	t.Helper()
	resp := mustCall(t, http.MethodGet, r.url+"/metrics", "", nil, nil)
	if resp.status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", resp.status, resp.body)
	}
	for line := range strings.Lines(string(resp.body)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err == nil {
				return v, true
			}
		}
	}
	return 0, false
}
