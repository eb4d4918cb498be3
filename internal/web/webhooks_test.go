package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// TestWebhooksPage registers an endpoint in the web UI, sees its secret once, refuses a private address,
// sends a test event, reads the delivery log, disables, enables, rotates and deletes it.
func TestWebhooksPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSiteWith(t, engine, web.Config{}, apitest.Options{PublicWebsitesOnly: true})
		b := s.signedIn(t, s.OwnerA)
		contains(t, b.get("/webhooks"), "No endpoints yet", "Register an endpoint")

		bad := b.post("/webhooks", url.Values{"url": {"http://127.0.0.1:8080/hook"}, "kind": {"webhook"}, "events": {"signal.changed"}})
		if bad.Status != http.StatusBadRequest || !strings.Contains(fieldError(bad.Body, "url"), "private or reserved address refused") {
			t.Errorf("private URL: status %d, url error %q", bad.Status, fieldError(bad.Body, "url"))
		}
		created := b.post("/webhooks", url.Values{"url": {"https://receiver.example/hook"}, "kind": {"slack"}, "events": {"signal.changed", "lead.found"}})
		if created.Status != http.StatusOK {
			t.Fatalf("register: status %d:\n%s", created.Status, text(created.Body))
		}
		secret := secretIn(created.Body)
		if secret == "" {
			t.Fatalf("the answer shows no secret:\n%s", text(created.Body))
		}
		list := b.get("/webhooks")
		contains(t, list, "https://receiver.example/hook", "slack", "signal.changed", "lead.found", "Enabled")
		if strings.Contains(html.UnescapeString(list.Body), secret) {
			t.Errorf("the list shows the secret again")
		}
		id := regexp.MustCompile(`href="/webhooks/([0-9a-f-]{36})"`).FindStringSubmatch(list.Body)[1]

		contains(t, b.follow("/webhooks/"+id+"/test", nil), "Sent a test event", "No deliveries yet")
		code := 502
		_, err := s.DB.RecordWebhookAttempt(context.Background(), s.OrgA.ID, sqldb.WebhookAttempt{Delivery: &radar.WebhookDelivery{
			ID: "0193a0b0-0000-7000-8000-0000000000c1", EndpointID: id, MessageID: "msg_test", EventType: radar.EventWebhookTest,
			Attempt: 1, AttemptedAt: radar.NewTime(time.Now()), StatusCode: &code, LatencyMs: 42, Response: "upstream down",
		}, DisableBefore: radar.NewTime(time.Now().Add(-24 * time.Hour))})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, b.get("/webhooks/"+id), "Delivery log", "webhook.test", "HTTP 502", "42 ms", "upstream down", "failing since")

		contains(t, b.follow("/webhooks/"+id+"/disable", nil), "Disabled https://receiver.example/hook.", "Disabled", "Enable")
		contains(t, b.follow("/webhooks/"+id+"/enable", nil), "Enabled https://receiver.example/hook.")
		rotated := b.post("/webhooks/"+id+"/rotate", nil)
		fresh := secretIn(rotated.Body)
		if rotated.Status != http.StatusOK || fresh == "" || fresh == secret {
			t.Errorf("rotate: status %d, secret %q", rotated.Status, fresh)
		}
		contains(t, rotated, "The old secret signs deliveries too for 24 hours")

		other := s.signedIn(t, s.OwnerB)
		if p := other.get("/webhooks/" + id); p.Status != http.StatusNotFound {
			t.Errorf("another organisation's user: status %d, want 404", p.Status)
		}
		contains(t, b.get("/webhooks/"+id+"/delete"), "Delete the endpoint https://receiver.example/hook?")
		contains(t, b.follow("/webhooks/"+id+"/delete", nil), "Deleted the endpoint", "No endpoints yet")
	})
}

// secretPattern finds a webhook signing secret.
var secretPattern = regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`)

// secretIn returns the signing secret a page shows, as the browser renders it: the page escapes a "+" of the
// secret as "&#43;".
func secretIn(body string) string {
	return secretPattern.FindString(html.UnescapeString(body))
}
