// Package storetest opens isolated Radar databases on every engine for tests: SQLite always, PostgreSQL
// when RADAR_TEST_POSTGRES_URL is set.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"radar/internal/sqldb"
)

// PostgresEnv names the variable holding the PostgreSQL server used by tests.
const PostgresEnv = "RADAR_TEST_POSTGRES_URL"

// Engines lists the engines under test.
func Engines() []string {
	if os.Getenv(PostgresEnv) != "" {
		return []string{sqldb.SQLite, sqldb.Postgres}
	}
	return []string{sqldb.SQLite}
}

// Each runs fn once per engine, as a parallel subtest named after the engine.
func Each(t *testing.T, fn func(t *testing.T, engine string)) {
	t.Helper()
	for _, e := range Engines() {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			fn(t, e)
		})
	}
}

// URL returns the database URL of a fresh, empty, isolated database of engine: a file in a temporary
// folder, or a new PostgreSQL schema dropped when the test ends.
func URL(t testing.TB, engine string) string {
	t.Helper()
	if engine == sqldb.SQLite {
		return "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	}
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skipf("%s is not set", PostgresEnv)
	}
	b := make([]byte, 8)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", PostgresEnv, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Open opens a fresh, isolated, migrated store of engine, closed when the test ends.
func Open(t testing.TB, engine string) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(context.Background(), URL(t, engine), sqldb.Options{})
	if err != nil {
		t.Fatalf("open %s store: %v", engine, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
