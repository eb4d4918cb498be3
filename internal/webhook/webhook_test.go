package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"radar"
	"radar/internal/apitest"
	"radar/internal/mail"
	"radar/internal/mail/smtptest"
	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
	"radar/internal/webhook"
)

// testSecret signs the deliveries of endpoints a test stores directly.
const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
	At     time.Time
}

// receiver is a local HTTP endpoint that records what it gets and answers with status(n) for the n-th request.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	status func(n int) int
	delay  func(n int) time.Duration
	seen   chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{status: func(int) int { return http.StatusOK }, delay: func(int) time.Duration { return 0 }, seen: make(chan struct{}, 1000)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		n := len(r.got)
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: body, At: time.Now()})
		status, delay := r.status(n), r.delay(n)
		r.mu.Unlock()
		r.seen <- struct{}{}
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-req.Context().Done():
			}
		}
		w.WriteHeader(status)
		io.WriteString(w, `{"ok":true,"n":`+itoa(n)+`}`)
	}))
	t.Cleanup(r.Close)
	return r
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// wait blocks until the receiver has got n requests.
func (r *receiver) wait(t *testing.T, n int) []received {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		if len(r.got) >= n {
			out := append([]received(nil), r.got...)
			r.mu.Unlock()
			return out
		}
		r.mu.Unlock()
		select {
		case <-r.seen:
		case <-deadline:
			t.Fatalf("receiver got %d requests, want %d", len(r.got), n)
		}
	}
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

type harness struct {
	env *apitest.Env
	key string
	d   *webhook.Deliverer
}

// start serves the API on engine and works the webhook jobs with cfg (Store filled in).
func start(t testing.TB, engine string, allowPrivate bool, cfg webhook.Config) *harness {
	t.Helper()
	h := startIdle(t, engine, allowPrivate, cfg)
	h.work(t)
	return h
}

// startIdle serves the API on engine with a Deliverer of cfg that works no jobs until work is called.
func startIdle(t testing.TB, engine string, allowPrivate bool, cfg webhook.Config) *harness {
	t.Helper()
	env := apitest.StartWith(t, engine, apitest.Options{PublicWebsitesOnly: !allowPrivate})
	cfg.Store, cfg.AllowPrivate = env.DB, allowPrivate
	cfg.BaseURL = apitest.BaseURL
	if cfg.RetryDelay == nil {
		cfg.RetryDelay = func(int) time.Duration { return 20 * time.Millisecond }
	}
	d, err := webhook.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{env: env, key: env.Key(t, env.OrgA), d: d}
}

// work starts working the queue's webhook jobs until the test ends.
func (h *harness) work(t testing.TB) {
	t.Helper()
	workers := river.NewWorkers()
	periodic := h.d.Register(workers)
	pool, err := h.env.DB.StartWorkers(context.Background(), sqldb.WorkerOptions{Workers: workers, Periodic: periodic,
		PollInterval: 20 * time.Millisecond, MaxWorkers: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		pool.Stop(ctx)
	})
}

// startBench is startIdle with private receivers allowed, telling onDelivered of every delivery.
func startBench(b *testing.B, engine string, onDelivered func(time.Duration)) *harness {
	return startIdle(b, engine, true, webhook.Config{OnDelivered: func(_ string, d time.Duration) { onDelivered(d) }})
}

func (h *harness) register(t *testing.T, url, kind string, events ...string) (id, secret string) {
	t.Helper()
	res := h.env.Do(t, http.MethodPost, "/api/v1/webhooks", h.key, map[string]any{"url": url, "kind": kind, "events": events})
	if res.Status != http.StatusCreated {
		t.Fatalf("register webhook: got %s", res)
	}
	id, _ = res.Data()["id"].(string)
	secret, _ = res.Data()["secret"].(string)
	if kind == radar.WebhookKindWebhook && !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q does not start with whsec_", secret)
	}
	return id, secret
}

func (h *harness) entity(t *testing.T, name string) string {
	t.Helper()
	res := h.env.Do(t, http.MethodPost, "/api/v1/tracker", h.key, apitest.CreateBody(name))
	if res.Status != http.StatusCreated {
		t.Fatalf("create entity: got %s", res)
	}
	return res.Data()["id"].(string)
}

