package ratelimit

import (
	"sync"
	"time"
)

// DefaultReserve is the most hits of one bucket a Limiter on a shared store counts in it at once (Config.Reserve).
const DefaultReserve = 16

// A Limiter on a shared store (Redis) does not ask the store at every hit. It counts several hits there at once,
// a reservation, and hands them out in process: a counter's positions (its hits' numbers in the window) are taken
// in order, and a hit at a position over the bucket's limit is denied, as if each hit had been counted in the
// store. The first reservation of a window is one hit; each next one twice the last, up to Config.Reserve, a
// fortieth of the limit and an eighth of what the store's count left of it; requests that find nothing reserved
// while a reservation is under way count one hit each. So a key that sends one request a window costs a round
// trip a request, as without reservations, and a busy key one round trip in up to Reserve requests; small limits
// (under 80) are counted hit by hit.
//
// One replica hands out every position it reserves, in order: it allows and denies exactly as without
// reservations. With several, hits a replica reserved and has not used yet count for the others as used: a key
// whose requests stop reaching a replica may be refused up to a fortieth of its limit early by the others, and
// the Remaining a client sees counts down the positions of the replica that answers.

// reservations are a Limiter's unused reserved positions, by counter key; a window's are dropped once it ends.
type reservations struct {
	mu        sync.Mutex
	counters  map[string]*reserved
	nextSweep time.Time
}

// reserved is one counter's reservations in this process.
type reserved struct {
	mu      sync.Mutex
	spans   []span    // unused positions, lowest first
	last    int64     // size of the largest reservation
	pending int       // reservations under way
	count   int64     // the store's count after the last reservation
	ends    time.Time // end of the counter's window
}

// span is the positions from through to, inclusive.
type span struct{ from, to int64 }

// counter returns the reservations of key, whose window ends at ends, making them when missing.
func (r *reservations) counter(key string, ends, now time.Time) *reserved {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !now.Before(r.nextSweep) {
		for k, c := range r.counters {
			if !now.Before(c.ends) {
				delete(r.counters, k)
			}
		}
		r.nextSweep = now.Add(sweepInterval)
	}
	c := r.counters[key]
	if c == nil {
		if r.counters == nil {
			r.counters = map[string]*reserved{}
		}
		c = &reserved{ends: ends}
		r.counters[key] = c
	}
	return c
}

// unused returns how many reserved positions of key are not used yet.
func (r *reservations) unused(key string) int64 {
	r.mu.Lock()
	c := r.counters[key]
	r.mu.Unlock()
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, s := range c.spans {
		n += s.to - s.from + 1
	}
	return n
}

// take uses the lowest reserved position, if any.
func (c *reserved) take() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.spans) == 0 {
		return 0, false
	}
	return c.first(), true
}

// first uses the lowest reserved position; c.mu is held and there is one.
func (c *reserved) first() int64 {
	s := &c.spans[0]
	p := s.from
	if s.from++; s.from > s.to {
		c.spans = c.spans[1:]
	}
	return p
}

// giveBack returns position p, taken and not used.
func (c *reserved) giveBack(p int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.insert(span{p, p})
}

// reserve returns how many hits the next reservation counts, for a bucket of limit hits, at most most, and notes
// it as under way until add or failed. While one is under way, the requests that find nothing reserved count one
// hit each: a burst of them does not reserve a chunk each.
func (c *reserved) reserve(limit, most int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending++
	if c.pending > 1 {
		return 1
	}
	n := min(max(2*c.last, 1), most, limit/40, (limit-c.count)/8)
	return max(n, 1)
}

// failed notes that a reservation counted nothing.
func (c *reserved) failed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending--
}

// add keeps the reservation of n hits that brought the store's count to count, and uses the lowest position
// reserved: one of a reservation made meanwhile by another request may be lower.
func (c *reserved) add(n, count int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending--
	c.last = max(c.last, n)
	c.count = max(c.count, count)
	c.insert(span{count - n + 1, count})
	return c.first()
}

// insert adds s to the spans, keeping them lowest first; c.mu is held.
func (c *reserved) insert(s span) {
	i := len(c.spans)
	for i > 0 && c.spans[i-1].from > s.from {
		i--
	}
	c.spans = append(c.spans, span{})
	copy(c.spans[i+1:], c.spans[i:])
	c.spans[i] = s
}
