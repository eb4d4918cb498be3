package taxonomy

import (
	"context"
	"testing"
)

// chatMessage is one message of a chat-completions request as the test endpoint decodes it.
type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// chatRequest is the body of a chat-completions request as the test endpoint decodes it.
type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	Temperature    *float64          `json:"temperature"`
	ResponseFormat map[string]string `json:"response_format"`
}

func TestLLMAsksForDeterministicAnswers(t *testing.T) {
	srv := newChatServer(t, `{"matches":[]}`)
	if _, err := NewLLM(Default(), srv.URL, "m", "", srv.Client()).ResolveTerm(context.Background(), "fintech"); err != nil {
		t.Fatal(err)
	}
	requests, _, _ := srv.received()
	if len(requests) != 1 || requests[0].Temperature == nil || *requests[0].Temperature != 0 {
		t.Errorf("got requests %+v, want one with temperature 0", requests)
	}
}
