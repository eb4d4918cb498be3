package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"

	"radar"
	"radar/internal/api"
	"radar/internal/fuzzy"
	"radar/internal/service"
)

// pathID is the {id} of the request, or "" when it is not a UUID (which no record has).
func pathID(r *http.Request) string {
	id := r.PathValue("id")
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return ""
	}
	return id
}

// pager links the pages of a list.
type pager struct {
	Next, First string
}

// link returns the page's address with the query values set; empty values are left out.
func link(base string, q url.Values) string {
	v := url.Values{}
	for k, vs := range q {
		for _, s := range vs {
			if s != "" {
				v.Add(k, s)
			}
		}
	}
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// pagerFor builds the links of a list whose query is q and whose next cursor is next.
func pagerFor(base string, q url.Values, next *string) pager {
	var p pager
	if q.Get("cursor") != "" {
		first := cloneValues(q)
		first.Del("cursor")
		p.First = link(base, first)
	}
	if next != nil {
		n := cloneValues(q)
		n.Set("cursor", *next)
		p.Next = link(base, n)
	}
	return p
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

// companiesData is the company list.
type companiesData struct {
	Status, Sector, Q string
	Entities          []*radar.Entity
	// Match reports what a search matched; Candidates lists the companies a search could mean.
	Match      *service.LookupResolution
	Candidates []fuzzy.Candidate
	Sectors    []string
	Filtered   bool
	Problem    string
	Pager      pager
}

func (h *Handler) companies(w http.ResponseWriter, r *http.Request, v *viewer) {
	ctx := r.Context()
	q := r.URL.Query()
	d := companiesData{Status: q.Get("status"), Sector: strings.TrimSpace(q.Get("sector")), Q: strings.TrimSpace(q.Get("q")), Sectors: h.sectors}
	d.Filtered = d.Status != "" || d.Sector != "" || d.Q != ""
	eq := service.EntityQuery{
		PageQuery: service.PageQuery{Cursor: q.Get("cursor"), Limit: 25}, Status: d.Status, Classification: d.Sector,
	}
	if wantsExport(q) {
		exportCSV(h, w, r, v, "companies", api.EntitiesCSV, func(cursor string) (*service.List[*radar.Entity], error) {
			eq.PageQuery = service.PageQuery{Limit: service.MaxLimit, Cursor: cursor, View: radar.ViewCompact}
			return h.svc.ListEntities(ctx, v.P, eq)
		})
		return
	}
	list, err := h.svc.ListEntities(ctx, v.P, eq)
	switch code := codeOf(err); {
	case code == radar.EValidation || code == radar.EInvalidCursor:
		e, _ := radar.AsError(err)
		d.Problem = e.Message
		h.render(w, r, http.StatusBadRequest, "companies", page{Title: "Companies", Section: "companies", Viewer: v, Data: d})
		return
	case err != nil:
		h.fail(w, r, v, err)
		return
	}
	if d.Q == "" {
		d.Entities = list.Data
		d.Pager = pagerFor("/companies", q, list.NextCursor)
		h.render(w, r, http.StatusOK, "companies", page{Title: "Companies", Section: "companies", Viewer: v, Data: d})
		return
	}
	ids, err := h.search(r, v, &d)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	var paths []string
	if list.ClassificationResolution != nil {
		paths = list.ClassificationResolution.Paths
	}
	for _, id := range ids {
		e, err := h.svc.GetEntity(ctx, v.P, id, radar.ViewCompact)
		if radar.ErrorCode(err) == radar.ENotFound {
			continue
		}
		if err != nil {
			h.fail(w, r, v, err)
			return
		}
		if (d.Status == "" || e.Status == d.Status) && (d.Sector == "" || inSectors(e.Sectors, paths)) {
			d.Entities = append(d.Entities, e)
		}
	}
	h.render(w, r, http.StatusOK, "companies", page{Title: "Companies", Section: "companies", Viewer: v, Data: d, Export: exportLink("/companies", q)})
}

// search resolves the fuzzy company or founder name of the list through the service's lookup, which tolerates
// case, punctuation, legal suffixes and small typos, and returns the ids of the companies it could mean.
func (h *Handler) search(r *http.Request, v *viewer, d *companiesData) ([]string, error) {
	res, err := h.svc.ListSignals(r.Context(), v.P, service.SignalQuery{EntityQuery: d.Q, PageQuery: service.PageQuery{Limit: 1}})
	switch codeOf(err) {
	case "":
		d.Match = res.EntityResolution
		return []string{res.EntityResolution.Entity.ID}, nil
	case radar.EEntityNotFound:
		return nil, nil
	case radar.EAmbiguousEntity:
		e, _ := radar.AsError(err)
		d.Candidates, _ = e.Details["candidates"].([]fuzzy.Candidate)
		ids := make([]string, len(d.Candidates))
		for i, c := range d.Candidates {
			ids[i] = c.ID
		}
		return ids, nil
	case radar.EValidation:
		e, _ := radar.AsError(err)
		d.Problem = e.Message
		return nil, nil
	}
	return nil, err
}

// inSectors reports whether an entity with these sector paths is in one of the accepted paths.
func inSectors(sectors, accepted []string) bool {
	for _, s := range sectors {
		for _, a := range accepted {
			if s == a || strings.HasPrefix(s, a+" > ") {
				return true
			}
		}
	}
	return false
}

// companyFormData is the add or edit form.
type companyFormData struct {
	Form entityForm
	// Entity is the company being edited; nil when adding one.
	Entity *radar.Entity
	// Preview is how the draft alert rules would have judged the company's earlier runs, when asked for.
	Preview *service.RulePreview
}

func (h *Handler) newCompany(w http.ResponseWriter, r *http.Request, v *viewer) {
	f := entityForm{EmailAlertsEnabled: true, Cadence: "7", AlertEmails: v.User.Email}.withBlankRow()
	h.render(w, r, http.StatusOK, "company_form", page{Title: "Add a company", Section: "companies", Viewer: v, Data: companyFormData{Form: f}})
}

func (h *Handler) createCompany(w http.ResponseWriter, r *http.Request, v *viewer) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, v, radar.Errorf(radar.EValidation, "the form could not be read"))
		return
	}
	f := parseEntityForm(r.PostForm)
	if r.PostForm.Has("enrich") {
		h.enrichDraft(w, r, v, f)
		return
	}
	more := r.PostForm.Has("more")
	if more {
		h.render(w, r, http.StatusOK, "company_form", page{Title: "Add a company", Section: "companies", Viewer: v,
			Data: companyFormData{Form: f.withBlankRows(f.rowsToShow(true))}})
		return
	}
	in, fe := f.input()
	if fe == nil {
		res, err := h.svc.CreateEntity(r.Context(), v.P, in, "")
		if err == nil {
			msg := "Radar is now tracking " + res.Entity.CompanyName + ". Profiles are being looked up and the first run follows."
			if res.Existing {
				msg = res.Entity.CompanyName + " was tracked already; its details are updated."
			}
			h.redirect(w, r, "/companies/"+res.Entity.ID, msg)
			return
		}
		var ok bool
		if fe, ok = newFieldErrors(err, entityInputs...); !ok {
			h.fail(w, r, v, err)
			return
		}
	}
	f.Errors = fe
	h.render(w, r, http.StatusBadRequest, "company_form", page{Title: "Add a company", Section: "companies", Viewer: v,
		Data: companyFormData{Form: f.withBlankRow()}})
}

