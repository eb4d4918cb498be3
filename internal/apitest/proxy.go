package apitest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections from a fixed loopback address to a target while it is up. Down closes the
// listener and every connection through it, so the address refuses connections as a stopped server does;
// Up listens on the same address again.
type Proxy struct {
	t      testing.TB
	addr   string
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
	wg    sync.WaitGroup
}

// NewProxy starts a Proxy to target, up; it is closed when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	p := &Proxy{t: t, target: target}
	p.Up()
	t.Cleanup(p.Down)
	return p
}

// Addr is the proxy's address, host:port.
func (p *Proxy) Addr() string { return p.addr }

// Up accepts connections again.
func (p *Proxy) Up() {
	p.t.Helper()
	addr := p.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatalf("proxy: listen on %s: %v", addr, err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", p.target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			p.wg.Go(func() { io.Copy(out, in); out.Close() })
			p.wg.Go(func() { io.Copy(in, out); in.Close() })
		}
	})
}

// Down stops accepting connections and cuts the open ones.
func (p *Proxy) Down() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}
