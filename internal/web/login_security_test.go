package web_test

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/ratelimit"
	"radar/internal/service"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// attempt posts the sign-in form from a client with no cookies; header adds request headers. Safe to call
// from any goroutine: failures come back as errors.
func attempt(c *http.Client, base, email, pass string, header ...string) (int, http.Header, error) {
	req, _ := http.NewRequest(http.MethodPost, base+"/login", strings.NewReader(url.Values{"email": {email}, "password": {pass}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header, nil
}

func noRedirects(timeout time.Duration) *http.Client {
	return &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       timeout,
		Transport:     &http.Transport{MaxIdleConnsPerHost: 256},
	}
}

// loginStores are the counter stores sign-ins are tested on: in process, and Redis shared by two replicas when
// RADAR_TEST_REDIS_URL is set.
func loginStores(t *testing.T) map[string]func(t *testing.T) (store ratelimit.Store, prefix string, replicas int) {
	stores := map[string]func(t *testing.T) (ratelimit.Store, string, int){
		"memory": func(*testing.T) (ratelimit.Store, string, int) { return nil, "", 1 },
	}
	if url := os.Getenv("RADAR_TEST_REDIS_URL"); url != "" {
		stores["redis"] = func(t *testing.T) (ratelimit.Store, string, int) {
			opts, err := ratelimit.ParseRedisURL(url)
			if err != nil {
				t.Fatal(err)
			}
			client := redis.NewClient(opts)
			prefix := "radar:webtest:" + rand.Text() + ":"
			t.Cleanup(func() {
				ctx := context.Background()
				iter := client.Scan(ctx, 0, prefix+"*", 1000).Iterator()
				for iter.Next(ctx) {
					client.Del(ctx, iter.Val())
				}
				client.Close()
			})
			return ratelimit.NewRedis(client), prefix, 2
		}
	}
	return stores
}

// Of 200 wrong passwords sent at once with a limit of 10, exactly 10 reach the password check: the attempt is
// counted before it is checked, not after. With Redis, two replicas share the counters.
func TestSignInCountsBeforeItChecks(t *testing.T) {
	for name, open := range loginStores(t) {
		t.Run(name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, engine string) {
				store, prefix, replicas := open(t)
				var checks atomic.Int64
				verify := func(hash, password string) bool {
					checks.Add(1)
					return service.VerifyPassword(hash, password)
				}
				var sites []*site
				for range replicas {
					cfg := web.WithVerify(web.Config{LoginLimit: 10, LoginWindow: time.Hour, LoginStore: store, LoginPrefix: prefix,
						HashWait: time.Minute}, verify)
					site := startSite(t, engine, cfg)
					site.freshWindow(time.Hour)
					sites = append(sites, site)
				}
				c := noRedirects(2 * time.Minute)
				var mu sync.Mutex
				statuses := map[int]int{}
				var wg sync.WaitGroup
				for i := range 200 {
					wg.Go(func() {
						s := sites[i%len(sites)]
						code, h, err := attempt(c, s.URL, s.OwnerA, "wrong password")
						if err != nil {
							t.Error(err)
							return
						}
						if code == http.StatusTooManyRequests && h.Get("Retry-After") == "" {
							t.Error("429 without Retry-After")
						}
						mu.Lock()
						statuses[code]++
						mu.Unlock()
					})
				}
				wg.Wait()
				if got := checks.Load(); got != 10 {
					t.Errorf("password checks = %d, want exactly 10", got)
				}
				if statuses[http.StatusUnauthorized] != 10 || statuses[http.StatusTooManyRequests] != 190 {
					t.Errorf("answers = %v, want 10 × 401 and 190 × 429", statuses)
				}
				// The account stays locked on every replica, with the right password too.
				for _, s := range sites {
					if code, _, err := attempt(c, s.URL, s.OwnerA, password); err != nil || code != http.StatusTooManyRequests {
						t.Errorf("right password after the storm: %d, %v; want 429", code, err)
					}
				}
			})
		})
	}
}

// Past the password-hash slots, sign-ins are turned away with 503 and Retry-After after a short wait, never
// queued; the checks running at once never exceed the slots, and turned-away attempts do not count.
func TestSignInHashSlots(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		var inUse, peak, entered atomic.Int64
		release := make(chan struct{})
		releaseAll := sync.OnceFunc(func() { close(release) })
		defer releaseAll()
		verify := func(hash, password string) bool {
			n := inUse.Add(1)
			defer inUse.Add(-1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			entered.Add(1)
			<-release
			return service.VerifyPassword(hash, password)
		}
		s := startSite(t, engine, web.WithVerify(web.Config{LoginLimit: 20, LoginWindow: time.Hour, HashSlots: 2, HashWait: 100 * time.Millisecond}, verify))
		s.freshWindow(time.Hour)
		c := noRedirects(time.Minute)

		type answer struct {
			code  int
			retry string
		}
		answers := make(chan answer, 20)
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				code, h, err := attempt(c, s.URL, "nobody"+string(rune('a'+i))+"@a.example", "wrong password")
				if err != nil {
					t.Error(err)
					return
				}
				answers <- answer{code, h.Get("Retry-After")}
			})
		}
		var busy int
		for busy < 18 {
			select {
			case a := <-answers:
				if a.code != http.StatusServiceUnavailable || a.retry == "" {
					t.Fatalf("answer while both slots are taken: %d with Retry-After %q, want 503 with Retry-After", a.code, a.retry)
				}
				busy++
			case <-time.After(30 * time.Second):
				t.Fatalf("only %d of 18 attempts turned away after 30 s: sign-ins are queued", busy)
			}
		}
		for deadline := time.Now().Add(30 * time.Second); entered.Load() < 2 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if got := entered.Load(); got != 2 {
			t.Errorf("checks started = %d, want 2 (the slots)", got)
		}
		releaseAll()
		wg.Wait()
		close(answers)
		for a := range answers {
			if a.code != http.StatusUnauthorized {
				t.Errorf("attempt holding a slot: %d, want 401", a.code)
			}
		}
		if got := peak.Load(); got > 2 {
			t.Errorf("checks at once peaked at %d, want at most 2", got)
		}
		// The 18 turned away were not counted: 18 more failures fit in the address's 20, the next does not.
		for i := range 18 {
			if code, _, err := attempt(c, s.URL, "late"+string(rune('a'+i))+"@a.example", "wrong password"); err != nil || code != http.StatusUnauthorized {
				t.Fatalf("failure %d after the storm: %d, %v; want 401", i+3, code, err)
			}
		}
		if code, _, _ := attempt(c, s.URL, s.OwnerA, password); code != http.StatusTooManyRequests {
			t.Errorf("21st attempt from the address: %d, want 429", code)
		}
	})
}

