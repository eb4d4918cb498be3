// Package config reads Radar's configuration: every option in one table with its variable, flag, default,
// validation and whether it is secret.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Config is Radar's configuration.
type Config struct {
	Addr        string
	BaseURL     string
	DatabaseURL string
	RedisURL    string
	// DebugAddr, when set, serves net/http/pprof on its own listener.
	DebugAddr         string
	SMTPURL           string
	MailFrom          string
	FetchAllowPrivate bool
	NewsFeedURL       string
	GitHubAPIURL      string
	GitHubToken       string
	LLMURL            string
	LLMModel          string
	LLMAPIKey         string
	Secret            string
	JobTimeout        time.Duration
	// JobWorkers bounds the background jobs of each kind of work that run at once; 0 = the default of
	// sqldb.DefaultMaxWorkers.
	JobWorkers int
	// TrustedProxies is RADAR_TRUSTED_PROXIES as written; Finish parses it into Proxies.
	TrustedProxies string
	Proxies        []netip.Prefix

	// RunEvery, when set, runs every tracked company this long after its last run, whatever its cadence. It is
	// no option: radar demo sets it (--runs-every).
	RunEvery time.Duration
	// MCPToolsets lists the MCP toolsets offered besides the default one, comma-separated.
	MCPToolsets string
}

// option describes one setting.
type option struct {
	env, flag, def, help string
	secret               bool
	field                func(*Config) *string
	boolean              func(*Config) *bool
	duration             func(*Config) *time.Duration
	integer              func(*Config) *int
}

func options() []option {
	return []option{
		{env: "RADAR_ADDR", flag: "addr", def: "127.0.0.1:8080", help: "listen address", field: func(c *Config) *string { return &c.Addr }},
		{env: "RADAR_BASE_URL", flag: "base-url", help: "public address used in Location, pollUrl and links (default http:// + addr)", field: func(c *Config) *string { return &c.BaseURL }},
		{env: "RADAR_DATABASE_URL", flag: "database-url", def: "sqlite:radar.db", help: "sqlite:PATH or postgres://…", secret: true, field: func(c *Config) *string { return &c.DatabaseURL }},
		{env: "RADAR_REDIS_URL", flag: "redis-url", help: "Redis for rate-limit counters shared by replicas; unset = in-process", secret: true, field: func(c *Config) *string { return &c.RedisURL }},
		{env: "RADAR_SMTP_URL", flag: "smtp-url", help: "smtp://[user:pass@]host:port (?tls=starttls) or smtps://; unset = e-mails kept in the outbox", secret: true, field: func(c *Config) *string { return &c.SMTPURL }},
		{env: "RADAR_MAIL_FROM", flag: "mail-from", def: "radar@localhost", help: "sender address", field: func(c *Config) *string { return &c.MailFrom }},
		{env: "RADAR_FETCH_ALLOW_PRIVATE", flag: "fetch-allow-private", def: "false", help: "let the fetcher reach loopback and private addresses (tests, demo)", boolean: func(c *Config) *bool { return &c.FetchAllowPrivate }},
		{env: "RADAR_NEWS_FEED_URL", flag: "news-feed-url", help: "news-search feed template with {query}; unset = no news search", field: func(c *Config) *string { return &c.NewsFeedURL }},
		{env: "RADAR_GITHUB_API_URL", flag: "github-api-url", def: "https://api.github.com", help: "GitHub API address", field: func(c *Config) *string { return &c.GitHubAPIURL }},
		{env: "RADAR_GITHUB_TOKEN", flag: "github-token", help: "GitHub API token", secret: true, field: func(c *Config) *string { return &c.GitHubToken }},
		{env: "RADAR_LLM_URL", flag: "llm-url", help: "OpenAI-compatible chat endpoint; unset = built-in analyser", field: func(c *Config) *string { return &c.LLMURL }},
		{env: "RADAR_LLM_MODEL", flag: "llm-model", help: "model name for the LLM endpoint", field: func(c *Config) *string { return &c.LLMModel }},
		{env: "RADAR_LLM_API_KEY", flag: "llm-api-key", help: "API key for the LLM endpoint", secret: true, field: func(c *Config) *string { return &c.LLMAPIKey }},
		{env: "RADAR_JOB_TIMEOUT", flag: "job-timeout", help: "how long one background job (enrichment, tracker run, e-mail) may take; a crashed process's job is retried a little after it (default: 4m enrichment, 5m runs)", duration: func(c *Config) *time.Duration { return &c.JobTimeout }},
		{env: "RADAR_JOB_WORKERS", flag: "job-workers", help: "how many enrichments and tracker runs one process works at once, and as many deliveries (e-mails, webhooks); the rest wait in the queue so that the API stays fast (default: half the CPUs, at least 1)", integer: func(c *Config) *int { return &c.JobWorkers }},
		{env: "RADAR_TRUSTED_PROXIES", flag: "trusted-proxies", help: "comma-separated CIDRs of reverse proxies whose X-Forwarded-For names the client (sign-in limits); unset = none", field: func(c *Config) *string { return &c.TrustedProxies }},
		{env: "RADAR_MCP_TOOLSETS", flag: "mcp-toolsets", def: "default", help: "comma-separated MCP toolsets: default (the specification's tools, always offered) and the opt-in delivery (mark_signals_seen, preview_rules)", field: func(c *Config) *string { return &c.MCPToolsets }},
		{env: "RADAR_DEBUG_ADDR", flag: "debug-addr", help: "address of an admin listener serving net/http/pprof (keep it on loopback: 127.0.0.1:6060); unset = off", field: func(c *Config) *string { return &c.DebugAddr }},
		{env: "RADAR_SECRET", flag: "secret", help: "signs cursors and sessions; replicas must share it (default: generated and stored in the database)", secret: true, field: func(c *Config) *string { return &c.Secret }},
	}
}