func (h *harness) deliveries(t *testing.T, id string) []map[string]any {
	t.Helper()
	res := h.env.Do(t, http.MethodGet, "/api/v1/webhooks/"+id+"/deliveries?limit=100", h.key, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("deliveries: got %s", res)
	}
	return res.Items()
}

// waitDeliveries polls the delivery log until it holds at least n attempts: an attempt is logged after its
// response arrives, so the receiver can see a request before the log shows it.
func (h *harness) waitDeliveries(t *testing.T, id string, n int) []map[string]any {
	t.Helper()
	log := h.deliveries(t, id)
	for deadline := time.Now().Add(10 * time.Second); len(log) < n && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		log = h.deliveries(t, id)
	}
	return log
}

// verify checks a delivery's signature with the Standard Webhooks reference library.
func verify(t *testing.T, secret string, r received) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(r.Body, r.Header); err != nil {
		t.Errorf("signature of %s does not verify: %v (webhook-signature %q)", r.Header.Get("webhook-id"), err, r.Header.Get("webhook-signature"))
	}
}

type payload struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Version   int             `json:"version"`
	Data      json.RawMessage `json:"data"`
}

func decode(t *testing.T, r received) payload {
	t.Helper()
	var p payload
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("body %s: %v", r.Body, err)
	}
	return p
}

// TestRunEventsAreSignedAndLogged registers an endpoint through the API, finishes a run that found something,
// and checks that signal.created, signal.changed and lead.found arrive signed (verified with the reference
// library), and that the delivery log shows each attempt.
func TestRunEventsAreSignedAndLogged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{})
		rcv := newReceiver(t)
		id, secret := h.register(t, rcv.URL+"/hook", "webhook", "signal.created", "signal.changed", "lead.found")
		ent := h.entity(t, "Northwind")
		run := h.env.SeedRun(t, h.env.OrgA, ent)

		got := rcv.wait(t, 3)
		types := map[string]payload{}
		for _, r := range got {
			verify(t, secret, r)
			p := decode(t, r)
			types[p.Type] = p
			if p.Version != 1 || !strings.HasSuffix(p.Timestamp, "+00:00") {
				t.Errorf("%s: version %d, timestamp %q", p.Type, p.Version, p.Timestamp)
			}
			if !strings.HasPrefix(r.Header.Get("webhook-id"), "msg_") {
				t.Errorf("webhook-id %q", r.Header.Get("webhook-id"))
			}
		}
		var sig radar.Signal
		json.Unmarshal(types["signal.changed"].Data, &sig)
		if sig.ID != run.SignalID || sig.Type != radar.TypeFunding || sig.EntityID != ent {
			t.Errorf("signal.changed data: %+v, want signal %s of %s", sig, run.SignalID, ent)
		}
		if _, ok := types["signal.created"]; !ok {
			t.Errorf("no signal.created among %v", types)
		}
		var lead radar.Lead
		json.Unmarshal(types["lead.found"].Data, &lead)
		if lead.ID != run.LeadID {
			t.Errorf("lead.found data: lead %s, want %s", lead.ID, run.LeadID)
		}

		// A quiet run is signal.created only.
		h.env.SeedQuietRun(t, h.env.OrgA, ent)
		got = rcv.wait(t, 4)
		if p := decode(t, got[3]); p.Type != radar.EventSignalCreated {
			t.Errorf("quiet run sent %s, want signal.created only", p.Type)
		}
		time.Sleep(200 * time.Millisecond)
		if n := rcv.count(); n != 4 {
			t.Errorf("receiver got %d requests, want 4 (a quiet run is not signal.changed)", n)
		}

		log := h.waitDeliveries(t, id, 4)
		if len(log) != 4 {
			t.Fatalf("delivery log has %d attempts, want 4", len(log))
		}
		for _, d := range log {
			if d["success"] != true || d["statusCode"] != float64(200) || d["attempt"] != float64(1) ||
				!strings.HasPrefix(d["response"].(string), `{"ok":true`) {
				t.Errorf("delivery %v", d)
			}
		}
		// Another organisation sees nothing of it.
		other := h.env.Key(t, h.env.OrgB)
		if res := h.env.Do(t, http.MethodGet, "/api/v1/webhooks/"+id, other, nil); res.Status != http.StatusNotFound {
			t.Errorf("other organisation: got %s, want 404", res)
		}
	})
}

