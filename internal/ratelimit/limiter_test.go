package ratelimit_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/ratelimit"
)

func TestAllowBoundary(t *testing.T) {
	tests := map[string]struct {
		buckets map[string]ratelimit.Bucket
		names   []string
		allowed int
		want    string
	}{
		"read":                          {names: []string{ratelimit.Read}, allowed: 600, want: ratelimit.Read},
		"write":                         {names: []string{ratelimit.Write}, allowed: 120, want: ratelimit.Write},
		"create":                        {buckets: withWrite(1000), names: []string{ratelimit.Create, ratelimit.Write}, allowed: 200, want: ratelimit.Create},
		"write runs out during creates": {names: []string{ratelimit.Create, ratelimit.Write}, allowed: 120, want: ratelimit.Write},
		"refresh":                       {buckets: withWrite(1000), names: []string{ratelimit.Refresh, ratelimit.Write}, allowed: 60, want: ratelimit.Refresh},
		"enrich":                        {buckets: withWrite(1000), names: []string{ratelimit.Enrich, ratelimit.Write}, allowed: 60, want: ratelimit.Enrich},
	}
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		for name, tt := range tests {
			t.Run(name, func(t *testing.T) {
				clk := newClock(base.Add(12 * time.Second))
				s := open(clk.Now)
				lim := s.limiter(tt.buckets, clk)
				ctx := context.Background()
				for i := 1; i <= tt.allowed; i++ {
					d := lim.Allow(ctx, "key1", tt.names...)
					if !d.Allowed || d.FailedOpen {
						t.Fatalf("hit %d: Allowed=%v FailedOpen=%v, want allowed and counted", i, d.Allowed, d.FailedOpen)
					}
				}
				last := lim.Allow(ctx, "key1", tt.names...)
				if last.Allowed {
					t.Fatalf("hit %d: allowed, want denied", tt.allowed+1)
				}
				if last.Bucket.Name != tt.want || last.Remaining != 0 {
					t.Errorf("hit %d: bucket %q remaining %d, want %q remaining 0", tt.allowed+1, last.Bucket.Name, last.Remaining, tt.want)
				}
				if last.ResetAfter <= 0 || last.ResetAfter > last.Bucket.Window {
					t.Errorf("ResetAfter = %v, want within (0, %v]", last.ResetAfter, last.Bucket.Window)
				}
				if got := lim.Allow(ctx, "key1", tt.names...); got.Allowed {
					t.Errorf("hit %d: allowed, want still denied", tt.allowed+2)
				}
			})
		}
	})
}

func TestAllowLastHitLeavesNothing(t *testing.T) {
	lim := ratelimit.New(ratelimit.Config{Now: newClock(base).Now})
	var d ratelimit.Decision
	for range 600 {
		d = lim.Allow(context.Background(), "key1", ratelimit.Read)
	}
	if !d.Allowed || d.Remaining != 0 || d.Bucket.Name != ratelimit.Read {
		t.Errorf("600th read: Allowed=%v bucket %q remaining %d, want allowed, read, 0", d.Allowed, d.Bucket.Name, d.Remaining)
	}
}

func TestAllowNamesTightestBucket(t *testing.T) {
	lim := ratelimit.New(ratelimit.Config{Now: newClock(base).Now})
	d := lim.Allow(context.Background(), "key1", ratelimit.Create, ratelimit.Write)
	if !d.Allowed || d.Bucket.Name != ratelimit.Write || d.Remaining != 119 {
		t.Errorf("first create: Allowed=%v bucket %q remaining %d, want allowed, write, 119", d.Allowed, d.Bucket.Name, d.Remaining)
	}
	if len(d.Counted) != 2 || d.Counted[0].Remaining != 199 || d.Counted[1].Remaining != 119 {
		t.Errorf("Counted = %+v, want create 199 then write 119", d.Counted)
	}
}

func TestAllowNamesBucketThatFreesLast(t *testing.T) {
	buckets := map[string]ratelimit.Bucket{
		ratelimit.Create: {Name: ratelimit.Create, Limit: 1, Window: time.Hour},
		ratelimit.Write:  {Name: ratelimit.Write, Limit: 1, Window: time.Minute},
	}
	lim := ratelimit.New(ratelimit.Config{Buckets: buckets, Now: newClock(base.Add(30 * time.Second)).Now})
	lim.Allow(context.Background(), "key1", ratelimit.Write, ratelimit.Create)
	d := lim.Allow(context.Background(), "key1", ratelimit.Write, ratelimit.Create)
	if d.Allowed || d.Bucket.Name != ratelimit.Create {
		t.Errorf("both exhausted: Allowed=%v bucket %q, want denied by create", d.Allowed, d.Bucket.Name)
	}
	if want := time.Hour - 30*time.Second; d.ResetAfter != want {
		t.Errorf("ResetAfter = %v, want %v", d.ResetAfter, want)
	}
}