// Load reads the environment through getenv, then lets flags of fs override it. Call fs.Parse after Load
// has registered the flags, then Finish.
func Load(getenv func(string) string, fs *flag.FlagSet) (*Config, error) {
	c := &Config{}
	var errs []error
	for _, o := range options() {
		v := getenv(o.env)
		if v == "" {
			v = o.def
		}
		if o.duration != nil {
			var d time.Duration
			if v != "" {
				var err error
				if d, err = time.ParseDuration(v); err != nil || d <= 0 {
					errs = append(errs, fmt.Errorf("%s: want a positive duration like 90s or 5m, got %q", o.env, v))
				}
			}
			*o.duration(c) = d
			if fs != nil {
				fs.DurationVar(o.duration(c), o.flag, d, o.help+" ("+o.env+")")
			}
			continue
		}
		if o.integer != nil {
			var n int
			if v != "" {
				var err error
				if n, err = strconv.Atoi(v); err != nil || n <= 0 {
					errs = append(errs, fmt.Errorf("%s: want a positive whole number, got %q", o.env, v))
				}
			}
			*o.integer(c) = n
			if fs != nil {
				fs.IntVar(o.integer(c), o.flag, n, o.help+" ("+o.env+")")
			}
			continue
		}
		if o.boolean != nil {
			b, err := strconv.ParseBool(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: want true or false, got %q", o.env, v))
			}
			*o.boolean(c) = b
			if fs != nil {
				fs.BoolVar(o.boolean(c), o.flag, b, o.help+" ("+o.env+")")
			}
			continue
		}
		*o.field(c) = v
		if fs != nil {
			fs.StringVar(o.field(c), o.flag, v, o.help+" ("+o.env+")")
		}
	}
	return c, oneLine(errs)
}

