package radar

import "context"

// ScopeWebhooksManage lets a key register, change, test and inspect the organisation's webhook endpoints.
const ScopeWebhooksManage = "webhooks:manage"

// Webhook endpoint kinds: a signed Standard Webhooks delivery, a Slack incoming webhook (Block Kit message) or a
// Microsoft Teams incoming webhook (Adaptive Card).
const (
	WebhookKindWebhook = "webhook"
	WebhookKindSlack   = "slack"
	WebhookKindTeams   = "teams"
)

// WebhookKinds lists every endpoint kind.
var WebhookKinds = []string{WebhookKindWebhook, WebhookKindSlack, WebhookKindTeams}

// Webhook event types.
const (
	EventSignalCreated       = "signal.created"
	EventSignalChanged       = "signal.changed"
	EventAlertSent           = "alert.sent"
	EventAlertFailed         = "alert.failed"
	EventLeadFound           = "lead.found"
	EventEnrichmentCompleted = "entity.enrichment_completed"
	EventWebhookTest         = "webhook.test"
)

// WebhookSecretPrefix starts every endpoint secret; the rest is the base64 of the HMAC key.
const WebhookSecretPrefix = "whsec_"

// WebhookMaxAttempts bounds the delivery attempts of one event; the worker spreads them over about a day.
const WebhookMaxAttempts = 8

// WebhookResponseKeep is how much of a receiver's answer the delivery log keeps.
const WebhookResponseKeep = 1024

// Webhook message states.
const (
	WebhookMessagePending   = "pending"
	WebhookMessageDelivered = "delivered"
	WebhookMessageFailed    = "failed"
)

// WebhookEvents lists the events an endpoint may subscribe to; webhook.test is sent on request to any endpoint.
var WebhookEvents = []string{EventSignalCreated, EventSignalChanged, EventAlertSent, EventAlertFailed,
	EventLeadFound, EventEnrichmentCompleted, EventWebhookTest}

// WebhookEndpoint is a URL of an organisation that receives events.
type WebhookEndpoint struct {
	ID      string   `json:"id" format:"uuid" doc:"Endpoint id"`
	OrgID   string   `json:"-"`
	URL     string   `json:"url" format:"uri" maxLength:"2048" doc:"Where deliveries are POSTed"`
	Kind    string   `json:"kind" enum:"webhook,slack,teams" doc:"webhook: signed Standard Webhooks JSON; slack: Block Kit message; teams: Adaptive Card"`
	Events  []string `json:"events" nullable:"false" doc:"Subscribed event types"`
	Enabled bool     `json:"enabled" doc:"Whether events are delivered; false after 24 hours of failed deliveries"`
	// DisabledReason says why Radar disabled the endpoint; empty when a client disabled it or it is enabled.
	DisabledReason string `json:"disabledReason" doc:"Why Radar disabled the endpoint (failing deliveries); empty otherwise"`
	FailingSince   *Time  `json:"failingSince" nullable:"true" doc:"Start of the current run of failed deliveries; null when the last delivery succeeded"`
	// PreviousSecretExpiresAt is when the secret replaced by the last rotation stops signing.
	PreviousSecretExpiresAt *Time `json:"previousSecretExpiresAt" nullable:"true" doc:"Until when the secret replaced by the last rotation still signs deliveries beside the new one"`
	CreatedAt               Time  `json:"createdAt" doc:"When the endpoint was registered"`
	UpdatedAt               Time  `json:"updatedAt" doc:"When the endpoint last changed"`

	// Secret signs deliveries (whsec_ followed by base64); PreviousSecret signs too until PreviousSecretExpiresAt.
	Secret         string `json:"-"`
	PreviousSecret string `json:"-"`
}

// WebhookDelivery is one attempt to deliver an event to an endpoint.
type WebhookDelivery struct {
	ID          string `json:"id" format:"uuid" doc:"Attempt id"`
	EndpointID  string `json:"endpointId" format:"uuid" doc:"The endpoint delivered to"`
	MessageID   string `json:"messageId" doc:"The event's webhook-id, the same on every attempt"`
	EventType   string `json:"eventType" doc:"Event type, e.g. signal.created"`
	Attempt     int    `json:"attempt" minimum:"1" doc:"1 for the first attempt"`
	AttemptedAt Time   `json:"attemptedAt" doc:"When the attempt started"`
	StatusCode  *int   `json:"statusCode" nullable:"true" doc:"The receiver's HTTP status; null when no answer came (refused, timed out)"`
	LatencyMs   int64  `json:"latencyMs" doc:"Time from sending the request to the end of the answer"`
	Success     bool   `json:"success" doc:"A 2xx answer"`
	Response    string `json:"response" maxLength:"1024" doc:"The first 1 KiB of the answer's body"`
	Error       string `json:"error" doc:"Why no answer came; empty when one did"`
	CreatedAt   Time   `json:"-"`
}

