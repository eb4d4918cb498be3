package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var readRemaining = regexp.MustCompile(`"read";r=(\d+);t=(\d+)`)

func TestReadBudgetIsSharedByReplicas(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read")
	nodes := []*replica{c.a, c.b}
	rejections := func() float64 {
		const series = `radar_rate_limit_rejections_total{bucket="read"}`
		return metric(t, c.a, series) + metric(t, c.b, series)
	}
	rejectedBefore := rejections()

	// Requests alternate between the replicas. Each replica counts the reads of one window down from 600, and both
	// in the same Redis counter, so the reads they allow together stop at 600: at most a fortieth early, for the
	// reads one replica reserved and had not used. Should the minute turn during the run, counting starts again.
	var (
		allowed   int
		lastReset = 61
		last      = [2]int{600, 600}
		denied    response
	)
	for i := 0; i < 1300 && denied.status == 0; i++ {
		r := mustCall(t, http.MethodGet, nodes[i%2].url+"/api/v1/tracker?limit=25&view=compact", key, nil, nil)
		switch r.status {
		case http.StatusTooManyRequests:
			denied = r
		case http.StatusOK:
			m := readRemaining.FindStringSubmatch(r.header.Get("RateLimit"))
			if m == nil {
				t.Fatalf("request %d: RateLimit %q names no read bucket", i+1, r.header.Get("RateLimit"))
			}
			remaining, _ := strconv.Atoi(m[1])
			reset, _ := strconv.Atoi(m[2])
			if reset > lastReset {
				allowed, last = 0, [2]int{600, 600}
			}
			lastReset = reset
			if remaining >= last[i%2] {
				t.Fatalf("request %d on replica %d: %d reads remaining after %d, want fewer", i+1, i%2, remaining, last[i%2])
			}
			last[i%2] = remaining
			allowed++
		default:
			t.Fatalf("request %d: status %d %s", i+1, r.status, r.body)
		}
	}
	if denied.status == 0 {
		t.Fatal("1300 reads were all allowed")
	}
	if allowed > 600 || allowed < 600-600/40 {
		t.Errorf("refused after %d reads in the window, want 600 at most (the replicas share the budget) and %d at least", allowed, 600-600/40)
	}
	var e errorBody
	decode(t, denied, &e)
	if e.Error.Code != "rate_limited" || e.Error.Details["bucket"] != "read" || !strings.Contains(e.Error.Message, "read bucket") {
		t.Errorf("429 body %s, want rate_limited naming the read bucket", denied.body)
	}
	if s, err := strconv.Atoi(denied.header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
		t.Errorf("Retry-After %q, want 1-60 seconds", denied.header.Get("Retry-After"))
	}

	// Operations endpoints and the live specification are not counted, with or without the exhausted key.
	for _, n := range nodes {
		for _, path := range []string{"/api/v1/openapi", "/healthz", "/readyz", "/metrics"} {
			if r := mustCall(t, http.MethodGet, n.url+path, key, nil, nil); r.status != http.StatusOK {
				t.Errorf("GET %s with the exhausted key: %d %s, want 200", path, r.status, r.body)
			}
		}
	}
	if got := rejections() - rejectedBefore; got != 1 {
		t.Errorf("radar_rate_limit_rejections_total{bucket=\"read\"} summed over the replicas grew by %v, want 1", got)
	}
}

