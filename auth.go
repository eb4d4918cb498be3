package radar

import (
	"context"
	"slices"
)

// API key scopes.
const (
	ScopeTrackerRead  = "tracker:read"
	ScopeTrackerWrite = "tracker:write"
	ScopeLeadsRead    = "leads:read"
	ScopeLeadsWrite   = "leads:write"
)

// Scopes lists every scope.
var Scopes = []string{ScopeTrackerRead, ScopeTrackerWrite, ScopeLeadsRead, ScopeLeadsWrite, ScopeWebhooksManage}

// Org is an investor organisation; every other record belongs to one.
type Org struct {
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	Name      string `json:"name"`
	CreatedAt Time   `json:"createdAt"`
}

// APIKey is a bearer credential of one organisation. Only the SHA-256 of its secret is stored.
type APIKey struct {
	ID         string   `json:"id"`
	OrgID      string   `json:"-"`
	OrgSlug    string   `json:"org"`
	OrgName    string   `json:"-"`
	Name       string   `json:"name"`
	Scopes     []string `json:"scopes"`
	SecretHash []byte   `json:"-"`
	ExpiresAt  *Time    `json:"expiresAt"`
	RevokedAt  *Time    `json:"revokedAt"`
	LastUsedAt *Time    `json:"lastUsedAt"`
	CreatedAt  Time     `json:"createdAt"`
	// Changes counts the committed changes to the organisation's data when the key was read: a response
	// computed from the data at one count holds as long as the count has not moved.
	Changes int64 `json:"-"`
}

// Principal is who makes a request: an API key, or a web user acting with all scopes of its organisation.
type Principal struct {
	OrgID   string
	OrgSlug string
	OrgName string
	// KeyID identifies the API key; rate limits count per key. Web sessions use "user:<id>".
	KeyID   string
	KeyName string
	Scopes  []string
	UserID  string
	// Changes is the organisation's change count read with the key (radar.APIKey.Changes); 0 when unknown.
	Changes int64
}

// Has reports whether p holds scope.
func (p *Principal) Has(scope string) bool { return slices.Contains(p.Scopes, scope) }

// Require fails with insufficient_scope unless p holds every scope.
func (p *Principal) Require(scopes ...string) error {
	var missing []string
	for _, s := range scopes {
		if !p.Has(s) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	granted := p.Scopes
	if granted == nil {
		granted = []string{}
	}
	return &Error{
		Code:    EInsufficientScope,
		Message: "this API key lacks the scope " + joinQuoted(missing),
		Details: map[string]any{"required": scopes, "granted": granted},
	}
}

func joinQuoted(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " and "
		}
		out += `"` + v + `"`
	}
	return out
}

// User is a person who signs in to the web UI.
type User struct {
	ID           string `json:"id"`
	OrgID        string `json:"-"`
	Email        string `json:"email"`
	PasswordHash string `json:"-"`
	Role         string `json:"role"`
	CreatedAt    Time   `json:"createdAt"`
}

// Session is a signed-in web user; only the hash of its token is stored.
type Session struct {
	TokenHash []byte
	UserID    string
	OrgID     string
	ExpiresAt Time
	CreatedAt Time
}

// AuthStore keeps organisations, keys, users and sessions.
type AuthStore interface {
	CreateOrg(ctx context.Context, o *Org) error
	OrgBySlug(ctx context.Context, slug string) (*Org, error)
	Org(ctx context.Context, id string) (*Org, error)
	CreateAPIKey(ctx context.Context, k *APIKey) error
	// APIKey returns a key of any organisation by id, with OrgSlug and its organisation's change count filled in and
	// without its last use (APIKeys lists that).
	APIKey(ctx context.Context, id string) (*APIKey, error)
	// KeptAPIKey returns what the store keeps in memory of a key it has read: every column but those that change
	// (revocation, last use, change count), or nil. The key returned is shared: callers do not change it.
	KeptAPIKey(id string) *APIKey
	APIKeys(ctx context.Context, orgID string) ([]*APIKey, error)
	RevokeAPIKey(ctx context.Context, orgID, id string, at Time) error
	TouchAPIKey(ctx context.Context, id string, at Time) error
	CreateUser(ctx context.Context, u *User) error
	UserByEmail(ctx context.Context, email string) (*User, error)
	User(ctx context.Context, id string) (*User, error)
	CreateSession(ctx context.Context, s *Session) error
	SessionByHash(ctx context.Context, hash []byte) (*Session, error)
	DeleteSession(ctx context.Context, hash []byte) error
	// Setting reads a stored value (such as the generated secret), or ErrNotFound.
	Setting(ctx context.Context, name string) (string, error)
	// SetSettingOnce stores value under name unless one is stored; it returns the stored value.
	SetSettingOnce(ctx context.Context, name, value string) (string, error)
}