// TestRetriesKeepTheEventID answers 500, then times out, then 200, and checks that the event arrives three
// times with the same webhook-id, and that the log shows the 500, the timeout and the success.
func TestRetriesKeepTheEventID(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{Timeout: 300 * time.Millisecond})
		rcv := newReceiver(t)
		rcv.status = func(n int) int {
			if n == 0 {
				return http.StatusInternalServerError
			}
			return http.StatusOK
		}
		rcv.delay = func(n int) time.Duration {
			if n == 1 {
				return 2 * time.Second
			}
			return 0
		}
		id, secret := h.register(t, rcv.URL, "webhook", "webhook.test")
		res := h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+id+"/test", h.key, nil)
		if res.Status != http.StatusAccepted {
			t.Fatalf("test: got %s", res)
		}
		msg := res.Data()["messageId"].(string)
		got := rcv.wait(t, 3)
		for _, r := range got {
			verify(t, secret, r)
			if r.Header.Get("webhook-id") != msg {
				t.Errorf("webhook-id %q, want %q on every attempt", r.Header.Get("webhook-id"), msg)
			}
		}
		log := h.waitDeliveries(t, id, 3)
		if len(log) != 3 {
			t.Fatalf("log has %d attempts, want 3", len(log))
		}
		// Newest first: success, timeout, 500.
		if log[0]["success"] != true || log[0]["attempt"] != float64(3) {
			t.Errorf("third attempt: %v", log[0])
		}
		if log[1]["statusCode"] != nil || log[1]["error"] != "timed out" {
			t.Errorf("second attempt: %v, want a timeout without status", log[1])
		}
		if log[2]["statusCode"] != float64(500) || log[2]["success"] != false {
			t.Errorf("first attempt: %v, want 500", log[2])
		}
		time.Sleep(200 * time.Millisecond)
		if n := rcv.count(); n != 3 {
			t.Errorf("receiver got %d requests after a success, want 3", n)
		}
	})
}

// TestRotationSignsWithBothSecrets rotates the secret and checks that a delivery verifies with the old and the
// new secret, in two v1 entries.
func TestRotationSignsWithBothSecrets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{})
		rcv := newReceiver(t)
		id, old := h.register(t, rcv.URL, "webhook", "webhook.test")
		res := h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+id+"/rotate-secret", h.key, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("rotate: got %s", res)
		}
		fresh, _ := res.Data()["secret"].(string)
		if fresh == old || !strings.HasPrefix(fresh, "whsec_") || res.Data()["previousSecretExpiresAt"] == nil {
			t.Fatalf("rotate answer: %v", res.Data())
		}
		if got := h.env.Do(t, http.MethodGet, "/api/v1/webhooks/"+id, h.key, nil); got.Data()["secret"] != nil {
			t.Errorf("a read shows the secret: %v", got.Data())
		}
		h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+id+"/test", h.key, nil)
		r := rcv.wait(t, 1)[0]
		if sigs := strings.Fields(r.Header.Get("webhook-signature")); len(sigs) != 2 || !strings.HasPrefix(sigs[0], "v1,") || !strings.HasPrefix(sigs[1], "v1,") {
			t.Errorf("webhook-signature %q, want two v1 entries", r.Header.Get("webhook-signature"))
		}
		verify(t, old, r)
		verify(t, fresh, r)
	})
}

