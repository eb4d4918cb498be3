package web

import (
	"net/http"
	"strings"

	"radar"
	"radar/internal/api"
	"radar/internal/fuzzy"
	"radar/internal/service"
)

// leadsData is the leads inbox.
type leadsData struct {
	Decision, Name, Source string
	Decisions              []string
	Leads                  []*radar.Lead
	Match                  *service.LookupResolution
	Candidates             []fuzzy.Candidate
	Filtered               bool
	Problem                string
	Pager                  pager
}

func (h *Handler) leads(w http.ResponseWriter, r *http.Request, v *viewer) {
	q := r.URL.Query()
	d := leadsData{
		Decision: q.Get("decision"), Name: strings.TrimSpace(q.Get("name")), Source: strings.TrimSpace(q.Get("source")),
		Decisions: []string{radar.DecisionUnreviewed, radar.DecisionAccepted, radar.DecisionRejected},
	}
	if !q.Has("decision") {
		d.Decision = radar.DecisionUnreviewed
	}
	d.Filtered = d.Name != "" || d.Source != ""
	lq := service.LeadQuery{
		PageQuery: service.PageQuery{Cursor: q.Get("cursor"), Limit: 25}, Decision: d.Decision, Name: d.Name, SourceQuery: d.Source,
	}
	if wantsExport(q) {
		exportCSV(h, w, r, v, "leads", api.LeadsCSV, func(cursor string) (*service.List[*radar.Lead], error) {
			lq.PageQuery = service.PageQuery{Limit: service.MaxLimit, Cursor: cursor, View: radar.ViewCompact}
			return h.svc.ListLeads(r.Context(), v.P, lq)
		})
		return
	}
	list, err := h.svc.ListLeads(r.Context(), v.P, lq)
	if err != nil {
		e, ok := radar.AsError(err)
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		switch e.Code {
		case radar.ESourceNotFound:
			d.Problem = "No tracked company or founder matches that name."
		case radar.EAmbiguousSource:
			d.Problem = "That name matches several companies; pick one."
			d.Candidates, _ = e.Details["candidates"].([]fuzzy.Candidate)
		case radar.EValidation, radar.EInvalidCursor:
			d.Problem = e.Message
		default:
			h.fail(w, r, v, err)
			return
		}
		h.render(w, r, http.StatusOK, "leads", page{Title: "Leads", Section: "leads", Viewer: v, Data: d})
		return
	}
	d.Leads, d.Match = list.Data, list.SourceResolution
	d.Pager = pagerFor("/leads", q, list.NextCursor)
	h.render(w, r, http.StatusOK, "leads", page{Title: "Leads", Section: "leads", Viewer: v, Data: d, Export: exportLink("/leads", q)})
}

func (h *Handler) lead(w http.ResponseWriter, r *http.Request, v *viewer) {
	l, ok := h.leadOf(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "lead", page{Title: l.PersonName, Section: "leads", Viewer: v, Data: l})
}

// leadOf reads the lead of the path, answering the request itself when it cannot.
func (h *Handler) leadOf(w http.ResponseWriter, r *http.Request, v *viewer) (*radar.Lead, bool) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return nil, false
	}
	l, err := h.svc.GetLead(r.Context(), v.P, id, radar.ViewFull)
	if err != nil {
		h.fail(w, r, v, err)
		return nil, false
	}
	return l, true
}

// back is where to return after a decision: the page the form was on when it is one of ours.
func back(r *http.Request, def string) string {
	if b := r.PostFormValue("back"); strings.HasPrefix(b, "/leads") && !strings.HasPrefix(b, "//") {
		return b
	}
	return def
}

func (h *Handler) decide(w http.ResponseWriter, r *http.Request, v *viewer, accepted bool) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	l, err := h.svc.DecideLead(r.Context(), v.P, id, &accepted)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	msg := "Accepted " + l.PersonName + "."
	if !accepted {
		msg = "Rejected " + l.PersonName + "."
	}
	h.redirect(w, r, back(r, "/leads"), msg)
}

