package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"radar"
	"radar/internal/api"
)

// rpcMessage is what the endpoint needs to know of a JSON-RPC request before the SDK reads it: its id, to
// answer a transport-level failure as that request's error, and its method.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// readRequest reads the body of an MCP request whole, answering a body over the limit, or one whose text
// is not valid Unicode, with a JSON-RPC error; ok is false when it has answered.
func readRequest(w http.ResponseWriter, r *http.Request) (msg rpcMessage, ok bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if mbe, big := errors.AsType[*http.MaxBytesError](err); big {
			api.WriteRPCError(w, http.StatusRequestEntityTooLarge, nil, api.RPCInvalidRequest,
				radar.Errorf(radar.EPayloadTooLarge, "request body is larger than %d bytes", mbe.Limit))
			return msg, false
		}
		api.WriteRPCError(w, http.StatusBadRequest, nil, api.RPCParseError,
			radar.Errorf(radar.EInvalidJSON, "request body could not be read: %v", err))
		return msg, false
	}
	if json.Unmarshal(body, &msg) != nil {
		msg = rpcMessage{}
	}
	if e := api.CheckJSONText(body); e != nil {
		api.WriteRPCError(w, http.StatusBadRequest, msg.ID, api.RPCInvalidParams, e)
		return msg, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return msg, true
}

// rpcErrors turns the plain-text error answers of the MCP SDK's transport (http.Error) into JSON-RPC error
// objects for the request that caused them, carrying Radar's error envelope in their data.
type rpcErrors struct {
	http.ResponseWriter
	msg rpcMessage
	// status is the plain-text error status being held back; 0 passes everything through.
	status int
	text   bytes.Buffer
}

func (w *rpcErrors) WriteHeader(code int) {
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcErrors) Write(b []byte) (int, error) {
	if w.status != 0 {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *rpcErrors) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the held-back error, if any, as a JSON-RPC error object.
func (w *rpcErrors) finish() {
	if w.status == 0 {
		return
	}
	w.Header().Del("X-Content-Type-Options")
	text := strings.TrimSpace(w.text.String())
	switch {
	case w.status == http.StatusRequestEntityTooLarge:
		api.WriteRPCError(w.ResponseWriter, w.status, w.msg.ID, api.RPCInvalidRequest, radar.Errorf(radar.EPayloadTooLarge, "%s", text))
	case w.status >= 500:
		api.WriteRPCError(w.ResponseWriter, w.status, w.msg.ID, api.RPCInternalError, radar.Errorf(radar.EInternal, "%s", text))
	case strings.HasPrefix(text, "JSON RPC not handled"):
		// The SDK's answer to a method it does not know (its jsonrpc2.ErrNotHandled, not exported).
		api.WriteRPCError(w.ResponseWriter, w.status, w.msg.ID, api.RPCMethodNotFound,
			radar.Errorf(radar.ENotFound, "method %q is not offered by this server; it offers initialize, tools/list and tools/call", w.msg.Method))
	case strings.HasPrefix(text, "malformed payload"):
		api.WriteRPCError(w.ResponseWriter, w.status, w.msg.ID, api.RPCParseError, radar.Errorf(radar.EInvalidJSON, "%s", text))
	default:
		api.WriteRPCError(w.ResponseWriter, w.status, w.msg.ID, api.RPCInvalidRequest, radar.Errorf(radar.EValidation, "%s", text))
	}
}
