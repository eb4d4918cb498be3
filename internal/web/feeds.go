package web

import (
	"net/http"
	"net/url"
	"strings"

	"radar"
	"radar/internal/api"
	"radar/internal/fuzzy"
	"radar/internal/service"
)

// quietRuns is how a list treats quiet runs (signal no_change): left out unless the query says quiet=show, and
// counted, so that they are one click away.
type quietRuns struct {
	Shown  bool   // the list shows quiet runs too
	Hidden int    // quiet runs left out, counted up to service.MaxCount
	Toggle string // the list's address that shows them, or hides them again
}

// Count words the quiet runs left out: "37 quiet runs", "1000+ quiet runs".
func (q quietRuns) Count() string {
	if q.Hidden >= service.MaxCount {
		return plural(q.Hidden, "quiet run") + "+"
	}
	return plural(q.Hidden, "quiet run")
}

// quietFor reads the quiet runs choice of a list at base whose query is q; the toggle starts at the first page.
func quietFor(base string, q url.Values) quietRuns {
	v := cloneValues(q)
	v.Del("cursor")
	qr := quietRuns{Shown: q.Get("quiet") == "show"}
	if qr.Shown {
		v.Del("quiet")
	} else {
		v.Set("quiet", "show")
	}
	qr.Toggle = link(base, v)
	return qr
}

// changedOnly is the changed filter of a list that hides quiet runs.
func (q quietRuns) changedOnly() *bool {
	if q.Shown {
		return nil
	}
	yes := true
	return &yes
}

// signalsData is the signals feed.
type signalsData struct {
	Type, Severity, Attention, Company, EntityID, Q string
	Types, Severities                               []string
	Signals                                         []*radar.Signal
	Match                                           *service.LookupResolution
	Candidates                                      []fuzzy.Candidate
	// CompanyName names the company of an entityId filter.
	CompanyName string
	Filtered    bool
	Problem     string
	Pager       pager
	Quiet       quietRuns
	Unread      unread
}

// companyProblem turns a failed company lookup into words for the filter form.
func companyProblem(err error) (string, []fuzzy.Candidate, bool) {
	e, ok := radar.AsError(err)
	if !ok {
		return "", nil, false
	}
	switch e.Code {
	case radar.EEntityNotFound:
		return "No tracked company or founder matches that name.", nil, true
	case radar.EAmbiguousEntity:
		c, _ := e.Details["candidates"].([]fuzzy.Candidate)
		return "That name matches several companies; pick one.", c, true
	case radar.EValidation, radar.EInvalidCursor:
		return e.Message, nil, true
	}
	return "", nil, false
}

func (h *Handler) signals(w http.ResponseWriter, r *http.Request, v *viewer) {
	q := r.URL.Query()
	d := signalsData{
		Type: q.Get("type"), Severity: q.Get("severity"), Attention: q.Get("needsAttention"),
		Company: strings.TrimSpace(q.Get("company")), EntityID: q.Get("entityId"), Q: strings.TrimSpace(q.Get("q")),
		Types: radar.SignalTypes, Severities: radar.Severities,
	}
	d.Filtered = d.Type != "" || d.Severity != "" || d.Attention != "" || d.Company != "" || d.EntityID != "" || d.Q != ""
	d.Quiet = quietFor("/signals", q)
	sq := service.SignalQuery{
		PageQuery: service.PageQuery{Cursor: q.Get("cursor"), Limit: 25, View: radar.ViewFull}, Type: d.Type, Severity: d.Severity,
		EntityID: d.EntityID, EntityQuery: d.Company, Q: d.Q,
	}
	if d.Type != radar.TypeNoChange {
		sq.Changed = d.Quiet.changedOnly()
	}
	switch d.Attention {
	case "true", "false":
		b := d.Attention == "true"
		sq.NeedsAttention = &b
	}
	if wantsExport(q) {
		exportCSV(h, w, r, v, "signals", api.SignalsCSV, func(cursor string) (*service.List[*radar.Signal], error) {
			sq.PageQuery = service.PageQuery{Limit: service.MaxLimit, Cursor: cursor, View: radar.ViewFull}
			return h.svc.ListSignals(r.Context(), v.P, sq)
		})
		return
	}
	list, err := h.svc.ListSignals(r.Context(), v.P, sq)
	if err == nil && sq.Changed != nil {
		no := false
		sq.Changed = &no
		d.Quiet.Hidden, err = h.svc.CountSignals(r.Context(), v.P, sq)
	}
	if err != nil {
		msg, cands, ok := companyProblem(err)
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.Problem, d.Candidates = msg, cands
		h.render(w, r, http.StatusOK, "signals", page{Title: "Signals", Section: "signals", Viewer: v, Data: d})
		return
	}
	d.Signals, d.Match = list.Data, list.EntityResolution
	if d.Unread, err = h.unreadSignals(r, v, d.Signals); err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.CompanyName = h.companyName(r, v, d.EntityID)
	d.Pager = pagerFor("/signals", q, list.NextCursor)
	h.render(w, r, http.StatusOK, "signals", page{Title: "Signals", Section: "signals", Viewer: v, Data: d, Export: exportLink("/signals", q)})
}