// WebhookMessage is one event queued for one endpoint; it keeps its id (webhook-id) across retries.
type WebhookMessage struct {
	ID         string
	OrgID      string
	EndpointID string
	EventType  string
	Payload    RawJSON
	Status     string
	Attempts   int
	CreatedAt  Time
}

// WebhookEvent is an event produced inside a store transaction: its type and its data document.
type WebhookEvent struct {
	Type string
	Data any
}

// WebhookPayload is the body of every delivery to an endpoint of kind webhook: the event type, when it
// happened, the payload version and the event's data.
type WebhookPayload struct {
	Type      string `json:"type"`
	Timestamp Time   `json:"timestamp"`
	Version   int    `json:"version"`
	Data      any    `json:"data"`
}

// WebhookPayloadVersion is the version of the payloads' shape; a change that could break a receiver raises it.
const WebhookPayloadVersion = 1

// WebhookArgs asks for the delivery of one webhook message.
type WebhookArgs struct {
	OrgID     string `json:"orgId"`
	MessageID string `json:"messageId"`
}

// Kind names the webhook delivery worker.
func (WebhookArgs) Kind() string { return "webhook" }

// WebhookNoticeArgs asks for the e-mail telling an organisation's owners that an endpoint was disabled.
type WebhookNoticeArgs struct {
	OrgID      string `json:"orgId"`
	EndpointID string `json:"endpointId"`
}

// Kind names the notice worker.
func (WebhookNoticeArgs) Kind() string { return "webhook_notice" }

// WebhookDeliveryFilter selects the delivery attempts of an endpoint, newest first.
type WebhookDeliveryFilter struct {
	OrgID      string
	EndpointID string
	Page       Page
}

// WebhookStore keeps webhook endpoints, their queued events and the log of delivery attempts. Every method is
// scoped to an organisation and answers ErrNotFound for another organisation's id.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, w *WebhookEndpoint) error
	Webhook(ctx context.Context, orgID, id string) (*WebhookEndpoint, error)
	Webhooks(ctx context.Context, orgID string) ([]*WebhookEndpoint, error)
	// UpdateWebhook writes the URL, kind, events and enabled flag; enabling clears the failure record.
	UpdateWebhook(ctx context.Context, w *WebhookEndpoint, now Time) error
	// RotateWebhookSecret makes secret the signing secret; the old one keeps signing until prevUntil.
	RotateWebhookSecret(ctx context.Context, orgID, id, secret string, prevUntil, now Time) (*WebhookEndpoint, error)
	DeleteWebhook(ctx context.Context, orgID, id string) error
	// QueueWebhookMessage stores a message for its endpoint and inserts its delivery job in one transaction.
	QueueWebhookMessage(ctx context.Context, m *WebhookMessage) error
	WebhookDeliveries(ctx context.Context, f WebhookDeliveryFilter) ([]*WebhookDelivery, error)
}

// WebhookInput is the body of a webhook registration.
type WebhookInput struct {
	URL     string   `json:"url" format:"uri" minLength:"1" maxLength:"2048" doc:"http or https URL on the public internet (ports 80 and 443), 1-2048 characters"`
	Kind    string   `json:"kind,omitempty" enum:"webhook,slack,teams" doc:"webhook (default): signed Standard Webhooks JSON; slack: a Slack incoming webhook URL; teams: a Microsoft Teams incoming webhook URL"`
	Events  []string `json:"events" nullable:"false" minItems:"1" maxItems:"7" enum:"signal.created,signal.changed,alert.sent,alert.failed,lead.found,entity.enrichment_completed,webhook.test" doc:"1-7 distinct event types to deliver"`
	Enabled *bool    `json:"enabled,omitempty" doc:"Deliver events; default true"`
}

// WebhookPatch holds the changeable fields of an endpoint; absent fields stay as they are.
type WebhookPatch struct {
	URL     *string  `json:"url,omitempty" format:"uri" minLength:"1" maxLength:"2048" doc:"http or https URL on the public internet, 1-2048 characters"`
	Kind    *string  `json:"kind,omitempty" enum:"webhook,slack,teams" doc:"Endpoint kind"`
	Events  []string `json:"events,omitempty" nullable:"false" minItems:"1" maxItems:"7" enum:"signal.created,signal.changed,alert.sent,alert.failed,lead.found,entity.enrichment_completed,webhook.test" doc:"1-7 distinct event types, replaced as a whole"`
	Enabled *bool    `json:"enabled,omitempty" doc:"true enables the endpoint again (forgetting its failures); false stops deliveries"`
}

// WebhookWithSecret is an endpoint with its signing secret, shown when it is created and when it is rotated.
type WebhookWithSecret struct {
	WebhookEndpoint
	SecretValue string `json:"secret" doc:"The signing secret (whsec_ and base64); shown only in this answer"`
}