// Behind a trusted proxy each client is limited by its own address from X-Forwarded-For, and each account
// by its e-mail whatever the address; without RADAR_TRUSTED_PROXIES the header is not believed.
func TestSignInLimitsBehindAProxy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
		s := startSite(t, engine, web.Config{LoginLimit: 2, LoginWindow: time.Hour, TrustedProxies: loopback})
		s.freshWindow(time.Hour)
		c := noRedirects(time.Minute)
		from := func(addr string) []string { return []string{"X-Forwarded-For", "198.51.100.200, " + addr} }

		// An attacker fails on two accounts it does not know; its address is locked out.
		for _, email := range []string{"x@a.example", "y@a.example"} {
			if code, _, _ := attempt(c, s.URL, email, "guess", from("203.0.113.9")...); code != http.StatusUnauthorized {
				t.Fatalf("attacker's failure: %d, want 401", code)
			}
		}
		if code, _, _ := attempt(c, s.URL, s.OwnerB, password, from("203.0.113.9")...); code != http.StatusTooManyRequests {
			t.Errorf("attacker's third attempt: %d, want 429", code)
		}
		// Everyone else behind the same proxy still signs in.
		if code, _, _ := attempt(c, s.URL, s.OwnerA, password, from("192.0.2.10")...); code != http.StatusSeeOther {
			t.Errorf("another user behind the proxy: %d, want 303", code)
		}

		// Failures on one account from many addresses lock that account, not the others.
		for _, addr := range []string{"192.0.2.20", "192.0.2.21"} {
			if code, _, _ := attempt(c, s.URL, s.MemberA, "guess", from(addr)...); code != http.StatusUnauthorized {
				t.Fatalf("failure on the account: %d, want 401", code)
			}
		}
		if code, _, _ := attempt(c, s.URL, s.MemberA, password, from("192.0.2.22")...); code != http.StatusTooManyRequests {
			t.Errorf("the account from a fresh address: %d, want 429", code)
		}
		if code, _, _ := attempt(c, s.URL, s.OwnerB, password, from("192.0.2.22")...); code != http.StatusSeeOther {
			t.Errorf("another account from that address: %d, want 303", code)
		}

		// Without trusted proxies X-Forwarded-For is the client's own claim: the connection's address counts.
		plain := startSite(t, engine, web.Config{LoginLimit: 2, LoginWindow: time.Hour})
		plain.freshWindow(time.Hour)
		for i, addr := range []string{"203.0.113.1", "203.0.113.2"} {
			if code, _, _ := attempt(c, plain.URL, "z"+string(rune('a'+i))+"@a.example", "guess", "X-Forwarded-For", addr); code != http.StatusUnauthorized {
				t.Fatalf("failure: %d, want 401", code)
			}
		}
		if code, _, _ := attempt(c, plain.URL, plain.OwnerA, password, "X-Forwarded-For", "203.0.113.3"); code != http.StatusTooManyRequests {
			t.Errorf("a forged X-Forwarded-For without trusted proxies: %d, want 429 (the header is not believed)", code)
		}
	})
}

// Sign-in limits do not fail open: while the shared counters do not answer, sign-ins are turned away with 503
// until the breaker in front of them counts in process.
func TestSignInWhenTheCountersFail(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	opts, err := ratelimit.ParseRedisURL("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	defer client.Close()
	store := ratelimit.NewBreaker(ratelimit.NewRedis(client), ratelimit.BreakerConfig{Failures: 3, Interval: time.Hour, Logger: slog.New(slog.DiscardHandler)})
	s := startSite(t, storetest.Engines()[0], web.Config{LoginLimit: 2, LoginWindow: time.Hour, LoginStore: store})
	s.freshWindow(time.Hour)
	c := noRedirects(time.Minute)
	for i := range 3 {
		code, h, err := attempt(c, s.URL, s.OwnerA, "wrong password")
		if err != nil || code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
			t.Fatalf("attempt %d with the counters down: %d (Retry-After %q), %v; want 503 with Retry-After", i+1, code, h.Get("Retry-After"), err)
		}
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
		if code, _, err := attempt(c, s.URL, s.OwnerA, "wrong password"); err != nil || code != want {
			t.Errorf("attempt %d counted in process: %d, %v; want %d", i+1, code, err, want)
		}
	}
}
