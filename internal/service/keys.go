package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"radar"
)

// Key format: rdr_<id>_<secret><check>. The id is 12 base32 characters, the secret 32 (160 bits) and the check
// 7 characters of the CRC-32 of the secret, so that a mistyped key is refused without a database look-up.
const (
	keyPrefix    = "rdr_"
	keyIDLen     = 12
	keySecretLen = 32
	keyCheckLen  = 7
)

var (
	b32    = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
	slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
)

func randomB32(n int) string {
	b := make([]byte, (n*5+7)/8)
	rand.Read(b)
	return b32.EncodeToString(b)[:n]
}

// parseKey splits a key of the form rdr_<id>_<secret><check> into its id and its secret with the check; ok is
// false when token is not of that form.
func parseKey(token string) (id, secret string, ok bool) {
	const idAt, secretAt = len(keyPrefix), len(keyPrefix) + keyIDLen + 1
	if len(token) != secretAt+keySecretLen+keyCheckLen || token[:idAt] != keyPrefix || token[secretAt-1] != '_' {
		return "", "", false
	}
	id, secret = token[idAt:secretAt-1], token[secretAt:]
	if !isBase32(id) || !isBase32(secret) {
		return "", "", false
	}
	return id, secret, true
}

// isBase32 reports whether s has only letters of b32: a-z and 2-7.
func isBase32(s string) bool {
	for i := range len(s) {
		if c := s[i]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

func keyCheck(secret string) string {
	var check [8]byte
	return string(appendCheck(check[:0], secret))
}

// appendCheck appends the check characters of secret to b.
func appendCheck(b []byte, secret string) []byte {
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE([]byte(secret)))
	return b32.AppendEncode(b, sum[:])[:len(b)+keyCheckLen]
}

// checked reports whether a secret (with its check) ends in the check characters of the rest.
func checked(secret string) bool {
	var check [8]byte
	return string(appendCheck(check[:0], secret[:keySecretLen])) == secret[keySecretLen:]
}

// hashSecret is the hash of a secret (with its check) that a key stores.
func hashSecret(secret string) [sha256.Size]byte {
	var buf [keySecretLen + keyCheckLen]byte
	return sha256.Sum256(append(buf[:0], secret...))
}

// CreateOrg creates an organisation.
func (s *Service) CreateOrg(ctx context.Context, slug, name string) (*radar.Org, error) {
	if !slugRE.MatchString(slug) {
		return nil, radar.Errorf(radar.EValidation, "slug: must be 1-63 lower-case letters, digits or dashes, starting with a letter or digit")
	}
	if name == "" {
		name = slug
	}
	if reason := radar.TextProblem(name, radar.SingleLine); reason != "" {
		return nil, radar.Errorf(radar.EValidation, "name: %s", reason)
	}
	o := &radar.Org{ID: uuid.NewString(), Slug: slug, Name: name, CreatedAt: s.nowTime()}
	if err := s.store.CreateOrg(ctx, o); err != nil {
		return nil, err
	}
	return o, nil
}

// NewKey is a freshly issued API key with its secret, shown once.
type NewKey struct {
	Key    *radar.APIKey
	Secret string
}

// CreateKey issues an API key for an organisation. expires of zero means the key does not expire.
func (s *Service) CreateKey(ctx context.Context, orgID, name string, scopes []string, expires time.Duration) (*NewKey, error) {
	var p radar.Problems
	name = strings.TrimSpace(name)
	if p.Text("name", name, radar.SingleLine) && (name == "" || len([]rune(name)) > 100) {
		p.Add("name", "must be 1-100 characters")
	}
	if len(scopes) == 0 {
		p.Add("scopes", "must name at least one of "+strings.Join(radar.Scopes, ", "))
	}
	for i, sc := range scopes {
		if !slices.Contains(radar.Scopes, sc) {
			p.Addf(fmt.Sprintf("scopes[%d]", i), "unknown scope %q; use %s", sc, strings.Join(radar.Scopes, ", "))
		}
	}
	if expires < 0 {
		p.Add("expires", "must be positive")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	org, err := s.store.Org(ctx, orgID)
	if err != nil {
		return nil, err
	}
	id := randomB32(keyIDLen)
	secret := randomB32(keySecretLen)
	secret += keyCheck(secret)
	hash := hashSecret(secret)
	now := s.nowTime()
	k := &radar.APIKey{
		ID: id, OrgID: orgID, OrgSlug: org.Slug, Name: name, Scopes: slices.Compact(slices.Sorted(slices.Values(scopes))),
		SecretHash: hash[:], CreatedAt: now,
	}
	if expires > 0 {
		t := radar.NewTime(now.Add(expires))
		k.ExpiresAt = &t
	}
	if err := s.store.CreateAPIKey(ctx, k); err != nil {
		return nil, err
	}
	return &NewKey{Key: k, Secret: keyPrefix + id + "_" + secret}, nil
}

// Keys lists an organisation's keys, never their secrets.
func (s *Service) Keys(ctx context.Context, orgID string) ([]*radar.APIKey, error) {
	return s.store.APIKeys(ctx, orgID)
}

// RevokeKey revokes a key of the organisation at once.
func (s *Service) RevokeKey(ctx context.Context, orgID, id string) error {
	return s.store.RevokeAPIKey(ctx, orgID, id, s.nowTime())
}

// RevokeKeyByID revokes a key of any organisation (the operator's command line).
func (s *Service) RevokeKeyByID(ctx context.Context, id string) error {
	k, err := s.store.APIKey(ctx, id)
	if err != nil {
		return err
	}
	return s.store.RevokeAPIKey(ctx, k.OrgID, id, s.nowTime())
}

func unauthorized(msg string) error { return radar.Errorf(radar.EUnauthorized, "%s", msg) }

// touchEvery bounds how often a key's last-used time is written.
const touchEvery = time.Minute

// Credential is the key an Authorization header carries, read once for the several checks of a request.
type Credential struct {
	id   string
	hash [sha256.Size]byte
	err  error
}

// ReadCredential reads the key of an Authorization header. A header that carries none, or a key of the wrong
// form or check, gives a Credential that every check refuses.
func ReadCredential(header string) Credential {
	if header == "" {
		return Credential{err: unauthorized("missing API key: send Authorization: Bearer <key>")}
	}
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return Credential{err: unauthorized("malformed Authorization header: want Bearer <key>")}
	}
	id, secret, ok := parseKey(strings.TrimSpace(token))
	if !ok || !checked(secret) {
		return Credential{err: unauthorized("malformed API key")}
	}
	return Credential{id: id, hash: hashSecret(secret)}
}

// opens reports whether c's secret is that of k.
func (c *Credential) opens(k *radar.APIKey) bool {
	return subtle.ConstantTimeCompare(k.SecretHash, c.hash[:]) == 1
}

// Authenticate resolves a credential to its key's principal. Missing, malformed, unknown, revoked and expired
// keys are unauthorized.
func (s *Service) Authenticate(ctx context.Context, c Credential) (*radar.Principal, error) {
	if c.err != nil {
		return nil, c.err
	}
	k, err := s.store.APIKey(ctx, c.id)
	if errors.Is(err, radar.ErrNotFound) {
		return nil, unauthorized("unknown API key")
	}
	if err != nil {
		return nil, err
	}
	if !c.opens(k) {
		return nil, unauthorized("unknown API key")
	}
	now := s.now()
	if k.RevokedAt != nil {
		return nil, unauthorized("API key revoked")
	}
	if k.ExpiresAt != nil && !now.Before(k.ExpiresAt.Time) {
		return nil, unauthorized("API key expired")
	}
	s.touch(ctx, k.ID, now)
	return &radar.Principal{OrgID: k.OrgID, OrgSlug: k.OrgSlug, OrgName: k.OrgName, KeyID: k.ID, KeyName: k.Name, Scopes: k.Scopes,
		Changes: k.Changes}, nil
}

// VerifiedKey returns the id of c's key when the store keeps that key from an earlier read, c's secret is the
// key's and the key has not expired. Only its revocation is then unknown, so a caller may start work for the key,
// such as counting its rate, while Authenticate reads it; ok is false otherwise.
func (s *Service) VerifiedKey(c Credential) (id string, ok bool) {
	if c.err != nil {
		return "", false
	}
	k := s.store.KeptAPIKey(c.id)
	if k == nil || !c.opens(k) || k.ExpiresAt != nil && !s.now().Before(k.ExpiresAt.Time) {
		return "", false
	}
	return c.id, true
}

// touch records the key's use at most once per touchEvery per process. Every request passes here: the time of
// each key's last record is read without a lock, and one request of the many arriving together records it.
func (s *Service) touch(ctx context.Context, id string, now time.Time) {
	v, ok := s.touched.Load(id)
	if !ok {
		v, _ = s.touched.LoadOrStore(id, new(atomic.Int64))
	}
	last := v.(*atomic.Int64)
	prev := last.Load()
	if prev != 0 && now.Sub(time.Unix(0, prev)) < touchEvery {
		return
	}
	if !last.CompareAndSwap(prev, now.UnixNano()) {
		return
	}
	if err := s.store.TouchAPIKey(ctx, id, radar.NewTime(now)); err != nil {
		s.logger.Warn("record API key use", "key", id, "err", err)
	}
}
