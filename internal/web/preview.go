package web

import (
	"net/http"

	"radar"
)

// previewRules shows the edit form again with how its draft alert rules would have judged the company's earlier
// runs; nothing is saved.
func (h *Handler) previewRules(w http.ResponseWriter, r *http.Request, v *viewer, e *radar.Entity, f entityForm) {
	d := companyFormData{Form: f.withBlankRow(), Entity: e}
	status := http.StatusOK
	pv, err := h.svc.PreviewRules(r.Context(), v.P, e.ID, f.ThingsToTrack)
	if err != nil {
		fe, ok := newFieldErrors(err, entityInputs...)
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.Form.Errors, status = fe, http.StatusBadRequest
	}
	d.Preview = pv
	h.render(w, r, status, "company_form", page{Title: "Edit " + e.CompanyName, Section: "companies", Viewer: v, Data: d})
}
