// Command radar runs the Radar company-tracking service and administers it.
//
//	radar serve | migrate | demo
//	radar orgs create SLUG [--name NAME]
//	radar keys create --org SLUG --name NAME --scopes LIST [--expires DURATION] [--json]
//	radar keys list --org SLUG | radar keys revoke KEY_ID
//	radar users create --org SLUG --email EMAIL --password-stdin
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := &Main{Args: os.Args[1:], Getenv: os.Getenv, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if err := m.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "radar:", err)
		stop()
		os.Exit(exitCode(err))
	}
}

// Main is one invocation of the radar command; tests run it in-process.
type Main struct {
	Args   []string
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Ready, when set, receives the listening address once serve or demo is up.
	Ready chan<- string
}

// usageError is bad input on the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func exitCode(err error) int {
	if _, ok := err.(usageError); ok {
		return 2
	}
	return 1
}

const usage = `usage:
  radar serve                 run the API, MCP endpoint, web UI, workers and scheduler
  radar migrate               apply pending database migrations
  radar demo                  run a self-contained demo with a simulated web
  radar orgs create SLUG [--name NAME]
  radar keys create --org SLUG --name NAME --scopes LIST [--expires DURATION] [--json]
  radar keys list --org SLUG
  radar keys revoke KEY_ID
  radar users create --org SLUG --email EMAIL --password-stdin
  radar config                print the configuration, secrets masked
Configuration comes from RADAR_* variables; a flag of the same name (e.g. --addr) overrides each.`

// Run executes the command.
func (m *Main) Run(ctx context.Context) error {
	if len(m.Args) == 0 {
		return usagef("%s", usage)
	}
	cmd, rest := m.Args[0], m.Args[1:]
	sub := ""
	if len(rest) > 0 {
		sub = rest[0]
	}
	switch {
	case cmd == "serve":
		return m.serve(ctx, rest)
	case cmd == "migrate":
		return m.migrate(ctx, rest)
	case cmd == "demo":
		return m.demo(ctx, rest)
	case cmd == "config":
		return m.config(rest)
	case cmd == "orgs" && sub == "create":
		return m.orgsCreate(ctx, rest[1:])
	case cmd == "keys" && sub == "create":
		return m.keysCreate(ctx, rest[1:])
	case cmd == "keys" && sub == "list":
		return m.keysList(ctx, rest[1:])
	case cmd == "keys" && sub == "revoke":
		return m.keysRevoke(ctx, rest[1:])
	case cmd == "users" && sub == "create":
		return m.usersCreate(ctx, rest[1:])
	case cmd == "help" || cmd == "-h" || cmd == "--help":
		fmt.Fprintln(m.Stdout, usage)
		return nil
	}
	return usagef("unknown command %q\n%s", cmd, usage)
}
