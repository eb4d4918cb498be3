package fetch

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"radar/internal/simweb"
)

// internalDetail matches what a plain reason must never show: addresses, ports and Go's error wording.
var internalDetail = regexp.MustCompile(`\d+\.\d+\.\d+|\[::|:\d{2,5}\b|dial tcp|lookup |read tcp|fetch:`)

func TestReasonWordsFailuresPlainly(t *testing.T) {
	stop := make(chan struct{})
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/unavailable":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/stall":
			select {
			case <-r.Context().Done():
			case <-stop:
			}
		}
	}))
	t.Cleanup(func() { close(stop) })

	c := newTestClient(t, Config{Timeout: 100 * time.Millisecond})
	guarded := New(Config{})
	t.Cleanup(guarded.CloseIdleConnections)
	for _, tc := range []struct {
		name   string
		client *Client
		url    string
		want   string
	}{
		{"status", c, srv.URL + "/unavailable", "HTTP 503"},
		{"timeout", c, srv.URL + "/stall", "the site did not answer (timeout)"},
		{"refused", c, simweb.RefusedURL + "/", "the site did not answer (connection refused)"},
		{"private", guarded, srv.URL + "/", "the address is private or reserved"},
		{"scheme", c, "ftp://example.com/", "the address is not http or https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.client.Get(context.Background(), Request{URL: tc.url, IgnoreRobots: true})
			if err == nil {
				t.Fatal("got no error")
			}
			got := Reason(err)
			if got != tc.want {
				t.Errorf("Reason(%v) = %q, want %q", err, got, tc.want)
			}
			if internalDetail.MatchString(got) {
				t.Errorf("Reason(%v) = %q shows internal detail", err, got)
			}
		})
	}
	if got := Reason(nil); got != "" {
		t.Errorf("Reason(nil) = %q, want empty", got)
	}
	if got := Reason(context.Canceled); !strings.Contains(got, "stopped") {
		t.Errorf("Reason(canceled) = %q", got)
	}
}