func TestConcurrentCreatesAcrossReplicas(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read,tracker:write")
	nodes := []*replica{c.a, c.b}
	run := randomHex(3)
	type result struct {
		i int
		r response
		e error
	}
	results := make(chan result, 100)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 100 {
		wg.Go(func() {
			<-start
			k := i % 10
			r, err := call(http.MethodPost, nodes[i%2].url+"/api/v1/tracker", key, createBody(fmt.Sprintf("Company %s %d", run, k)),
				map[string]string{"Idempotency-Key": fmt.Sprintf("create-%s-%02d", run, k)})
			results <- result{i, r, err}
		})
	}
	close(start)
	wg.Wait()
	close(results)

	created := map[int]string{}
	for res := range results {
		k := res.i % 10
		switch {
		case res.e != nil:
			t.Errorf("create %d: %v", res.i, res.e)
		case res.r.status == http.StatusCreated:
			var env struct {
				Data struct{ ID string } `json:"data"`
			}
			decode(t, res.r, &env)
			if prev, ok := created[k]; ok {
				t.Errorf("idempotency key %d created twice: %s and %s", k, prev, env.Data.ID)
			}
			created[k] = env.Data.ID
		case res.r.status == http.StatusOK:
		case res.r.status == http.StatusConflict && res.r.errorCode() == "idempotency_in_progress":
		default:
			t.Errorf("create %d: %d %s, want 201, 200 replay or 409 idempotency_in_progress", res.i, res.r.status, res.r.body)
		}
	}
	if len(created) != 10 {
		t.Errorf("%d idempotency keys answered 201, want all 10 exactly once", len(created))
	}

	var list struct {
		Data []struct {
			ID          string `json:"id"`
			CompanyName string `json:"companyName"`
		} `json:"data"`
	}
	decode(t, mustCall(t, http.MethodGet, c.b.url+"/api/v1/tracker?limit=100", key, nil, nil), &list)
	if len(list.Data) != 10 {
		t.Fatalf("%d entities tracked after 100 creates over 10 idempotency keys, want 10", len(list.Data))
	}
	// A replay on the other replica answers the entity the first create made.
	for k := range 10 {
		r := mustCall(t, http.MethodPost, nodes[(k+1)%2].url+"/api/v1/tracker", key, createBody(fmt.Sprintf("Company %s %d", run, k)),
			map[string]string{"Idempotency-Key": fmt.Sprintf("create-%s-%02d", run, k)})
		var env struct {
			Data                struct{ ID string } `json:"data"`
			IdempotencyReplayed bool                `json:"idempotencyReplayed"`
		}
		decode(t, r, &env)
		if r.status != http.StatusOK || !env.IdempotencyReplayed || env.Data.ID != created[k] {
			t.Errorf("replay of key %d: %d replayed=%v id=%s, want 200 replayed %s", k, r.status, env.IdempotencyReplayed, env.Data.ID, created[k])
		}
	}
}

func TestCursorFromOneReplicaWorksOnAnother(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read,tracker:write")
	for i := range 3 {
		if r := mustCall(t, http.MethodPost, c.a.url+"/api/v1/tracker", key, createBody(fmt.Sprintf("Paged %s %d", randomHex(3), i)), nil); r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
	}
	type page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		NextCursor *string `json:"nextCursor"`
	}
	var all page
	decode(t, mustCall(t, http.MethodGet, c.a.url+"/api/v1/tracker?limit=100", key, nil, nil), &all)
	if len(all.Data) != 3 {
		t.Fatalf("listed %d entities, want 3", len(all.Data))
	}

	nodes := []*replica{c.a, c.b, c.a}
	cursor := ""
	for i, n := range nodes {
		u := n.url + "/api/v1/tracker?limit=1"
		if cursor != "" {
			u += "&cursor=" + cursor
		}
		r := mustCall(t, http.MethodGet, u, key, nil, nil)
		if r.status != http.StatusOK {
			t.Fatalf("page %d: %d %s", i+1, r.status, r.body)
		}
		var p page
		decode(t, r, &p)
		if len(p.Data) != 1 || p.Data[0].ID != all.Data[i].ID {
			t.Fatalf("page %d on replica %s: %s, want entity %s", i+1, n.url, r.body, all.Data[i].ID)
		}
		if i < 2 {
			if p.NextCursor == nil {
				t.Fatalf("page %d has no nextCursor", i+1)
			}
			cursor = *p.NextCursor
		}
	}
}

