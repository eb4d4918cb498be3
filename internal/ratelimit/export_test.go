package ratelimit

// Len reports how many counters m holds, live or not yet swept.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.counts)
}
