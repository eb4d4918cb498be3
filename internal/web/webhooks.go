package web

import (
	"net/http"
	"slices"
	"strings"

	"radar"
	"radar/internal/service"
)

// webhooksData is the webhooks settings page: the endpoints and the form to register one.
type webhooksData struct {
	Endpoints []*radar.WebhookEndpoint
	Kinds     []string
	Events    []string
	// The create form as typed.
	URL    string
	Kind   string
	Chosen []string
	Errors *fieldErrors
	// Secret is the secret of an endpoint just created or rotated, shown once.
	Secret     *radar.WebhookWithSecret
	SecretNote string
}

// Has reports whether the create form has event ticked.
func (d webhooksData) Has(event string) bool { return slices.Contains(d.Chosen, event) }

// webhookData is one endpoint with its delivery log.
type webhookData struct {
	Endpoint   *radar.WebhookEndpoint
	Deliveries []*radar.WebhookDelivery
	Next       string
}

// webhookDeliveriesShown is how many attempts the endpoint page lists at once.
const webhookDeliveriesShown = 50

func (h *Handler) webhooksData(r *http.Request, v *viewer) (webhooksData, error) {
	eps, err := h.svc.ListWebhooks(r.Context(), v.P)
	if err != nil {
		return webhooksData{}, err
	}
	return webhooksData{Endpoints: eps, Kinds: radar.WebhookKinds, Events: radar.WebhookEvents, Kind: radar.WebhookKindWebhook,
		Chosen: []string{radar.EventSignalChanged}}, nil
}

func (h *Handler) webhooks(w http.ResponseWriter, r *http.Request, v *viewer) {
	d, err := h.webhooksData(r, v)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.render(w, r, http.StatusOK, "webhooks", page{Title: "Webhooks", Section: "webhooks", Viewer: v, Data: d})
}

func (h *Handler) createWebhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, v, radar.Errorf(radar.EValidation, "the form could not be read"))
		return
	}
	in := radar.WebhookInput{URL: strings.TrimSpace(r.PostFormValue("url")), Kind: r.PostFormValue("kind"), Events: r.PostForm["events"]}
	created, err := h.svc.CreateWebhook(r.Context(), v.P, in)
	d, lerr := h.webhooksData(r, v)
	if lerr != nil {
		h.fail(w, r, v, lerr)
		return
	}
	if err != nil {
		fe, ok := newFieldErrors(err, "url", "kind", "events")
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.URL, d.Kind, d.Chosen, d.Errors = in.URL, in.Kind, in.Events, fe
		h.render(w, r, http.StatusBadRequest, "webhooks", page{Title: "Webhooks", Section: "webhooks", Viewer: v, Data: d})
		return
	}
	d.Secret, d.SecretNote = created, "Registered "+created.URL+"."
	h.render(w, r, http.StatusOK, "webhooks", page{Title: "Webhooks", Section: "webhooks", Viewer: v, Data: d,
		Flash: "Registered the endpoint. Copy its signing secret now: Radar shows it only once."})
}

// webhookOf reads the endpoint of the path's id.
func (h *Handler) webhookOf(w http.ResponseWriter, r *http.Request, v *viewer) (*radar.WebhookEndpoint, bool) {
	ep, err := h.svc.GetWebhook(r.Context(), v.P, r.PathValue("id"))
	if err != nil {
		if e, ok := radar.AsError(err); ok && (e.Code == radar.ENotFound || e.Code == radar.EValidation) {
			h.notFound(w, r, v)
			return nil, false
		}
		h.fail(w, r, v, err)
		return nil, false
	}
	return ep, true
}

func (h *Handler) webhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	ep, ok := h.webhookOf(w, r, v)
	if !ok {
		return
	}
	l, err := h.svc.ListWebhookDeliveries(r.Context(), v.P, ep.ID, service.PageQuery{Limit: webhookDeliveriesShown, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d := webhookData{Endpoint: ep, Deliveries: l.Data}
	if l.NextCursor != nil {
		d.Next = *l.NextCursor
	}
	h.render(w, r, http.StatusOK, "webhook", page{Title: "Webhook " + ep.URL, Section: "webhooks", Viewer: v, Data: d})
}

// setWebhookEnabled enables or disables the path's endpoint.
func (h *Handler) setWebhookEnabled(enabled bool) func(http.ResponseWriter, *http.Request, *viewer) {
	return func(w http.ResponseWriter, r *http.Request, v *viewer) {
		ep, ok := h.webhookOf(w, r, v)
		if !ok {
			return
		}
		if _, err := h.svc.UpdateWebhook(r.Context(), v.P, ep.ID, radar.WebhookPatch{Enabled: &enabled}); err != nil {
			h.fail(w, r, v, err)
			return
		}
		msg := "Disabled " + ep.URL + "."
		if enabled {
			msg = "Enabled " + ep.URL + "."
		}
		h.redirect(w, r, "/webhooks/"+ep.ID, msg)
	}
}

func (h *Handler) testWebhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	ep, ok := h.webhookOf(w, r, v)
	if !ok {
		return
	}
	if _, err := h.svc.TestWebhook(r.Context(), v.P, ep.ID); err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.redirect(w, r, "/webhooks/"+ep.ID, "Sent a test event; its delivery appears below in a moment.")
}

func (h *Handler) rotateWebhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	ep, ok := h.webhookOf(w, r, v)
	if !ok {
		return
	}
	rotated, err := h.svc.RotateWebhookSecret(r.Context(), v.P, ep.ID)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d, err := h.webhooksData(r, v)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.Secret, d.SecretNote = rotated, "The old secret signs deliveries too for 24 hours, so that the receiver can switch."
	h.render(w, r, http.StatusOK, "webhooks", page{Title: "Webhooks", Section: "webhooks", Viewer: v, Data: d,
		Flash: "Rotated the secret of " + ep.URL + ". Copy the new one now: Radar shows it only once."})
}

func (h *Handler) confirmDeleteWebhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	ep, ok := h.webhookOf(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "confirm", page{Title: "Delete webhook", Section: "webhooks", Viewer: v, Data: confirmData{
		Title:   "Delete the endpoint " + ep.URL + "?",
		Message: "Events stop at once; undelivered ones and the delivery log are deleted. This cannot be undone.",
		Action:  "/webhooks/" + ep.ID + "/delete", Button: "Delete endpoint", Back: "/webhooks/" + ep.ID, Danger: true,
	}})
}

func (h *Handler) deleteWebhook(w http.ResponseWriter, r *http.Request, v *viewer) {
	ep, ok := h.webhookOf(w, r, v)
	if !ok {
		return
	}
	if err := h.svc.DeleteWebhook(r.Context(), v.P, ep.ID); err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.redirect(w, r, "/webhooks", "Deleted the endpoint "+ep.URL+".")
}