func TestEnqueuedJobRunsOnce(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read,tracker:write")
	r := mustCall(t, http.MethodPost, c.b.url+"/api/v1/tracker", key, createBody("Queued "+randomHex(3)), nil)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var env struct {
		Data struct{ ID string } `json:"data"`
	}
	decode(t, r, &env)

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	type job struct {
		state    string
		attempt  int
		attempts []string
	}
	jobs := func() []job {
		rows, err := conn.Query(ctx, `SELECT state::text, attempt, attempted_by FROM river_job
			WHERE kind = 'enrich' AND args->>'entityId' = $1`, env.Data.ID)
		if err != nil {
			t.Fatalf("read the job queue: %v", err)
		}
		defer rows.Close()
		var out []job
		for rows.Next() {
			var j job
			if err := rows.Scan(&j.state, &j.attempt, &j.attempts); err != nil {
				t.Fatalf("read the job queue: %v", err)
			}
			out = append(out, j)
		}
		return out
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got := jobs()
		if len(got) != 1 {
			t.Fatalf("%d enrichment jobs for one create, want 1: %+v", len(got), got)
		}
		if got[0].state == "completed" {
			if got[0].attempt != 1 || len(got[0].attempts) != 1 {
				t.Errorf("the enrichment job completed after %d attempts by %v, want one attempt by one replica", got[0].attempt, got[0].attempts)
			}
			break
		}
		if got[0].state != "available" && got[0].state != "running" {
			t.Fatalf("the enrichment job is %s after %d attempts, want completed", got[0].state, got[0].attempt)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the enrichment job is still %s after a minute: do the replicas work the queue?", got[0].state)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var entity struct {
		Data struct {
			EnrichmentStatus string `json:"enrichmentStatus"`
		} `json:"data"`
	}
	decode(t, mustCall(t, http.MethodGet, c.a.url+"/api/v1/tracker/"+env.Data.ID, key, nil, nil), &entity)
	if s := entity.Data.EnrichmentStatus; s == "queued" || s == "running" {
		t.Errorf("enrichmentStatus %q after the job completed, want it finished", s)
	}
}

func TestRateLimitsFailOpen(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	r, err := c.start("RADAR_REDIS_URL=redis://" + closed + "/0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.stop()

	// The first requests fail open, uncounted; once the breaker opens, requests are counted in the process (a
	// probe of the store that fails lets its request through uncounted too).
	counted := 0
	for i := range 50 {
		resp := mustCall(t, http.MethodGet, r.url+"/api/v1/tracker?limit=25", key, nil, nil)
		if resp.status != http.StatusOK {
			t.Fatalf("request %d with the counter store down: %d %s, want 200", i+1, resp.status, resp.body)
		}
		if resp.header.Get("RateLimit") != "" {
			counted++
		}
	}
	if counted < 40 {
		t.Errorf("%d of 50 requests counted in the process while the counter store was down, want the breaker to count all but the first few", counted)
	}
	if got := metric(t, r, "radar_rate_limit_store_errors_total"); got < 1 || got >= 50 {
		t.Errorf("radar_rate_limit_store_errors_total = %v, want a few: the breaker stops calling the store", got)
	}
	if got := metric(t, r, "radar_ratelimit_breaker_open"); got != 1 {
		t.Errorf("radar_ratelimit_breaker_open = %v, want 1", got)
	}
	if !strings.Contains(r.log.String(), "rate limit store") {
		t.Errorf("no warning about the counter store in the log:\n%s", r.log)
	}
}

func TestSIGTERMFinishesTheRequestInFlight(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read,tracker:write")
	r, err := c.start()
	if err != nil {
		t.Fatal(err)
	}
	defer r.stop()

	body, _ := json.Marshal(createBody("Inflight " + randomHex(3)))
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/tracker HTTP/1.1\r\nHost: radar.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", key, len(body))
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	rd := bufio.NewReader(conn)
	// 100 Continue comes when the handler starts reading the body: from then on the create is in flight.
	cont, err := http.ReadResponse(rd, nil)
	if err != nil || cont.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue once the create is being handled, got %v %v", cont, err)
	}
	if err := r.signal(); err != nil {
		t.Fatal(err)
	}
	if err := r.waitLog("radar stopping"); err != nil {
		t.Fatal(err)
	}
	// Shutdown has begun once the replica refuses new connections; the create still waits for its body.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		probe, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
		if err != nil {
			break
		}
		probe.Close()
		if time.Now().After(deadline) {
			t.Fatal("the replica still accepts connections 30 s after SIGTERM")
		}
	}
	if _, err := conn.Write(body); err != nil {
		t.Fatalf("send the request body after SIGTERM: %v", err)
	}
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatalf("read the answer to the request in flight: %v\n%s", err, r.log)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("request in flight during shutdown: %d, want 201", resp.StatusCode)
	}
	if err := r.wait(); err != nil {
		t.Errorf("radar serve after SIGTERM: %v, want exit status 0\n%s", err, r.log)
	}
}