// enrichDraft looks up the missing profiles of the company being added (POST /api/v1/tracker/enrich) and puts
// what it found into the empty fields of the form.
func (h *Handler) enrichDraft(w http.ResponseWriter, r *http.Request, v *viewer, f entityForm) {
	render := func(status int, f entityForm, flash string) {
		h.render(w, r, status, "company_form", page{Title: "Add a company", Section: "companies", Viewer: v, Flash: flash,
			Data: companyFormData{Form: f.withBlankRow()}})
	}
	in, _ := f.input()
	res, err := h.svc.EnrichDraft(r.Context(), v.P, in.EntityInput)
	if err != nil {
		fe, ok := newFieldErrors(err, entityInputs...)
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		f.Errors = fe
		render(http.StatusBadRequest, f, "")
		return
	}
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	d := res.Data
	fill(&f.CompanyLinkedinURL, d.CompanyLinkedinURL)
	fill(&f.CompanyTwitterURL, d.CompanyTwitterURL)
	fill(&f.CompanyGithubURL, d.CompanyGithubURL)
	for i := range f.Founders {
		if i < len(d.Founders) {
			fill(&f.Founders[i].LinkedinURL, d.Founders[i].LinkedinURL)
			fill(&f.Founders[i].TwitterURL, d.Founders[i].TwitterURL)
			fill(&f.Founders[i].GithubURL, d.Founders[i].GithubURL)
		}
	}
	flash := "No missing profile was found on the website; Radar keeps looking after you add the company."
	if n := len(res.Found); n > 0 {
		flash = fmt.Sprintf("Found %d profile(s) on the website and filled them in below; check them, then start tracking.", n)
	}
	render(http.StatusOK, f, flash)
}

