package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// received is what the test endpoint saw of one request.
type received struct {
	method, path, auth, contentType string
	body                            map[string]any
}

// newEndpoint starts a chat-completions endpoint that records each request into got and answers with handler.
func newEndpoint(t *testing.T, got *received, handler http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.path = r.Method, r.URL.Path
		got.auth, got.contentType = r.Header.Get("Authorization"), r.Header.Get("Content-Type")
		if err := json.NewDecoder(r.Body).Decode(&got.body); err != nil {
			t.Errorf("request body: %v", err)
		}
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func answer(content string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}
}

func TestJSONSendsChatCompletion(t *testing.T) {
	var got received
	srv := newEndpoint(t, &got, answer(`{"ok":true}`))
	zero := 0.0
	c := &Client{URL: srv.URL + "/v1/", Model: "radar-test-model", APIKey: "sk-test", Temperature: &zero, HTTP: srv.Client()}

	content, err := c.JSON(context.Background(), "be terse", "hello")
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if content != `{"ok":true}` {
		t.Errorf("content = %q, want the first choice's content", content)
	}
	if got.method != http.MethodPost || got.path != "/v1/chat/completions" {
		t.Errorf("request %s %s, want POST /v1/chat/completions", got.method, got.path)
	}
	if got.auth != "Bearer sk-test" || got.contentType != "application/json" {
		t.Errorf("Authorization %q Content-Type %q, want the bearer key and application/json", got.auth, got.contentType)
	}
	want := map[string]any{
		"model":           "radar-test-model",
		"temperature":     0.0,
		"response_format": map[string]any{"type": "json_object"},
		"messages": []any{
			map[string]any{"role": "system", "content": "be terse"},
			map[string]any{"role": "user", "content": "hello"},
		},
	}
	if g, w := fmt.Sprint(got.body), fmt.Sprint(want); g != w {
		t.Errorf("body = %s, want %s", g, w)
	}
}

func TestJSONWithoutKeyOrTemperature(t *testing.T) {
	var got received
	srv := newEndpoint(t, &got, answer(`{}`))
	c := &Client{URL: srv.URL, Model: "m"}
	if _, err := c.JSON(context.Background(), "s", "u"); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if got.auth != "" {
		t.Errorf("Authorization = %q without a key, want none", got.auth)
	}
	if _, ok := got.body["temperature"]; ok {
		t.Errorf("body %v has a temperature, want the endpoint's default", got.body)
	}
}

func TestEndpoint(t *testing.T) {
	tests := map[string]struct{ url, want string }{
		"base":                   {"https://api.example.com/v1", "https://api.example.com/v1/chat/completions"},
		"base with slash":        {"https://api.example.com/v1/", "https://api.example.com/v1/chat/completions"},
		"full address":           {"https://x.example/openai/deployments/d/chat/completions", "https://x.example/openai/deployments/d/chat/completions"},
		"full address and slash": {" https://x.example/chat/completions/ ", "https://x.example/chat/completions"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := (&Client{URL: tt.url}).Endpoint(); got != tt.want {
				t.Errorf("Endpoint() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	tests := map[string]struct {
		handler  http.HandlerFunc
		want     error
		wantText string
	}{
		"server error": {func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"upstream overloaded"}}`, http.StatusInternalServerError)
		}, ErrUnavailable, `status 500: {"error":{"message":"upstream overloaded"}}`},
		"rate limited": {func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, strings.Repeat("slow down ", 100), http.StatusTooManyRequests)
		}, ErrUnavailable, "status 429: slow down slow down"},
		"not json": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html>hello</html>")
		}, ErrInvalidAnswer, "decode answer: "},
		"no choices": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"choices":[]}`)
		}, ErrInvalidAnswer, "answer has no choices"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var got received
			srv := newEndpoint(t, &got, tt.handler)
			_, err := (&Client{URL: srv.URL, Model: "m", HTTP: srv.Client()}).JSON(context.Background(), "s", "u")
			if !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tt.wantText) || len([]rune(msg)) > 220 {
				t.Errorf("error text = %q, want a short detail starting %q", msg, tt.wantText)
			}
		})
	}
}

func TestJSONUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := (&Client{URL: url, Model: "m"}).JSON(context.Background(), "s", "u")
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("error = %v, want ErrUnavailable", err)
	}
}

func TestJSONDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := (&Client{URL: srv.URL, Model: "m", HTTP: srv.Client()}).JSON(ctx, "s", "u")
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want ErrUnavailable and context.DeadlineExceeded", err)
	}
}

func TestStripFence(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"plain":           {` {"a":1} `, `{"a":1}`},
		"json fence":      {"```json\n{\"a\":1}\n```", `{"a":1}`},
		"bare fence":      {"```\n{\"a\":1}\n```\n", `{"a":1}`},
		"prose untouched": {"Sure: {\"a\":1}", "Sure: {\"a\":1}"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := StripFence(tt.in); got != tt.want {
				t.Errorf("StripFence(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
