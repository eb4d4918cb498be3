package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// run executes the command in-process against the database at dbURL.
func run(t *testing.T, dbURL, stdin string, args ...string) (string, string, error) {
	t.Helper()
	return runEnv(t, map[string]string{"RADAR_DATABASE_URL": dbURL}, stdin, args...)
}

// runEnv executes the command in-process with the environment env.
func runEnv(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{
		Args:   args,
		Getenv: func(k string) string { return env[k] },
		Stdin:  strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
	}
	err := m.Run(context.Background())
	return out.String(), errOut.String(), err
}

func TestAdministrativeCommands(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	if out, _, err := run(t, db, "", "migrate"); err != nil || !strings.HasPrefix(out, "applied 00001_init.sql\n") {
		t.Fatalf("migrate: %q %v", out, err)
	}
	if out, _, err := run(t, db, "", "migrate"); err != nil || out != "no migrations pending: the database is up to date\n" {
		t.Fatalf("migrate again: %q %v", out, err)
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
		"no command":         {nil, "usage:", 2},
		"unknown command":    {[]string{"launch"}, `unknown command "launch"`, 2},
		"unknown subcommand": {[]string{"keys", "rotate"}, `unknown command "keys rotate"`, 2},
		"group alone":        {[]string{"orgs"}, "orgs needs a subcommand", 2},
		"users of nobody":    {[]string{"users", "list", "--org", "nobody"}, `organisation "nobody" not found`, 1},
		"unknown flag":       {[]string{"serve", "--colour"}, "flag provided but not defined", 2},
		"missing scopes":     {[]string{"keys", "create", "--org", "acme", "--name", "x"}, "usage: radar keys create", 2},
		"unknown scope":      {[]string{"keys", "create", "--org", "acme", "--name", "x", "--scopes", "admin"}, `unknown scope "admin"`, 2},
		"bad expiry":         {[]string{"keys", "create", "--org", "acme", "--name", "x", "--scopes", "tracker:read", "--expires", "soon"}, "--expires", 2},
		"unknown org":        {[]string{"keys", "list", "--org", "nobody"}, `organisation "nobody" not found`, 1},
		"bad slug":           {[]string{"orgs", "create", "Not A Slug"}, "slug:", 2},
		"no password":        {[]string{"users", "create", "--org", "acme", "--email", "a@b.example"}, "--password-stdin", 2},
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

func TestListCommands(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	if out, _, err := run(t, db, "", "orgs", "list"); err != nil || out != "" {
		t.Errorf("orgs list of no organisations: %q %v", out, err)
	}
	acme, _, _ := run(t, db, "", "orgs", "create", "acme", "--name", "Acme Ventures")
	beta, _, _ := run(t, db, "", "orgs", "create", "beta")
	for _, u := range [][2]string{{"acme", "zoe@acme.example"}, {"acme", "ana@acme.example"}, {"beta", "bo@beta.example"}} {
		if _, _, err := run(t, db, "a long enough password\n", "users", "create", "--org", u[0], "--email", u[1], "--password-stdin"); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := run(t, db, "", "orgs", "list")
	want := "acme\tAcme Ventures\t" + strings.TrimSpace(acme) + "\nbeta\tbeta\t" + strings.TrimSpace(beta) + "\n"
	if err != nil || out != want {
		t.Errorf("orgs list = %q %v, want %q", out, err, want)
	}
	out, _, err = run(t, db, "", "users", "list")
	if want := "ana@acme.example\tacme\nzoe@acme.example\tacme\nbo@beta.example\tbeta\n"; err != nil || out != want {
		t.Errorf("users list = %q %v, want %q", out, err, want)
	}
	out, _, err = run(t, db, "", "users", "list", "--org", "beta")
	if want := "bo@beta.example\tbeta\n"; err != nil || out != want {
		t.Errorf("users list --org beta = %q %v, want %q", out, err, want)
	}
}

// TestHelp asks every command, subcommand and group for help in each way a user would.
func TestHelp(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "radar.db")
	type ask struct {
		args []string
		want []string
	}
	asks := []ask{
		{[]string{"--help"}, []string{"usage:", "radar serve", "radar users list [--org SLUG]", "example:"}},
		{[]string{"-h"}, []string{"usage:", "radar orgs list"}},
		{[]string{"help"}, []string{"usage:", "radar keys revoke KEY_ID"}},
		{[]string{"help", "keys", "create"}, []string{"usage: radar keys create", "--scopes", "example:"}},
	}
	for _, g := range groups {
		for _, h := range []string{"--help", "-h"} {
			asks = append(asks, ask{[]string{g, h}, []string{"usage:", "radar " + g + " create", "radar " + g + " list", "example:"}})
		}
	}
	flagged := map[string][]string{
		"demo":         {"--data string", "(default radar-demo)", "--runs-every duration", "(default 1m0s)", "--companies int", "(default 7)"},
		"orgs create":  {"--name string"},
		"keys create":  {"--org string", "--scopes string", "--expires string", "--json"},
		"keys list":    {"--org string"},
		"users create": {"--password-stdin", "--role string", "(default owner)"},
		"users list":   {"--org string"},
	}
	for _, c := range commands {
		words := strings.Fields(c.name)
		want := append([]string{"usage: radar " + c.name, "example:\n  ", c.example, "--database-url (RADAR_DATABASE_URL)",
			"(default sqlite:radar.db)", "--addr (RADAR_ADDR)"}, flagged[c.name]...)
		asks = append(asks, ask{append(slices.Clone(words), "--help"), want}, ask{append(slices.Clone(words), "-h"), want})
	}
	for _, a := range asks {
		t.Run(strings.Join(a.args, " "), func(t *testing.T) {
			// A broken environment does not keep help from showing, and no secret of it appears there.
			env := map[string]string{"RADAR_DATABASE_URL": db, "RADAR_SECRET": "short-secret", "RADAR_JOB_TIMEOUT": "soon"}
			out, errOut, err := runEnv(t, env, "", a.args...)
			if err != nil || errOut != "" {
				t.Fatalf("err %v (exit %d), stderr %q; want help on stdout and exit 0", err, exitCode(err), errOut)
			}
			for _, w := range a.want {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "short-secret") {
				t.Errorf("help shows the configured secret:\n%s", out)
			}
		})
	}
}

func TestConfigCommand(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runEnv(t, map[string]string{
		"RADAR_DATABASE_URL": "postgres://radar:hunter2@db.internal:5432/radar?sslmode=require",
		"RADAR_SMTP_URL":     "smtp://mailer:pa55@smtp.example:587?tls=starttls",
		"RADAR_GITHUB_TOKEN": "ghp_secret",
	}, "", "config")
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "pa55", "ghp_secret"} {
		if strings.Contains(out, secret) {
			t.Errorf("config shows %q:\n%s", secret, out)
		}
	}
	for _, shown := range []string{
		"RADAR_DATABASE_URL=postgres://radar:****@db.internal:5432/radar?sslmode=require\n",
		"RADAR_SMTP_URL=smtp://mailer:****@smtp.example:587?tls=starttls\n",
		"RADAR_GITHUB_TOKEN=****\n", "RADAR_ADDR=127.0.0.1:8080\n",
	} {
		if !strings.Contains(out, shown) {
			t.Errorf("config lacks %q:\n%s", shown, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("config made files: %v", entries)
	}
}

// TestBadConfiguration checks that bad configuration stops every command with exit status 2 and one line
// naming the variable, before anything is made on disk.
func TestBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "folder")
	cases := map[string]struct {
		env  map[string]string
		want string
	}{
		"sqlite without a path": {map[string]string{"RADAR_DATABASE_URL": "sqlite:"}, "RADAR_DATABASE_URL: sqlite: needs a file path"},
		"folder missing":        {map[string]string{"RADAR_DATABASE_URL": "sqlite:" + filepath.Join(missing, "radar.db")}, "does not exist"},
		"two problems":          {map[string]string{"RADAR_FETCH_ALLOW_PRIVATE": "maybe", "RADAR_REDIS_URL": "localhost:6379", "RADAR_DATABASE_URL": "sqlite:" + filepath.Join(dir, "r.db")}, `RADAR_FETCH_ALLOW_PRIVATE: want true or false, got "maybe"; RADAR_REDIS_URL: want redis://`},
		"unknown engine":        {map[string]string{"RADAR_DATABASE_URL": "mysql://db"}, "RADAR_DATABASE_URL: want sqlite:PATH or postgres://"},
	}
	for name, tc := range cases {
		for _, args := range [][]string{{"migrate"}, {"serve"}, {"orgs", "list"}, {"config"}} {
			t.Run(name+"/"+strings.Join(args, " "), func(t *testing.T) {
				_, _, err := runEnv(t, tc.env, "", args...)
				if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
					t.Errorf("err = %q (exit %d), want one line with %q and exit 2", err, exitCode(err), tc.want)
				}
			})
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("a folder that nobody asked for was made: %v", err)
	}
}