// oneLine joins errs into one error of one line.
func oneLine(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// Option describes one setting for help texts: its flag, variable, built-in default and meaning.
type Option struct {
	Flag, Env, Default, Help string
}

// Options lists every setting in the order of the documentation.
func Options() []Option {
	var out []Option
	for _, o := range options() {
		out = append(out, Option{Flag: o.flag, Env: o.env, Default: o.def, Help: o.help})
	}
	return out
}

// Finish fills derived defaults and validates c.
func (c *Config) Finish() error {
	var errs []error
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.Addr
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("RADAR_BASE_URL: want an http or https URL, got %q", c.BaseURL))
	}
	switch path, isSQLite := strings.CutPrefix(c.DatabaseURL, "sqlite:"); {
	case isSQLite && path == "":
		errs = append(errs, errors.New("RADAR_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:radar.db"))
	case isSQLite:
		// The database file is made when missing, but never the folders above it.
		if dir := filepath.Dir(path); dir != "." {
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				errs = append(errs, fmt.Errorf("RADAR_DATABASE_URL: folder %q does not exist; create it first or choose another path", dir))
			}
		}
	case !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://"):
		errs = append(errs, errors.New("RADAR_DATABASE_URL: want sqlite:PATH or postgres://…"))
	}
	if c.RedisURL != "" && !strings.HasPrefix(c.RedisURL, "redis://") && !strings.HasPrefix(c.RedisURL, "rediss://") {
		errs = append(errs, errors.New("RADAR_REDIS_URL: want redis://… or rediss://…"))
	}
	if c.SMTPURL != "" && !strings.HasPrefix(c.SMTPURL, "smtp://") && !strings.HasPrefix(c.SMTPURL, "smtps://") {
		errs = append(errs, errors.New("RADAR_SMTP_URL: want smtp://… or smtps://…"))
	}
	if c.NewsFeedURL != "" && !strings.Contains(c.NewsFeedURL, "{query}") {
		errs = append(errs, errors.New("RADAR_NEWS_FEED_URL: the template must contain {query}"))
	}
	proxies, err := ParseProxies(c.TrustedProxies)
	if err != nil {
		errs = append(errs, fmt.Errorf("RADAR_TRUSTED_PROXIES: %w", err))
	}
	c.Proxies = proxies
	for _, name := range c.Toolsets() {
		if !slices.Contains(mcpToolsets, name) {
			errs = append(errs, fmt.Errorf("RADAR_MCP_TOOLSETS: unknown toolset %q; want a list of %s", name, strings.Join(mcpToolsets, ", ")))
		}
	}
	if c.Secret != "" && len(c.Secret) < 32 {
		errs = append(errs, errors.New("RADAR_SECRET: want at least 32 characters"))
	}
	return oneLine(errs)
}

// ParseProxies reads a comma-separated list of CIDRs such as "10.0.0.0/8, fd00::/8"; a bare address stands for
// itself alone. An empty list is no proxies.
func ParseProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(f); err == nil && a.Zone() == "" {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		return nil, fmt.Errorf("want comma-separated CIDRs like 10.0.0.0/8,fd00::/8, got %q", f)
	}
	return out, nil
}

// mcpToolsets are the toolsets the MCP endpoint knows (mcp.Toolsets).
var mcpToolsets = []string{"default", "delivery"}

// Toolsets returns the names listed in MCPToolsets.
func (c *Config) Toolsets() []string {
	var out []string
	for n := range strings.SplitSeq(c.MCPToolsets, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Dump lists every option as NAME=value with secrets masked.
func (c *Config) Dump() []string {
	var out []string
	for _, o := range options() {
		var v string
		switch {
		case o.duration != nil:
			if d := *o.duration(c); d > 0 {
				v = d.String()
			}
		case o.integer != nil:
			if n := *o.integer(c); n > 0 {
				v = strconv.Itoa(n)
			}
		case o.boolean != nil:
			v = strconv.FormatBool(*o.boolean(c))
		default:
			v = *o.field(c)
		}
		if o.secret && v != "" {
			v = mask(o.env, v)
		}
		out = append(out, o.env+"="+v)
	}
	return out
}

// mask hides credentials and nothing else: the password of a URL and the values of its query parameters that
// name a password, token, secret or key are starred; the user name, host, path and the rest of the query stay.
// A secret that is not a URL is starred whole.
func mask(env, v string) string {
	if env == "RADAR_DATABASE_URL" && strings.HasPrefix(v, "sqlite:") {
		return v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return "****"
	}
	out := u.Scheme + "://"
	if u.User != nil {
		out += u.User.Username()
		if _, ok := u.User.Password(); ok {
			out += ":****"
		}
		out += "@"
	}
	out += u.Host + u.EscapedPath()
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, part := range parts {
			name, _, hasValue := strings.Cut(part, "=")
			if hasValue && secretParam(name) {
				parts[i] = name + "=****"
			}
		}
		out += "?" + strings.Join(parts, "&")
	}
	return out
}

// secretParam tells whether a query parameter carries a credential.
func secretParam(name string) bool {
	name = strings.ToLower(name)
	for _, s := range []string{"pass", "token", "secret", "key"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}
