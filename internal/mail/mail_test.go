package mail_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/mail"
	"radar/internal/mail/smtptest"
)

func sampleAlert() mail.Alert {
	published := radar.NewTime(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))
	return mail.Alert{
		CompanyName: "Tallowmere Robotics",
		Recipients:  []string{"ada@fund.example", "bo@fund.example"},
		Signal: radar.Signal{
			Type: radar.TypeFunding, Severity: "high", Recommendation: "reach_out", NeedsAttention: true,
			Summary:  "Tallowmere Robotics raised a $12M Series A <led by Nordkapp>.",
			Analysis: "The round doubles the team.\nExpect hiring in Munich.",
			Evidence: []radar.Evidence{{URL: "https://tallowmere.example/news/series-a?x=1&y=2", Title: "Tallowmere raises Series A",
				Source: "website", PublishedAt: &published}},
		},
		Matched: []radar.RuleEvaluation{{RuleID: "r1", Sentence: "Tell me about funding rounds", Matched: true, Reason: "a funding item"}},
		Link:    "https://radar.example/signals/s1",
	}
}

func TestSendDeliversTextAndHTML(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{User: "radar", Password: "s3cret"})
	s, err := mail.New(mail.Config{URL: srv.URL, From: "alerts@radar.example", TLSConfig: srv.ClientTLS})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.RenderAlert(sampleAlert())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), msg); err != nil {
		t.Fatalf("send: %v", err)
	}
	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server received %d messages, want 1", len(got))
	}
	m := got[0]
	if want := []string{"ada@fund.example", "bo@fund.example"}; !slices.Equal(m.To, want) {
		t.Errorf("recipients = %v, want %v", m.To, want)
	}
	if m.From != "alerts@radar.example" {
		t.Errorf("envelope from = %q", m.From)
	}
	if want := "Radar: Tallowmere Robotics — funding (high)"; m.Subject() != want {
		t.Errorf("subject = %q, want %q", m.Subject(), want)
	}
	text, html := m.Parts["text/plain"], m.Parts["text/html"]
	for _, want := range []string{"Tallowmere Robotics: funding, high severity", "$12M Series A <led by Nordkapp>",
		"Recommendation: reach out (needs attention)", "- Tell me about funding rounds: a funding item",
		"https://tallowmere.example/news/series-a?x=1&y=2", "20 November 2026", "Read the signal: https://radar.example/signals/s1"} {
		if !strings.Contains(text, want) {
			t.Errorf("text part lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"$12M Series A &lt;led by Nordkapp&gt;", `href="https://tallowmere.example/news/series-a?x=1&amp;y=2"`,
		"<strong>Tell me about funding rounds</strong>", `href="https://radar.example/signals/s1"`} {
		if !strings.Contains(html, want) {
			t.Errorf("html part lacks %q:\n%s", want, html)
		}
	}
}

func TestSendReportsPermanentFailures(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	s, err := mail.New(mail.Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := mail.RenderAlert(sampleAlert())
	tests := []struct {
		name      string
		code      int
		permanent bool
	}{
		{"mailbox unavailable", 550, true},
		{"try again later", 451, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv.Reject(1, tc.code)
			err := s.Send(context.Background(), msg)
			if err == nil {
				t.Fatal("send succeeded, want an error")
			}
			if got := mail.IsPermanent(err); got != tc.permanent {
				t.Errorf("IsPermanent(%v) = %v, want %v", err, got, tc.permanent)
			}
		})
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("server kept %d rejected messages", n)
	}
}

func TestSendWithoutServerIsTemporary(t *testing.T) {
	s, err := mail.New(mail.Config{URL: "smtp://127.0.0.1:1?tls=none", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "t"})
	if err == nil || mail.IsPermanent(err) {
		t.Errorf("send to a closed port: err = %v, permanent = %v; want a temporary error", err, mail.IsPermanent(err))
	}
}

func TestNewValidatesURL(t *testing.T) {
	tests := []struct {
		name string
		url  string
		ok   bool
	}{
		{"plain", "smtp://mail.example:25", true},
		{"starttls with credentials", "smtp://user:pa%40ss@mail.example:587?tls=starttls", true},
		{"implicit tls", "smtps://user:pass@mail.example", true},
		{"no tls", "smtp://mail.example?tls=none", true},
		{"unknown tls mode", "smtp://mail.example?tls=maybe", false},
		{"wrong scheme", "http://mail.example", false},
		{"no host", "smtp://", false},
		{"bad port", "smtp://mail.example:http", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mail.New(mail.Config{URL: tc.url})
			if (err == nil) != tc.ok {
				t.Fatalf("New(%q) err = %v, want ok=%v", tc.url, err, tc.ok)
			}
			if err != nil && !errors.Is(err, mail.ErrInvalidURL) {
				t.Errorf("err = %v, want ErrInvalidURL", err)
			}
			if err != nil && strings.Contains(err.Error(), "pass") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

func TestRenderAlertWithoutOptionalParts(t *testing.T) {
	a := sampleAlert()
	a.Signal.Evidence, a.Signal.Analysis, a.Matched, a.Link = nil, "", nil, ""
	msg, err := mail.RenderAlert(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"Evidence", "Analysis", "Rules that matched", "Read the signal"} {
		if strings.Contains(msg.Text, absent) || strings.Contains(msg.HTML, absent) {
			t.Errorf("message shows %q without content for it", absent)
		}
	}
	if !slices.Equal(msg.To, a.Recipients) {
		t.Errorf("To = %v, want %v", msg.To, a.Recipients)
	}
}