// TestPrivateAddressesRefused: with private fetching off, registering a loopback URL is a validation error on
// url, and an endpoint that points at one anyway (stored directly) gets no delivery; the log says why.
func TestPrivateAddressesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, false, webhook.Config{})
		rcv := newReceiver(t)
		for _, url := range []string{rcv.URL, "http://10.0.0.1/hook", "http://[::1]/hook", "http://2130706433/hook", "ftp://hooks.example/x"} {
			res := h.env.Do(t, http.MethodPost, "/api/v1/webhooks", h.key, map[string]any{"url": url, "events": []string{"webhook.test"}})
			e := res.Err()
			if res.Status != http.StatusBadRequest || e == nil || e.Code != radar.EValidation || !strings.HasPrefix(e.Message, "url: ") {
				t.Errorf("register %s: got %s, want validation_error on url", url, res)
			}
		}
		now := radar.NewTime(time.Now())
		ep := &radar.WebhookEndpoint{ID: "0193a0b0-0000-7000-8000-000000000001", OrgID: h.env.OrgA.ID, URL: rcv.URL, Kind: "webhook",
			Events: []string{"webhook.test"}, Enabled: true, Secret: testSecret, CreatedAt: now, UpdatedAt: now}
		if err := h.env.DB.CreateWebhook(context.Background(), ep); err != nil {
			t.Fatal(err)
		}
		h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+ep.ID+"/test", h.key, nil)
		log := h.waitDeliveries(t, ep.ID, 1)
		if len(log) == 0 || log[0]["success"] != false || !strings.Contains(log[0]["error"].(string), "private or reserved address refused") {
			t.Errorf("delivery log: %v, want a refused attempt", log)
		}
		if n := rcv.count(); n != 0 {
			t.Errorf("the loopback receiver got %d requests", n)
		}
	})
}

// TestFailingEndpointIsDisabled: an endpoint that fails for longer than the window is disabled, says why, and
// the organisation's owners get an e-mail; enabling it again through PATCH clears the failure.
func TestFailingEndpointIsDisabled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		smtp := smtptest.Start(t, smtptest.Options{})
		mailer, err := mail.New(mail.Config{URL: smtp.URL, From: "radar@test.example"})
		if err != nil {
			t.Fatal(err)
		}
		h := start(t, engine, true, webhook.Config{FailWindow: 50 * time.Millisecond, Mailer: mailer,
			RetryDelay: func(int) time.Duration { return 60 * time.Millisecond }})
		if _, err := h.env.Service.CreateUser(context.Background(), h.env.OrgA.ID, "owner@fund.example", "a long passphrase", "owner"); err != nil {
			t.Fatal(err)
		}
		rcv := newReceiver(t)
		rcv.status = func(int) int { return http.StatusServiceUnavailable }
		id, _ := h.register(t, rcv.URL, "webhook", "webhook.test")
		h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+id+"/test", h.key, nil)
		var ep map[string]any
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if ep = h.env.Do(t, http.MethodGet, "/api/v1/webhooks/"+id, h.key, nil).Data(); ep["enabled"] == false {
				break
			}
		}
		if ep["enabled"] != false || !strings.Contains(ep["disabledReason"].(string), "HTTP 503") || ep["failingSince"] == nil {
			t.Fatalf("endpoint after failures: %v", ep)
		}
		var msgs []smtptest.Message
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && len(msgs) == 0; time.Sleep(20 * time.Millisecond) {
			msgs = smtp.Messages()
		}
		if len(msgs) != 1 || msgs[0].Subject() != "Radar disabled a webhook endpoint" || !strings.Contains(strings.Join(msgs[0].To, ","), "owner@fund.example") {
			t.Fatalf("notice e-mails: %+v", msgs)
		}
		res := h.env.Do(t, http.MethodPatch, "/api/v1/webhooks/"+id, h.key, map[string]any{"enabled": true})
		if res.Status != http.StatusOK || res.Data()["enabled"] != true || res.Data()["failingSince"] != nil || res.Data()["disabledReason"] != "" {
			t.Errorf("enable again: %s", res)
		}
	})
}

