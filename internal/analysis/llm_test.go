package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"radar"
)

// chatServer is an OpenAI-compatible endpoint that checks each request and answers with content.
type chatServer struct {
	t       *testing.T
	path    string
	content func(prompt promptInput) string
	status  int
	stall   bool // hold the request until the client gives up
}

func (s chatServer) start() *httptest.Server {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := s.t
		if r.Method != http.MethodPost || r.URL.Path != s.path {
			t.Errorf("request %s %s, want POST %s", r.Method, r.URL.Path, s.path)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			t.Errorf("Authorization = %q, want %q", got, "Bearer sk-test")
		}
		if got := r.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("Content-Type = %q, want application/json", got)
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				Type string `json:"type"`
			} `json:"response_format"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request body: %v", err)
		}
		if req.Model != "radar-test-model" || req.ResponseFormat.Type != "json_object" {
			t.Errorf("model %q, response_format %q; want radar-test-model and json_object", req.Model, req.ResponseFormat.Type)
		}
		if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
			t.Fatalf("messages = %+v, want a system and a user message", req.Messages)
		}
		var prompt promptInput
		if err := json.Unmarshal([]byte(req.Messages[1].Content), &prompt); err != nil {
			t.Errorf("user message is not the JSON prompt: %v", err)
		}
		if s.stall {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		if s.status != 0 {
			http.Error(w, `{"error":{"message":"upstream overloaded"}}`, s.status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": s.content(prompt)}}},
		})
	}))
	s.t.Cleanup(srv.Close)
	s.t.Cleanup(func() { close(stop) })
	return srv
}

func llmInput() Input {
	return Input{
		CompanyName: "Northwind", Founders: []string{"Jane Doe"},
		Items: []Item{
			{Source: "news", URL: "https://news.example/1", Title: "Northwind raises $12M Series A"},
			{Source: "news", URL: "https://news.example/2", Title: "Northwind denies rumours of layoffs"},
		},
		Policy:         Compile("Tell me when they raise more than $10M\nlayoffs"),
		SourceProblems: []string{"github: failing for 2 runs: rate limited"},
	}
}

const validAnswer = `{"type":"funding","severity":"high","recommendation":"reach_out","needsAttention":true,
"summary":"Northwind raised a $12M Series A.","analysis":"The round clears the $10M threshold.",
"evaluations":[{"ruleId":"r2","matched":false,"reason":"The only layoff item is a denial.","evidence":[]},
{"ruleId":"r1","matched":true,"reason":"$12M is above $10M.","evidence":["https://news.example/1"]}]}`

func TestLLMValidAnswerIsUsed(t *testing.T) {
	var seen promptInput
	srv := chatServer{t: t, path: "/v1/chat/completions", content: func(p promptInput) string {
		seen = p
		return validAnswer
	}}.start()
	res, err := NewLLM(srv.URL+"/v1", "radar-test-model", "sk-test", srv.Client()).Analyse(context.Background(), llmInput())
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if res.Analyser != "llm:radar-test-model" || res.Fallback != "" {
		t.Errorf("analyser %q fallback %q, want llm:radar-test-model and none", res.Analyser, res.Fallback)
	}
	if res.Type != radar.TypeFunding || res.Severity != SeverityHigh || res.Recommendation != RecommendReachOut || !res.NeedsAttention {
		t.Errorf("signal = %s/%s/%s/%v, want the model's funding/high/reach_out/true", res.Type, res.Severity, res.Recommendation, res.NeedsAttention)
	}
	if len(res.Evaluations) != 2 || res.Evaluations[0].RuleID != "r1" || !res.Evaluations[0].Matched ||
		res.Evaluations[0].Sentence != "Tell me when they raise more than $10M" || res.Evaluations[1].RuleID != "r2" {
		t.Errorf("evaluations = %+v, want r1 matched then r2, in policy order with sentences", res.Evaluations)
	}
	if !strings.Contains(res.Analysis, "github: failing for 2 runs: rate limited") {
		t.Errorf("analysis %q does not mention the source problem", res.Analysis)
	}
	if len(res.Findings) != 2 {
		t.Errorf("findings = %d, want one per item", len(res.Findings))
	}
	if seen.Company != "Northwind" || len(seen.Items) != 2 || len(seen.Rules) != 2 || seen.Rules[0].ID != "r1" {
		t.Errorf("prompt = %+v, want the company, both items and both rules", seen)
	}
}

func TestLLMFullEndpointUsedAsGiven(t *testing.T) {
	srv := chatServer{t: t, path: "/openai/deployments/x/chat/completions", content: func(promptInput) string { return validAnswer }}.start()
	if _, err := NewLLM(srv.URL+"/openai/deployments/x/chat/completions", "radar-test-model", "sk-test", nil).Analyse(context.Background(), llmInput()); err != nil {
		t.Fatalf("Analyse: %v", err)
	}
}

func TestLLMRejectsInvalidAnswers(t *testing.T) {
	replace := func(old, repl string) string { return strings.Replace(validAnswer, old, repl, 1) }
	tests := map[string]string{
		"not json":               "Sure! Northwind raised money.",
		"unknown type":           replace(`"type":"funding"`, `"type":"fundraise"`),
		"unknown severity":       replace(`"severity":"high"`, `"severity":"huge"`),
		"unknown recommendation": replace(`"recommendation":"reach_out"`, `"recommendation":"call them"`),
		"missing needsAttention": replace(`"needsAttention":true,`, ``),
		"empty summary":          replace(`"summary":"Northwind raised a $12M Series A."`, `"summary":""`),
		"unknown rule":           replace(`"ruleId":"r2"`, `"ruleId":"r9"`),
		"duplicate rule":         replace(`"ruleId":"r2"`, `"ruleId":"r1"`),
		"missing rule":           `{"type":"funding","severity":"high","recommendation":"reach_out","needsAttention":true,"summary":"s","analysis":"a","evaluations":[{"ruleId":"r1","matched":true,"reason":"r","evidence":[]}]}`,
		"invented evidence":      replace(`"evidence":["https://news.example/1"]`, `"evidence":["https://elsewhere.example/"]`),
		"trailing text":          validAnswer + " Hope this helps!",
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			srv := chatServer{t: t, path: "/chat/completions", content: func(promptInput) string { return content }}.start()
			_, err := NewLLM(srv.URL, "radar-test-model", "sk-test", srv.Client()).Analyse(context.Background(), llmInput())
			if !errors.Is(err, ErrInvalidAnswer) {
				t.Errorf("Analyse error = %v, want ErrInvalidAnswer", err)
			}
		})
	}
}

func TestWithFallback(t *testing.T) {
	tests := []struct {
		name    string
		server  chatServer
		timeout time.Duration
		wantErr error
	}{
		{"garbage answer", chatServer{content: func(promptInput) string { return "<html>oops</html>" }}, time.Minute, ErrInvalidAnswer},
		{"server error", chatServer{status: http.StatusInternalServerError}, time.Minute, ErrUpstream},
		{"slower than the deadline", chatServer{stall: true}, 50 * time.Millisecond, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.server.t, tt.server.path = t, "/chat/completions"
			srv := tt.server.start()
			primary := NewLLM(srv.URL, "radar-test-model", "sk-test", srv.Client())

			ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel()
			_, err := primary.Analyse(ctx, llmInput())
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("primary error = %v, want %v", err, tt.wantErr)
			}

			ctx2, cancel2 := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel2()
			res, err := WithFallback(primary, Builtin()).Analyse(ctx2, llmInput())
			if err != nil {
				t.Fatalf("WithFallback: %v", err)
			}
			if res.Analyser != "builtin" || res.Fallback == "" || !strings.Contains(res.Fallback, "radar-test-model") {
				t.Errorf("analyser %q fallback %q, want builtin with the reason", res.Analyser, res.Fallback)
			}
			if res.Type != radar.TypeFunding || len(res.Evaluations) != 2 || !res.Evaluations[0].Matched {
				t.Errorf("fallback result %s with %+v, want the built-in funding judgement", res.Type, res.Evaluations)
			}
		})
	}
}

func TestWithFallbackKeepsPrimaryAnswer(t *testing.T) {
	srv := chatServer{t: t, path: "/chat/completions", content: func(promptInput) string { return validAnswer }}.start()
	res, err := WithFallback(NewLLM(srv.URL, "radar-test-model", "sk-test", srv.Client()), Builtin()).Analyse(context.Background(), llmInput())
	if err != nil || res.Analyser != "llm:radar-test-model" || res.Fallback != "" {
		t.Errorf("got analyser %q fallback %q err %v, want the model's answer", res.Analyser, res.Fallback, err)
	}
}

func TestLLMWithoutItemsNeedsNoRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		t.Error("the model was asked about a run without items")
	}))
	defer srv.Close()
	res, err := NewLLM(srv.URL, "radar-test-model", "", srv.Client()).Analyse(context.Background(), Input{CompanyName: "Northwind", Policy: Compile("layoffs")})
	if err != nil || res.Type != radar.TypeNoChange || res.Recommendation != RecommendNoAction {
		t.Errorf("got %s/%s err %v, want no_change/no_action", res.Type, res.Recommendation, err)
	}
}
