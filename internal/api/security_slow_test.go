package api_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"radar/internal/api"
	"radar/internal/apitest"
	"radar/internal/sqldb"
)

// slowServer serves the API, and a form route standing in for the web UI, behind the production listener and
// server with small timeouts.
func slowServer(t *testing.T) string {
	env := apitest.StartWith(t, sqldb.SQLite, apitest.Options{Configure: func(_ *apitest.Env, c *api.Config) {
		c.Web = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := r.ParseForm(); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Write([]byte("ok"))
		})
	}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := api.NewHTTPServer(env.Server, api.Timeouts{ReadHeader: 200 * time.Millisecond, Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond}, nil)
	go srv.Serve(api.Listener(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// trickle sends head, then body one byte at a time, until the server closes the connection; it returns how
// many bytes of the body were sent by then.
func trickle(t *testing.T, addr, head string, body int) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, conn)
		close(closed)
	}()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	for sent := 0; sent < body; sent++ {
		select {
		case <-closed:
			return sent
		case <-time.After(20 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{'x'}); err != nil {
			return sent
		}
	}
	<-closed
	return body
}

// A client that trickles its request body, or its headers, is cut off by the server before it has sent
// them: on API routes, on form routes of the web UI, and on a kept-alive connection left idle.
func TestSlowClientsAreCutOff(t *testing.T) {
	addr := slowServer(t)
	const body = 250 // 5 s at one byte each 20 ms: many times the server's timeouts
	for name, head := range map[string]string{
		"API body":      "POST /api/v1/tracker HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer rdr_x_y\r\nContent-Type: application/json\r\nContent-Length: 250\r\n\r\n",
		"web form body": "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 250\r\n\r\n",
		"headers":       "GET /api/v1/tracker HTTP/1.1\r\nHost: x\r\nX-Slow: ",
	} {
		t.Run(name, func(t *testing.T) {
			if sent := trickle(t, addr, head, body); sent >= body {
				t.Errorf("the server read all %d trickled bytes; want the connection closed before", body)
			}
		})
	}
	t.Run("idle connection", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, "GET /healthz-unknown HTTP/1.1\r\nHost: x\r\n\r\n")
		// The answer, then the end of the connection once it has stayed idle.
		b, err := io.ReadAll(conn)
		if err != nil || !strings.HasPrefix(string(b), "HTTP/1.1 ") {
			t.Errorf("read %q, %v; want an answer, then the connection closed", b, err)
		}
	})
}
