package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the command in-process against the database at dbURL.
func run(t *testing.T, dbURL, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{
		Args:   args,
		Getenv: func(k string) string { return map[string]string{"RADAR_DATABASE_URL": dbURL}[k] },
		Stdin:  strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
	}
	err := m.Run(context.Background())
	return out.String(), errOut.String(), err
}

func TestAdministrativeCommands(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	if out, _, err := run(t, db, "", "migrate"); err != nil || !strings.Contains(out, "migrations applied") {
		t.Fatalf("migrate: %q %v", out, err)
	}
	orgID, _, err := run(t, db, "", "orgs", "create", "acme", "--name", "Acme Ventures")
	if err != nil || len(strings.TrimSpace(orgID)) != 36 {
		t.Fatalf("orgs create: %q %v", orgID, err)
	}
	if _, _, err := run(t, db, "", "orgs", "create", "acme"); err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("duplicate slug: %v", err)
	}

	out, _, err := run(t, db, "", "keys", "create", "--org", "acme", "--name", "bot", "--scopes", "tracker:read,leads:read", "--expires", "90d", "--json")
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	var k struct {
		ID, Key, Org, Name string
		Scopes             []string
		ExpiresAt          *string
	}
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatalf("keys create --json printed %q: %v", out, err)
	}
	if !strings.HasPrefix(k.Key, "rdr_"+k.ID+"_") || k.Org != "acme" || k.Name != "bot" || len(k.Scopes) != 2 || k.ExpiresAt == nil {
		t.Errorf("keys create --json: %+v", k)
	}
	plain, notice, err := run(t, db, "", "keys", "create", "--org", "acme", "--name", "plain", "--scopes", "tracker:write")
	if err != nil || !strings.HasPrefix(plain, "rdr_") || !strings.Contains(notice, "shown only once") {
		t.Errorf("keys create: %q %q %v", plain, notice, err)
	}

	list, _, err := run(t, db, "", "keys", "list", "--org", "acme")
	if err != nil || !strings.Contains(list, k.ID) || !strings.Contains(list, "active") || strings.Contains(list, k.Key) {
		t.Errorf("keys list: %q %v", list, err)
	}
	if _, _, err := run(t, db, "", "keys", "revoke", k.ID); err != nil {
		t.Errorf("keys revoke: %v", err)
	}
	if list, _, _ := run(t, db, "", "keys", "list", "--org", "acme"); !strings.Contains(list, "revoked") {
		t.Errorf("keys list after revoke: %q", list)
	}
	if _, _, err := run(t, db, "", "keys", "revoke", "nosuchkey123"); err == nil || !strings.Contains(err.Error(), "no API key") {
		t.Errorf("revoke unknown key: %v", err)
	}

	if out, _, err := run(t, db, "a long enough password\n", "users", "create", "--org", "acme", "--email", "ana@acme.example", "--password-stdin"); err != nil || len(strings.TrimSpace(out)) != 36 {
		t.Errorf("users create: %q %v", out, err)
	}
	if _, _, err := run(t, db, "short\n", "users", "create", "--org", "acme", "--email", "ben@acme.example", "--password-stdin"); exitCode(err) != 2 || !strings.Contains(err.Error(), "password") {
		t.Errorf("short password: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	run(t, db, "", "orgs", "create", "acme")
	cases := map[string]struct {
		args []string
		want string
		code int
	}{
		"no command":      {nil, "usage:", 2},
		"unknown command": {[]string{"launch"}, `unknown command "launch"`, 2},
		"unknown flag":    {[]string{"serve", "--colour"}, "flag provided but not defined", 2},
		"missing scopes":  {[]string{"keys", "create", "--org", "acme", "--name", "x"}, "usage: radar keys create", 2},
		"unknown scope":   {[]string{"keys", "create", "--org", "acme", "--name", "x", "--scopes", "admin"}, `unknown scope "admin"`, 2},
		"bad expiry":      {[]string{"keys", "create", "--org", "acme", "--name", "x", "--scopes", "tracker:read", "--expires", "soon"}, "--expires", 2},
		"unknown org":     {[]string{"keys", "list", "--org", "nobody"}, `organisation "nobody" not found`, 1},
		"bad slug":        {[]string{"orgs", "create", "Not A Slug"}, "slug:", 2},
		"no password":     {[]string{"users", "create", "--org", "acme", "--email", "a@b.example"}, "--password-stdin", 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := run(t, db, "", tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != tc.code {
				t.Errorf("err = %v (exit %d), want %q with exit %d", err, exitCode(err), tc.want, tc.code)
			}
			var u usageError
			if tc.code == 2 && !errors.As(err, &u) {
				t.Errorf("a usage error was expected, got %T", err)
			}
		})
	}
}
