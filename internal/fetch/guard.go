package fetch

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"code.dny.dev/ssrf"
)

// guard refuses connections to addresses outside the public internet; it runs
// as the dialer's Control function, after DNS resolution, for every connection.
type guard struct {
	ssrf *ssrf.Guardian
	// exempt is the single address the guard lets through regardless of the
	// rules, so that tests can serve the first hop from a loopback server.
	exempt netip.AddrPort
}

// webPorts are the only ports the guard lets the fetcher connect to.
var webPorts = []uint16{80, 443}

func newGuard(exempt netip.AddrPort) *guard {
	return &guard{ssrf: ssrf.New(ssrf.WithPorts(webPorts...)), exempt: exempt}
}

// CheckTarget refuses, without any lookup, a URL that a guarded fetcher could never fetch whatever its name
// resolves to: a port other than 80 and 443, a host that is an IP address outside the public internet (in
// any notation), or the name localhost. It applies the rules of the dial-time guard, so that a website can
// be refused when it is submitted rather than fail at every run. The error wraps ErrPrivateAddress and its
// message says what is wrong in words meant for the person who typed the URL.
func CheckTarget(u *url.URL) error {
	g := newGuard(netip.AddrPort{})
	port := uint16(80)
	if strings.EqualFold(u.Scheme, "https") {
		port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || !slices.Contains(webPorts, uint16(n)) {
			return &targetError{fmt.Sprintf("port %s is never fetched, only 80 (http) and 443 (https)", p)}
		}
		port = uint16(n)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return &targetError{u.Hostname() + " is this machine, which is never fetched"}
	}
	if addr, ok := hostAddr(u.Hostname()); ok {
		if err := g.ssrf.SafeAddrPort(netip.AddrPortFrom(addr, port)); err != nil {
			return &targetError{u.Hostname() + " is a loopback, private or reserved address, which is never fetched"}
		}
	}
	return nil
}

// targetError is a refusal of CheckTarget.
type targetError struct{ reason string }

func (e *targetError) Error() string { return e.reason }
func (e *targetError) Unwrap() error { return ErrPrivateAddress }

// control is the net.Dialer Control function.
func (g *guard) control(network, address string, c syscall.RawConn) error {
	if g.exempt.IsValid() {
		if ap, err := netip.ParseAddrPort(address); err == nil && ap == g.exempt {
			return nil
		}
	}
	if err := g.ssrf.Safe(network, address, c); err != nil {
		return fmt.Errorf("%w: %w", ErrPrivateAddress, err)
	}
	return nil
}

// checkURL refuses a URL whose host is an IP address, in any notation, that
// the dialer would refuse, so that it fails before any lookup or robots.txt
// request. Host names are left to the dial-time check.
func (g *guard) checkURL(u *url.URL) error {
	addr, ok := hostAddr(u.Hostname())
	if !ok {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return fmt.Errorf("invalid port %q: %w", port, err)
	}
	ap := netip.AddrPortFrom(addr, uint16(n))
	if g.exempt.IsValid() && ap == g.exempt {
		return nil
	}
	if err := g.ssrf.SafeAddrPort(ap); err != nil {
		return fmt.Errorf("%w: %w", ErrPrivateAddress, err)
	}
	return nil
}

// hostAddr returns the IP address a URL host denotes, accepting the standard
// forms and the legacy numeric IPv4 forms (2130706433, 0x7f000001, 0177.0.0.1,
// 127.1) that some resolvers and browsers still honour.
func hostAddr(host string) (netip.Addr, bool) {
	if addr, err := netip.ParseAddr(host); err == nil {
		return addr, true
	}
	return parseLegacyIPv4(strings.TrimSuffix(host, "."))
}

// parseLegacyIPv4 parses the inet_aton notation: one to four dot-separated
// parts, each decimal, octal with a leading 0, or hexadecimal with 0x, where
// the last part fills the remaining bytes.
func parseLegacyIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for _, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return netip.Addr{}, false
		}
		n = n<<8 | v
	}
	rest := 8 * uint(5-len(vals))
	last := vals[len(vals)-1]
	if last >= 1<<rest {
		return netip.Addr{}, false
	}
	n = n<<rest | last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}
