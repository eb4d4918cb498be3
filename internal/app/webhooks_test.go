package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"radar/internal/mail/smtptest"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
)

// TestWebhooksFromTheEngine runs the whole program against the simulated web: an endpoint registered through
// the API receives, signed, the end of enrichment, the first run's signal and the alert e-mail's delivery, as
// the engine's own transactions produce them.
func TestWebhooksFromTheEngine(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		web, err := simweb.Start(simweb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(web.Close)
		smtp := smtptest.Start(t, smtptest.Options{})
		var (
			mu  sync.Mutex
			got = map[string]bool{}
			bad []string
		)
		var wh *standardwebhooks.Webhook
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			var p struct{ Type string }
			json.Unmarshal(body, &p)
			mu.Lock()
			defer mu.Unlock()
			if err := wh.Verify(body, r.Header); err != nil {
				bad = append(bad, p.Type+": "+err.Error())
			}
			got[p.Type] = true
		}))
		t.Cleanup(rcv.Close)
		_, c := startApp(t, engine, web, smtp.URL, "tracker:write", "webhooks:manage")
		status, body := c.do(http.MethodPost, "/api/v1/webhooks", map[string]any{"url": rcv.URL,
			"events": []string{"entity.enrichment_completed", "signal.created", "alert.sent"}})
		if status != http.StatusCreated {
			t.Fatalf("register: %d %v", status, body)
		}
		mu.Lock()
		wh, err = standardwebhooks.NewWebhook(data(body)["secret"].(string))
		mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		co := web.Companies()[0]
		status, body = c.do(http.MethodPost, "/api/v1/tracker", map[string]any{
			"companyName": co.Name, "companyWebsite": co.Website, "founders": []map[string]any{{"name": co.Founders[0].Name}},
			"thingsToTrack": "Anything at all.", "alertEmails": []string{"ana@fund.example"}, "confirmed": true,
		})
		if status != http.StatusCreated {
			t.Fatalf("create: %d %v", status, body)
		}
		for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			mu.Lock()
			done := got["entity.enrichment_completed"] && got["signal.created"] && got["alert.sent"]
			seen := len(got)
			mu.Unlock()
			if done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the receiver got %d of the 3 event types: %v", seen, got)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if len(bad) > 0 {
			t.Errorf("signatures that do not verify: %v", bad)
		}
	})
}
