package fetch

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

// robotsMaxBytes is how much of a robots.txt file is read, as major crawlers do.
const robotsMaxBytes = 500 << 10

// robotsCache holds one parsed robots.txt per scheme and host for a TTL and
// lets concurrent requests for the same site share a single fetch.
type robotsCache struct {
	mu      sync.Mutex
	entries map[string]*robotsEntry
}

type robotsEntry struct {
	ready     chan struct{}
	done      bool      // guarded by robotsCache.mu
	expires   time.Time // guarded by robotsCache.mu
	abandoned bool      // set before ready is closed: the fetch was cut short, waiters retry
	data      *robotstxt.RobotsData
}

// robotsAllowed reports whether robots.txt lets Radar's user agent fetch u.
func (c *Client) robotsAllowed(ctx context.Context, u *url.URL) (bool, error) {
	key := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	for {
		c.robots.mu.Lock()
		now := c.cfg.Now()
		e := c.robots.entries[key]
		if e != nil && e.done && !now.Before(e.expires) {
			e = nil
		}
		if e != nil {
			c.robots.mu.Unlock()
			select {
			case <-e.ready:
			case <-ctx.Done():
				return false, ctx.Err()
			}
			if e.abandoned {
				continue
			}
			return c.robotsTest(e.data, u), nil
		}
		e = &robotsEntry{ready: make(chan struct{})}
		c.robots.sweep(now)
		c.robots.entries[key] = e
		c.robots.mu.Unlock()

		data, err := c.fetchRobots(ctx, key)

		c.robots.mu.Lock()
		if err != nil {
			if c.robots.entries[key] == e {
				delete(c.robots.entries, key)
			}
			e.abandoned = true
		} else {
			e.data = data
			e.done = true
			e.expires = c.cfg.Now().Add(c.cfg.RobotsTTL)
		}
		close(e.ready)
		c.robots.mu.Unlock()
		if err != nil {
			return false, err
		}
		return c.robotsTest(data, u), nil
	}
}

// sweep drops expired entries; the caller holds mu.
func (rc *robotsCache) sweep(now time.Time) {
	for k, e := range rc.entries {
		if e.done && !now.Before(e.expires) {
			delete(rc.entries, k)
		}
	}
}

func (c *Client) robotsTest(data *robotstxt.RobotsData, u *url.URL) bool {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return data.TestAgent(path, c.agent)
}

// fetchRobots retrieves and parses origin's robots.txt. A missing,
// unreadable or unparsable file, or an unreachable site, allows everything;
// it fails only when ctx itself ends.
func (c *Client) fetchRobots(ctx context.Context, origin string) (*robotstxt.RobotsData, error) {
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout/2)
	defer cancel()
	body, err := c.readRobots(rctx, origin+"/robots.txt")
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return allowAll(), nil
	}
	data, err := robotstxt.FromBytes(body)
	if err != nil {
		return allowAll(), nil
	}
	return data, nil
}

// readRobots returns the body of a robots.txt file, empty when the site
// answers with a status other than 2xx.
func (c *Client) readRobots(ctx context.Context, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	resp, err := c.robotsHTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, nil
	}
	return io.ReadAll(io.LimitReader(resp.Body, robotsMaxBytes))
}

// allowAll returns rules that allow every path, as robotstxt does for a missing file.
func allowAll() *robotstxt.RobotsData {
	data, _ := robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	return data
}
