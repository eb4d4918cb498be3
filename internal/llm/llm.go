// Package llm is a minimal client for OpenAI-compatible chat-completions endpoints that answer with JSON.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Errors of a chat completion. Errors returned by Client.JSON match one of these with errors.Is, but their
// text is only the detail, so that callers can wrap them under their own error values.
var (
	// ErrUnavailable means the endpoint could not be reached or answered with an error status.
	ErrUnavailable = errors.New("language model unavailable")
	// ErrInvalidAnswer means the endpoint answered with something other than a chat completion.
	ErrInvalidAnswer = errors.New("invalid answer from language model")
)

const (
	// DefaultTimeout bounds a request when Client.HTTP is nil.
	DefaultTimeout = 60 * time.Second

	chatCompletions = "/chat/completions"
	maxAnswerBytes  = 1 << 20
	maxStatusBody   = 200
)

// Client asks an OpenAI-compatible chat-completions endpoint for a JSON object.
type Client struct {
	// URL is the API base ("https://api.example.com/v1") or the full address ending in /chat/completions.
	URL string
	// Model names the model in every request.
	Model string
	// APIKey is sent as a bearer token; empty sends none.
	APIKey string
	// Temperature is sent when set; nil leaves the endpoint's default.
	Temperature *float64
	// HTTP sends the requests; nil means a client with DefaultTimeout.
	HTTP *http.Client
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type request struct {
	Model          string    `json:"model"`
	Messages       []message `json:"messages"`
	Temperature    *float64  `json:"temperature,omitempty"`
	ResponseFormat struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

type response struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

// Endpoint returns the chat-completions address the client posts to.
func (c *Client) Endpoint() string {
	u := strings.TrimRight(strings.TrimSpace(c.URL), "/")
	if !strings.HasSuffix(u, chatCompletions) {
		u += chatCompletions
	}
	return u
}

// JSON sends a system and a user message asking for a JSON object and returns the first choice's content
// as the model wrote it.
func (c *Client) JSON(ctx context.Context, system, user string) (string, error) {
	req := request{
		Model:       c.Model,
		Messages:    []message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		Temperature: c.Temperature,
	}
	req.ResponseFormat.Type = "json_object"
	body, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("encode request: %w", err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", fail(ErrUnavailable, err, "build request: %v", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		return "", fail(ErrUnavailable, err, "request: %v", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return "", fail(ErrUnavailable, err, "read answer: %v", err)
	}
	if resp.StatusCode/100 != 2 {
		return "", fail(ErrUnavailable, nil, "status %d: %s", resp.StatusCode, snippet(string(raw)))
	}
	var cr response
	if err := json.Unmarshal(raw, &cr); err != nil {
		return "", fail(ErrInvalidAnswer, err, "decode answer: %v", err)
	}
	if len(cr.Choices) == 0 {
		return "", fail(ErrInvalidAnswer, nil, "answer has no choices")
	}
	return cr.Choices[0].Message.Content, nil
}

// StripFence removes the Markdown code fence some models wrap around JSON, and surrounding space.
func StripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// failure is an error whose text is its detail alone while it matches its kind and cause with errors.Is.
type failure struct {
	msg         string
	kind, cause error
}

func fail(kind, cause error, format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...), kind: kind, cause: cause}
}

func (f *failure) Error() string { return f.msg }

func (f *failure) Unwrap() []error {
	if f.cause == nil {
		return []error{f.kind}
	}
	return []error{f.kind, f.cause}
}

// snippet shortens an error body to one line of at most maxStatusBody runes.
func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxStatusBody {
		return s
	}
	return strings.TrimRight(string([]rune(s)[:maxStatusBody-1]), " ,;:.-") + "…"
}
