package ratelimit

// Len reports how many counters m holds, live or not yet swept.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.counts)
}

// Reserved reports how many counters l keeps reservations for, live or not yet swept.
func (l *Limiter) Reserved() int {
	if l.reserved == nil {
		return 0
	}
	l.reserved.mu.Lock()
	defer l.reserved.mu.Unlock()
	return len(l.reserved.counters)
}
