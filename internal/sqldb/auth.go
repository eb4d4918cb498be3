package sqldb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"radar"
)

// CreateOrg inserts an organisation; a taken slug is a conflict.
func (db *DB) CreateOrg(ctx context.Context, o *radar.Org) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `INSERT INTO orgs (id, slug, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (slug) DO NOTHING`,
			o.ID, o.Slug, o.Name, o.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: create org: %w", err)
		}
		if n == 0 {
			return radar.Errorf(radar.EConflict, "an organisation with slug %q exists already", o.Slug)
		}
		_, err = q.Exec(ctx, `INSERT INTO org_versions (org_id, version) VALUES ($1, 0)`, o.ID)
		return err
	})
}

// OrgBySlug finds an organisation by slug.
func (db *DB) OrgBySlug(ctx context.Context, slug string) (*radar.Org, error) {
	return db.org(ctx, "slug", slug)
}

// Orgs lists every organisation, by slug.
func (db *DB) Orgs(ctx context.Context) ([]*radar.Org, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT id, slug, name, created_at FROM orgs ORDER BY slug`)
	if err != nil {
		return nil, fmt.Errorf("sqldb: orgs: %w", err)
	}
	defer rs.Close()
	var out []*radar.Org
	for rs.Next() {
		var (
			o       radar.Org
			created int64
		)
		if err := rs.Scan(&o.ID, &o.Slug, &o.Name, &created); err != nil {
			return nil, fmt.Errorf("sqldb: orgs: %w", err)
		}
		o.CreatedAt = radar.TimeFromMicros(created)
		out = append(out, &o)
	}
	return out, rs.Err()
}

// OrgUser is a web UI user with the slug of its organisation.
type OrgUser struct {
	Email, OrgSlug, Role string
}

// Users lists the web UI users of the organisation orgID, or of every organisation when orgID is empty, by
// organisation slug and e-mail.
func (db *DB) Users(ctx context.Context, orgID string) ([]OrgUser, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT u.email, o.slug, u.role FROM users u JOIN orgs o ON o.id = u.org_id
		WHERE $1 = '' OR u.org_id = $1 ORDER BY o.slug, u.email`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: users: %w", err)
	}
	defer rs.Close()
	var out []OrgUser
	for rs.Next() {
		var u OrgUser
		if err := rs.Scan(&u.Email, &u.OrgSlug, &u.Role); err != nil {
			return nil, fmt.Errorf("sqldb: users: %w", err)
		}
		out = append(out, u)
	}
	return out, rs.Err()
}

// Org finds an organisation by id.
func (db *DB) Org(ctx context.Context, id string) (*radar.Org, error) {
	return db.org(ctx, "id", id)
}

func (db *DB) org(ctx context.Context, col, v string) (*radar.Org, error) {
	var (
		o       radar.Org
		created int64
	)
	err := db.eng.reader().QueryRow(ctx, `SELECT id, slug, name, created_at FROM orgs WHERE `+col+` = $1`, v).
		Scan(&o.ID, &o.Slug, &o.Name, &created)
	if isNoRows(err) {
		return nil, radar.Errorf(radar.ENotFound, "organisation %q not found", v)
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: org: %w", err)
	}
	o.CreatedAt = radar.TimeFromMicros(created)
	return &o, nil
}

