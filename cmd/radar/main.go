// Command radar runs the Radar company-tracking service and administers it.
//
//	radar serve | migrate | demo | config
//	radar orgs create SLUG [--name NAME] | radar orgs list
//	radar keys create --org SLUG --name NAME --scopes LIST [--expires DURATION] [--json]
//	radar keys list --org SLUG | radar keys revoke KEY_ID
//	radar users create --org SLUG --email EMAIL --password-stdin | radar users list [--org SLUG]
//
// Every command and subcommand explains itself with -h or --help.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"radar"
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

// command is one command or subcommand of radar.
type command struct {
	name    string // "keys create"
	args    string // what follows the name in a usage line
	summary string
	example string
	run     func(m *Main, ctx context.Context, args []string) error
}

// commands lists every command in the order of the usage text (set in init: the commands' help refers to it).
var commands []command

func init() {
	commands = []command{
		{"serve", "[flags]", "Runs everything in one process: the REST API, the MCP endpoint, the web UI, the background workers and the\n" +
			"cadence scheduler. Applies pending migrations on start and stops gracefully on SIGTERM or SIGINT.",
			"RADAR_DATABASE_URL=sqlite:/var/lib/radar/radar.db radar serve --addr 0.0.0.0:8080", (*Main).serve},
		{"migrate", "[flags]", "Applies pending database migrations, names each one applied (or says that none were pending), and exits.",
			"radar migrate --database-url postgres://radar@db.internal:5432/radar", (*Main).migrate},
		{"demo", "[--data DIR] [--keep] [--step 15s] [--runs-every 1m] [--companies 7] [flags]",
			"Runs the whole product with nothing else needed: an embedded database in a data folder, a demo organisation\n" +
				"with a user and an API key, and a simulated web of companies whose news changes over time. Prints the web UI\n" +
				"address, the sign-in and the API key.",
			"radar demo --addr 127.0.0.1:9090", (*Main).demo},
		{"config", "[flags]", "Prints the configuration that the other commands would use, one NAME=value a line, passwords and tokens masked.",
			"RADAR_SMTP_URL=smtp://mailer:secret@smtp.example:587 radar config", (*Main).config},
		{"orgs create", "SLUG [--name NAME] [flags]", "Creates an organisation and prints its id.",
			`radar orgs create acme --name "Acme Ventures"`, (*Main).orgsCreate},
		{"orgs list", "[flags]", "Lists the organisations, one a line: slug, name and id, separated by tabs.",
			"radar orgs list", (*Main).orgsList},
		{"keys create", "--org SLUG --name NAME --scopes LIST [--expires DURATION] [--json] [flags]",
			"Issues an API key of the organisation and prints its secret, which is shown only this once. LIST is\n" +
				"comma-separated scopes: " + strings.Join(radar.Scopes, ", ") + ". With --json it\n" +
				`prints one JSON object {"id","key","org","name","scopes","expiresAt"}.`,
			"radar keys create --org acme --name my-script --scopes tracker:read,tracker:write --expires 90d", (*Main).keysCreate},
		{"keys list", "--org SLUG [flags]", "Lists the organisation's API keys (never their secrets) with their state.",
			"radar keys list --org acme", (*Main).keysList},
		{"keys revoke", "KEY_ID [flags]", "Revokes an API key at once: its next request is refused.",
			"radar keys revoke 3kq9x7ud2m5p", (*Main).keysRevoke},
		{"users create", "--org SLUG --email EMAIL --password-stdin [--role owner|member] [flags]",
			"Creates a web UI user of the organisation; the password is read from standard input.",
			"echo 'a long passphrase' | radar users create --org acme --email you@acme.example --password-stdin", (*Main).usersCreate},
		{"users list", "[--org SLUG] [flags]", "Lists the web UI users, one a line: e-mail and organisation slug, separated by a tab.",
			"radar users list --org acme", (*Main).usersList},
	}
}

// lookup finds the command named by the first words of args and returns it with the remaining arguments.
func lookup(args []string) (*command, []string) {
	for i := range commands {
		c := &commands[i]
		words := strings.Fields(c.name)
		if len(args) >= len(words) && slices.Equal(args[:len(words)], words) {
			return c, args[len(words):]
		}
	}
	return nil, args
}

// isHelp tells whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

// usage lists the commands whose names start with prefix (all when it is empty).
func usage(prefix string) string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		if prefix == "" || strings.HasPrefix(c.name, prefix+" ") {
			fmt.Fprintf(&b, "  %s\n", strings.TrimSpace("radar "+c.name+" "+strings.TrimSuffix(c.args, "[flags]")))
		}
	}
	if prefix == "" {
		b.WriteString("\nRun radar COMMAND --help for a command's flags and an example. Configuration comes from RADAR_*\n" +
			"variables; a flag of the same name (e.g. --addr for RADAR_ADDR) overrides each.\n\nexample:\n  radar demo")
	} else {
		fmt.Fprintf(&b, "\nRun radar %s SUBCOMMAND --help for its flags and an example.\n\nexample:\n", prefix)
		for _, c := range commands {
			if strings.HasPrefix(c.name, prefix+" ") {
				fmt.Fprintf(&b, "  %s\n", c.example)
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// groups are the commands that only hold subcommands.
var groups = []string{"orgs", "keys", "users"}

// Run executes the command.
func (m *Main) Run(ctx context.Context) error {
	if len(m.Args) == 0 {
		return usagef("no command given\n%s", usage(""))
	}
	if isHelp(m.Args[0]) {
		if len(m.Args) > 1 {
			// radar help COMMAND is radar COMMAND --help.
			return (&Main{Args: append(slices.Clone(m.Args[1:]), "--help"), Getenv: m.Getenv, Stdin: m.Stdin, Stdout: m.Stdout, Stderr: m.Stderr}).Run(ctx)
		}
		fmt.Fprintln(m.Stdout, usage(""))
		return nil
	}
	if c, rest := lookup(m.Args); c != nil {
		err := c.run(m, ctx, rest)
		if errors.Is(err, errHelpShown) {
			return nil
		}
		return err
	}
	if slices.Contains(groups, m.Args[0]) {
		group := m.Args[0]
		switch {
		case len(m.Args) > 1 && isHelp(m.Args[1]):
			fmt.Fprintln(m.Stdout, usage(group))
			return nil
		case len(m.Args) == 1:
			return usagef("%s needs a subcommand\n%s", group, usage(group))
		}
		return usagef("unknown command %q\n%s", group+" "+m.Args[1], usage(group))
	}
	return usagef("unknown command %q\n%s", m.Args[0], usage(""))
}
