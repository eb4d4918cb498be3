package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"radar"
)

// ErrorBody is the error envelope of every failed response.
type ErrorBody struct {
	Err    *radar.Error `json:"error"`
	status int
}

func (e *ErrorBody) Error() string { return e.Err.Error() }

// GetStatus is the HTTP status of the error.
func (e *ErrorBody) GetStatus() int { return e.status }

// ContentType keeps errors plain JSON.
func (e *ErrorBody) ContentType(string) string { return "application/json" }

// statusClientClosed records a request whose client went away before the answer (nginx's 499): nobody reads it,
// and it is neither a server error nor the client's fault in the metrics.
const statusClientClosed = 499

// gone reports whether err is the end of the request's context: the client closed the connection.
func gone(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, context.Canceled)
}

func clientGone(id string) *ErrorBody {
	return &ErrorBody{Err: radar.Errorf(radar.EInternal, "request %s abandoned by the client", id), status: statusClientClosed}
}

func envelope(e *radar.Error) *ErrorBody {
	return &ErrorBody{Err: e, status: radar.StatusOf(e.Code)}
}

func init() {
	huma.NewError = hError
}

// hError turns the errors huma raises itself (body parsing, schema validation, parameter parsing, size
// limits) into Radar's envelope, rewording its validation messages as "path: reason".
func hError(status int, msg string, errs ...error) huma.StatusError {
	switch status {
	case 0:
		return &ErrorBody{Err: &radar.Error{Code: radar.EInternal, Message: msg}, status: 500}
	case http.StatusRequestEntityTooLarge:
		return envelope(radar.Errorf(radar.EPayloadTooLarge, "request body is larger than %d bytes", MaxBodyBytes))
	case http.StatusUnsupportedMediaType:
		return envelope(radar.Errorf(radar.EUnsupportedMediaType, "request body must be JSON: send Content-Type: application/json"))
	case http.StatusNotFound:
		return envelope(radar.Errorf(radar.ENotFound, "%s", msg))
	}
	var details []*huma.ErrorDetail
	for _, err := range errs {
		var d *huma.ErrorDetail
		if errors.As(err, &d) {
			details = append(details, d)
		}
	}
	if status == http.StatusBadRequest && len(details) == 1 && details[0].Location == "body" {
		return envelope(radar.Errorf(radar.EInvalidJSON, "request body is not valid JSON: %s", strings.TrimPrefix(details[0].Message, "json: ")))
	}
	if status >= 500 {
		return envelope(radar.Errorf(radar.EInternal, "internal error"))
	}
	if len(details) == 0 {
		code := radar.EValidation
		if status == http.StatusUnauthorized {
			code = radar.EUnauthorized
		}
		return envelope(radar.Errorf(code, "%s", msg))
	}
	var p radar.Problems
	for _, d := range details {
		path, reason := reword(d.Location, d.Message)
		if s, ok := d.Value.(string); ok {
			// A value with a control character or invalid text fails a URL or e-mail format too; say
			// what is really wrong with it.
			kind := radar.MultiLine
			if oneLine(d.Message) {
				kind = radar.SingleLine
			}
			if r := radar.TextProblem(s, kind); r != "" {
				reason = r
			}
		}
		p.Add(path, reason)
	}
	e, _ := radar.AsError(p.Err())
	return envelope(e)
}

var (
	reRequired = regexp.MustCompile(`^expected required property (\S+) to be present$`)
	reMinLen   = regexp.MustCompile(`^expected length >= (\d+)$`)
	reMaxLen   = regexp.MustCompile(`^expected length <= (\d+)$`)
	reMinItems = regexp.MustCompile(`^expected array length >= (\d+)$`)
	reMaxItems = regexp.MustCompile(`^expected array length <= (\d+)$`)
	reOneOf    = regexp.MustCompile(`^expected value to be one of "(.*)"$`)
)

// oneLine reports whether a huma validation message is about a format that is one line of text.
func oneLine(msg string) bool {
	return strings.HasPrefix(msg, "expected string to be RFC 3986 uri") ||
		strings.HasPrefix(msg, "expected string to match pattern ^[Hh][Tt][Tt][Pp][Ss]?://") ||
		strings.HasPrefix(msg, "expected string to be RFC 5322 email")
}

