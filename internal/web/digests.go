package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"radar"
	"radar/internal/digest"
)

// settingsData is the settings page: when digests go out, and a preview of one recipient's digests.
type settingsData struct {
	Hours    []int
	Hour     string
	TimeZone string
	Errors   *fieldErrors
	// Address is the recipient of the preview; Previews are its digests as they would be sent now.
	Address   string
	Previewed bool
	Previews  []digest.Preview
}

func (h *Handler) settingsPage(w http.ResponseWriter, r *http.Request, v *viewer, status int, d settingsData) {
	for i := range 24 {
		d.Hours = append(d.Hours, i)
	}
	h.render(w, r, status, "settings", page{Title: "Settings", Section: "settings", Viewer: v, Data: d})
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request, v *viewer) {
	if h.digests == nil {
		h.notFound(w, r, v)
		return
	}
	s, err := h.digests.Settings(r.Context(), v.Org.ID)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d := settingsData{Hour: strconv.Itoa(s.Hour), TimeZone: s.TimeZone, Address: strings.TrimSpace(r.URL.Query().Get("preview"))}
	if d.Address != "" {
		if reason := radar.TextProblem(d.Address, radar.SingleLine); reason != "" || len(d.Address) > 320 {
			h.fail(w, r, v, radar.Errorf(radar.EValidation, "preview: the address must be one line of at most 320 characters"))
			return
		}
		d.Previewed = true
		if d.Previews, err = h.digests.Preview(r.Context(), v.Org.ID, d.Address); err != nil {
			h.fail(w, r, v, err)
			return
		}
	}
	h.settingsPage(w, r, v, http.StatusOK, d)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request, v *viewer) {
	if h.digests == nil {
		h.notFound(w, r, v)
		return
	}
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, v, radar.Errorf(radar.EValidation, "the form could not be read"))
		return
	}
	d := settingsData{Hour: strings.TrimSpace(r.PostFormValue("hour")), TimeZone: strings.TrimSpace(r.PostFormValue("timeZone"))}
	hour, err := strconv.Atoi(d.Hour)
	if err != nil {
		hour = -1
	}
	if err := h.digests.SetSettings(r.Context(), v.Org.ID, radar.DigestSettings{Hour: hour, TimeZone: d.TimeZone}); err != nil {
		fe, ok := newFieldErrors(err, "hour", "timeZone")
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.Errors = fe
		h.settingsPage(w, r, v, http.StatusUnprocessableEntity, d)
		return
	}
	h.redirect(w, r, "/settings", "Digests go out at "+d.Hour+":00 ("+d.TimeZone+").")
}

// unsubscribeData is the page of a digest's unsubscribe link.
type unsubscribeData struct {
	Token     string
	Recipient string
	Done      bool
}

// unsubscribePage shows what the link does and a button that does it; following a link must not act by itself,
// since mail scanners open links.
func (h *Handler) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	_, recipient, err := h.digests.ParseToken(token)
	if err != nil {
		h.badUnsubscribe(w, r)
		return
	}
	h.render(w, r, http.StatusOK, "unsubscribe", page{Title: "Stop digests", Data: unsubscribeData{Token: token, Recipient: recipient}})
}

// unsubscribe turns the digests of the link's recipient off: the one-click POST of RFC 8058, or the button of
// the page. It needs no sign-in; the link's signature is the authority.
func (h *Handler) unsubscribe(w http.ResponseWriter, r *http.Request) {
	recipient, err := h.digests.Unsubscribe(r.Context(), r.PathValue("token"))
	if errors.Is(err, digest.ErrBadToken) {
		h.badUnsubscribe(w, r)
		return
	}
	if err != nil {
		h.internal(w, r, nil, err)
		return
	}
	h.render(w, r, http.StatusOK, "unsubscribe", page{Title: "Digests stopped", Data: unsubscribeData{Recipient: recipient, Done: true}})
}

func (h *Handler) badUnsubscribe(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusForbidden, "error", page{Title: "Link not valid", Data: errorData{
		Title:   "Link not valid",
		Message: "This unsubscribe link is not one Radar made, or it was changed. Use the link of the digest e-mail as it came.",
	}})
}