func (h *Handler) acceptLead(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.decide(w, r, v, true)
}

func (h *Handler) rejectLead(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.decide(w, r, v, false)
}

func (h *Handler) confirmReject(w http.ResponseWriter, r *http.Request, v *viewer) {
	l, ok := h.leadOf(w, r, v)
	if !ok {
		return
	}
	who := l.PersonName
	if l.Company.Name != "" {
		who += " (" + l.Company.Name + ")"
	}
	h.render(w, r, http.StatusOK, "confirm", page{Title: "Reject " + l.PersonName, Section: "leads", Viewer: v, Data: confirmData{
		Title: "Reject " + who + "?", Message: "The lead leaves the unreviewed inbox. You can still find it under Rejected.",
		Action: "/leads/" + l.ID + "/reject", Button: "Reject lead", Back: "/leads", Danger: true,
	}})
}

// trackData is the form that accepts a lead and tracks its company.
type trackData struct {
	Lead                                *radar.Lead
	ThingsToTrack, AlertEmails, Website string
	Cadence                             string
	EmailAlertsEnabled                  bool
	Errors                              *fieldErrors
	Cadences                            []string
}

// defaultRules are the alert rules suggested when tracking a lead's company.
const defaultRules = "Tell me about funding rounds, acquisitions, founders leaving, and layoffs."

func (h *Handler) trackForm(w http.ResponseWriter, r *http.Request, v *viewer) {
	l, ok := h.leadOf(w, r, v)
	if !ok {
		return
	}
	d := trackData{Lead: l, ThingsToTrack: defaultRules, AlertEmails: v.User.Email, Website: l.Company.Website, Cadence: "7",
		EmailAlertsEnabled: true, Cadences: []string{"3", "7", "30"}}
	h.render(w, r, http.StatusOK, "track", page{Title: "Track " + l.Company.Name, Section: "leads", Viewer: v, Data: d})
}

func (h *Handler) trackLead(w http.ResponseWriter, r *http.Request, v *viewer) {
	l, ok := h.leadOf(w, r, v)
	if !ok {
		return
	}
	d := trackData{
		Lead: l, ThingsToTrack: r.PostFormValue("thingsToTrack"), AlertEmails: r.PostFormValue("alertEmails"),
		Website: strings.TrimSpace(r.PostFormValue("companyWebsite")), Cadence: r.PostFormValue("cadenceDays"),
		EmailAlertsEnabled: r.PostFormValue("emailAlertsEnabled") != "", Cadences: []string{"3", "7", "30"},
	}
	in := service.TrackInput{ThingsToTrack: d.ThingsToTrack, AlertEmails: splitEmails(d.AlertEmails), EmailAlertsEnabled: &d.EmailAlertsEnabled, CompanyWebsite: d.Website}
	c, ok := cadence(d.Cadence)
	if !ok {
		d.Errors = cadenceError()
		h.render(w, r, http.StatusBadRequest, "track", page{Title: "Track " + l.Company.Name, Section: "leads", Viewer: v, Data: d})
		return
	}
	in.CadenceDays = c
	res, err := h.svc.TrackLead(r.Context(), v.P, l.ID, in, "")
	if err == nil {
		h.redirect(w, r, "/companies/"+res.Entity.ID, "Accepted "+l.PersonName+"; Radar is now tracking "+res.Entity.CompanyName+".")
		return
	}
	fe, ok := newFieldErrors(err, "thingsToTrack", "alertEmails", "companyWebsite", "cadenceDays", "emailAlertsEnabled")
	if !ok {
		h.fail(w, r, v, err)
		return
	}
	d.Errors = fe
	h.render(w, r, http.StatusBadRequest, "track", page{Title: "Track " + l.Company.Name, Section: "leads", Viewer: v, Data: d})
}
