package mail_test

import (
	"context"
	"strings"
	"testing"

	"radar/internal/mail"
	"radar/internal/mail/smtptest"
)

// An alert e-mail sent again (a process killed while the server answered DATA sends it once more) carries
// the same Message-ID as the first copy, so that receiving servers and mail clients can drop the copy; another
// alert, or the same one to other recipients, carries another.
func TestResentAlertKeepsItsMessageID(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	s, err := mail.New(mail.Config{URL: srv.URL, From: "alerts@radar.example"})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.RenderAlert(sampleAlert())
	if err != nil {
		t.Fatal(err)
	}
	send := func(key string, to ...string) string {
		t.Helper()
		m := msg
		m.Key = key
		if len(to) > 0 {
			m.To = to
		}
		if err := s.Send(context.Background(), m); err != nil {
			t.Fatalf("send: %v", err)
		}
		got := srv.Messages()
		return got[len(got)-1].Header.Get("Message-Id")
	}
	first := send("outbox-1")
	if !strings.HasPrefix(first, "<") || !strings.HasSuffix(first, "@radar.example>") {
		t.Fatalf("Message-ID %q, want <…@radar.example>", first)
	}
	if again := send("outbox-1"); again != first {
		t.Errorf("the same alert sent again has Message-ID %q, want %q", again, first)
	}
	if reordered := send("outbox-1", "BO@fund.example", "ada@fund.example"); reordered != first {
		t.Errorf("the same recipients in another order give Message-ID %q, want %q", reordered, first)
	}
	if other := send("outbox-2"); other == first {
		t.Errorf("another alert has the same Message-ID %q", other)
	}
	if fewer := send("outbox-1", "ada@fund.example"); fewer == first {
		t.Errorf("the alert to other recipients has the same Message-ID %q", fewer)
	}
	if a, b := send(""), send(""); a == b || a == "" {
		t.Errorf("e-mails without a key share Message-ID %q", a)
	}
}
