package api

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"radar"
	"radar/internal/sqldb"
)

// unavailableRetry is the Retry-After, in seconds, of a request the database could not serve: long enough for
// a restart or a failover to finish, short enough that clients come back soon after.
const unavailableRetry = 5

// Unavailable turns a failure to reach the database into 503 service_unavailable, logged as a warning with the
// request id; nil for any other error. REST and MCP answer it alike.
func Unavailable(ctx context.Context, logger *slog.Logger, err error) *radar.Error {
	if !sqldb.Unavailable(err) {
		return nil
	}
	id := RequestID(ctx)
	logger.WarnContext(ctx, "database unavailable", "request_id", id, "err", err)
	return &radar.Error{
		Code:    radar.EUnavailable,
		Message: "the database is unavailable at the moment; retry after " + strconv.Itoa(unavailableRetry) + " seconds (Retry-After)",
		Details: map[string]any{"retryAfterSeconds": unavailableRetry, "requestId": id},
	}
}

// GetHeaders gives a 503 its Retry-After; huma adds these headers to the error it writes.
func (e *ErrorBody) GetHeaders() http.Header {
	if e.status != http.StatusServiceUnavailable {
		return nil
	}
	return http.Header{"Retry-After": {strconv.Itoa(unavailableRetry)}}
}
