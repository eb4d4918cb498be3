package app_test

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// tripCounter forwards TCP connections to a database and counts round trips: every time a client starts
// sending after the server has answered (or first sends) is one. A pipelined batch is one round trip.
type tripCounter struct {
	ln     net.Listener
	target string
	trips  atomic.Int64
	wg     sync.WaitGroup
}

func newTripCounter(t testing.TB, target string) *tripCounter {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &tripCounter{ln: ln, target: target}
	c.wg.Go(c.accept)
	t.Cleanup(func() { ln.Close(); c.wg.Wait() })
	return c
}

func (c *tripCounter) accept() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			in.Close()
			continue
		}
		var (
			mu      sync.Mutex
			waiting bool // the client has sent and awaits an answer
		)
		pipe := func(dst, src net.Conn, fromClient bool) {
			defer dst.Close()
			defer src.Close()
			buf := make([]byte, 64<<10)
			for {
				n, err := src.Read(buf)
				if n > 0 {
					mu.Lock()
					if fromClient && !waiting {
						c.trips.Add(1)
					}
					waiting = fromClient
					mu.Unlock()
					if _, err := dst.Write(buf[:n]); err != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}
		c.wg.Go(func() { pipe(out, in, true) })
		c.wg.Go(func() { pipe(in, out, false) })
	}
}

// TestPostgresRoundTrips counts the round trips to PostgreSQL of a create and of a read through the whole API:
// a create costs at most one more than a read of an entity, and its idempotency key one more.
func TestPostgresRoundTrips(t *testing.T) {
	var counter *tripCounter
	env := apitest.StartWith(t, sqldb.Postgres, apitest.Options{DatabaseURL: func(u string) string {
		host := u[strings.Index(u, "@")+1:]
		host = host[:strings.IndexAny(host, "/?")]
		counter = newTripCounter(t, host)
		return strings.Replace(u, "@"+host, "@"+counter.ln.Addr().String(), 1)
	}})
	key := env.Key(t, env.OrgA)
	create := func(i int) string {
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, apitest.CreateBody("Company "+strconv.Itoa(i)))
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %s", res)
		}
		return res.Data()["id"].(string)
	}
	createOnce := func(i int) {
		res := env.Send(t, apitest.Request{Method: http.MethodPost, Path: "/api/v1/tracker", Key: key,
			Body: apitest.CreateBody("Keyed " + strconv.Itoa(i)), Header: http.Header{"Idempotency-Key": {"create-" + strconv.Itoa(i)}}})
		if res.Status != http.StatusCreated {
			t.Fatalf("create with an idempotency key: %s", res)
		}
	}
	read := func(id string) {
		if res := env.Do(t, http.MethodGet, "/api/v1/tracker/"+id, key, nil); res.Status != http.StatusOK {
			t.Fatalf("read: %s", res)
		}
	}
	// Warm up: connections are open and statements prepared, as on a server that has been running.
	var ids []string
	for i := range 5 {
		ids = append(ids, create(i))
		read(ids[i])
		createOnce(i)
	}
	const n = 20
	measure := func(fn func(i int)) float64 {
		before := counter.trips.Load()
		for i := range n {
			fn(i)
		}
		return float64(counter.trips.Load()-before) / n
	}
	creates := measure(func(i int) { create(100 + i) })
	keyed := measure(func(i int) { createOnce(100 + i) })
	reads := measure(func(i int) { read(ids[i%len(ids)]) })
	t.Logf("round trips to PostgreSQL: %.1f per create, %.1f per create with an idempotency key, %.1f per read", creates, keyed, reads)
	if creates > reads+1 {
		t.Errorf("a create costs %.1f round trips, a read %.1f: want at most one more", creates, reads)
	}
	// The key is claimed before the create, in a round trip of its own, so that a retry finds it in progress.
	if keyed > creates+1 {
		t.Errorf("a create with an idempotency key costs %.1f round trips, one without %.1f: want at most one more", keyed, creates)
	}
}