func TestRejectedRequestsCount(t *testing.T) {
	buckets := map[string]ratelimit.Bucket{
		ratelimit.Create: {Name: ratelimit.Create, Limit: 2, Window: time.Hour},
		ratelimit.Write:  {Name: ratelimit.Write, Limit: 10, Window: time.Minute},
	}
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		clk := newClock(base)
		s := open(clk.Now)
		lim := s.limiter(buckets, clk)
		ctx := context.Background()
		allowed := 0
		for range 5 {
			if lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write).Allowed {
				allowed++
			}
		}
		if allowed != 2 {
			t.Errorf("allowed %d of 5 creates, want 2", allowed)
		}
		remaining := map[string]int{}
		for _, st := range lim.Status(ctx, "key1") {
			remaining[st.Bucket.Name] = st.Remaining
		}
		if remaining[ratelimit.Write] != 5 || remaining[ratelimit.Create] != 0 {
			t.Errorf("remaining after 5 creates = %v, want write 5 (rejected creates count) and create 0", remaining)
		}
	})
}

func TestKeysAreIndependent(t *testing.T) {
	buckets := map[string]ratelimit.Bucket{ratelimit.Read: {Name: ratelimit.Read, Limit: 3, Window: time.Minute}}
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		clk := newClock(base)
		s := open(clk.Now)
		lim := s.limiter(buckets, clk)
		ctx := context.Background()
		for range 4 {
			lim.Allow(ctx, "key-a", ratelimit.Read)
		}
		if d := lim.Allow(ctx, "key-a", ratelimit.Read); d.Allowed {
			t.Errorf("key-a after its budget: allowed, want denied")
		}
		if d := lim.Allow(ctx, "key-b", ratelimit.Read); !d.Allowed || d.Remaining != 2 {
			t.Errorf("key-b first read: Allowed=%v remaining %d, want allowed with 2 left", d.Allowed, d.Remaining)
		}
	})
}

func TestNextWindowResets(t *testing.T) {
	buckets := map[string]ratelimit.Bucket{
		ratelimit.Read:   {Name: ratelimit.Read, Limit: 2, Window: time.Minute},
		ratelimit.Write:  {Name: ratelimit.Write, Limit: 100, Window: time.Minute},
		ratelimit.Create: {Name: ratelimit.Create, Limit: 1, Window: time.Hour},
	}
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		clk := newClock(base.Add(50 * time.Second))
		s := open(clk.Now)
		lim := s.limiter(buckets, clk)
		ctx := context.Background()
		for range 3 {
			lim.Allow(ctx, "key1", ratelimit.Read)
			lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write)
		}

		clk.Add(10 * time.Second)
		if d := lim.Allow(ctx, "key1", ratelimit.Read); !d.Allowed || d.Remaining != 1 {
			t.Errorf("read in the next minute: Allowed=%v remaining %d, want allowed with 1 left", d.Allowed, d.Remaining)
		}
		if d := lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write); d.Allowed || d.Bucket.Name != ratelimit.Create {
			t.Errorf("create in the same hour: Allowed=%v bucket %q, want denied by create", d.Allowed, d.Bucket.Name)
		}

		clk.Add(time.Hour)
		if d := lim.Allow(ctx, "key1", ratelimit.Create, ratelimit.Write); !d.Allowed {
			t.Errorf("create in the next hour: denied by %q, want allowed", d.Bucket.Name)
		}
	})
}

