package radar

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Error codes of the API. Each maps to one HTTP status in StatusOf.
const (
	EValidation            = "validation_error"
	EInvalidJSON           = "invalid_json"
	EInvalidCursor         = "invalid_cursor"
	EUnauthorized          = "unauthorized"
	EInsufficientScope     = "insufficient_scope"
	ENotFound              = "not_found"
	EEntityNotFound        = "entity_not_found"
	ESourceNotFound        = "source_not_found"
	EMethodNotAllowed      = "method_not_allowed"
	EAmbiguousEntity       = "ambiguous_entity"
	EAmbiguousSource       = "ambiguous_source"
	EIdempotencyConflict   = "idempotency_conflict"
	EIdempotencyInProgress = "idempotency_in_progress"
	ERefreshInProgress     = "refresh_in_progress"
	EEntityPaused          = "entity_paused"
	EConflict              = "conflict"
	EPayloadTooLarge       = "payload_too_large"
	EUnsupportedMediaType  = "unsupported_media_type"
	ERateLimited           = "rate_limited"
	EInternal              = "internal_error"
	EUnavailable           = "service_unavailable"
	// Answers of the HTTP server itself, before any route runs.
	EHeaderTooLarge          = "header_too_large"
	ENotImplemented          = "not_implemented"
	EHTTPVersionNotSupported = "http_version_not_supported"
)

var statuses = map[string]int{
	EValidation:              http.StatusBadRequest,
	EInvalidJSON:             http.StatusBadRequest,
	EInvalidCursor:           http.StatusBadRequest,
	EUnauthorized:            http.StatusUnauthorized,
	EInsufficientScope:       http.StatusForbidden,
	ENotFound:                http.StatusNotFound,
	EEntityNotFound:          http.StatusNotFound,
	ESourceNotFound:          http.StatusNotFound,
	EMethodNotAllowed:        http.StatusMethodNotAllowed,
	EAmbiguousEntity:         http.StatusConflict,
	EAmbiguousSource:         http.StatusConflict,
	EIdempotencyConflict:     http.StatusConflict,
	EIdempotencyInProgress:   http.StatusConflict,
	ERefreshInProgress:       http.StatusConflict,
	EEntityPaused:            http.StatusConflict,
	EConflict:                http.StatusConflict,
	EPayloadTooLarge:         http.StatusRequestEntityTooLarge,
	EUnsupportedMediaType:    http.StatusUnsupportedMediaType,
	ERateLimited:             http.StatusTooManyRequests,
	EInternal:                http.StatusInternalServerError,
	EUnavailable:             http.StatusServiceUnavailable,
	EHeaderTooLarge:          http.StatusRequestHeaderFieldsTooLarge,
	ENotImplemented:          http.StatusNotImplemented,
	EHTTPVersionNotSupported: http.StatusHTTPVersionNotSupported,
}

// Error is a failure the client can act on. Anything else that reaches the edge is an internal error.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details" doc:"Facts about the failure a client can act on; an empty object when there are none"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// MarshalJSON writes details as an object on every error, empty when there are none, so that a client
// reads error.details the same way whatever the status.
func (e Error) MarshalJSON() ([]byte, error) {
	type plain Error
	c := plain(e)
	if c.Details == nil {
		c.Details = map[string]any{}
	}
	return json.Marshal(c)
}

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// StatusOf maps an error code to its HTTP status; unknown codes are internal errors.
func StatusOf(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorCode returns the code of an *Error in err's chain, or EInternal.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// ErrNotFound is returned by stores when a row does not exist in the caller's organisation.
var ErrNotFound = &Error{Code: ENotFound, Message: "not found"}

// FieldError is one failing input field, addressed by its JSON path (founders[2].linkedinUrl).
type FieldError struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Problems collects every failing field of one input so that a client can fix them all in one round trip.
type Problems []FieldError

// Add records that path fails for reason.
func (p *Problems) Add(path, reason string) { *p = append(*p, FieldError{Path: path, Reason: reason}) }

// Addf records a formatted reason.
func (p *Problems) Addf(path, format string, args ...any) { p.Add(path, fmt.Sprintf(format, args...)) }

// Err returns nil when nothing failed, else a validation_error listing every field as "path: reason",
// joined by "; ", with the fields also in details.fields.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	msg := ""
	for i, f := range p {
		if i > 0 {
			msg += "; "
		}
		msg += f.Path + ": " + f.Reason
	}
	fields := make([]FieldError, len(p))
	copy(fields, p)
	return &Error{Code: EValidation, Message: msg, Details: map[string]any{"fields": fields}}
}

// ErrDuplicate is returned by stores when a new entity has the website or a profile of a tracked one.
var ErrDuplicate = &Error{Code: EConflict, Message: "a tracked company has the same website or profile"}