// CreateAPIKey inserts a key.
func (db *DB) CreateAPIKey(ctx context.Context, k *radar.APIKey) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `INSERT INTO api_keys (id, org_id, name, scopes, secret_hash, expires_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			k.ID, k.OrgID, k.Name, strings.Join(k.Scopes, ","), k.SecretHash, nullMicros(k.ExpiresAt), k.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: create api key: %w", err)
		}
		return nil
	})
}

const keyColumns = `k.id, k.org_id, o.slug, o.name, k.name, k.scopes, k.secret_hash, k.expires_at, k.revoked_at, k.last_used_at, k.created_at`

func scanKey(r row) (*radar.APIKey, error) { return scanKeyWith(r, nil) }

// scanKeyWith reads a row of keyColumns, followed by the organisation's change count when changes is not nil.
// Every request authenticates with it: it scans into plain values, without allocating for empty times.
func scanKeyWith(r row, changes *int64) (*radar.APIKey, error) {
	var (
		k                      radar.APIKey
		scopes                 string
		expires, revoked, used *int64
		created                int64
		err                    error
	)
	if changes == nil {
		err = r.Scan(&k.ID, &k.OrgID, &k.OrgSlug, &k.OrgName, &k.Name, &scopes, &k.SecretHash, &expires, &revoked, &used, &created)
	} else {
		err = r.Scan(&k.ID, &k.OrgID, &k.OrgSlug, &k.OrgName, &k.Name, &scopes, &k.SecretHash, &expires, &revoked, &used, &created, changes)
	}
	if err != nil {
		return nil, err
	}
	if scopes != "" {
		k.Scopes = strings.Split(scopes, ",")
	}
	k.ExpiresAt, k.RevokedAt, k.LastUsedAt = microsPtr(expires), microsPtr(revoked), microsPtr(used)
	k.CreatedAt = radar.TimeFromMicros(created)
	if changes != nil {
		k.Changes = *changes
	}
	return &k, nil
}

func microsPtr(n *int64) *radar.Time {
	if n == nil {
		return nil
	}
	t := radar.TimeFromMicros(*n)
	return &t
}

// keyRead reads keys with their organisation's change count, for authentication.
const keyRead = `SELECT ` + keyColumns + `,
	(SELECT CAST(COALESCE(SUM(c.n), 0) AS BIGINT) FROM org_changes c WHERE c.org_id = k.org_id)
	FROM api_keys k JOIN orgs o ON o.id = k.org_id WHERE `

func scanKeyChanges(r row) (*radar.APIKey, error) {
	var changes int64
	return scanKeyWith(r, &changes)
}

// keyState is what authentication reads of a key that may change once it is issued, its revocation, with its
// organisation's change count: the rest (organisation, name, scopes, secret hash, expiry) is written once, by
// CreateAPIKey, and kept in the process (keyCache).
type keyState struct {
	id      string
	revoked *int64
	changes int64
}

// maxCachedKeys bounds the keys a process keeps; past it the cache starts over.
const maxCachedKeys = 10000

// keyCache keeps the columns of API keys that never change once a key is inserted, with those of its
// organisation (id, slug, name), so that authenticating a request reads only the key's revocation, last use
// and change count: a revocation, by any process, shows in the very next request. Only keys found are kept.
type keyCache struct {
	mu   sync.RWMutex
	keys map[string]*radar.APIKey
}

func (c *keyCache) get(id string) *radar.APIKey {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.keys[id]
}

// put keeps k without its changing columns.
func (c *keyCache) put(k *radar.APIKey) {
	base := *k
	base.RevokedAt, base.LastUsedAt, base.Changes = nil, nil, 0
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys == nil || len(c.keys) >= maxCachedKeys {
		c.keys = map[string]*radar.APIKey{}
	}
	c.keys[k.ID] = &base
}

func (c *keyCache) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.keys, id)
}

// with returns a copy of the kept key base with the changing columns s.
func (s keyState) with(base *radar.APIKey) *radar.APIKey {
	k := *base
	k.RevokedAt, k.Changes = microsPtr(s.revoked), s.changes
	return &k
}

// APIKey finds a key of any organisation, with the organisation's change count and without its last use (APIKeys
// lists that). Every request reads its key, so the reads of concurrent requests go out together, in one query; a
// key read before is read again only for its revocation and change count, and on SQLite only once a commit has
// changed one (keptStates).
func (db *DB) APIKey(ctx context.Context, id string) (*radar.APIKey, error) {
	k, err := db.keys.Do(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("sqldb: api key: %w", err)
	}
	if k == nil {
		return nil, radar.ErrNotFound
	}
	return k, nil
}

// KeptAPIKey returns the columns kept of the key id since it was read, or nil. The key is shared: not to be changed.
func (db *DB) KeptAPIKey(id string) *radar.APIKey {
	return db.keyCache.get(id)
}

// apiKeys reads the keys ids in one query on q; a key not found is nil. When every key is kept in keyCache,
// only their changing columns are read.
func (db *DB) apiKeys(ctx context.Context, q querier, ids []string) ([]*radar.APIKey, error) {
	bases := make([]*radar.APIKey, len(ids))
	all := true
	for i, id := range ids {
		if bases[i] = db.keyCache.get(id); bases[i] == nil {
			all = false
		}
	}
	if all {
		if db.eng.name() == SQLite {
			return db.keptStates(ctx, q, ids, bases)
		}
		return db.keyStates(ctx, q, ids, bases)
	}
	rs, err := q.Query(ctx, db.keysRead, listArg(db.eng.name(), ids))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	byID := make(map[string]*radar.APIKey, len(ids))
	for rs.Next() {
		k, err := scanKeyChanges(rs)
		if err != nil {
			return nil, err
		}
		k.LastUsedAt = nil // as in the later reads of the key, which do not read it
		byID[k.ID] = k
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	for _, k := range byID {
		db.keyCache.put(k)
	}
	// Each caller gets a key of its own: a key asked twice in the batch is copied for the second caller.
	out := make([]*radar.APIKey, len(ids))
	for i, id := range ids {
		k := byID[id]
		if k == nil {
			continue
		}
		if slices.Contains(ids[:i], id) {
			c := *k
			k = &c
		}
		out[i] = k
	}
	return out, nil
}

// keyStatesSQL reads the changing columns of the keys $1 and the change counts of their organisations $2, in one
// statement: a row of kind 'k' per key found, and one of kind 'o' per organisation that has counted a change; on
// SQLite also the row of kind 'e' of auth_epoch's count, read in the same snapshot (see keptStates).
// Summing each organisation's count once, not once per key, halves the server's work on a batch.
func keyStatesSQL(engine string) string {
	s := `SELECT 'k', id, revoked_at, CAST(NULL AS BIGINT) FROM api_keys WHERE ` + inList(engine, "id", 1) + `
	UNION ALL
	SELECT 'o', org_id, NULL, CAST(SUM(n) AS BIGINT) FROM org_changes WHERE ` + inList(engine, "org_id", 2) + ` GROUP BY org_id`
	if engine == SQLite {
		s += `
	UNION ALL
	SELECT 'e', '', NULL, n FROM auth_epoch`
	}
	return s
}

// authEpochSQL reads the count of the commits that changed a key's state or an organisation's change count.
const authEpochSQL = `SELECT n FROM auth_epoch WHERE id = 1`

// keptStates is keyStates on SQLite, where the keys' states read at one count of auth_epoch hold until the count
// moves (every commit that changes one moves it): a batch whose keys were read at the current count reads only the
// count, a single row, and not its keys' and organisations' rows.
func (db *DB) keptStates(ctx context.Context, q querier, ids []string, bases []*radar.APIKey) ([]*radar.APIKey, error) {
	var epoch int64
	if err := q.QueryRow(ctx, authEpochSQL).Scan(&epoch); err != nil {
		return nil, err
	}
	if out := db.stateCache.get(epoch, ids, bases); out != nil {
		return out, nil
	}
	return db.keyStates(ctx, q, ids, bases)
}

// keyStates reads the changing columns of the keys ids, whose other columns are bases; a key not found is nil,
// and dropped.
func (db *DB) keyStates(ctx context.Context, q querier, ids []string, bases []*radar.APIKey) ([]*radar.APIKey, error) {
	orgs := make([]string, 0, 1)
	for _, b := range bases {
		if !slices.Contains(orgs, b.OrgID) {
			orgs = append(orgs, b.OrgID)
		}
	}
	engine := db.eng.name()
	rs, err := q.Query(ctx, db.keyStatesRead, listArg(engine, ids), listArg(engine, orgs))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	states := make(map[string]keyState, len(ids))
	changes := make(map[string]int64, len(orgs))
	epoch := int64(-1)
	for rs.Next() {
		var (
			kind string
			s    keyState
			n    *int64
		)
		if err := rs.Scan(&kind, &s.id, &s.revoked, &n); err != nil {
			return nil, err
		}
		switch kind {
		case "o":
			changes[s.id] = *n
		case "e":
			epoch = *n
		default:
			states[s.id] = s
		}
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	out := make([]*radar.APIKey, len(ids))
	for i, id := range ids {
		s, ok := states[id]
		if !ok {
			db.keyCache.drop(id)
			continue
		}
		s.changes = changes[bases[i].OrgID]
		states[id] = s
		out[i] = s.with(bases[i])
	}
	if epoch >= 0 {
		db.stateCache.put(epoch, states)
	}
	return out, nil
}

// stateCache keeps, on SQLite, the states of the keys read at one count of auth_epoch (see keptStates).
type stateCache struct {
	mu     sync.Mutex
	epoch  int64
	states map[string]keyState
}

// get returns the keys ids with the states kept at epoch, whose other columns are bases; nil unless every one of
// them was read at epoch.
func (c *stateCache) get(epoch int64, ids []string, bases []*radar.APIKey) []*radar.APIKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch {
		return nil
	}
	out := make([]*radar.APIKey, len(ids))
	for i, id := range ids {
		s, ok := c.states[id]
		if !ok {
			return nil
		}
		out[i] = s.with(bases[i])
	}
	return out
}

// put keeps states, read at epoch; the states of an earlier count are dropped.
func (c *stateCache) put(epoch int64, states map[string]keyState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch < c.epoch {
		return
	}
	if epoch > c.epoch || c.states == nil || len(c.states) >= maxCachedKeys {
		c.epoch, c.states = epoch, make(map[string]keyState, len(states))
	}
	for id, s := range states {
		c.states[id] = s
	}
}

// APIKeys lists an organisation's keys, oldest first.
func (db *DB) APIKeys(ctx context.Context, orgID string) ([]*radar.APIKey, error) {
	rs, err := db.eng.reader().Query(ctx, `SELECT `+keyColumns+` FROM api_keys k JOIN orgs o ON o.id = k.org_id WHERE k.org_id = $1 ORDER BY k.created_at, k.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqldb: api keys: %w", err)
	}
	defer rs.Close()
	var out []*radar.APIKey
	for rs.Next() {
		k, err := scanKey(rs)
		if err != nil {
			return nil, fmt.Errorf("sqldb: api keys: %w", err)
		}
		out = append(out, k)
	}
	return out, rs.Err()
}

