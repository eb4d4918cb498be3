package api

import (
	"context"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

// WebhookIDParam names an endpoint.
type WebhookIDParam struct {
	ID string `path:"id" format:"uuid" doc:"Webhook endpoint id"`
}

// WebhookList is the answer of GET /webhooks: every endpoint of the organisation, newest first.
type WebhookList struct {
	Data []*radar.WebhookEndpoint `json:"data" nullable:"false" doc:"The endpoints, newest first"`
}

// WebhookTestQueued is the answer of a test request.
type WebhookTestQueued struct {
	Data WebhookTestMessage `json:"data" doc:"The queued test event"`
}

// WebhookTestMessage names the queued test event.
type WebhookTestMessage struct {
	MessageID  string `json:"messageId" doc:"The webhook-id of the test delivery; its attempts appear in the delivery log"`
	EndpointID string `json:"endpointId" format:"uuid" doc:"The endpoint it goes to"`
}

type webhookPatchInput struct {
	WebhookIDParam
	Body radar.WebhookPatch
}

type webhookDeliveriesInput struct {
	WebhookIDParam
	Limit  int    `query:"limit" minimum:"1" doc:"Page size 1-100, default 25; larger values are reduced to 100"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

// Delivery payloads as the OpenAPI document's webhooks section describes them.
type (
	// SignalEventPayload is the body of signal.created and signal.changed.
	SignalEventPayload struct {
		Type      string        `json:"type" enum:"signal.created,signal.changed" doc:"Event type"`
		Timestamp radar.Time    `json:"timestamp" doc:"When the event happened"`
		Version   int           `json:"version" enum:"1" doc:"Payload version"`
		Data      *radar.Signal `json:"data" doc:"The signal in its full view"`
	}
	// AlertEventPayload is the body of alert.sent and alert.failed.
	AlertEventPayload struct {
		Type      string       `json:"type" enum:"alert.sent,alert.failed" doc:"Event type"`
		Timestamp radar.Time   `json:"timestamp" doc:"When the event happened"`
		Version   int          `json:"version" enum:"1" doc:"Payload version"`
		Data      *radar.Alert `json:"data" doc:"The alert in its full view"`
	}
	// LeadEventPayload is the body of lead.found.
	LeadEventPayload struct {
		Type      string      `json:"type" enum:"lead.found" doc:"Event type"`
		Timestamp radar.Time  `json:"timestamp" doc:"When the event happened"`
		Version   int         `json:"version" enum:"1" doc:"Payload version"`
		Data      *radar.Lead `json:"data" doc:"The new lead"`
	}
	// EnrichmentEventPayload is the body of entity.enrichment_completed.
	EnrichmentEventPayload struct {
		Type      string        `json:"type" enum:"entity.enrichment_completed" doc:"Event type"`
		Timestamp radar.Time    `json:"timestamp" doc:"When the event happened"`
		Version   int           `json:"version" enum:"1" doc:"Payload version"`
		Data      *radar.Entity `json:"data" doc:"The tracked company with the profiles found"`
	}
	// TestEventPayload is the body of webhook.test.
	TestEventPayload struct {
		Type      string                  `json:"type" enum:"webhook.test" doc:"Event type"`
		Timestamp radar.Time              `json:"timestamp" doc:"When the event happened"`
		Version   int                     `json:"version" enum:"1" doc:"Payload version"`
		Data      service.WebhookTestData `json:"data" doc:"What the test is about"`
	}
)

const webhooksTag = "webhooks"

func (s *Server) registerWebhooks() {
	a, log := s.api, s.logger
	create := op("createWebhook", http.MethodPost, "/api/v1/webhooks", "Register a webhook endpoint", webhooksTag,
		http.StatusCreated, 400, 413, 415)
	create.Description = "Registers an endpoint that receives the listed events: kind webhook gets signed Standard Webhooks JSON " +
		"(webhook-id, webhook-timestamp, webhook-signature: v1,BASE64 of HMAC-SHA256 over id.timestamp.body with the key after whsec_); " +
		"slack and teams get chat messages for their incoming webhook URLs. The URL must reach the public internet (ports 80 and 443); " +
		"private and loopback addresses are refused with validation_error on url. The answer holds the signing secret, shown only here. " +
		"Needs webhooks:manage."
	huma.Register(a, create, func(ctx context.Context, in *body[radar.WebhookInput]) (*body[DataBody[*radar.WebhookWithSecret]], error) {
		w, err := s.svc.CreateWebhook(ctx, PrincipalFrom(ctx), in.Body)
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[DataBody[*radar.WebhookWithSecret]]{DataBody[*radar.WebhookWithSecret]{w}}, nil
	})

	list := op("listWebhooks", http.MethodGet, "/api/v1/webhooks", "List webhook endpoints", webhooksTag, http.StatusOK)
	list.Description = "Every endpoint of the organisation, newest first, without secrets. Needs webhooks:manage."
	huma.Register(a, list, func(ctx context.Context, _ *struct{}) (*body[WebhookList], error) {
		ws, err := s.svc.ListWebhooks(ctx, PrincipalFrom(ctx))
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[WebhookList]{WebhookList{Data: ws}}, nil
	})

	get := op("getWebhook", http.MethodGet, "/api/v1/webhooks/{id}", "Read a webhook endpoint", webhooksTag, http.StatusOK, 400, 404)
	get.Description = "One endpoint, without its secret: whether it is enabled, since when it fails, why Radar disabled it. Needs webhooks:manage."
	huma.Register(a, get, func(ctx context.Context, in *WebhookIDParam) (*body[DataBody[*radar.WebhookEndpoint]], error) {
		w, err := s.svc.GetWebhook(ctx, PrincipalFrom(ctx), in.ID)
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[DataBody[*radar.WebhookEndpoint]]{DataBody[*radar.WebhookEndpoint]{w}}, nil
	})

	patch := op("updateWebhook", http.MethodPatch, "/api/v1/webhooks/{id}", "Change a webhook endpoint", webhooksTag,
		http.StatusOK, 400, 404, 413, 415)
	patch.Description = "Changes the URL, kind, events or enabled flag; absent fields stay. Enabling an endpoint that Radar " +
		"disabled forgets its failures. Needs webhooks:manage."
	huma.Register(a, patch, func(ctx context.Context, in *webhookPatchInput) (*body[DataBody[*radar.WebhookEndpoint]], error) {
		w, err := s.svc.UpdateWebhook(ctx, PrincipalFrom(ctx), in.ID, in.Body)
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[DataBody[*radar.WebhookEndpoint]]{DataBody[*radar.WebhookEndpoint]{w}}, nil
	})

	del := op("deleteWebhook", http.MethodDelete, "/api/v1/webhooks/{id}", "Delete a webhook endpoint", webhooksTag,
		http.StatusNoContent, 400, 404)
	del.Description = "Deletes the endpoint with its undelivered events and its delivery log. Needs webhooks:manage."
	huma.Register(a, del, func(ctx context.Context, in *WebhookIDParam) (*deleteOutput, error) {
		if err := s.svc.DeleteWebhook(ctx, PrincipalFrom(ctx), in.ID); err != nil {
			return nil, fail(ctx, log, err)
		}
		return &deleteOutput{Status: http.StatusNoContent}, nil
	})

	test := op("testWebhook", http.MethodPost, "/api/v1/webhooks/{id}/test", "Send a test event", webhooksTag,
		http.StatusAccepted, 400, 404)
	test.Description = "Queues a webhook.test event for the endpoint, even a disabled one; its attempts appear in the delivery log. " +
		"Needs webhooks:manage."
	huma.Register(a, test, func(ctx context.Context, in *WebhookIDParam) (*body[WebhookTestQueued], error) {
		id, err := s.svc.TestWebhook(ctx, PrincipalFrom(ctx), in.ID)
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[WebhookTestQueued]{WebhookTestQueued{WebhookTestMessage{MessageID: id, EndpointID: in.ID}}}, nil
	})

	rotate := op("rotateWebhookSecret", http.MethodPost, "/api/v1/webhooks/{id}/rotate-secret", "Rotate the signing secret", webhooksTag,
		http.StatusOK, 400, 404)
	rotate.Description = "Gives the endpoint a new secret, shown only in this answer. For 24 hours the old secret signs too: " +
		"webhook-signature carries two v1 entries, so that receivers can switch without losing events. Needs webhooks:manage."
	huma.Register(a, rotate, func(ctx context.Context, in *WebhookIDParam) (*body[DataBody[*radar.WebhookWithSecret]], error) {
		w, err := s.svc.RotateWebhookSecret(ctx, PrincipalFrom(ctx), in.ID)
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[DataBody[*radar.WebhookWithSecret]]{DataBody[*radar.WebhookWithSecret]{w}}, nil
	})

	deliveries := op("listWebhookDeliveries", http.MethodGet, "/api/v1/webhooks/{id}/deliveries", "List delivery attempts",
		webhooksTag, http.StatusOK, 400, 404)
	deliveries.Description = "The endpoint's delivery log, newest first, cursor-paged: each attempt's time, status code, latency and " +
		"the first 1 KiB of the answer. Attempts are kept 30 days. Needs webhooks:manage."
	huma.Register(a, deliveries, func(ctx context.Context, in *webhookDeliveriesInput) (*body[*service.List[*radar.WebhookDelivery]], error) {
		l, err := s.svc.ListWebhookDeliveries(ctx, PrincipalFrom(ctx), in.ID, service.PageQuery{Limit: in.Limit, Cursor: in.Cursor})
		if err != nil {
			return nil, fail(ctx, log, err)
		}
		return &body[*service.List[*radar.WebhookDelivery]]{l}, nil
	})
	s.describeWebhooks()
}

// describeWebhooks writes the OpenAPI document's webhooks section: one entry per event type with its payload.
func (s *Server) describeWebhooks() {
	doc := s.api.OpenAPI()
	reg := doc.Components.Schemas
	headers := []*huma.Param{
		{Name: "webhook-id", In: "header", Required: true, Description: "The event's id, the same on every retry: drop duplicates by it", Schema: &huma.Schema{Type: "string"}},
		{Name: "webhook-timestamp", In: "header", Required: true, Description: "Unix seconds of this attempt", Schema: &huma.Schema{Type: "string"}},
		{Name: "webhook-signature", In: "header", Required: true, Description: "Space-separated v1,BASE64 signatures (two during a secret rotation's 24-hour overlap)", Schema: &huma.Schema{Type: "string"}},
	}
	events := []struct {
		name, summary string
		payload       reflect.Type
	}{
		{radar.EventSignalCreated, "A run produced a signal (every run, quiet ones included)", reflect.TypeFor[SignalEventPayload]()},
		{radar.EventSignalChanged, "A run found something: its signal's type is not no_change", reflect.TypeFor[SignalEventPayload]()},
		{radar.EventAlertSent, "An alert e-mail was delivered", reflect.TypeFor[AlertEventPayload]()},
		{radar.EventAlertFailed, "An alert e-mail could not be delivered after its retries", reflect.TypeFor[AlertEventPayload]()},
		{radar.EventLeadFound, "A run found a new founder lead", reflect.TypeFor[LeadEventPayload]()},
		{radar.EventEnrichmentCompleted, "Enrichment of a tracked company finished", reflect.TypeFor[EnrichmentEventPayload]()},
		{radar.EventWebhookTest, "A test event sent on request", reflect.TypeFor[TestEventPayload]()},
	}
	if doc.Webhooks == nil {
		doc.Webhooks = map[string]*huma.PathItem{}
	}
	for _, e := range events {
		schema := reg.Schema(e.payload, true, e.payload.Name())
		doc.Webhooks[e.name] = &huma.PathItem{Post: &huma.Operation{
			OperationID: "webhook." + e.name,
			Summary:     e.summary,
			Description: "POSTed to endpoints of kind webhook subscribed to " + e.name + " as JSON {type, timestamp, version, data}, " +
				"signed as Standard Webhooks. Answer 2xx within 15 seconds; anything else is retried with backoff over about a day " +
				"(5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) under the same webhook-id. An endpoint failing for 24 hours is disabled.",
			Tags:       []string{webhooksTag},
			Parameters: headers,
			Security:   []map[string][]string{},
			RequestBody: &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
				"application/json": {Schema: schema},
			}},
			Responses: map[string]*huma.Response{"200": {Description: "Received (any 2xx)"}},
		}}
	}
}
