// Package fetch is Radar's single HTTP client for outbound requests: it bounds
// time, size and redirects, honours robots.txt, limits requests per host and
// refuses private-network destinations at dial time.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// DefaultUserAgent identifies Radar to the sites it reads.
const DefaultUserAgent = "RadarBot/1.0 (+https://radar.invalid/bot)"

// Config tunes a Client; zero fields take the documented defaults.
type Config struct {
	AllowPrivate       bool             // reach loopback and private addresses (RADAR_FETCH_ALLOW_PRIVATE); tests and demos only
	UserAgent          string           // default DefaultUserAgent; its product token is matched against robots.txt
	ConnectTimeout     time.Duration    // per connection attempt, default 5s
	Timeout            time.Duration    // per request in total, including redirects and robots.txt, default 20s
	MaxBytes           int64            // response body cap, default 5 MiB
	MaxRedirects       int              // default 5
	PerHostConcurrency int              // requests in flight per host, default 2
	RobotsTTL          time.Duration    // how long a robots.txt is cached, default 1h
	Now                func() time.Time // clock for the robots.txt cache, default time.Now
}

func (cfg Config) withDefaults() Config {
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 5 << 20
	}
	if cfg.MaxRedirects <= 0 {
		cfg.MaxRedirects = 5
	}
	if cfg.PerHostConcurrency <= 0 {
		cfg.PerHostConcurrency = 2
	}
	if cfg.RobotsTTL <= 0 {
		cfg.RobotsTTL = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return cfg
}

// Request describes one GET.
type Request struct {
	URL          string
	ETag         string      // sent as If-None-Match when set
	LastModified string      // sent as If-Modified-Since when set
	Header       http.Header // extra headers, e.g. Authorization or Accept
	IgnoreRobots bool        // skip robots.txt, for APIs rather than crawled pages
}

// Response is a fully read 2xx or 304 response.
type Response struct {
	URL          string // final URL after redirects
	StatusCode   int
	Header       http.Header
	Body         []byte
	ContentType  string
	ETag         string // validator to send next time; the request's own when a 304 omits it
	LastModified string // validator to send next time; the request's own when a 304 omits it
	NotModified  bool   // the server answered 304 to a conditional request
}

// Client performs guarded GETs; it is safe for concurrent use.
type Client struct {
	cfg        Config
	agent      string // robots.txt product token
	guard      *guard // nil when private addresses are allowed
	transport  *http.Transport
	limited    http.RoundTripper
	robotsHTTP *http.Client
	robots     *robotsCache
	limiter    *hostLimiter
}

// New returns a Client for cfg.
func New(cfg Config) *Client {
	return newClient(cfg, netip.AddrPort{})
}

// newClient builds a Client whose guard, if any, lets exempt through.
func newClient(cfg Config, exempt netip.AddrPort) *Client {
	cfg = cfg.withDefaults()
	c := &Client{
		cfg:     cfg,
		agent:   productToken(cfg.UserAgent),
		robots:  &robotsCache{entries: make(map[string]*robotsEntry)},
		limiter: newHostLimiter(cfg.PerHostConcurrency),
	}
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	if !cfg.AllowPrivate {
		c.guard = newGuard(exempt)
		dialer.Control = c.guard.control
	}
	c.transport = &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   cfg.PerHostConcurrency,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	c.limited = &limitedTransport{base: c.transport, limiter: c.limiter}
	c.robotsHTTP = &http.Client{Transport: c.transport, CheckRedirect: c.redirectPolicy(true)}
	return c
}

// productToken returns the name part of a User-Agent, "RadarBot" for "RadarBot/1.0 (...)".
func productToken(ua string) string {
	token, _, _ := strings.Cut(ua, " ")
	token, _, _ = strings.Cut(token, "/")
	return token
}

// CloseIdleConnections closes kept-alive connections; the Client stays usable.
func (c *Client) CloseIdleConnections() {
	c.transport.CloseIdleConnections()
}

