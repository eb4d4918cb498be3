package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"radar"
)

// Listener wraps ln so that the few answers net/http writes itself, before any handler runs (a malformed
// request line or header, headers over the limit, an unknown transfer coding), carry the error envelope
// like every other error instead of plain text.
func Listener(ln net.Listener) net.Listener { return envelopeListener{ln} }

type envelopeListener struct{ net.Listener }

func (l envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return envelopeConn{c}, nil
}

type envelopeConn struct{ net.Conn }

// serverErrorHeaders follows the status line of every answer net/http writes itself, in one Write call; a
// handler's answer never has it, since net/http writes a handler's headers sorted (Connection first).
var serverErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// serverErrors gives the error code and message of each status net/http answers with itself.
var serverErrors = map[int]struct{ code, message string }{
	http.StatusBadRequest:                  {radar.EValidation, "malformed request"},
	http.StatusRequestHeaderFieldsTooLarge: {radar.EHeaderTooLarge, "request headers are larger than 1 MiB"},
	http.StatusNotImplemented:              {radar.ENotImplemented, "unsupported transfer encoding"},
	http.StatusHTTPVersionNotSupported:     {radar.EHTTPVersionNotSupported, "unsupported HTTP version; use HTTP/1.1"},
}

func (c envelopeConn) Write(b []byte) (int, error) {
	if out, ok := rewriteServerError(b); ok {
		if _, err := c.Conn.Write(out); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return c.Conn.Write(b)
}

// rewriteServerError returns the envelope form of an answer net/http wrote itself, such as
// "HTTP/1.1 400 Bad Request: invalid header name" + serverErrorHeaders + the same text.
func rewriteServerError(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok {
		return nil, false
	}
	// Only the status line is looked at: a handler's answer is passed on without a scan of its body.
	end := bytes.Index(rest, []byte("\r\n"))
	if end < 0 || !bytes.HasPrefix(rest[end:], serverErrorHeaders) {
		return nil, false
	}
	line := rest[:end]
	if len(line) < 4 || line[3] != ' ' {
		return nil, false
	}
	status, err := strconv.Atoi(string(line[:3]))
	known, ok := serverErrors[status]
	if err != nil || !ok {
		return nil, false
	}
	msg := known.message
	// net/http names the fault after the status text: "400 Bad Request: invalid header name".
	if _, detail, found := strings.Cut(string(line[4:]), ": "); found && status == http.StatusBadRequest {
		msg += ": " + detail
	}
	body, _ := json.Marshal(ErrorBody{Err: radar.Errorf(known.code, "%s", msg)})
	var out bytes.Buffer
	fmt.Fprintf(&out, "HTTP/1.1 %d %s\r\nConnection: close\r\nContent-Length: %d\r\nContent-Type: application/json\r\nX-Request-Id: %s\r\n\r\n",
		status, http.StatusText(status), len(body), newRequestID())
	out.Write(body)
	return out.Bytes(), true
}

// Timeouts bound how long a client may take to send a request and keep an idle connection open.
type Timeouts struct {
	// ReadHeader bounds reading the request line and headers.
	ReadHeader time.Duration
	// Read bounds reading the whole request, body included, so that a client trickling its body (slowloris)
	// is cut off; it does not bound the handler, since net/http stops the deadline once the body is read.
	Read time.Duration
	// Idle bounds a kept-alive connection between requests.
	Idle time.Duration
}

// DefaultTimeouts leave a slow link a minute for a 1 MiB body.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Idle: 2 * time.Minute}

// NewHTTPServer returns the HTTP server of h with timeouts t. There is no write timeout: a draft enrichment
// may take minutes, and answers are small.
func NewHTTPServer(h http.Handler, t Timeouts, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		IdleTimeout:       t.Idle,
		ErrorLog:          errorLog,
	}
}
