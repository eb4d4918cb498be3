package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"radar"
)

// MarkSeenInput moves the caller's read position: give upTo or before.
type MarkSeenInput struct {
	UpTo   string      `json:"upTo,omitempty" format:"uuid" doc:"A signal id: it and every signal and alert created up to it are seen"`
	Before *radar.Time `json:"before,omitempty" doc:"An RFC 3339 timestamp: every signal and alert created before it is seen; not combinable with upTo"`
}

// SeenPosition is a caller's read position.
type SeenPosition struct {
	SeenThrough radar.Time `json:"seenThrough" doc:"Every signal and alert created at or before this instant is seen; unseen=true lists those after it"`
}

func (s *Server) registerSeen() {
	o := op("markSignalsSeen", http.MethodPost, "/api/v1/signals/mark-seen", "Mark signals and alerts as seen", "signals",
		http.StatusOK, 400, 413, 415)
	o.Description = "Moves the read position of the calling API key (of the user, in the web UI) forwards, to the " +
		"signal upTo or to just before the timestamp before; exactly one of them is given. The position never moves " +
		"backwards (an earlier mark answers the position kept) nor past now. GET /signals and GET /alerts with " +
		"unseen=true list the items created after it."
	huma.Register(s.api, o, func(ctx context.Context, in *body[MarkSeenInput]) (*body[DataBody[SeenPosition]], error) {
		t, err := s.svc.MarkSeen(ctx, PrincipalFrom(ctx), in.Body.UpTo, in.Body.Before)
		if err != nil {
			return nil, fail(ctx, s.logger, err)
		}
		return &body[DataBody[SeenPosition]]{DataBody[SeenPosition]{SeenPosition{t}}}, nil
	})
}
