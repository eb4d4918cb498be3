package fetch

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
)

// hostLimiter bounds the requests in flight to each host; a host's entry
// lives only while some request holds or awaits one of its slots.
type hostLimiter struct {
	limit int
	mu    sync.Mutex
	hosts map[string]*hostSlots
}

type hostSlots struct {
	sem  chan struct{}
	refs int
}

func newHostLimiter(limit int) *hostLimiter {
	return &hostLimiter{limit: limit, hosts: make(map[string]*hostSlots)}
}

// acquire waits for a slot on host and returns the function that frees it.
func (l *hostLimiter) acquire(ctx context.Context, host string) (func(), error) {
	l.mu.Lock()
	s := l.hosts[host]
	if s == nil {
		s = &hostSlots{sem: make(chan struct{}, l.limit)}
		l.hosts[host] = s
	}
	s.refs++
	l.mu.Unlock()

	select {
	case s.sem <- struct{}{}:
		return sync.OnceFunc(func() {
			<-s.sem
			l.unref(host, s)
		}), nil
	case <-ctx.Done():
		l.unref(host, s)
		return nil, ctx.Err()
	}
}

func (l *hostLimiter) unref(host string, s *hostSlots) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s.refs--
	if s.refs == 0 {
		delete(l.hosts, host)
	}
}

// inUse reports how many hosts currently have an entry.
func (l *hostLimiter) inUse() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hosts)
}

// limitedTransport holds a host slot from sending a request until its
// response body is closed, so every hop of a redirect chain is counted
// against its own host.
type limitedTransport struct {
	base    http.RoundTripper
	limiter *hostLimiter
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	release, err := t.limiter.acquire(req.Context(), strings.ToLower(req.URL.Hostname()))
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// releasingBody frees its host slot when closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}
