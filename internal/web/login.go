package web

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"radar/internal/ratelimit"
)

// Defaults of Config: how long a sign-in waits for a free password-hash slot before it is turned away, and
// how long its counters may take to answer.
const (
	DefaultHashWait     = 2 * time.Second
	DefaultLoginTimeout = time.Second
)

// hashGate bounds how many password hashes run at once: each takes 64 MiB, so an unbounded number of
// concurrent sign-ins would take the process's memory with them.
type hashGate struct {
	slots chan struct{}
	wait  time.Duration
}

func newHashGate(size int, wait time.Duration) *hashGate {
	return &hashGate{slots: make(chan struct{}, size), wait: wait}
}

// acquire takes a slot, waiting at most the gate's wait; false when none came free or ctx ended.
func (g *hashGate) acquire(ctx context.Context) bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

func (g *hashGate) release() { <-g.slots }

// loginAttempt is one sign-in counted against its account and its client address.
type loginAttempt struct {
	emailKey, ipKey string
	email, ip       ratelimit.Decision
}

// countLogin counts a sign-in attempt first and then decides, so that of attempts racing each other only those
// within the limits go on, whatever their number: first against the account, then, if the account may still
// try, against the client address. An attempt the address refuses gives back its hit on the account, so the
// account's counter holds the attempts that reached the password check (or are on their way to it) and a
// locked-out address cannot use up the accounts it names. wait is zero when the attempt may go on, else how
// long until it may. Sign-in limits do not fail open as the API's do: when the counters cannot be reached in
// time, counted is false and the attempt is turned away; the breaker in front of Redis soon counts in process.
func (h *Handler) countLogin(ctx context.Context, email string, r *http.Request) (a *loginAttempt, wait time.Duration, counted bool) {
	a = &loginAttempt{emailKey: "email:" + email, ipKey: "ip:" + clientKey(clientAddr(r, h.trustedProxies))}
	d := h.logins.Allow(ctx, a.emailKey, bucketLoginEmail)
	if d.FailedOpen {
		return a, 0, false
	}
	if !d.Allowed {
		return a, d.ResetAfter, true
	}
	a.email = d
	d = h.logins.Allow(ctx, a.ipKey, bucketLoginIP)
	if d.FailedOpen || !d.Allowed {
		h.logins.Undo(context.WithoutCancel(ctx), a.emailKey, a.email)
		a.email = ratelimit.Decision{}
		return a, d.ResetAfter, !d.FailedOpen
	}
	a.ip = d
	return a, 0, true
}

// busy answers a sign-in that cannot be handled at this moment: 503 with Retry-After, at once.
func (h *Handler) busy(w http.ResponseWriter, r *http.Request, data loginData) {
	w.Header().Set("Retry-After", "1")
	data.Error = "Too many sign-ins at this moment. Try again in a few seconds."
	h.render(w, r, http.StatusServiceUnavailable, "login", page{Title: "Sign in", Data: data})
}

// uncountLogin takes back an attempt that went on: it was turned away before the password check, or it succeeded.
func (h *Handler) uncountLogin(ctx context.Context, a *loginAttempt) {
	ctx = context.WithoutCancel(ctx)
	h.logins.Undo(ctx, a.emailKey, a.email)
	h.logins.Undo(ctx, a.ipKey, a.ip)
}

// clientAddr is the address of the client a request comes from. It is the connection's address unless that
// address is a trusted proxy; then X-Forwarded-For (every such header, in order) is read from right to left,
// skipping trusted proxies, and the first address that is not one is the client. When every hop is trusted
// the leftmost is the client; an entry that is not an address ends the walk at the hop to its right, the last
// one a trusted proxy vouched for. The zero Addr means the connection's address could not be read.
func clientAddr(r *http.Request, trusted []netip.Prefix) netip.Addr {
	addr, ok := parseHop(r.RemoteAddr)
	if !ok || !isTrusted(addr, trusted) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if hop == "" {
			continue
		}
		a, ok := parseHop(hop)
		if !ok {
			return addr
		}
		addr = a
		if !isTrusted(a, trusted) {
			return a
		}
	}
	return addr
}

// parseHop reads an address with or without a port ("192.0.2.1", "192.0.2.1:443", "[2001:db8::1]:443").
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(host); err == nil {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientKey names a client address's counters: an IPv4 address, or the /64 network of an IPv6 address, since
// one subscriber usually holds a whole /64 and could otherwise rotate through it.
func clientKey(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "unknown"
	case a.Is4():
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}