// Each replica keeps the list pages it served; a change made through one replica is in the next list read of
// the other, and a repeated read with nothing changed comes from the cache.
func TestListsFollowChangesAcrossReplicas(t *testing.T) {
	c := replicas(t)
	key := c.tenant(t, "tracker:read,tracker:write")
	type page struct {
		Data []struct {
			ID          string `json:"id"`
			CompanyName string `json:"companyName"`
		} `json:"data"`
	}
	list := func(r *replica) page {
		t.Helper()
		res := mustCall(t, http.MethodGet, r.url+"/api/v1/tracker?limit=100", key, nil, nil)
		if res.status != http.StatusOK {
			t.Fatalf("list on %s: %d %s", r.url, res.status, res.body)
		}
		var p page
		decode(t, res, &p)
		return p
	}
	for i := range 2 {
		if r := mustCall(t, http.MethodPost, c.a.url+"/api/v1/tracker", key, createBody(fmt.Sprintf("Listed %s %d", randomHex(3), i)), nil); r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
	}
	const hitSeries = `radar_list_cache_requests_total{list="tracker",result="hit"}`
	if n := len(list(c.b).Data); n != 2 {
		t.Fatalf("replica b lists %d companies, want 2", n)
	}
	// The creates start enrichment and first runs, which change the organisation while they go on: a repeated
	// read comes from the cache once nothing changed in between.
	var before page
	for attempt := 0; ; attempt++ {
		list(c.b)
		hits, _ := metricValue(t, c.b, hitSeries)
		before = list(c.b)
		if got, _ := metricValue(t, c.b, hitSeries); got == hits+1 {
			break
		}
		if attempt == 300 {
			t.Fatalf("a repeated read with nothing changed never came from the cache (%v hits)", hits)
		}
		time.Sleep(100 * time.Millisecond)
	}

	r := mustCall(t, http.MethodPatch, c.a.url+"/api/v1/tracker/"+before.Data[0].ID, key, map[string]any{"companyName": "Renamed on a"}, nil)
	if r.status != http.StatusOK {
		t.Fatalf("rename on replica a: %d %s", r.status, r.body)
	}
	if got := list(c.b).Data[0].CompanyName; got != "Renamed on a" {
		t.Errorf("replica b lists %q after the rename on replica a", got)
	}
	r = mustCall(t, http.MethodDelete, c.a.url+"/api/v1/tracker/"+before.Data[1].ID, key, nil, nil)
	if r.status != http.StatusNoContent {
		t.Fatalf("delete on replica a: %d %s", r.status, r.body)
	}
	if n := len(list(c.b).Data); n != 1 {
		t.Errorf("replica b lists %d companies after a delete on replica a, want 1", n)
	}
}