// signalData is one signal with its alert.
type signalData struct {
	S     *radar.Signal
	Alert *radar.Alert
}

func (h *Handler) signal(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	s, err := h.svc.GetSignal(r.Context(), v.P, id, radar.ViewFull)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d := signalData{S: s}
	alerts, err := h.svc.ListAlerts(r.Context(), v.P, service.AlertQuery{EntityID: s.EntityID, PageQuery: service.PageQuery{Limit: 100, View: radar.ViewFull}})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	for _, a := range alerts.Data {
		if a.SignalID == s.ID {
			d.Alert = a
			break
		}
	}
	h.render(w, r, http.StatusOK, "signal", page{Title: s.CompanyName + ": " + label(s.Type), Section: "signals", Viewer: v, Data: d})
}

// alertsData is the alerts feed.
type alertsData struct {
	Outcome, Company, EntityID string
	// CompanyName names the company of an entityId filter.
	CompanyName string
	Outcomes    []string
	Alerts      []*radar.Alert
	Match       *service.LookupResolution
	Candidates  []fuzzy.Candidate
	Filtered    bool
	Problem     string
	Pager       pager
	Quiet       quietRuns
}

func (h *Handler) alerts(w http.ResponseWriter, r *http.Request, v *viewer) {
	q := r.URL.Query()
	d := alertsData{Outcome: q.Get("outcome"), Company: strings.TrimSpace(q.Get("company")), EntityID: q.Get("entityId"), Outcomes: radar.Outcomes}
	d.Filtered = (d.Outcome != "" && d.Outcome != radar.OutcomeAll) || d.Company != "" || d.EntityID != ""
	d.Quiet = quietFor("/alerts", q)
	aq := service.AlertQuery{
		PageQuery: service.PageQuery{Cursor: q.Get("cursor"), Limit: 25, View: radar.ViewFull}, Outcome: d.Outcome,
		EntityID: d.EntityID, EntityQuery: d.Company, Changed: d.Quiet.changedOnly(),
	}
	if wantsExport(q) {
		exportCSV(h, w, r, v, "alerts", api.AlertsCSV, func(cursor string) (*service.List[*radar.Alert], error) {
			aq.PageQuery = service.PageQuery{Limit: service.MaxLimit, Cursor: cursor, View: radar.ViewCompact}
			return h.svc.ListAlerts(r.Context(), v.P, aq)
		})
		return
	}
	list, err := h.svc.ListAlerts(r.Context(), v.P, aq)
	if err == nil && aq.Changed != nil {
		no := false
		aq.Changed = &no
		d.Quiet.Hidden, err = h.svc.CountAlerts(r.Context(), v.P, aq)
	}
	if err != nil {
		msg, cands, ok := companyProblem(err)
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.Problem, d.Candidates = msg, cands
		h.render(w, r, http.StatusOK, "alerts", page{Title: "Alerts", Section: "alerts", Viewer: v, Data: d})
		return
	}
	d.Alerts, d.Match = list.Data, list.EntityResolution
	d.CompanyName = h.companyName(r, v, d.EntityID)
	d.Pager = pagerFor("/alerts", q, list.NextCursor)
	h.render(w, r, http.StatusOK, "alerts", page{Title: "Alerts", Section: "alerts", Viewer: v, Data: d, Export: exportLink("/alerts", q)})
}

func (h *Handler) alert(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	a, err := h.svc.GetAlert(r.Context(), v.P, id, radar.ViewFull)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.render(w, r, http.StatusOK, "alert", page{Title: "Alert: " + a.CompanyName, Section: "alerts", Viewer: v, Data: a})
}

// companyName names the company of an entityId filter, or "" when there is none or it cannot be read.
func (h *Handler) companyName(r *http.Request, v *viewer, id string) string {
	if id == "" {
		return ""
	}
	e, err := h.svc.GetEntity(r.Context(), v.P, id, radar.ViewCompact)
	if err != nil {
		return ""
	}
	return e.CompanyName
}
