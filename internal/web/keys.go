package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"radar"
	"radar/internal/service"
)

// keyRow is an API key with its state.
type keyRow struct {
	*radar.APIKey
	State string
}

// expiryChoice is one choice of a new key's lifetime.
type expiryChoice struct {
	Value, Label string
	TTL          time.Duration
}

var expiryChoices = []expiryChoice{
	{"30d", "30 days", 30 * 24 * time.Hour},
	{"90d", "90 days", 90 * 24 * time.Hour},
	{"365d", "1 year", 365 * 24 * time.Hour},
	{"never", "Never", 0},
}

// keysData is the API keys page.
type keysData struct {
	Keys     []keyRow
	Scopes   []string
	Expiries []expiryChoice
	// The create form as typed.
	Name    string
	Chosen  []string
	Expiry  string
	Errors  *fieldErrors
	Created *service.NewKey
	APIBase string
}

func (h *Handler) keysData(r *http.Request, v *viewer) (keysData, error) {
	keys, err := h.svc.Keys(r.Context(), v.Org.ID)
	if err != nil {
		return keysData{}, err
	}
	now := h.now()
	d := keysData{Scopes: radar.Scopes, Expiries: expiryChoices, Expiry: "90d", Chosen: radar.Scopes, APIBase: h.svc.BaseURL()}
	for _, k := range keys {
		state := "active"
		switch {
		case k.RevokedAt != nil:
			state = "revoked"
		case k.ExpiresAt != nil && !now.Before(k.ExpiresAt.Time):
			state = "expired"
		}
		d.Keys = append(d.Keys, keyRow{APIKey: k, State: state})
	}
	return d, nil
}

// Has reports whether the create form has scope ticked.
func (d keysData) Has(scope string) bool { return slices.Contains(d.Chosen, scope) }

func (h *Handler) keys(w http.ResponseWriter, r *http.Request, v *viewer) {
	d, err := h.keysData(r, v)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.render(w, r, http.StatusOK, "keys", page{Title: "API keys", Section: "keys", Viewer: v, Data: d})
}

func (h *Handler) createKey(w http.ResponseWriter, r *http.Request, v *viewer) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, v, radar.Errorf(radar.EValidation, "the form could not be read"))
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	scopes := r.PostForm["scopes"]
	expiry := r.PostFormValue("expiry")
	i := slices.IndexFunc(expiryChoices, func(c expiryChoice) bool { return c.Value == expiry })
	var (
		nk  *service.NewKey
		err error
	)
	if i < 0 {
		err = radar.Problems{{Path: "expires", Reason: "choose one of the offered lifetimes"}}.Err()
	} else {
		nk, err = h.svc.CreateKey(r.Context(), v.Org.ID, name, scopes, expiryChoices[i].TTL)
	}
	d, lerr := h.keysData(r, v)
	if lerr != nil {
		h.fail(w, r, v, lerr)
		return
	}
	if err != nil {
		fe, ok := newFieldErrors(err, "name", "scopes", "expires")
		if !ok {
			h.fail(w, r, v, err)
			return
		}
		d.Name, d.Chosen, d.Expiry, d.Errors = name, scopes, expiry, fe
		h.render(w, r, http.StatusBadRequest, "keys", page{Title: "API keys", Section: "keys", Viewer: v, Data: d})
		return
	}
	d.Created = nk
	h.render(w, r, http.StatusOK, "keys", page{Title: "API keys", Section: "keys", Viewer: v, Data: d,
		Flash: "Created the key " + nk.Key.Name + ". Copy its secret now: Radar shows it only once."})
}

// keyOf finds a key of the viewer's organisation by the path's id.
func (h *Handler) keyOf(w http.ResponseWriter, r *http.Request, v *viewer) (*radar.APIKey, bool) {
	keys, err := h.svc.Keys(r.Context(), v.Org.ID)
	if err != nil {
		h.fail(w, r, v, err)
		return nil, false
	}
	id := r.PathValue("id")
	i := slices.IndexFunc(keys, func(k *radar.APIKey) bool { return k.ID == id })
	if i < 0 {
		h.notFound(w, r, v)
		return nil, false
	}
	return keys[i], true
}

func (h *Handler) confirmRevoke(w http.ResponseWriter, r *http.Request, v *viewer) {
	k, ok := h.keyOf(w, r, v)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, "confirm", page{Title: "Revoke " + k.Name, Section: "keys", Viewer: v, Data: confirmData{
		Title:   "Revoke the key " + k.Name + "?",
		Message: "Every client using it is refused from its next request on. This cannot be undone.",
		Action:  "/keys/" + k.ID + "/revoke", Button: "Revoke key", Back: "/keys", Danger: true,
	}})
}

func (h *Handler) revokeKey(w http.ResponseWriter, r *http.Request, v *viewer) {
	k, ok := h.keyOf(w, r, v)
	if !ok {
		return
	}
	if err := h.svc.RevokeKey(r.Context(), v.Org.ID, k.ID); err != nil {
		h.fail(w, r, v, err)
		return
	}
	h.redirect(w, r, "/keys", "Revoked the key "+k.Name+".")
}