// RevokeAPIKey revokes a key of orgID; revoking twice keeps the first time.
func (db *DB) RevokeAPIKey(ctx context.Context, orgID, id string, at radar.Time) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND org_id = $3`, at.Micros(), id, orgID)
		if err != nil {
			return fmt.Errorf("sqldb: revoke api key: %w", err)
		}
		if n == 0 {
			return radar.ErrNotFound
		}
		return nil
	})
}

// TouchAPIKey records the last use of a key. The uses recorded at the same moment, such as the first requests of
// many keys after a start, are written together: one transaction and one commit for all of them.
func (db *DB) TouchAPIKey(ctx context.Context, id string, at radar.Time) error {
	if _, err := db.uses.Do(ctx, keyUse{id, at.Micros()}); err != nil {
		return fmt.Errorf("sqldb: record key use: %w", err)
	}
	return nil
}

// keyUse is a key's use to record.
type keyUse struct {
	id string
	at int64
}

func (db *DB) touchKeys(ctx context.Context, uses []keyUse) ([]struct{}, error) {
	stmts := make([]stmt, len(uses))
	for i, u := range uses {
		stmts[i] = stmt{`UPDATE api_keys SET last_used_at = $1 WHERE id = $2`, []any{u.at, u.id}}
	}
	return make([]struct{}, len(uses)), db.eng.execBatch(ctx, stmts)
}

// CreateUser inserts a web user; a taken e-mail is a conflict.
func (db *DB) CreateUser(ctx context.Context, u *radar.User) error {
	return db.tx(ctx, func(q querier, _ any) error {
		n, err := q.Exec(ctx, `INSERT INTO users (id, org_id, email, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (email) DO NOTHING`, u.ID, u.OrgID, u.Email, u.PasswordHash, u.Role, u.CreatedAt.Micros())
		if err != nil {
			return fmt.Errorf("sqldb: create user: %w", err)
		}
		if n == 0 {
			return radar.Errorf(radar.EConflict, "a user with e-mail %q exists already", u.Email)
		}
		return nil
	})
}

// UserByEmail finds a user by e-mail.
func (db *DB) UserByEmail(ctx context.Context, email string) (*radar.User, error) {
	return db.user(ctx, "email", email)
}

// User finds a user by id.
func (db *DB) User(ctx context.Context, id string) (*radar.User, error) {
	return db.user(ctx, "id", id)
}

func (db *DB) user(ctx context.Context, col, v string) (*radar.User, error) {
	var (
		u       radar.User
		created int64
	)
	err := db.eng.reader().QueryRow(ctx, `SELECT id, org_id, email, password_hash, role, created_at FROM users WHERE `+col+` = $1`, v).
		Scan(&u.ID, &u.OrgID, &u.Email, &u.PasswordHash, &u.Role, &created)
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: user: %w", err)
	}
	u.CreatedAt = radar.TimeFromMicros(created)
	return &u, nil
}

// CreateSession inserts a session.
func (db *DB) CreateSession(ctx context.Context, s *radar.Session) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, org_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
			s.TokenHash, s.UserID, s.OrgID, s.ExpiresAt.Micros(), s.CreatedAt.Micros())
		return err
	})
}

// SessionByHash finds a session by the hash of its token.
func (db *DB) SessionByHash(ctx context.Context, hash []byte) (*radar.Session, error) {
	var (
		s                radar.Session
		expires, created int64
	)
	err := db.eng.reader().QueryRow(ctx, `SELECT token_hash, user_id, org_id, expires_at, created_at FROM sessions WHERE token_hash = $1`, hash).
		Scan(&s.TokenHash, &s.UserID, &s.OrgID, &expires, &created)
	if isNoRows(err) {
		return nil, radar.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqldb: session: %w", err)
	}
	s.ExpiresAt, s.CreatedAt = radar.TimeFromMicros(expires), radar.TimeFromMicros(created)
	return &s, nil
}

// DeleteSession removes a session.
func (db *DB) DeleteSession(ctx context.Context, hash []byte) error {
	return db.tx(ctx, func(q querier, _ any) error {
		_, err := q.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, hash)
		return err
	})
}

// Setting reads a stored setting.
func (db *DB) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := db.eng.reader().QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&v)
	if isNoRows(err) {
		return "", radar.ErrNotFound
	}
	return v, err
}

// SetSettingOnce stores value unless a value is stored; it returns the stored one.
func (db *DB) SetSettingOnce(ctx context.Context, name, value string) (string, error) {
	var stored string
	err := db.tx(ctx, func(q querier, _ any) error {
		if _, err := q.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
			return err
		}
		return q.QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&stored)
	})
	if err != nil {
		return "", fmt.Errorf("sqldb: setting: %w", err)
	}
	return stored, nil
}
