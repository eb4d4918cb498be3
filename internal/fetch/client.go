package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// NewHTTPClient returns a client for outbound requests other than crawled GETs, such as webhook deliveries: the
// same dial-time guard as the fetcher (unless cfg.AllowPrivate), cfg.ConnectTimeout per connection and
// cfg.Timeout per request, and no redirects followed (a 3xx answer is returned as it is).
func NewHTTPClient(cfg Config) *http.Client {
	cfg = cfg.withDefaults()
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	if !cfg.AllowPrivate {
		dialer.Control = newGuard(netip.AddrPort{}).control
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   cfg.PerHostConcurrency,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// CheckDestination refuses a URL that the guard would refuse at dial time, before any request: a scheme other
// than http or https, no host, or a host that is, or resolves to, a private or reserved address or a port other
// than 80 and 443. A host name that does not resolve now is let through; the dial-time guard still applies.
// With allowPrivate only the scheme and host are checked.
func CheckDestination(ctx context.Context, raw string, allowPrivate bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL: %w", err)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return fmt.Errorf("%w: %q", ErrScheme, u.Scheme)
	}
	if u.Hostname() == "" {
		return errors.New("url has no host")
	}
	if allowPrivate {
		return nil
	}
	g := newGuard(netip.AddrPort{})
	if err := g.checkURL(u); err != nil {
		return err
	}
	if _, ok := hostAddr(u.Hostname()); ok {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(rctx, "ip", u.Hostname())
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		v := *u
		v.Host = net.JoinHostPort(a.Unmap().String(), u.Port())
		if u.Port() == "" {
			v.Host = a.Unmap().String()
			if strings.Contains(v.Host, ":") {
				v.Host = "[" + v.Host + "]"
			}
		}
		if err := g.checkURL(&v); err != nil {
			return err
		}
	}
	return nil
}