func TestResetAfter(t *testing.T) {
	tests := map[string]struct {
		offset     time.Duration
		wantReset  time.Duration
		wantHeader string
	}{
		"window start":      {offset: 0, wantReset: time.Minute, wantHeader: "60"},
		"mid window":        {offset: 12300 * time.Millisecond, wantReset: 47700 * time.Millisecond, wantHeader: "48"},
		"last second":       {offset: 59400 * time.Millisecond, wantReset: 600 * time.Millisecond, wantHeader: "1"},
		"last nanosecond":   {offset: time.Minute - time.Nanosecond, wantReset: time.Nanosecond, wantHeader: "1"},
		"next window start": {offset: time.Minute, wantReset: time.Minute, wantHeader: "60"},
	}
	buckets := map[string]ratelimit.Bucket{ratelimit.Write: {Name: ratelimit.Write, Limit: 0, Window: time.Minute}}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			lim := ratelimit.New(ratelimit.Config{Buckets: buckets, Now: newClock(base.Add(tt.offset)).Now})
			d := lim.Allow(context.Background(), "key1", ratelimit.Write)
			if d.Allowed {
				t.Fatal("allowed, want denied by a zero limit")
			}
			if d.ResetAfter != tt.wantReset {
				t.Errorf("ResetAfter = %v, want %v", d.ResetAfter, tt.wantReset)
			}
			h := http.Header{}
			d.Headers(h)
			if got := h.Get("Retry-After"); got != tt.wantHeader {
				t.Errorf("Retry-After = %q, want %q", got, tt.wantHeader)
			}
			if got, want := h.Get("RateLimit"), `"write";r=0;t=`+tt.wantHeader; got != want {
				t.Errorf("RateLimit = %q, want %q", got, want)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	tests := map[string]struct {
		hits  int
		names []string
		want  http.Header
	}{
		"allowed read": {
			hits:  1,
			names: []string{ratelimit.Read},
			want: http.Header{
				"Ratelimit-Policy": {`"read";q=600;w=60`},
				"Ratelimit":        {`"read";r=599;t=48`},
			},
		},
		"allowed create": {
			hits:  1,
			names: []string{ratelimit.Create, ratelimit.Write},
			want: http.Header{
				"Ratelimit-Policy": {`"create";q=200;w=3600, "write";q=120;w=60`},
				"Ratelimit":        {`"create";r=199;t=3588, "write";r=119;t=48`},
			},
		},
		"denied by write during creates": {
			hits:  121,
			names: []string{ratelimit.Create, ratelimit.Write},
			want: http.Header{
				"Ratelimit-Policy": {`"create";q=200;w=3600, "write";q=120;w=60`},
				"Ratelimit":        {`"create";r=79;t=3588, "write";r=0;t=48`},
				"Retry-After":      {"48"},
			},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			lim := ratelimit.New(ratelimit.Config{Now: newClock(base.Add(12 * time.Second)).Now})
			var d ratelimit.Decision
			for range tt.hits {
				d = lim.Allow(context.Background(), "key1", tt.names...)
			}
			got := http.Header{}
			d.Headers(got)
			if len(got) != len(tt.want) {
				t.Errorf("headers = %v, want %v", got, tt.want)
			}
			for k := range tt.want {
				if got.Get(k) != tt.want.Get(k) {
					t.Errorf("%s = %q, want %q", k, got.Get(k), tt.want.Get(k))
				}
			}
			if !d.Allowed && d.RetryAfter() != 48 {
				t.Errorf("RetryAfter() = %d, want 48 as in Retry-After", d.RetryAfter())
			}
		})
	}
}

func TestHeadersFailedOpen(t *testing.T) {
	h := http.Header{}
	ratelimit.Decision{Allowed: true, FailedOpen: true}.Headers(h)
	if len(h) != 0 {
		t.Errorf("headers = %v, want none when the counters could not be read", h)
	}
}

func TestStatusDoesNotCount(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		clk := newClock(base.Add(12 * time.Second))
		s := open(clk.Now)
		lim := s.limiter(nil, clk)
		ctx := context.Background()
		lim.Allow(ctx, "key1", ratelimit.Refresh, ratelimit.Write)
		lim.Status(ctx, "key1")
		got := lim.Status(ctx, "key1")

		want := []struct {
			name      string
			remaining int
			reset     time.Duration
		}{
			{ratelimit.Read, 600, 48 * time.Second},
			{ratelimit.Write, 119, 48 * time.Second},
			{ratelimit.Create, 200, time.Hour - 12*time.Second},
			{ratelimit.Enrich, 60, time.Hour - 12*time.Second},
			{ratelimit.Refresh, 59, time.Hour - 12*time.Second},
		}
		if len(got) != len(want) {
			t.Fatalf("Status returned %d buckets, want %d", len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Bucket.Name != w.name || g.Remaining != w.remaining || g.ResetAfter != w.reset || g.Unknown {
				t.Errorf("Status[%d] = %s remaining %d reset %v unknown %v, want %s remaining %d reset %v known",
					i, g.Bucket.Name, g.Remaining, g.ResetAfter, g.Unknown, w.name, w.remaining, w.reset)
			}
		}
	})
}

