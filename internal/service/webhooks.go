package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"slices"
	"time"

	"radar"
	"radar/internal/fetch"
)

// maxWebhookURL bounds an endpoint's URL.
const maxWebhookURL = 2048

// WebhookSecretOverlap is how long the secret replaced by a rotation keeps signing beside the new one.
const WebhookSecretOverlap = 24 * time.Hour

// webhookSecretBytes is the length of a generated signing key.
const webhookSecretBytes = 24

// newWebhookSecret returns a new signing secret: whsec_ followed by the base64 of a random key.
func newWebhookSecret() string {
	b := make([]byte, webhookSecretBytes)
	rand.Read(b)
	return radar.WebhookSecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// checkWebhook validates an endpoint's URL, kind and events into p.
func (s *Service) checkWebhook(ctx context.Context, w *radar.WebhookEndpoint, p *radar.Problems) {
	switch {
	case w.URL == "":
		p.Add("url", "is required")
	case len(w.URL) > maxWebhookURL:
		p.Addf("url", "must be at most %d characters, got %d", maxWebhookURL, len(w.URL))
	default:
		if err := fetch.CheckDestination(ctx, w.URL, !s.publicOnly); err != nil {
			p.Addf("url", "must be an http or https URL that Radar may reach on the public internet: %v", err)
		}
	}
	if !slices.Contains(radar.WebhookKinds, w.Kind) {
		p.Addf("kind", "must be webhook, slack or teams, got %q", w.Kind)
	}
	if len(w.Events) == 0 {
		p.Add("events", "must list at least one event type")
	}
	for i, e := range w.Events {
		if !slices.Contains(radar.WebhookEvents, e) {
			p.Addf("events", "item %d: unknown event type %q; known: signal.created, signal.changed, alert.sent, alert.failed, lead.found, entity.enrichment_completed, webhook.test", i, e)
		}
	}
	slices.Sort(w.Events)
	w.Events = slices.Compact(w.Events)
}

// CreateWebhook registers an endpoint of the principal's organisation and returns it with its secret, which is
// shown this once. Errors: insufficient_scope, validation_error.
func (s *Service) CreateWebhook(ctx context.Context, p *radar.Principal, in radar.WebhookInput) (*radar.WebhookWithSecret, error) {
	if err := p.Require(radar.ScopeWebhooksManage); err != nil {
		return nil, err
	}
	now := s.nowTime()
	w := &radar.WebhookEndpoint{ID: newID(), OrgID: p.OrgID, URL: in.URL, Kind: in.Kind, Events: slices.Clone(in.Events),
		Enabled: in.Enabled == nil || *in.Enabled, Secret: newWebhookSecret(), CreatedAt: now, UpdatedAt: now}
	if w.Kind == "" {
		w.Kind = radar.WebhookKindWebhook
	}
	var probs radar.Problems
	s.checkWebhook(ctx, w, &probs)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if err := s.store.CreateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return &radar.WebhookWithSecret{WebhookEndpoint: *w, SecretValue: w.Secret}, nil
}

// ListWebhooks lists the organisation's endpoints, newest first. Errors: insufficient_scope.
func (s *Service) ListWebhooks(ctx context.Context, p *radar.Principal) ([]*radar.WebhookEndpoint, error) {
	if err := p.Require(radar.ScopeWebhooksManage); err != nil {
		return nil, err
	}
	return s.store.Webhooks(ctx, p.OrgID)
}

// GetWebhook reads one endpoint. Errors: insufficient_scope, validation_error, not_found.
func (s *Service) GetWebhook(ctx context.Context, p *radar.Principal, id string) (*radar.WebhookEndpoint, error) {
	if err := p.Require(radar.ScopeWebhooksManage); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	return s.store.Webhook(ctx, p.OrgID, id)
}

// UpdateWebhook changes an endpoint; enabling it forgets its failures. Errors: insufficient_scope,
// validation_error, not_found.
func (s *Service) UpdateWebhook(ctx context.Context, p *radar.Principal, id string, in radar.WebhookPatch) (*radar.WebhookEndpoint, error) {
	w, err := s.GetWebhook(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if in.URL != nil {
		w.URL = *in.URL
	}
	if in.Kind != nil {
		w.Kind = *in.Kind
	}
	if in.Events != nil {
		w.Events = slices.Clone(in.Events)
	}
	if in.Enabled != nil {
		w.Enabled = *in.Enabled
	}
	var probs radar.Problems
	s.checkWebhook(ctx, w, &probs)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if err := s.store.UpdateWebhook(ctx, w, s.nowTime()); err != nil {
		return nil, err
	}
	return s.store.Webhook(ctx, p.OrgID, id)
}

// DeleteWebhook deletes an endpoint with its pending events and its log. Errors: insufficient_scope,
// validation_error, not_found.
func (s *Service) DeleteWebhook(ctx context.Context, p *radar.Principal, id string) error {
	if err := p.Require(radar.ScopeWebhooksManage); err != nil {
		return err
	}
	if err := checkID("id", id); err != nil {
		return err
	}
	return s.store.DeleteWebhook(ctx, p.OrgID, id)
}

// WebhookTestData is the data of a webhook.test event.
type WebhookTestData struct {
	EndpointID string `json:"endpointId" format:"uuid" doc:"The endpoint the test was sent to"`
	Message    string `json:"message" doc:"A sentence saying that this is a test"`
}

// TestWebhook queues a webhook.test event for an endpoint, enabled or not, and returns its webhook-id. Errors:
// insufficient_scope, validation_error, not_found.
func (s *Service) TestWebhook(ctx context.Context, p *radar.Principal, id string) (string, error) {
	w, err := s.GetWebhook(ctx, p, id)
	if err != nil {
		return "", err
	}
	now := s.nowTime()
	body, err := json.Marshal(radar.WebhookPayload{Type: radar.EventWebhookTest, Timestamp: now, Version: radar.WebhookPayloadVersion,
		Data: WebhookTestData{EndpointID: w.ID, Message: "A test event from Radar: this endpoint receives events."}})
	if err != nil {
		return "", err
	}
	m := &radar.WebhookMessage{ID: "msg_" + newID(), OrgID: p.OrgID, EndpointID: w.ID,
		EventType: radar.EventWebhookTest, Payload: body, CreatedAt: now}
	if err := s.store.QueueWebhookMessage(ctx, m); err != nil {
		return "", err
	}
	return m.ID, nil
}

// RotateWebhookSecret gives an endpoint a new secret and returns it; the old one keeps signing beside it for
// WebhookSecretOverlap. Errors: insufficient_scope, validation_error, not_found.
func (s *Service) RotateWebhookSecret(ctx context.Context, p *radar.Principal, id string) (*radar.WebhookWithSecret, error) {
	if _, err := s.GetWebhook(ctx, p, id); err != nil {
		return nil, err
	}
	now := s.nowTime()
	secret := newWebhookSecret()
	w, err := s.store.RotateWebhookSecret(ctx, p.OrgID, id, secret, radar.NewTime(now.Add(WebhookSecretOverlap)), now)
	if err != nil {
		return nil, err
	}
	return &radar.WebhookWithSecret{WebhookEndpoint: *w, SecretValue: secret}, nil
}

// ListWebhookDeliveries lists an endpoint's delivery attempts, newest first, a page at a time. Errors:
// insufficient_scope, validation_error, invalid_cursor, not_found.
func (s *Service) ListWebhookDeliveries(ctx context.Context, p *radar.Principal, id string, q PageQuery) (*List[*radar.WebhookDelivery], error) {
	if _, err := s.GetWebhook(ctx, p, id); err != nil {
		return nil, err
	}
	var probs radar.Problems
	pg, _ := s.page("webhook-deliveries:"+id, q, &probs)
	if len(probs) > 0 {
		return nil, cursorErr(probs)
	}
	rows, err := s.store.WebhookDeliveries(ctx, radar.WebhookDeliveryFilter{OrgID: p.OrgID, EndpointID: id, Page: pg})
	if err != nil {
		return nil, err
	}
	out := &List[*radar.WebhookDelivery]{Data: []*radar.WebhookDelivery{}}
	rows, out.NextCursor = finish(s, "webhook-deliveries:"+id, rows, pg, func(d *radar.WebhookDelivery) (int64, string) {
		return d.CreatedAt.Micros(), d.ID
	})
	out.Data = append(out.Data, rows...)
	return out, nil
}
