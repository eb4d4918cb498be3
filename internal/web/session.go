package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"radar"
	"radar/internal/service"
)

// sessionCookie names the cookie holding the session token.
const sessionCookie = "radar_session"

// viewer is the signed-in user of a request and the principal the service sees for it.
type viewer struct {
	User      *radar.User
	Org       *radar.Org
	P         *radar.Principal
	tokenHash []byte
}

// IsOwner reports whether the user may manage the organisation's API keys.
func (v *viewer) IsOwner() bool { return v.User.Role == service.RoleOwner }

// principal is how a web user acts: as its organisation, with every scope, counted as "user:<id>".
func principal(u *radar.User, o *radar.Org) *radar.Principal {
	return &radar.Principal{
		OrgID: o.ID, OrgSlug: o.Slug, OrgName: o.Name, KeyID: "user:" + u.ID, KeyName: u.Email,
		Scopes: slices.Clone(radar.Scopes), UserID: u.ID,
	}
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// session resolves the request's session cookie; errNoSession when there is none or it expired.
func (h *Handler) session(ctx context.Context, r *http.Request) (*viewer, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" || len(c.Value) > 100 {
		return nil, errNoSession
	}
	hash := hashToken(c.Value)
	s, err := h.store.SessionByHash(ctx, hash)
	if radar.ErrorCode(err) == radar.ENotFound {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	if !h.now().Before(s.ExpiresAt.Time) {
		if err := h.store.DeleteSession(ctx, hash); err != nil {
			return nil, err
		}
		return nil, errNoSession
	}
	u, err := h.store.User(ctx, s.UserID)
	if radar.ErrorCode(err) == radar.ENotFound {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	o, err := h.store.Org(ctx, u.OrgID)
	if err != nil {
		return nil, err
	}
	return &viewer{User: u, Org: o, P: principal(u, o), tokenHash: hash}, nil
}

var errNoSession = errors.New("web: no session")

// authed runs fn for a signed-in user and sends anyone else to the sign-in page.
func (h *Handler) authed(fn func(http.ResponseWriter, *http.Request, *viewer)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := h.session(r.Context(), r)
		if errors.Is(err, errNoSession) {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		if err != nil {
			h.internal(w, r, nil, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		fn(w, r, v)
	})
}

// owner lets only owners through.
func (h *Handler) owner(fn func(http.ResponseWriter, *http.Request, *viewer)) func(http.ResponseWriter, *http.Request, *viewer) {
	return func(w http.ResponseWriter, r *http.Request, v *viewer) {
		if !v.IsOwner() {
			h.render(w, r, http.StatusForbidden, "error", page{Title: "Owners only", Viewer: v, Data: errorData{
				Title: "Owners only", Message: "Only owners of " + v.Org.Name + " can manage API keys. Ask an owner to create a key for you.",
			}})
			return
		}
		fn(w, r, v)
	}
}

type loginData struct {
	Email, Next, Error string
}

func (h *Handler) loginPage(w http.ResponseWriter, r *http.Request) {
	if _, err := h.session(r.Context(), r); err == nil {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	h.render(w, r, http.StatusOK, "login", page{Title: "Sign in", Data: loginData{Next: r.URL.Query().Get("next")}})
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	email := strings.ToLower(strings.TrimSpace(r.PostFormValue("email")))
	password := r.PostFormValue("password")
	data := loginData{Email: email, Next: r.PostFormValue("next")}
	if radar.TextProblem(email, radar.SingleLine) != "" {
		data.Email, data.Error = "", "Enter a valid e-mail address."
		h.render(w, r, http.StatusBadRequest, "login", page{Title: "Sign in", Data: data})
		return
	}
	if email == "" || password == "" {
		data.Error = "Enter your e-mail address and password."
		h.render(w, r, http.StatusBadRequest, "login", page{Title: "Sign in", Data: data})
		return
	}
	attempt, wait, counted := h.countLogin(ctx, email, r)
	if !counted {
		h.busy(w, r, data)
		return
	}
	if wait > 0 {
		mins := int((wait + time.Minute - 1) / time.Minute)
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		data.Error = fmt.Sprintf("Too many failed sign-in attempts for this account or from your network. Wait %s and try again.", plural(mins, "minute"))
		h.render(w, r, http.StatusTooManyRequests, "login", page{Title: "Sign in", Data: data})
		return
	}
	if !h.hashes.acquire(ctx) {
		h.uncountLogin(ctx, attempt)
		h.busy(w, r, data)
		return
	}
	u, err := h.store.UserByEmail(ctx, email)
	if err != nil && radar.ErrorCode(err) != radar.ENotFound {
		h.hashes.release()
		h.uncountLogin(ctx, attempt)
		h.internal(w, r, nil, err)
		return
	}
	var ok bool
	if u == nil {
		h.verify(h.dummyHash(), password)
	} else {
		ok = h.verify(u.PasswordHash, password)
	}
	h.hashes.release()
	if !ok {
		data.Error = "The e-mail address or password is not right."
		h.render(w, r, http.StatusUnauthorized, "login", page{Title: "Sign in", Data: data})
		return
	}
	// Sign-ins that succeed do not count, so that colleagues behind one address can all sign in.
	h.uncountLogin(ctx, attempt)
	b := make([]byte, 32)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	now := radar.NewTime(h.now())
	expires := radar.NewTime(now.Add(SessionLifetime))
	if err := h.store.CreateSession(ctx, &radar.Session{TokenHash: hashToken(token), UserID: u.ID, OrgID: u.OrgID, ExpiresAt: expires, CreatedAt: now}); err != nil {
		h.internal(w, r, nil, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", Expires: expires.Time, MaxAge: int(SessionLifetime.Seconds()),
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode,
	})
	http.Redirect(w, r, safeNext(data.Next), http.StatusSeeOther)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := h.store.DeleteSession(r.Context(), hashToken(c.Value)); err != nil {
			h.internal(w, r, nil, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
	h.flash(w, "You are signed out.")
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// safeNext keeps a redirect after sign-in on this site: next must be a path of this site, with no scheme and no
// host, not starting with //, holding no backslash (browsers read /\ as //, another host), no control character
// and no white space in its path, which browsers drop ("/\t/evil.example" is "//evil.example" to them), in any
// of its percent-decoded forms. Anything else, and the sign-in page itself, leads to the home page.
func safeNext(next string) string {
	const home = "/companies"
	s := next
	for range 3 {
		if !sitePath(s) || strings.HasPrefix(s, "/login") {
			return home
		}
		dec, err := url.PathUnescape(s)
		if err != nil {
			// A "%" that escapes nothing stays as it is: s is what browsers will read.
			return next
		}
		if dec == s {
			return next
		}
		s = dec
	}
	return home
}

// sitePath reports whether s, as a browser would read it, is a path of this site without hidden characters.
func sitePath(s string) bool {
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.ContainsRune(s, '\\') {
		return false
	}
	path, _, _ := strings.Cut(s, "?")
	path, _, _ = strings.Cut(path, "#")
	if strings.ContainsFunc(path, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError }) ||
		strings.ContainsFunc(s, unicode.IsControl) {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "" && u.Host == "" && u.User == nil && u.Opaque == ""
}