// TestChatMessages delivers a run's signal to a Slack and a Teams endpoint, whose receivers check the shape
// of each format: Block Kit blocks, and an Adaptive Card in the message envelope.
func TestChatMessages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{})
		slack, teams := newReceiver(t), newReceiver(t)
		h.register(t, slack.URL, "slack", "signal.changed")
		h.register(t, teams.URL, "teams", "signal.changed")
		ent := h.entity(t, "Northwind")
		run := h.env.SeedRun(t, h.env.OrgA, ent)
		link := apitest.BaseURL + "/signals/" + run.SignalID

		var sm struct {
			Text   string `json:"text"`
			Blocks []struct {
				Type     string                        `json:"type"`
				Text     *struct{ Type, Text string }  `json:"text"`
				Fields   []struct{ Type, Text string } `json:"fields"`
				Elements []struct {
					Type string
					Text struct{ Type, Text string }
					URL  string
				} `json:"elements"`
			} `json:"blocks"`
		}
		if err := json.Unmarshal(slack.wait(t, 1)[0].Body, &sm); err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		kinds := []string{}
		for _, b := range sm.Blocks {
			kinds = append(kinds, b.Type)
			if b.Text != nil {
				all.WriteString(b.Text.Text + "\n")
			}
			for _, f := range b.Fields {
				all.WriteString(f.Text + "\n")
			}
			for _, e := range b.Elements {
				if e.Type == "button" && e.URL == link {
					all.WriteString("LINK\n")
				}
			}
		}
		if strings.Join(kinds, ",") != "header,section,section,section,actions" {
			t.Errorf("slack blocks %v", kinds)
		}
		for _, want := range []string{"Northwind", "funding", "high", "Raised a Series A.", "<https://news.example/1|Northwind raises a Series A>", "LINK"} {
			if !strings.Contains(all.String(), want) {
				t.Errorf("slack message lacks %q:\n%s", want, all.String())
			}
		}

		var tm struct {
			Type        string `json:"type"`
			Attachments []struct {
				ContentType string `json:"contentType"`
				Content     struct {
					Schema  string `json:"$schema"`
					Type    string `json:"type"`
					Version string `json:"version"`
					Body    []struct {
						Type  string
						Text  string
						Facts []struct{ Title, Value string }
					} `json:"body"`
					Actions []struct{ Type, Title, URL string } `json:"actions"`
				} `json:"content"`
			} `json:"attachments"`
		}
		if err := json.Unmarshal(teams.wait(t, 1)[0].Body, &tm); err != nil {
			t.Fatal(err)
		}
		if tm.Type != "message" || len(tm.Attachments) != 1 || tm.Attachments[0].ContentType != "application/vnd.microsoft.card.adaptive" {
			t.Fatalf("teams envelope: %+v", tm)
		}
		card := tm.Attachments[0].Content
		if card.Type != "AdaptiveCard" || card.Version == "" || len(card.Actions) != 1 || card.Actions[0].Type != "Action.OpenUrl" || card.Actions[0].URL != link {
			t.Errorf("teams card: %+v", card)
		}
		all.Reset()
		for _, b := range card.Body {
			all.WriteString(b.Text + "\n")
			for _, f := range b.Facts {
				all.WriteString(f.Title + ": " + f.Value + "\n")
			}
		}
		for _, want := range []string{"Company: Northwind", "Signal type: funding", "Severity: high", "Raised a Series A.", "[Northwind raises a Series A](https://news.example/1)"} {
			if !strings.Contains(all.String(), want) {
				t.Errorf("teams card lacks %q:\n%s", want, all.String())
			}
		}
	})
}

// finishRunWithEmail writes a run of ent whose alert has an e-mail in the outbox, kept for the test to mark,
// and returns the alert and outbox ids.
func finishRunWithEmail(t *testing.T, h *harness, ent string) (alertID, outboxID string) {
	t.Helper()
	ctx := context.Background()
	args := radar.RunArgs{OrgID: h.env.OrgA.ID, EntityID: ent, RunID: uuid.NewString(), Trigger: radar.TriggerFirst}
	now := radar.NewTime(time.Now())
	if _, err := h.env.DB.StartRun(ctx, args, now); err != nil {
		t.Fatal(err)
	}
	sig := &radar.Signal{ID: uuid.NewString(), CompanyName: "Northwind", Type: radar.TypeFunding, Severity: "high",
		Recommendation: "reach_out", Summary: "Raised a Series A.", Evidence: []radar.Evidence{}, Analyser: "builtin", CreatedAt: now}
	alert := &radar.Alert{ID: uuid.NewString(), CompanyName: "Northwind", Outcome: radar.OutcomeSent, Reason: "a rule matched",
		Recipients: []string{"a@fund.example"}, Subject: "Northwind: funding", CreatedAt: now}
	m := &radar.OutboxMessage{ID: uuid.NewString(), To: alert.Recipients, Subject: alert.Subject, Text: "x", Status: radar.OutboxKept, CreatedAt: now}
	rep := &radar.RunReport{OrgID: args.OrgID, EntityID: ent, RunID: args.RunID, Signal: sig, Alert: alert, Outbox: m,
		HealthReason: "ok: 1 source read", FinishedAt: now}
	if _, err := h.env.DB.FinishRun(ctx, rep); err != nil {
		t.Fatal(err)
	}
	return alert.ID, m.ID
}

