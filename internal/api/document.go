package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"radar"
)

// Limits the service enforces outside the request schemas huma derives from the Go types; the document states
// them so that clients and generated code know them.
const (
	maxURLLength      = 2048
	maxTagLength      = 50
	maxQueryLength    = 200
	minIdempotencyKey = 8
	maxIdempotencyKey = 200
)

// namedEnums are the enumerations of response fields, each a schema of its own so that generated clients get
// one named type per enumeration. at lists the "Schema.property" places that use it.
var namedEnums = []struct {
	name, doc string
	values    []string
	at        []string
}{
	{"SignalType", "What a tracker run found; no_change when it found nothing new", radar.SignalTypes,
		[]string{"Signal.type", "Finding.type"}},
	{"Severity", "How serious a signal or finding is", radar.Severities,
		[]string{"Signal.severity", "Finding.severity", "PolicyRule.minSeverity"}},
	{"Recommendation", "What to do about a signal", radar.Recommendations, []string{"Signal.recommendation"}},
	{"AlertOutcome", "sent (e-mailed), no_match (no rule matched), disabled (e-mails off or company paused) or failed (delivery failed)",
		radar.Outcomes, []string{"Alert.outcome"}},
	{"LeadStage", "Funding stage of a company or a lead", radar.Stages, []string{"Lead.stage", "Entity.stage"}},
	{"DecisionStatus", "Review state of a lead",
		[]string{radar.DecisionUnreviewed, radar.DecisionAccepted, radar.DecisionRejected}, []string{"LeadDecision.status"}},
	{"EnrichmentStatus", "Progress of the search for missing profiles; ready, partial and failed are final",
		[]string{radar.EnrichQueued, radar.EnrichRunning, radar.EnrichReady, radar.EnrichPartial, radar.EnrichFailed},
		[]string{"Entity.enrichmentStatus", "Operation.enrichmentStatus"}},
	{"EntityStatus", "ok (tracked on its cadence) or paused", []string{radar.StatusOK, radar.StatusPaused},
		[]string{"Entity.status"}},
	{"ErrorCode", "Machine-readable error code; the HTTP status follows from it", errorCodes(), []string{"Error.code"}},
}

// namedParams are query parameters whose values are one of the named enumerations.
var namedParams = map[string]string{
	"type": "SignalType", "severity": "Severity", "recommendation": "Recommendation", "stage": "LeadStage",
	"decision": "DecisionStatus",
}

// alwaysArrays are the array properties of responses that are always present and never null.
var alwaysArrays = []string{
	"EntityPage.data", "SignalPage.data", "AlertPage.data", "LeadPage.data",
	"Entity.founders", "Entity.alertEmails", "Entity.tags", "Entity.sectors",
	"Signal.evidence", "Lead.evidence", "Alert.recipients", "RuleEvaluation.evidence",
	"EnrichResult.found", "Draft.founders", "Draft.alertEmails",
	"Policy.rules", "PolicyRule.types", "PolicyRule.keywords", "PolicyRule.people",
	"Resolution.terms", "Resolution.paths", "TermResolution.matches",
	// Required fields of requests: null is no more valid than an absent field.
	"CreateInput.founders", "CreateInput.alertEmails", "CreateInput.confirmed", "TrackInput.alertEmails",
	"DecisionInput.accepted",
}

// errorCodes lists every error code of the envelope.
func errorCodes() []string {
	return []string{
		radar.EValidation, radar.EInvalidJSON, radar.EInvalidCursor, radar.EUnauthorized, radar.EInsufficientScope,
		radar.ENotFound, radar.EEntityNotFound, radar.ESourceNotFound, radar.EMethodNotAllowed, radar.EAmbiguousEntity,
		radar.EAmbiguousSource, radar.EIdempotencyConflict, radar.EIdempotencyInProgress, radar.ERefreshInProgress,
		radar.EEntityPaused, radar.EConflict, radar.EPayloadTooLarge, radar.EUnsupportedMediaType, radar.ERateLimited,
		radar.EInternal, radar.EUnavailable,
	}
}