func TestAllowIgnoresUnknownBuckets(t *testing.T) {
	lim := ratelimit.New(ratelimit.Config{Now: newClock(base).Now})
	d := lim.Allow(context.Background(), "key1", "no-such-bucket")
	if !d.Allowed || d.FailedOpen || len(d.Counted) != 0 {
		t.Errorf("Allow(no-such-bucket) = %+v, want allowed and nothing counted", d)
	}
}

func TestMemoryDropsExpiredCounters(t *testing.T) {
	clk := newClock(base)
	mem := ratelimit.NewMemory(clk.Now)
	lim := ratelimit.New(ratelimit.Config{Store: mem, Now: clk.Now})
	ctx := context.Background()
	for _, key := range []string{"a", "b", "c", "d"} {
		lim.Allow(ctx, key, ratelimit.Create, ratelimit.Write)
	}
	if got := mem.Len(); got != 8 {
		t.Fatalf("counters after 4 keys x 2 buckets = %d, want 8", got)
	}
	clk.Add(2 * time.Hour)
	lim.Allow(ctx, "e", ratelimit.Read)
	if got := mem.Len(); got != 1 {
		t.Errorf("counters two hours later = %d, want 1 (expired ones dropped)", got)
	}
}

func TestMethodBucket(t *testing.T) {
	tests := map[string]struct{ method, want string }{
		"get":    {http.MethodGet, ratelimit.Read},
		"head":   {http.MethodHead, ratelimit.Read},
		"post":   {http.MethodPost, ratelimit.Write},
		"patch":  {http.MethodPatch, ratelimit.Write},
		"delete": {http.MethodDelete, ratelimit.Write},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := ratelimit.MethodBucket(tt.method); got != tt.want {
				t.Errorf("MethodBucket(%s) = %q, want %q", tt.method, got, tt.want)
			}
		})
	}
}

func TestConcurrentHitsCountExactly(t *testing.T) {
	buckets := map[string]ratelimit.Bucket{ratelimit.Read: {Name: ratelimit.Read, Limit: 1500, Window: time.Hour}}
	forEachStore(t, func(t *testing.T, open func(func() time.Time) store) {
		clk := newClock(base)
		s := open(clk.Now)
		lim := s.limiter(buckets, clk)
		ctx := context.Background()
		var allowed, failedOpen atomic.Int64
		// hits sends 50 × 20 hits at once, as the API does: decided from a hit reserved when there is one.
		hits := func() {
			var wg sync.WaitGroup
			for range 50 {
				wg.Go(func() {
					for range 20 {
						d, ok := lim.AllowReserved("key1", ratelimit.Read)
						if !ok {
							d = lim.Allow(ctx, "key1", ratelimit.Read)
						}
						if d.Allowed {
							allowed.Add(1)
						}
						if d.FailedOpen {
							failedOpen.Add(1)
						}
					}
				})
			}
			wg.Wait()
		}
		hits()
		if allowed.Load() != 1000 || failedOpen.Load() != 0 {
			t.Errorf("allowed %d, failed open %d, want 1000 and 0", allowed.Load(), failedOpen.Load())
		}
		if got := lim.Status(ctx, "key1")[0].Remaining; got != 500 {
			t.Errorf("remaining = %d, want 500 (exactly 1000 hits counted)", got)
		}
		hits()
		if allowed.Load() != 1500 || failedOpen.Load() != 0 {
			t.Errorf("after 2,000 hits: allowed %d, failed open %d, want 1500 (the limit) and 0", allowed.Load(), failedOpen.Load())
		}
	})
}

func TestOnDeniedNamesTheBucket(t *testing.T) {
	clk := newClock(base)
	var denied []string
	lim := ratelimit.New(ratelimit.Config{Store: ratelimit.NewMemory(clk.Now), Now: clk.Now,
		OnDenied: func(bucket string) { denied = append(denied, bucket) }})
	ctx := context.Background()
	for range 60 {
		lim.Allow(ctx, "key1", ratelimit.Write, ratelimit.Refresh)
	}
	if len(denied) != 0 {
		t.Fatalf("OnDenied called %v within the budget", denied)
	}
	lim.Allow(ctx, "key1", ratelimit.Write, ratelimit.Refresh)
	if len(denied) != 1 || denied[0] != ratelimit.Refresh {
		t.Errorf("OnDenied after the 61st refresh: %v, want [refresh]", denied)
	}
}
