package ratelimit

import (
	"context"
	"sync"
	"time"
)

// sweepInterval is how often Memory drops expired counters, so idle keys do not accumulate.
const sweepInterval = time.Minute

// Memory is an in-process Store for a single node.
type Memory struct {
	now func() time.Time

	mu        sync.Mutex
	counts    map[string]memoryCounter
	nextSweep time.Time
}

type memoryCounter struct {
	n       int64
	expires time.Time
}

// NewMemory returns an empty in-process Store reading time from now (time.Now when nil).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, counts: make(map[string]memoryCounter)}
}

// Incr implements Store; it never fails and never waits on I/O, so it ignores ctx.
func (m *Memory) Incr(_ context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if !now.Before(m.nextSweep) {
		m.sweep(now)
		m.nextSweep = now.Add(sweepInterval)
	}
	c, ok := m.counts[key]
	if !ok || !now.Before(c.expires) {
		c = memoryCounter{expires: now.Add(ttl)}
	}
	c.n += n
	m.counts[key] = c
	return c.n, nil
}

// Peek implements Store; like Incr it never fails.
func (m *Memory) Peek(_ context.Context, key string) (int64, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.counts[key]
	if !ok || !now.Before(c.expires) {
		return 0, nil
	}
	return c.n, nil
}

func (m *Memory) sweep(now time.Time) {
	for k, c := range m.counts {
		if !now.Before(c.expires) {
			delete(m.counts, k)
		}
	}
}

// Decr implements Store; like Incr it never fails.
func (m *Memory) Decr(_ context.Context, key string) error {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.counts[key]; ok && now.Before(c.expires) && c.n > 0 {
		c.n--
		m.counts[key] = c
	}
	return nil
}