// schemaName names the schemas of the document: a single resource's body is <Resource>Response and a list page
// <Resource>Page; every other type keeps its Go name.
func schemaName(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	if n, ok := strings.CutPrefix(name, "DataBody"); ok && n != "" {
		return n + "Response"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n, ok := strings.CutPrefix(name, "List"); ok && n != "" && strings.HasPrefix(t.Name(), "List[") {
		return n + "Page"
	}
	return name
}

// newRegistry returns the schema registry of the document.
func newRegistry() huma.Registry {
	r := huma.NewMapRegistry("#/components/schemas/", schemaName)
	r.RegisterTypeAlias(reflect.TypeFor[radar.Time](), reflect.TypeFor[time.Time]())
	return r
}

// tidySchemas states what huma cannot infer from the Go types of responses: named enumerations, arrays that are
// always present, an entity's latestSignal that is null until its first run has finished, and the limits the
// service enforces on request fields. It runs once every schema is registered.
func tidySchemas(r huma.Registry) {
	m := r.Map()
	prop := func(at string) *huma.Schema {
		name, p, _ := strings.Cut(at, ".")
		if s := m[name]; s != nil {
			return s.Properties[p]
		}
		return nil
	}
	for _, e := range namedEnums {
		used := false
		for _, at := range e.at {
			p := prop(at)
			if p == nil {
				continue
			}
			used = true
			name, key, _ := strings.Cut(at, ".")
			m[name].Properties[key] = &huma.Schema{Ref: "#/components/schemas/" + e.name, Description: p.Description}
		}
		if used || isDocumentRegistry(m) {
			m[e.name] = enumSchema(e.doc, e.values)
		}
	}
	for _, at := range alwaysArrays {
		if p := prop(at); p != nil {
			p.Nullable = false
		}
	}
	if e := m["Entity"]; e != nil && m["Signal"] != nil {
		e.Properties["latestSignal"] = &huma.Schema{
			Description: "The newest signal in its compact view; null until a run has finished",
			AnyOf:       []*huma.Schema{{Ref: "#/components/schemas/Signal"}, {Type: "null"}},
		}
	}
	// Request limits: these schemas validate requests, so their messages are computed again.
	for _, name := range []string{"CreateInput", "DraftInput", "EntityInput", "TrackInput", "FounderInput"} {
		s := m[name]
		if s == nil {
			continue
		}
		for _, p := range s.Properties {
			if p.Format == "uri" {
				p.MaxLength = new(maxURLLength)
				p.PrecomputeMessages()
			}
		}
	}
	if s := m["EntityPatch"]; s != nil && s.Properties["tags"] != nil && s.Properties["tags"].Items != nil {
		it := s.Properties["tags"].Items
		it.MaxLength = new(maxTagLength)
		it.PrecomputeMessages()
	}
}

// isDocumentRegistry reports whether m is the whole document's registry (it holds the error envelope), where
// every named enumeration is listed even if only a parameter uses it.
func isDocumentRegistry(m map[string]*huma.Schema) bool { return m["ErrorBody"] != nil }

func enumSchema(doc string, values []string) *huma.Schema {
	s := &huma.Schema{Type: huma.TypeString, Description: doc}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// operationDocs are the descriptions of the operations, by operation id.
var operationDocs = map[string]string{
	"createTracker": "Registers a company with its founders, alert rules, recipients and cadence, and answers at once: the " +
		"search for missing profiles runs in the background (poll operation.pollUrl). The answer is 201 with Location " +
		"for a new company; 200 with idempotencyReplayed for a repeated Idempotency-Key, or with existingEntity when " +
		"the company (same website) is already tracked, which it reuses and updates. Counts in the create bucket.",
	"listTracker": "Tracked companies of the key's organisation, newest first, each with its latest signal in the compact " +
		"view. Filter by sector (classification), status, stage and updatedAfter; page with limit and nextCursor.",
	"getTracker": "One tracked company with its enrichment operation: poll this until operation.enrichmentComplete is " +
		"true, waiting operation.suggestedPollIntervalSeconds between reads.",
	"updateTracker": "Changes the given fields of a tracked company; omitted fields stay as they are. Changing " +
		"thingsToTrack compiles a new policy version.",
	"deleteTracker": "Stops tracking a company and deletes its signals, alerts and leads. Answers 204 with no body.",
	"refreshTracker": "Queues a tracker run now and answers 202 at once. The run has finished when the company's " +
		"lastScrapedAt differs from baselineLastScrapedAt; its signal and alert are then listed. 409 " +
		"refresh_in_progress while a run of the company is queued or running. Counts in the refresh bucket.",
	"enrichDraft": "Looks up the missing LinkedIn, X and GitHub profiles of a company that is not tracked yet and " +
		"answers with the completed draft and what was found; nothing is stored. Only companyName and companyWebsite " +
		"are required. May take minutes. Counts in the enrich bucket (60 per hour) and as a write.",
	"listSignals": "Signals (one per finished tracker run) of the key's organisation, newest first. Filter by company " +
		"(entityId, or entityQuery by name: 404 entity_not_found when nothing matches, 409 ambiguous_entity with " +
		"details.candidates when several do), sector, period (since, until), type, severity, recommendation, " +
		"needsAttention, free text and changed; page with limit and nextCursor.",
	"getSignal": "One signal with its full analysis, findings, evidence links and the health of each source the run read.",
	"listAlerts": "Alerts (one per finished tracker run: whether it e-mailed the recipients, and why) of the key's " +
		"organisation, newest first. Filter like signals, by outcome, and latestPerEntity for one alert per company.",
	"getAlert":  "One alert with the evaluation of each alert rule.",
	"listLeads": "Founder leads found around tracked companies, newest first. Filter by decision, source company, sector, stage and name.",
	"getLead":   "One lead with its full company detail and evidence.",
	"trackLead": "Accepts a lead and tracks its company, like a create: 201 with Location for a new company, 200 for an " +
		"idempotent replay or an already tracked company. Poll the company like a create. Counts in the create bucket.",
	"decideLead": "Accepts or rejects a lead without tracking its company; a decision can be changed later.",
	"getOpenAPI": "This OpenAPI 3.1 document. Served without authentication.",
}

// tidyDocument states what huma cannot infer from the handlers: the servers, licence and contact, the document's
// own operation, descriptions, parameter formats and limits, a create (or lead track) that also answers 200 for
// an idempotent replay or an already tracked company, the error codes of each error status, and validation
// failures as 400, never 422.
func tidyDocument(doc *huma.OpenAPI, base string) {
	doc.Servers = []*huma.Server{{URL: base, Description: "This server (RADAR_BASE_URL)"}}
	// Radar is not open source; an SPDX LicenseRef names a licence outside the SPDX list.
	doc.Info.License = &huma.License{Name: "Proprietary", Identifier: "LicenseRef-Proprietary"}
	doc.Info.Contact = &huma.Contact{Name: "Radar operators", URL: base + "/"}
	errorSchema := &huma.Schema{Ref: "#/components/schemas/ErrorBody"}
	doc.Paths["/api/v1/openapi"] = &huma.PathItem{Get: &huma.Operation{
		OperationID: "getOpenAPI", Summary: "Read this OpenAPI document", Tags: []string{"meta"},
		Security: []map[string][]string{},
		Responses: map[string]*huma.Response{
			"200": {Description: "The document", Content: map[string]*huma.MediaType{
				"application/json": {Schema: &huma.Schema{Type: huma.TypeObject, Description: "An OpenAPI 3.1 document"}},
			}},
		},
	}}
	doc.Tags = []*huma.Tag{
		{Name: "alerts", Description: "Whether each tracker run e-mailed the recipients, and why"},
		{Name: "leads", Description: "Founders around tracked companies, to accept, track or reject"},
		{Name: "meta", Description: "The API's own description"},
		{Name: "signals", Description: "The analysed result of each tracker run"},
		{Name: "tracker", Description: "Tracked companies"},
	}
	for _, item := range doc.Paths {
		for _, o := range []*huma.Operation{item.Get, item.Post, item.Patch, item.Delete} {
			if o == nil {
				continue
			}
			o.Description = operationDocs[o.OperationID]
			delete(o.Responses, "422")
			if created := o.Responses["201"]; created != nil && created.Headers["Idempotency-Replayed"] != nil {
				o.Responses["200"] = &huma.Response{
					Description: "An idempotent replay (idempotencyReplayed, header Idempotency-Replayed: true) or an " +
						"already tracked company, reused and updated (existingEntity)",
					Headers: map[string]*huma.Param{"Idempotency-Replayed": created.Headers["Idempotency-Replayed"]},
					Content: created.Content,
				}
			}
			for code, r := range o.Responses {
				status, _ := strconv.Atoi(code)
				if status < 400 {
					continue
				}
				r.Description = errorDescription(status)
				r.Content = map[string]*huma.MediaType{"application/json": {Schema: errorSchema}}
			}
			for _, p := range o.Parameters {
				tidyParam(p)
			}
		}
	}
}

// errorDescription names the status and the error codes it carries.
func errorDescription(status int) string {
	var codes []string
	for _, c := range errorCodes() {
		if radar.StatusOf(c) == status {
			codes = append(codes, c)
		}
	}
	d := http.StatusText(status)
	if len(codes) > 0 {
		d += ": error.code " + strings.Join(codes, ", ")
	}
	switch status {
	case http.StatusTooManyRequests:
		d += "; wait Retry-After seconds"
	case http.StatusForbidden:
		d += " (details.required, details.granted)"
	}
	return d
}

// tidyParam documents a parameter's format and limits. It replaces the parameter's schema rather than change it:
// huma validates requests with the schema it derived, and the service words these failures itself.
func tidyParam(p *huma.Param) {
	s := p.Schema
	if s == nil {
		return
	}
	if p.In == "query" {
		// An empty query parameter (?changed=) counts as absent.
		p.AllowEmptyValue = true
	}
	c := *s
	switch {
	case p.In == "path" && p.Name == "id", p.In == "query" && (p.Name == "entityId" || p.Name == "sourceEntityId"):
		c.Format = "uuid"
	case p.In == "header" && p.Name == "Idempotency-Key":
		// An empty header counts as absent, so the lower limit is stated by the pattern alone.
		c.MaxLength = new(maxIdempotencyKey)
		c.Pattern = "^([!-~]{" + strconv.Itoa(minIdempotencyKey) + "," + strconv.Itoa(maxIdempotencyKey) + "})?$"
		c.Description += "; an empty value counts as absent"
	case p.In == "query" && (p.Name == "since" || p.Name == "until" || p.Name == "updatedAfter"):
		c.Type = ""
		c.AnyOf = []*huma.Schema{{Type: huma.TypeString, Format: "date"}, {Type: huma.TypeString, Format: "date-time"}}
		// Go clients send it as written.
		c.Extensions = map[string]any{"x-go-type": "string"}
	case p.In == "query" && (p.Name == "q" || p.Name == "name"):
		c.MaxLength = new(maxQueryLength)
	case p.In == "query" && (p.Name == "needsAttention" || p.Name == "changed"):
		// Read as the strings true and false (huma's boolean would also take 1, t and TRUE).
		c = huma.Schema{Type: huma.TypeBoolean, Description: s.Description}
	case p.In == "query" && namedParams[p.Name] != "":
		c = huma.Schema{Ref: "#/components/schemas/" + namedParams[p.Name], Description: s.Description}
	default:
		return
	}
	p.Schema = &c
}

// JSONSchema returns the JSON Schema (2020-12) of a response body of Go type t exactly as the REST document
// describes it: an object schema whose referenced schemas are under $defs. The MCP tools declare their output
// with it.
func JSONSchema(t reflect.Type) json.RawMessage {
	r := newRegistry()
	top := r.Schema(t, true, "")
	tidySchemas(r)
	m := r.Map()
	if name, ok := strings.CutPrefix(top.Ref, "#/components/schemas/"); ok {
		top = m[name]
	}
	out := map[string]any{}
	b, err := json.Marshal(top)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		panic("api: schema of " + t.String() + ": " + err.Error())
	}
	defs := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		defs[name] = m[name]
	}
	if len(defs) > 0 {
		out["$defs"] = defs
	}
	b, err = json.Marshal(out)
	if err != nil {
		panic("api: schema of " + t.String() + ": " + err.Error())
	}
	return json.RawMessage(strings.ReplaceAll(string(b), "#/components/schemas/", "#/$defs/"))
}
