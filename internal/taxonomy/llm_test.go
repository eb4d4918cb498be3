package taxonomy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// chatServer is an OpenAI-compatible chat completions endpoint that answers with a fixed content
// and records the requests it received.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []chatRequest
	headers  []http.Header
	paths    []string
}

// received returns the recorded requests, headers and "METHOD path" lines.
func (s *chatServer) received() ([]chatRequest, []http.Header, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests), slices.Clone(s.headers), slices.Clone(s.paths)
}

func newChatServer(t *testing.T, content string) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.headers = append(s.headers, r.Header.Clone())
		s.paths = append(s.paths, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id":      "chatcmpl-1",
			"object":  "chat.completion",
			"choices": []map[string]any{{"index": 0, "message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

func TestLLMResolveTerm(t *testing.T) {
	tx := Default()
	srv := newChatServer(t, "```json\n"+`{"matches":[
		{"path":"Financial Services > Fintech > Payments","score":0.7},
		{"path":"Financial Services > Fintech","score":0.95},
		{"path":"Fintech > Neobanks","score":0.9},
		{"path":"Crypto & Web3","score":0.2}]}`+"\n```")
	c := NewLLM(tx, srv.URL+"/v1/", "test-model", "sk-test", srv.Client())

	got, err := c.ResolveTerm(context.Background(), "fintech")
	if err != nil {
		t.Fatal(err)
	}
	want := []Assignment{{Path: "Financial Services > Fintech", Score: 0.95}, {Path: "Financial Services > Fintech > Payments", Score: 0.7}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (existing paths above the threshold, best first)", got, want)
	}

	requests, headers, paths := srv.received()
	if len(requests) != 1 {
		t.Fatalf("got %d requests, want 1", len(requests))
	}
	req, hdr := requests[0], headers[0]
	if paths[0] != "POST /v1/chat/completions" {
		t.Errorf("got request %q, want POST /v1/chat/completions", paths[0])
	}
	if got := hdr.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("got Authorization %q, want the bearer key", got)
	}
	if req.Model != "test-model" || req.ResponseFormat["type"] != "json_object" {
		t.Errorf("got model %q and response_format %v, want test-model and json_object", req.Model, req.ResponseFormat)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Fatalf("got messages %+v, want a system and a user message", req.Messages)
	}
	if !strings.Contains(req.Messages[0].Content, "Financial Services > Fintech > Payments > B2B Payments") {
		t.Error("system message lacks the taxonomy's paths")
	}
	if !strings.Contains(req.Messages[1].Content, "fintech") {
		t.Errorf("user message %q lacks the term", req.Messages[1].Content)
	}
}

func TestLLMClassifyCompany(t *testing.T) {
	tx := Default()
	srv := newChatServer(t, `{"matches":[{"path":"healthcare > medtech > medical imaging","score":0.92},{"path":"Healthcare > Digital Health > Clinical AI","score":1.7}]}`)
	c := NewLLM(tx, srv.URL+"/v1/chat/completions", "m", "", srv.Client())

	got, err := c.ClassifyCompany(context.Background(), "Radiant", "AI for radiology", strings.Repeat("x-ray ", 5000))
	if err != nil {
		t.Fatal(err)
	}
	want := []Assignment{{Path: "Healthcare > Digital Health > Clinical AI", Score: 1}, {Path: "Healthcare > Medtech > Medical Imaging", Score: 0.92}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (canonical paths, scores clamped to 1)", got, want)
	}
	requests, headers, paths := srv.received()
	if paths[0] != "POST /v1/chat/completions" {
		t.Errorf("got request %q, want the full endpoint used as given", paths[0])
	}
	if got := headers[0].Get("Authorization"); got != "" {
		t.Errorf("got Authorization %q without a key, want none", got)
	}
	if n := len(requests[0].Messages[1].Content); n > maxPromptText+200 {
		t.Errorf("user message has %d bytes, want the website text cut to %d characters", n, maxPromptText)
	}
}

func TestLLMErrors(t *testing.T) {
	tests := map[string]struct {
		handler http.HandlerFunc
		want    error
	}{
		"server error": {func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "overloaded", http.StatusInternalServerError)
		}, ErrUnavailable},
		"rate limited": {func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "slow down", http.StatusTooManyRequests)
		}, ErrUnavailable},
		"not json": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html>hello</html>")
		}, ErrInvalidAnswer},
		"no choices": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"choices":[]}`)
		}, ErrInvalidAnswer},
		"content not json": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"Fintech, I think."}}]}`)
		}, ErrInvalidAnswer},
		"only unknown paths": {func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"matches\":[{\"path\":\"Neobanks\",\"score\":0.9}]}"}}]}`)
		}, ErrInvalidAnswer},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			c := NewLLM(Default(), srv.URL, "m", "k", srv.Client())
			if _, err := c.ResolveTerm(context.Background(), "fintech"); !errors.Is(err, tc.want) {
				t.Errorf("ResolveTerm: got error %v, want %v", err, tc.want)
			}
			if _, err := c.ClassifyCompany(context.Background(), "A", "b", "c"); !errors.Is(err, tc.want) {
				t.Errorf("ClassifyCompany: got error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestLLMEmptyAnswerIsNoMatch(t *testing.T) {
	srv := newChatServer(t, `{"matches":[]}`)
	got, err := NewLLM(Default(), srv.URL, "m", "", srv.Client()).ResolveTerm(context.Background(), "underwater basket weaving")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || len(got) != 0 {
		t.Errorf("got %#v, want an empty list", got)
	}
}

func TestLLMUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := NewLLM(Default(), url, "m", "", nil).ResolveTerm(context.Background(), "fintech")
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("got error %v, want ErrUnavailable", err)
	}
}

func TestResolveWithLLM(t *testing.T) {
	tx := Default()
	srv := newChatServer(t, `{"matches":[{"path":"Financial Services > Fintech > Payments","score":0.9}]}`)
	res := Resolve(context.Background(), tx, NewLLM(tx, srv.URL, "m", "", srv.Client()), []string{"money movement"})
	if res.DegradedToTextMatching {
		t.Error("got DegradedToTextMatching true, want false")
	}
	if got := matchPaths(res.Terms[0].Matches); !slices.Equal(got, []string{"Financial Services > Fintech > Payments"}) {
		t.Errorf("got matches %v, want the classifier's answer", got)
	}
	if want := tx.Descendants("Financial Services > Fintech > Payments"); !slices.Equal(res.Paths, want) {
		t.Errorf("got paths %v, want %v", res.Paths, want)
	}
}

func TestResolveDegradesWhenLLMFails(t *testing.T) {
	tx := Default()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "internal error", http.StatusInternalServerError)
	}))
	defer failing.Close()
	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer hanging.Close()
	defer close(release)

	tests := map[string]struct {
		url     string
		timeout time.Duration
	}{
		"server error": {failing.URL, time.Minute},
		"server hangs": {hanging.URL, 100 * time.Millisecond},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			c := NewLLM(tx, tc.url, "m", "", nil)
			res := Resolve(ctx, tx, c, []string{"fintech", "AI for radiology", "platform"})
			if !res.DegradedToTextMatching {
				t.Fatal("got DegradedToTextMatching false, want true")
			}
			want := [][]string{{"Financial Services > Fintech"}, {"Healthcare > Medtech > Medical Imaging"}, {}}
			for i, tr := range res.Terms {
				if got := matchPaths(tr.Matches); !slices.Equal(got, want[i]) {
					t.Errorf("term %q: got %v, want %v", tr.Term, got, want[i])
				}
			}
			if !slices.Contains(res.Paths, "Financial Services > Fintech > Payments > B2B Payments") {
				t.Error("degraded resolution lacks descendants of the matched categories")
			}
			if !res.Matches([]string{"Financial Services > Fintech > Lending"}) || res.Matches([]string{"Space > Launch"}) {
				t.Error("degraded resolution filters companies wrongly")
			}
		})
	}
}
