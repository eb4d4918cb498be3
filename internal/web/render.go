package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"radar"
	"radar/internal/api"
	"radar/internal/fuzzy"
	"radar/internal/sqldb"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages holds every page template, each parsed once with the layout.
type pages struct {
	byName map[string]*template.Template
	// version changes with the static files, so that browsers fetch new ones.
	version string
}

// page is what every template receives.
type page struct {
	Title string
	// Section marks the navigation entry of the page.
	Section string
	Viewer  *viewer
	Flash   string
	Static  string
	Data    any
	// Export is the address of the CSV export of a list page.
	Export string
}

// parsePages parses the layout and every page; the templates are part of the binary, so a parse error is a
// defect that the package's tests catch.
func parsePages() *pages {
	layout := template.Must(template.New("layout.html").Funcs(funcs()).ParseFS(templateFS, "templates/layout.html", "templates/parts.html"))
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	p := &pages{byName: map[string]*template.Template{}, version: staticVersion()}
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" || base == "parts.html" {
			continue
		}
		t := template.Must(template.Must(layout.Clone()).ParseFS(templateFS, n))
		p.byName[strings.TrimSuffix(base, ".html")] = t
	}
	return p
}

func staticVersion() string {
	h := sha256.New()
	fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := staticFS.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func staticHandler() http.Handler {
	sub, _ := fs.Sub(staticFS, "static")
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("v") != "" {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		files.ServeHTTP(w, r)
	})
}

// render writes a page; the page is rendered in full before anything is sent.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	t, ok := h.pages.byName[name]
	if !ok {
		h.internal(w, r, p.Viewer, fmt.Errorf("web: no template %q", name))
		return
	}
	p.Static = h.pages.version
	if p.Flash == "" {
		p.Flash = h.takeFlash(w, r)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		h.internal(w, r, p.Viewer, fmt.Errorf("web: render %s: %w", name, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

type errorData struct {
	Title, Message, RequestID string
}

// internal logs an unexpected failure once, with the request id, and shows only the id. A database out of reach
// is 503 with Retry-After, as in the API: the page says to try again shortly.
func (h *Handler) internal(w http.ResponseWriter, r *http.Request, v *viewer, err error) {
	id := api.RequestID(r.Context())
	status, title, msg := http.StatusInternalServerError, "Something went wrong", "Radar could not complete this request. Try again in a moment."
	if sqldb.Unavailable(err) {
		h.logger.WarnContext(r.Context(), "database unavailable", "request_id", id, "method", r.Method, "path", r.URL.Path, "err", err)
		status, title, msg = http.StatusServiceUnavailable, "Radar is unavailable for a moment", "Radar cannot reach its database just now. Try again in a few seconds."
		w.Header().Set("Retry-After", "5")
	} else {
		h.logger.ErrorContext(r.Context(), "web request failed", "request_id", id, "method", r.Method, "path", r.URL.Path, "err", err)
	}
	t := h.pages.byName["error"]
	var buf bytes.Buffer
	data := page{Title: title, Viewer: v, Static: h.pages.version, Data: errorData{Title: title, Message: msg, RequestID: id}}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if t.ExecuteTemplate(&buf, "layout", data) == nil {
		w.Write(buf.Bytes())
	}
}

// fail shows a service error: its message for errors a user can act on, an internal error otherwise.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, v *viewer, err error) {
	e, ok := radar.AsError(err)
	if !ok || e.Code == radar.EInternal {
		h.internal(w, r, v, err)
		return
	}
	title := "This did not work"
	switch e.Code {
	case radar.ENotFound:
		title = "Not found"
	case radar.EUnauthorized, radar.EInsufficientScope:
		title = "Not allowed"
	}
	h.render(w, r, radar.StatusOf(e.Code), "error", page{Title: title, Viewer: v, Data: errorData{Title: title, Message: e.Message}})
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.render(w, r, http.StatusNotFound, "error", page{Title: "Not found", Viewer: v, Data: errorData{
		Title: "Not found", Message: "There is nothing at this address in " + v.Org.Name + ".",
	}})
}

// flashCookie carries a one-time message across a redirect.
const flashCookie = "radar_flash"

func (h *Handler) flash(w http.ResponseWriter, msg string) {
	http.SetCookie(w, &http.Cookie{
		Name: flashCookie, Value: base64.RawURLEncoding.EncodeToString([]byte(msg)), Path: "/", MaxAge: 60,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode,
	})
}

func (h *Handler) takeFlash(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(flashCookie)
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
	b, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || len(b) > 500 {
		return ""
	}
	return string(b)
}

// redirect sends the browser on after a successful form, with a message for the next page.
func (h *Handler) redirect(w http.ResponseWriter, r *http.Request, to, msg string) {
	if msg != "" {
		h.flash(w, msg)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func funcs() template.FuncMap {
	return template.FuncMap{
		"when":     when,
		"iso":      iso,
		"label":    label,
		"join":     strings.Join,
		"truncate": radar.Truncate,
		"plural":   plural,
		"money":    money,
		"lower":    strings.ToLower,
		"field":    field,
		"matched":  matchedOn,
		"sentence": sentence,
		"health":   healthOf,
	}
}

// health is an entity's scrapeHealthReason taken apart for the page: its state (ok, degraded, failed or
// pending) and what follows the state.
type health struct {
	State, Detail string
}

// Warn reports whether the last run could not read every source.
func (h health) Warn() bool { return h.State == "degraded" || h.State == "failed" }

func healthOf(reason string) health {
	state, detail, ok := strings.Cut(reason, ": ")
	if !ok {
		return health{State: "pending", Detail: reason}
	}
	return health{State: state, Detail: detail}
}

// asTime accepts the time types templates see.
func asTime(v any) (time.Time, bool) {
	switch t := v.(type) {
	case radar.Time:
		return t.Time, !t.IsZero()
	case *radar.Time:
		if t == nil {
			return time.Time{}, false
		}
		return t.Time, !t.IsZero()
	case time.Time:
		return t, !t.IsZero()
	}
	return time.Time{}, false
}

// when renders a time for people: "2 Mar 2026 14:05 UTC".
func when(v any) string {
	t, ok := asTime(v)
	if !ok {
		return "—"
	}
	return t.UTC().Format("2 Jan 2006 15:04 UTC")
}

// iso renders a time for the datetime attribute.
func iso(v any) string {
	t, ok := asTime(v)
	if !ok {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// matchedOn names what a fuzzy lookup matched, in words.
func matchedOn(field string) string {
	switch field {
	case fuzzy.OnCompanyName:
		return "the company name"
	case fuzzy.OnFounderName:
		return "a founder's name"
	case fuzzy.OnWebsite:
		return "the website"
	}
	return field
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// label turns an enum value such as founder_departure into words.
func label(s string) string {
	if l, ok := stageLabels[s]; ok {
		return l
	}
	return strings.ReplaceAll(s, "_", " ")
}

// stageLabels spell the funding stages as investors write them.
var stageLabels = map[string]string{
	radar.StagePreSeedSeed: "pre-seed/seed",
	radar.StageSeriesA:     "Series A",
	radar.StageSeriesBPlus: "Series B+",
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func money(usd float64) string {
	switch {
	case usd >= 1e9:
		return fmt.Sprintf("$%.3gB", usd/1e9)
	case usd >= 1e6:
		return fmt.Sprintf("$%.3gM", usd/1e6)
	case usd >= 1e3:
		return fmt.Sprintf("$%.3gk", usd/1e3)
	}
	return fmt.Sprintf("$%.0f", usd)
}

// codeOf is the error code of a service error, or "" for success.
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	var e *radar.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return radar.EInternal
}
