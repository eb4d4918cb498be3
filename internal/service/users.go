package service

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/mail"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"

	"radar"
)

// Roles of web users.
const (
	RoleOwner  = "owner"
	RoleMember = "member"
)

// argon2id parameters (RFC 9106's second recommendation, with 64 MiB of memory).
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(password string) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// VerifyPassword reports whether password matches a hash made by HashPassword, in constant time.
func VerifyPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var (
		m, t uint32
		p    uint8
	)
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// CreateUser creates a web user of an organisation.
func (s *Service) CreateUser(ctx context.Context, orgID, email, password, role string) (*radar.User, error) {
	var p radar.Problems
	email = strings.TrimSpace(strings.ToLower(email))
	if a, err := mail.ParseAddress(email); p.Text("email", email, radar.SingleLine) && (err != nil || a.Address != email) {
		p.Addf("email", "must be an e-mail address, got %q", email)
	}
	if n := len([]rune(password)); n < 10 || n > 200 {
		p.Add("password", "must be 10-200 characters")
	}
	if role == "" {
		role = RoleOwner
	}
	if role != RoleOwner && role != RoleMember {
		p.Addf("role", "must be owner or member, got %q", role)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	u := &radar.User{ID: uuid.NewString(), OrgID: orgID, Email: email, PasswordHash: HashPassword(password), Role: role, CreatedAt: s.nowTime()}
	if err := s.store.CreateUser(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}
