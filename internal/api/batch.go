package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"radar"
	"radar/internal/service"
)

// BatchInput is the body of a bulk create. Each item is checked on its own, so that one bad item never
// blocks the others: the document shows the create body each item should be, but the request is not refused
// for an item that is not.
type BatchInput struct {
	Items []json.RawMessage `json:"items" doc:"1-500 create bodies, as POST /api/v1/tracker takes them"`
}

// TransformSchema describes each item as a create body that may be invalid: a bad item is answered with its
// error in its own result and never refuses the batch, so the document does not constrain it.
func (BatchInput) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	if items := s.Properties["items"]; items != nil {
		items.Items = &huma.Schema{Description: "A create body, as POST /api/v1/tracker takes it (schema CreateInput). " +
			"An item that is not a valid create body gets its validation_error in its result; the others go on."}
		items.MinItems, items.MaxItems = new(1), new(service.MaxBatch)
		items.Nullable = false
	}
	s.Required = []string{"items"}
	return s
}

type batchInput struct {
	IdempotencyKey string `header:"Idempotency-Key" doc:"8-200 printable ASCII characters without spaces; covers the whole batch for 24 hours: a retry with the same items replays each item's outcome"`
	Body           BatchInput
}

// BatchResult answers a bulk create, one item per item of the request, in order.
type BatchResult struct {
	Data []service.BatchItem `json:"data"`
}

func (s *Server) registerBatch() {
	o := op("batchTracker", http.MethodPost, "/api/v1/tracker/batch", "Track many companies at once", "tracker",
		http.StatusOK, 400, 413, 415)
	o.Description = "Each item is a create body and is handled as POST /api/v1/tracker handles one: the same " +
		"validation, the same reuse of an already tracked company, the same background enrichment and first run. " +
		"The answer lists every item by its index with status created, existing or error; an item that fails " +
		"(with error in the envelope's {code, message, details} shape) leaves the others alone. Counts once in the " +
		"write and create buckets."
	o.SkipValidateBody = true
	huma.Register(s.api, o, func(ctx context.Context, in *batchInput) (*body[BatchResult], error) {
		schema := s.api.OpenAPI().Components.Schemas.Map()["CreateInput"]
		items := make([]service.BatchInput, len(in.Body.Items))
		for i, raw := range in.Body.Items {
			items[i] = s.batchItem(schema, raw)
		}
		res, err := s.svc.CreateBatch(ctx, PrincipalFrom(ctx), items, in.IdempotencyKey)
		if err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		return &body[BatchResult]{BatchResult{res}}, nil
	})
}

// batchItem checks one item against the create body's schema, with the messages a single create gives, and
// reads it.
func (s *Server) batchItem(schema *huma.Schema, raw json.RawMessage) service.BatchInput {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return service.BatchInput{Err: radar.Errorf(radar.EInvalidJSON, "item is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))}
	}
	var res huma.ValidateResult
	huma.Validate(s.api.OpenAPI().Components.Schemas, schema, huma.NewPathBuffer([]byte("body"), 4), huma.ModeWriteToServer, v, &res)
	if len(res.Errors) > 0 {
		return service.BatchInput{Err: hError(http.StatusUnprocessableEntity, "validation failed", res.Errors...).(*ErrorBody).Err}
	}
	var c radar.CreateInput
	if err := json.Unmarshal(raw, &c); err != nil {
		return service.BatchInput{Err: radar.Errorf(radar.EValidation, "item does not fit the create body: %s", strings.TrimPrefix(err.Error(), "json: "))}
	}
	return service.BatchInput{Input: c}
}