// Get fetches r.URL and reads its body. It returns an error wrapping one of
// the package's sentinels, a *StatusError, or a timeout recognised by IsTimeout.
func (c *Client) Get(ctx context.Context, r Request) (*Response, error) {
	u, err := c.checkURL(r.URL)
	if err != nil {
		return nil, fmt.Errorf("fetch: %s: %w", r.URL, err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	if !r.IgnoreRobots {
		allowed, err := c.robotsAllowed(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("fetch: %s: robots.txt: %w", r.URL, err)
		}
		if !allowed {
			return nil, fmt.Errorf("fetch: %s: %w", r.URL, ErrRobots)
		}
	}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("fetch: %s: %w", r.URL, err)
	}
	for k, vs := range r.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if r.ETag != "" {
		req.Header.Set("If-None-Match", r.ETag)
	}
	if r.LastModified != "" {
		req.Header.Set("If-Modified-Since", r.LastModified)
	}

	hc := &http.Client{Transport: c.limited, CheckRedirect: c.redirectPolicy(r.IgnoreRobots)}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, doError(r.URL, req.URL.String(), err)
	}
	defer resp.Body.Close()

	final := resp.Request.URL.String()
	if resp.StatusCode != http.StatusNotModified && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		return nil, &StatusError{Code: resp.StatusCode, URL: final}
	}
	if resp.ContentLength > c.cfg.MaxBytes {
		return nil, fmt.Errorf("fetch: %s: %w: %d bytes declared, limit %d", final, ErrTooLarge, resp.ContentLength, c.cfg.MaxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBytes+1))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w: %w", ctxErr, err)
		}
		return nil, fmt.Errorf("fetch: %s: reading body: %w", final, err)
	}
	if int64(len(body)) > c.cfg.MaxBytes {
		return nil, fmt.Errorf("fetch: %s: %w: limit %d bytes", final, ErrTooLarge, c.cfg.MaxBytes)
	}

	out := &Response{
		URL:          final,
		StatusCode:   resp.StatusCode,
		Header:       resp.Header,
		Body:         body,
		ContentType:  resp.Header.Get("Content-Type"),
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
		NotModified:  resp.StatusCode == http.StatusNotModified,
	}
	if out.NotModified {
		if out.ETag == "" {
			out.ETag = r.ETag
		}
		if out.LastModified == "" {
			out.LastModified = r.LastModified
		}
	}
	return out, nil
}

// checkURL parses raw and refuses schemes other than http and https and,
// when guarded, hosts that are refused IP addresses.
func (c *Client) checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if err := c.checkTarget(u); err != nil {
		return nil, err
	}
	return u, nil
}

func (c *Client) checkTarget(u *url.URL) error {
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return fmt.Errorf("%w: %q", ErrScheme, u.Scheme)
	}
	if u.Host == "" {
		return errors.New("url has no host")
	}
	if c.guard != nil {
		return c.guard.checkURL(u)
	}
	return nil
}

// redirectPolicy checks each redirect hop: the count, the scheme, the guard
// and, unless ignoreRobots, the target site's robots.txt.
func (c *Client) redirectPolicy(ignoreRobots bool) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > c.cfg.MaxRedirects {
			return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, c.cfg.MaxRedirects)
		}
		if err := c.checkTarget(req.URL); err != nil {
			return err
		}
		if ignoreRobots {
			return nil
		}
		allowed, err := c.robotsAllowed(req.Context(), req.URL)
		if err != nil {
			return fmt.Errorf("robots.txt: %w", err)
		}
		if !allowed {
			return ErrRobots
		}
		return nil
	}
}

// doError words an http.Client error as "fetch: <url>: ...", naming the
// redirect hop where it happened when that is not the first request.
func doError(rawURL, firstURL string, err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return fmt.Errorf("fetch: %s: %w", rawURL, err)
	}
	if ue.URL != firstURL {
		return fmt.Errorf("fetch: %s: at %s: %w", rawURL, ue.URL, ue.Err)
	}
	return fmt.Errorf("fetch: %s: %w", rawURL, ue.Err)
}
