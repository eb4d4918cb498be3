package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"radar/internal/fetch"
)

// TestHTTPClientGuard: the client for deliveries refuses a loopback server at dial time unless private
// addresses are allowed, and returns redirects instead of following them.
func TestHTTPClientGuard(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	post := func(c *http.Client) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
		return c.Do(req)
	}
	if _, err := post(fetch.NewHTTPClient(fetch.Config{})); !errors.Is(err, fetch.ErrPrivateAddress) {
		t.Errorf("guarded client: err %v, want ErrPrivateAddress", err)
	}
	if hits != 0 {
		t.Fatalf("the guarded client reached the server")
	}
	res, err := post(fetch.NewHTTPClient(fetch.Config{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || hits != 1 {
		t.Errorf("status %d after %d requests, want the 302 itself", res.StatusCode, hits)
	}
}

// TestCheckDestination refuses what the guard would refuse, before any request.
func TestCheckDestination(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://receiver.example/hook": true,
		"http://127.0.0.1/hook":         false,
		"http://[::1]:443/x":            false,
		"http://0x7f000001/x":           false,
		"https://8.8.8.8:8443/x":        false,
		"ftp://receiver.example/x":      false,
		"https:///nohost":               false,
	} {
		err := fetch.CheckDestination(context.Background(), raw, false)
		if (err == nil) != ok {
			t.Errorf("%s: err %v, want ok=%v", raw, err, ok)
		}
	}
	if err := fetch.CheckDestination(context.Background(), "http://127.0.0.1:9/x", true); err != nil {
		t.Errorf("allowed private: %v", err)
	}
}