// TestAlertAndEnrichmentEvents: a delivered alert e-mail sends alert.sent, one given up sends alert.failed,
// and finished enrichment sends entity.enrichment_completed, each from the transaction that records it.
func TestAlertAndEnrichmentEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{})
		rcv := newReceiver(t)
		_, secret := h.register(t, rcv.URL, "webhook", "alert.sent", "alert.failed", "entity.enrichment_completed")
		ent := h.entity(t, "Northwind")
		ctx := context.Background()
		if _, _, err := h.env.DB.BeginEnrichment(ctx, h.env.OrgA.ID, ent); err != nil {
			t.Fatal(err)
		}
		if err := h.env.DB.FinishEnrichment(ctx, h.env.OrgA.ID, ent, radar.Enrichment{Status: radar.EnrichReady,
			CompanyLinkedinURL: "https://www.linkedin.com/company/northwind"}, radar.NewTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		sentAlert, sentMail := finishRunWithEmail(t, h, ent)
		if err := h.env.DB.MarkOutboxSent(ctx, h.env.OrgA.ID, sentMail, radar.NewTime(time.Now())); err != nil {
			t.Fatal(err)
		}
		failedAlert, failedMail := finishRunWithEmail(t, h, ent)
		if err := h.env.DB.MarkOutboxFailed(ctx, h.env.OrgA.ID, failedMail, "550 no such user", true, "could not be delivered"); err != nil {
			t.Fatal(err)
		}
		byType := map[string]payload{}
		for _, r := range rcv.wait(t, 3) {
			verify(t, secret, r)
			p := decode(t, r)
			byType[p.Type] = p
		}
		var e radar.Entity
		json.Unmarshal(byType[radar.EventEnrichmentCompleted].Data, &e)
		if e.ID != ent || e.CompanyLinkedinURL != "https://www.linkedin.com/company/northwind" {
			t.Errorf("entity.enrichment_completed data: %+v", e)
		}
		var sent, failed radar.Alert
		json.Unmarshal(byType[radar.EventAlertSent].Data, &sent)
		json.Unmarshal(byType[radar.EventAlertFailed].Data, &failed)
		if sent.ID != sentAlert || sent.SentAt == nil {
			t.Errorf("alert.sent data: %+v, want alert %s with sentAt", sent, sentAlert)
		}
		if failed.ID != failedAlert || failed.Outcome != radar.OutcomeFailed {
			t.Errorf("alert.failed data: %+v, want alert %s failed", failed, failedAlert)
		}
	})
}

// TestDeliveryLogKept30Days: cleaning deletes the attempts older than 30 days and keeps the others.
func TestDeliveryLogKept30Days(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		h := start(t, engine, true, webhook.Config{})
		rcv := newReceiver(t)
		id, _ := h.register(t, rcv.URL, "webhook", "webhook.test")
		for range 2 {
			h.env.Do(t, http.MethodPost, "/api/v1/webhooks/"+id+"/test", h.key, nil)
		}
		rcv.wait(t, 2)
		h.waitDeliveries(t, id, 2)
		at := time.Now()
		clean := func(now time.Time) {
			d, err := webhook.New(webhook.Config{Store: h.env.DB, Clock: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Clean(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		clean(at.Add(29 * 24 * time.Hour))
		if n := len(h.deliveries(t, id)); n != 2 {
			t.Errorf("after 29 days: %d attempts, want 2", n)
		}
		clean(at.Add(30*24*time.Hour + time.Minute))
		if n := len(h.deliveries(t, id)); n != 0 {
			t.Errorf("after 30 days: %d attempts, want 0", n)
		}
	})
}
