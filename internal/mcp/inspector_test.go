package mcp

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"testing"
	"time"

	"radar"
	"radar/internal/sqldb"
)

// inspector is the MCP Inspector release the black-box test runs. It is pinned: without a version npx picks
// the newest release whose declared Node engine fits the installed Node, which on Node 20 is one whose command
// line cannot send headers.
const inspector = "@modelcontextprotocol/inspector@2.12.0"

// TestInspectorListsTools runs the MCP Inspector's command line against a real server on a loopback port, as
// an agent developer would, and expects the 15 tools. Its first run downloads the Inspector.
func TestInspectorListsTools(t *testing.T) {
	t.Parallel()
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skipf("npx is not installed, so the MCP Inspector cannot run: %v", err)
	}
	e := startEnv(t, sqldb.SQLite, envOptions{})
	key := e.key(t, e.org(t, "acme"), radar.Scopes...)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npx, "-y", inspector, "--cli", e.srv.URL+Path,
		"--transport", "http", "--header", "Authorization: Bearer "+key, "--method", "tools/list")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if x, ok := err.(*exec.ExitError); ok {
			stderr = x.Stderr
		}
		t.Fatalf("inspector: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	var res struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspector output is not a tools/list result: %v\n%s", err, out)
	}
	var got, want []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
	}
	for name := range specTable() {
		want = append(want, name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("inspector lists %v, want %v", got, want)
	}
}
