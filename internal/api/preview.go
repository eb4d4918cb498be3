package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"radar/internal/service"
)

// PreviewInput is a draft of a company's alert rules.
type PreviewInput struct {
	ThingsToTrack string `json:"thingsToTrack" minLength:"1" maxLength:"10000" doc:"Alert rules in plain language, 1-10000 characters, as they would be saved"`
}

type previewInput struct {
	IDParam
	Body PreviewInput
}

func (s *Server) registerPreview() {
	o := op("previewRules", http.MethodPost, "/api/v1/tracker/{id}/rules/preview", "Try draft alert rules on a company's earlier runs", "tracker",
		http.StatusOK, 400, 404, 413, 415)
	o.Description = "Compiles thingsToTrack into a policy as a save would, and evaluates each rule against the items " +
		"the company's earlier runs found (the latest 200 runs), answering per rule whether it would have matched, " +
		"why, and on which items. Nothing is stored and no e-mail is sent."
	huma.Register(s.api, o, func(ctx context.Context, in *previewInput) (*body[DataBody[*service.RulePreview]], error) {
		r, err := s.svc.PreviewRules(ctx, PrincipalFrom(ctx), in.ID, in.Body.ThingsToTrack)
		if err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		return &body[DataBody[*service.RulePreview]]{DataBody[*service.RulePreview]{r}}, nil
	})
}