// companyData is the company detail page.
type companyData struct {
	E          *radar.Entity
	InProgress bool
	Signals    []*radar.Signal
	MoreSignal bool
	Alerts     []*radar.Alert
	MoreAlerts bool
	Leads      []*radar.Lead
	// QuietSignals and QuietAlerts count the quiet runs the lists leave out, with where to see them.
	QuietSignals, QuietAlerts quietRuns
}

// inProgress reports whether enrichment or a run is under way, so that the page keeps itself up to date.
func inProgress(e *radar.Entity) bool {
	return e.Operation != nil && e.Operation.SuggestedPollIntervalSeconds != nil
}

func (h *Handler) company(w http.ResponseWriter, r *http.Request, v *viewer) {
	ctx := r.Context()
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	e, err := h.svc.GetEntity(ctx, v.P, id, radar.ViewFull)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d := companyData{E: e, InProgress: inProgress(e)}
	changed, quiet := true, false
	sigs, err := h.svc.ListSignals(ctx, v.P, service.SignalQuery{EntityID: id, Changed: &changed,
		PageQuery: service.PageQuery{Limit: 10, View: radar.ViewFull}})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.Signals, d.MoreSignal = sigs.Data, sigs.NextCursor != nil
	d.QuietSignals = quietFor("/signals", url.Values{"entityId": {id}})
	if d.QuietSignals.Hidden, err = h.svc.CountSignals(ctx, v.P, service.SignalQuery{EntityID: id, Changed: &quiet}); err != nil {
		h.fail(w, r, v, err)
		return
	}
	alerts, err := h.svc.ListAlerts(ctx, v.P, service.AlertQuery{EntityID: id, Changed: &changed,
		PageQuery: service.PageQuery{Limit: 5, View: radar.ViewFull}})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.QuietAlerts = quietFor("/alerts", url.Values{"entityId": {id}})
	if d.QuietAlerts.Hidden, err = h.svc.CountAlerts(ctx, v.P, service.AlertQuery{EntityID: id, Changed: &quiet}); err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.Alerts, d.MoreAlerts = alerts.Data, alerts.NextCursor != nil
	leads, err := h.svc.ListLeads(ctx, v.P, service.LeadQuery{SourceEntityID: id, PageQuery: service.PageQuery{Limit: 10}})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.Leads = leads.Data
	h.render(w, r, http.StatusOK, "company", page{Title: e.CompanyName, Section: "companies", Viewer: v, Data: d})
}

// progressBody is what the company page polls while enrichment or a run is in progress.
type progressBody struct {
	EnrichmentStatus   string      `json:"enrichmentStatus"`
	EnrichmentComplete bool        `json:"enrichmentComplete"`
	Running            bool        `json:"running"`
	LastScrapedAt      *radar.Time `json:"lastScrapedAt"`
	LastRun            string      `json:"lastRun"`
	Health             string      `json:"scrapeHealthReason"`
	InProgress         bool        `json:"inProgress"`
	LatestSignalID     string      `json:"latestSignalId"`
}

func (h *Handler) progress(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := pathID(r)
	w.Header().Set("Content-Type", "application/json")
	if id == "" {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not_found"}`))
		return
	}
	e, err := h.svc.GetEntity(r.Context(), v.P, id, radar.ViewCompact)
	if err != nil {
		code := codeOf(err)
		if code == radar.EInternal {
			h.logger.ErrorContext(r.Context(), "web progress", "err", err)
		}
		w.WriteHeader(radar.StatusOf(code))
		json.NewEncoder(w).Encode(map[string]string{"error": code})
		return
	}
	b := progressBody{
		EnrichmentStatus: e.EnrichmentStatus, EnrichmentComplete: radar.EnrichmentComplete(e.EnrichmentStatus),
		Running: e.RunningSince != nil, LastScrapedAt: e.LastScrapedAt, LastRun: when(e.LastScrapedAt),
		Health: e.ScrapeHealthReason, InProgress: inProgress(e),
	}
	if e.LatestSignal != nil {
		b.LatestSignalID = e.LatestSignal.ID
	}
	json.NewEncoder(w).Encode(b)
}

func (h *Handler) editCompany(w http.ResponseWriter, r *http.Request, v *viewer) {
	e, ok := h.entity(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "company_form", page{Title: "Edit " + e.CompanyName, Section: "companies", Viewer: v,
		Data: companyFormData{Form: formFromEntity(e).withBlankRow(), Entity: e}})
}

// entity reads the company of the path, answering the request itself when it cannot.
func (h *Handler) entity(w http.ResponseWriter, r *http.Request, v *viewer) (*radar.Entity, bool) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return nil, false
	}
	e, err := h.svc.GetEntity(r.Context(), v.P, id, radar.ViewFull)
	if err != nil {
		h.fail(w, r, v, err)
		return nil, false
	}
	return e, true
}

