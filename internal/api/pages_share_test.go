package api

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// shareResult is one call of listCache.share.
type shareResult struct {
	body     string
	computed bool
	err      error
}

// startShare calls c.share in a goroutine and returns where its result arrives.
func startShare(ctx context.Context, c *listCache, changes int64, compute func() ([]byte, error)) <-chan shareResult {
	out := make(chan shareResult, 1)
	go func() {
		b, computed, err := c.share(ctx, "page", changes, compute)
		out <- shareResult{string(b), computed, err}
	}()
	return out
}

// waitUntil polls cond, which another goroutine makes true, and fails the test if it never does.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
	}
}

// receive returns the result of a share, and fails the test if it never comes.
func receive(t *testing.T, r <-chan shareResult) shareResult {
	t.Helper()
	select {
	case got := <-r:
		return got
	case <-time.After(10 * time.Second):
		t.Fatal("share never answered")
		return shareResult{}
	}
}

// waiters is how many requests wait for the page being computed, -1 when none is.
func (c *listCache) waiters(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.flights[key]; ok {
		return f.waiters
	}
	return -1
}

// shareTest is a cache whose computations count their calls and answer once release is closed.
type shareTest struct {
	t       *testing.T
	c       *listCache
	calls   atomic.Int32
	release chan struct{}
}

func newShareTest(t *testing.T) *shareTest {
	return &shareTest{t: t, c: newListCache(DefaultListCacheBytes), release: make(chan struct{})}
}

// blocked returns a computation that counts its call and answers body (or err) once release is closed.
func (s *shareTest) blocked(body string, err error) func() ([]byte, error) {
	return func() ([]byte, error) {
		s.calls.Add(1)
		<-s.release
		if err != nil {
			return nil, err
		}
		return []byte(body), nil
	}
}

// lead starts the first miss of the page, at changes, computed by blocked(body, err), and returns once it computes.
func (s *shareTest) lead(changes int64, body string, err error) <-chan shareResult {
	s.t.Helper()
	r := startShare(context.Background(), s.c, changes, s.blocked(body, err))
	waitUntil(s.t, "the first miss computes", func() bool { return s.c.waiters("page") == 0 })
	return r
}

// waitFor waits until n requests wait for the page being computed.
func (s *shareTest) waitFor(n int) {
	s.t.Helper()
	waitUntil(s.t, "requests wait", func() bool { return s.c.waiters("page") == n })
}

func TestMissesOfOnePageComputeItOnce(t *testing.T) {
	s := newShareTest(t)
	results := []<-chan shareResult{s.lead(7, "page at 7", nil)}
	// Requests at the same count, and at an earlier one (read before the last write), wait for it.
	for _, changes := range []int64{7, 7, 6, 7, 3} {
		results = append(results, startShare(context.Background(), s.c, changes, s.blocked("page at 7", nil)))
	}
	s.waitFor(5)
	close(s.release)
	computed := 0
	for _, r := range results {
		got := receive(t, r)
		if got.err != nil || got.body != "page at 7" {
			t.Errorf("share = %q, %v; want the page at 7", got.body, got.err)
		}
		if got.computed {
			computed++
		}
	}
	if s.calls.Load() != 1 || computed != 1 {
		t.Errorf("the page was computed %d times (%d reported computing it), want once", s.calls.Load(), computed)
	}
	if b := s.c.get("page", 7); string(b) != "page at 7" {
		t.Errorf("cached page = %q, want the page at 7", b)
	}
}

func TestALaterCountComputesItsOwnPage(t *testing.T) {
	s := newShareTest(t)
	old := s.lead(7, "page at 7", nil)
	// A request that saw a later write must not get the page computed before it.
	got := receive(t, startShare(context.Background(), s.c, 8, func() ([]byte, error) { return []byte("page at 8"), nil }))
	if got.err != nil || got.body != "page at 8" || !got.computed {
		t.Errorf("share at 8 = %+v, want the page at 8, computed", got)
	}
	close(s.release)
	if got := receive(t, old); got.body != "page at 7" {
		t.Errorf("share at 7 = %+v, want the page at 7", got)
	}
	// The page computed first, at the earlier count, does not replace the later one.
	if b := s.c.get("page", 8); string(b) != "page at 8" {
		t.Errorf("cached page = %q, want the page at 8", b)
	}
}

func TestAFailedComputationIsNotShared(t *testing.T) {
	s := newShareTest(t)
	leader := s.lead(7, "", errors.New("database went away"))
	waiter := startShare(context.Background(), s.c, 7, func() ([]byte, error) { s.calls.Add(1); return []byte("page at 7"), nil })
	s.waitFor(1)
	close(s.release)
	if got := receive(t, leader); got.err == nil {
		t.Errorf("the failed computation answered %+v, want its error", got)
	}
	if got := receive(t, waiter); got.err != nil || got.body != "page at 7" || !got.computed {
		t.Errorf("the waiter answered %+v, want the page it computed itself", got)
	}
	if s.calls.Load() != 2 {
		t.Errorf("computed %d times, want 2", s.calls.Load())
	}
}

func TestAWaiterGivesUpWithItsRequest(t *testing.T) {
	s := newShareTest(t)
	defer close(s.release)
	s.lead(7, "page at 7", nil)
	ctx, cancel := context.WithCancel(context.Background())
	waiter := startShare(ctx, s.c, 7, s.blocked("page at 7", nil))
	s.waitFor(1)
	cancel()
	if got := receive(t, waiter); !errors.Is(got.err, context.Canceled) {
		t.Errorf("the waiter answered %+v after its request ended, want context.Canceled", got)
	}
}