// reword maps a huma validation detail to a field path without its location prefix and a plain reason.
func reword(loc, msg string) (string, string) {
	path := loc
	for _, prefix := range []string{"body.", "query.", "path.", "header."} {
		path = strings.TrimPrefix(path, prefix)
	}
	if path == "body" {
		path = "(body)"
	}
	switch {
	case reRequired.MatchString(msg):
		name := reRequired.FindStringSubmatch(msg)[1]
		if path == "(body)" {
			return name, "is required"
		}
		return path + "." + name, "is required"
	case msg == "unexpected property":
		return path, "is not a known field"
	case reMinLen.MatchString(msg):
		n := reMinLen.FindStringSubmatch(msg)[1]
		if n == "1" {
			return path, "must not be empty"
		}
		return path, "must be at least " + n + " characters"
	case reMaxLen.MatchString(msg):
		return path, "must be at most " + reMaxLen.FindStringSubmatch(msg)[1] + " characters"
	case reMinItems.MatchString(msg):
		return path, "must have at least " + reMinItems.FindStringSubmatch(msg)[1] + " items"
	case reMaxItems.MatchString(msg):
		return path, "must have at most " + reMaxItems.FindStringSubmatch(msg)[1] + " items"
	case reOneOf.MatchString(msg):
		return path, "must be one of " + reOneOf.FindStringSubmatch(msg)[1]
	case strings.HasPrefix(msg, "expected string to be RFC 3986 uri"), strings.HasPrefix(msg, "expected string to match pattern ^[Hh][Tt][Tt][Pp][Ss]?://"):
		return path, "must be an absolute http or https URL"
	case strings.HasPrefix(msg, "expected string to be RFC 5322 email"):
		return path, "must be an e-mail address like name@example.com"
	case msg == "expected array items to be unique":
		return path, "must not repeat an item"
	case strings.HasPrefix(msg, "expected number >= "):
		return path, "must be at least " + strings.TrimPrefix(msg, "expected number >= ")
	case msg == "invalid integer":
		return path, "must be an integer"
	case msg == "invalid boolean":
		return path, "must be true or false"
	case strings.HasPrefix(msg, "expected "):
		return path, "must be " + strings.TrimPrefix(msg, "expected ")
	}
	return path, msg
}

// fail converts a service error into the envelope; anything that is not a radar.Error is logged once,
// with the request id, and shown as internal_error.
func fail(ctx context.Context, logger *slog.Logger, err error) error {
	if e, ok := radar.AsError(err); ok && e.Code != radar.EInternal {
		return envelope(e)
	}
	id := RequestID(ctx)
	if gone(ctx, err) {
		logger.DebugContext(ctx, "request abandoned by the client", "request_id", id, "err", err)
		return clientGone(id)
	}
	if e := Unavailable(ctx, logger, err); e != nil {
		return envelope(e)
	}
	logger.ErrorContext(ctx, "internal error", "request_id", id, "err", err)
	return envelope(radar.Errorf(radar.EInternal, "internal error; quote request id %s when reporting it", id))
}

// writeError writes the envelope outside huma (middleware, unknown routes).
func writeError(w http.ResponseWriter, e *radar.Error) {
	errorHeaders(w, e)
	w.WriteHeader(radar.StatusOf(e.Code))
	json.NewEncoder(w).Encode(ErrorBody{Err: e})
}

// errorHeaders sets the headers of an error answer: its content type, and WWW-Authenticate or Retry-After
// where the code calls for them.
func errorHeaders(w http.ResponseWriter, e *radar.Error) {
	w.Header().Set("Content-Type", "application/json")
	if e.Code == radar.EUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="radar"`)
	}
	if e.Code == radar.EUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(unavailableRetry))
	}
}

// JSON-RPC 2.0 error codes of the MCP endpoint's answers.
const (
	RPCParseError     = -32700
	RPCInvalidRequest = -32600
	RPCMethodNotFound = -32601
	RPCInvalidParams  = -32602
	RPCInternalError  = -32603
)

// RPCError is a JSON-RPC 2.0 error answer; data is the API's error envelope.
type RPCError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   RPCErrorObject  `json:"error"`
}

// RPCErrorObject is the error member of a JSON-RPC answer.
type RPCErrorObject struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    ErrorBody `json:"data"`
}

// WriteRPCError answers a request on the MCP endpoint that failed before or outside the JSON-RPC layer with a
// JSON-RPC error object for the request's id (null when unknown), with the HTTP status given and the headers of
// the REST answer, carrying the REST error envelope in its data.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, e *radar.Error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	errorHeaders(w, e)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(RPCError{JSONRPC: "2.0", ID: id, Error: RPCErrorObject{Code: code, Message: e.Message, Data: ErrorBody{Err: e}}})
}

// RPCCode is the JSON-RPC error code of an API error answered on the MCP endpoint: internal for a server
// failure, an invalid request otherwise.
func RPCCode(e *radar.Error) int {
	if radar.StatusOf(e.Code) >= 500 {
		return RPCInternalError
	}
	return RPCInvalidRequest
}

// writeRequestError answers e in the error envelope, or on the MCP endpoint as a JSON-RPC error object.
func writeRequestError(w http.ResponseWriter, r *http.Request, e *radar.Error) {
	if r.URL.Path == "/api/mcp" || strings.HasPrefix(r.URL.Path, "/api/mcp/") {
		WriteRPCError(w, radar.StatusOf(e.Code), nil, RPCCode(e), e)
		return
	}
	writeError(w, e)
}

func internal(w http.ResponseWriter, logger *slog.Logger, r *http.Request, err any) {
	id := RequestID(r.Context())
	if e, ok := err.(error); ok && gone(r.Context(), e) {
		logger.DebugContext(r.Context(), "request abandoned by the client", "request_id", id, "err", e)
		g := clientGone(id)
		w.WriteHeader(g.status)
		return
	}
	if e, ok := err.(error); ok {
		if u := Unavailable(r.Context(), logger, e); u != nil {
			writeRequestError(w, r, u)
			return
		}
	}
	logger.ErrorContext(r.Context(), "internal error", "request_id", id, "method", r.Method, "path", r.URL.Path, "err", fmt.Sprint(err))
	writeRequestError(w, r, radar.Errorf(radar.EInternal, "internal error; quote request id %s when reporting it", id))
}