func (h *Handler) updateCompany(w http.ResponseWriter, r *http.Request, v *viewer) {
	e, ok := h.entity(w, r, v)
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, v, radar.Errorf(radar.EValidation, "the form could not be read"))
		return
	}
	f := parseEntityForm(r.PostForm)
	f.CompanyWebsite, f.CompanyLinkedinURL, f.CompanyTwitterURL, f.CompanyGithubURL = e.CompanyWebsite, e.CompanyLinkedinURL, e.CompanyTwitterURL, e.CompanyGithubURL
	if r.PostForm.Has("more") {
		h.render(w, r, http.StatusOK, "company_form", page{Title: "Edit " + e.CompanyName, Section: "companies", Viewer: v,
			Data: companyFormData{Form: f.withBlankRows(f.rowsToShow(true)), Entity: e}})
		return
	}
	if r.PostForm.Has("preview") {
		h.previewRules(w, r, v, e, f)
		return
	}
	p, fe := f.patch()
	if fe == nil {
		_, err := h.svc.UpdateEntity(r.Context(), v.P, e.ID, p)
		if err == nil {
			h.redirect(w, r, "/companies/"+e.ID, "Saved the changes to "+strings.TrimSpace(f.CompanyName)+".")
			return
		}
		if fe, ok = newFieldErrors(err, entityInputs...); !ok {
			h.fail(w, r, v, err)
			return
		}
	}
	f.Errors = fe
	h.render(w, r, http.StatusBadRequest, "company_form", page{Title: "Edit " + e.CompanyName, Section: "companies", Viewer: v,
		Data: companyFormData{Form: f.withBlankRow(), Entity: e}})
}

// confirmData is a confirmation step before a change that is hard to undo.
type confirmData struct {
	Title, Message, Action, Button, Back string
	Danger                               bool
}

func (h *Handler) confirmPause(w http.ResponseWriter, r *http.Request, v *viewer) {
	e, ok := h.entity(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "confirm", page{Title: "Pause " + e.CompanyName, Section: "companies", Viewer: v, Data: confirmData{
		Title: "Pause tracking of " + e.CompanyName + "?", Message: "No scheduled runs and no alert e-mails until you resume. Its history is kept.",
		Action: "/companies/" + e.ID + "/pause", Button: "Pause tracking", Back: "/companies/" + e.ID,
	}})
}

func (h *Handler) setStatus(w http.ResponseWriter, r *http.Request, v *viewer, status, done string) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	e, err := h.svc.UpdateEntity(r.Context(), v.P, id, radar.EntityPatch{Status: &status})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.redirect(w, r, "/companies/"+id, e.CompanyName+" "+done)
}

func (h *Handler) pause(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.setStatus(w, r, v, radar.StatusPaused, "is paused.")
}

func (h *Handler) resume(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.setStatus(w, r, v, radar.StatusOK, "is tracked again.")
}

func (h *Handler) refresh(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := pathID(r)
	if id == "" {
		h.notFound(w, r, v)
		return
	}
	res, err := h.svc.RefreshEntity(r.Context(), v.P, id)
	switch codeOf(err) {
	case "":
		h.redirect(w, r, "/companies/"+id, "A run of "+res.Entity.CompanyName+" has started.")
	case radar.EEntityPaused:
		h.redirect(w, r, "/companies/"+id, "This company is paused: resume it to run the tracker.")
	case radar.ERefreshInProgress:
		h.redirect(w, r, "/companies/"+id, "A run is already in progress.")
	default:
		h.fail(w, r, v, err)
	}
}

func (h *Handler) confirmDelete(w http.ResponseWriter, r *http.Request, v *viewer) {
	e, ok := h.entity(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "confirm", page{Title: "Stop tracking " + e.CompanyName, Section: "companies", Viewer: v, Data: confirmData{
		Title:   "Stop tracking " + e.CompanyName + " and delete its history?",
		Message: "Every signal, alert and page copy of this company is deleted. This cannot be undone.",
		Action:  "/companies/" + e.ID + "/delete", Button: "Delete " + e.CompanyName, Back: "/companies/" + e.ID, Danger: true,
	}})
}

func (h *Handler) deleteCompany(w http.ResponseWriter, r *http.Request, v *viewer) {
	e, ok := h.entity(w, r, v)
	if !ok {
		return
	}
	if err := h.svc.DeleteEntity(r.Context(), v.P, e.ID); err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.redirect(w, r, "/companies", "Radar no longer tracks "+e.CompanyName+"; its history is deleted.")
}
