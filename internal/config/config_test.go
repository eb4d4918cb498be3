package config

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.BaseURL != "http://127.0.0.1:8080" || c.DatabaseURL != "sqlite:radar.db" ||
		c.MailFrom != "radar@localhost" || c.FetchAllowPrivate || c.GitHubAPIURL != "https://api.github.com" || c.JobTimeout != 0 {
		t.Errorf("defaults: %+v", c)
	}
}

func TestFlagsOverrideEnvironment(t *testing.T) {
	fs := flag.NewFlagSet("radar", flag.ContinueOnError)
	c, err := Load(env(map[string]string{"RADAR_ADDR": "0.0.0.0:9000", "RADAR_JOB_TIMEOUT": "2m", "RADAR_JOB_WORKERS": "3"}), fs)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--addr", "127.0.0.1:7000", "--fetch-allow-private", "--job-workers", "5"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:7000" || !c.FetchAllowPrivate || c.JobTimeout != 2*time.Minute || c.BaseURL != "http://127.0.0.1:7000" ||
		c.JobWorkers != 5 {
		t.Errorf("got %+v", c)
	}
}

func TestInvalid(t *testing.T) {
	cases := map[string]struct {
		env  map[string]string
		want string
	}{
		"boolean":      {map[string]string{"RADAR_FETCH_ALLOW_PRIVATE": "maybe"}, "RADAR_FETCH_ALLOW_PRIVATE: want true or false"},
		"duration":     {map[string]string{"RADAR_JOB_TIMEOUT": "soon"}, "RADAR_JOB_TIMEOUT: want a positive duration"},
		"job workers":  {map[string]string{"RADAR_JOB_WORKERS": "0"}, "RADAR_JOB_WORKERS: want a positive whole number"},
		"database":     {map[string]string{"RADAR_DATABASE_URL": "mysql://x"}, "RADAR_DATABASE_URL: want sqlite:PATH or postgres://"},
		"redis":        {map[string]string{"RADAR_REDIS_URL": "localhost:6379"}, "RADAR_REDIS_URL: want redis://"},
		"smtp":         {map[string]string{"RADAR_SMTP_URL": "mail.example:25"}, "RADAR_SMTP_URL: want smtp://"},
		"news feed":    {map[string]string{"RADAR_NEWS_FEED_URL": "https://news.example/rss"}, "RADAR_NEWS_FEED_URL: the template must contain {query}"},
		"short secret": {map[string]string{"RADAR_SECRET": "short"}, "RADAR_SECRET: want at least 32 characters"},
		"base url":     {map[string]string{"RADAR_BASE_URL": "radar.example"}, "RADAR_BASE_URL: want an http or https URL"},
		"toolsets":     {map[string]string{"RADAR_MCP_TOOLSETS": "default,everything"}, `RADAR_MCP_TOOLSETS: unknown toolset "everything"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Load(env(tc.env), nil)
			if err == nil {
				err = c.Finish()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestDumpMasksOnlySecrets(t *testing.T) {
	c, err := Load(env(map[string]string{
		"RADAR_DATABASE_URL": "postgres://radar:hunter2@db.internal:5432/radar?sslmode=require&sslpassword=keypass",
		"RADAR_REDIS_URL":    "redis://:redispass@cache.internal:6379/0",
		"RADAR_SMTP_URL":     "smtp://mailer:pa55@smtp.example:587?tls=starttls",
		"RADAR_SECRET":       strings.Repeat("s", 40),
		"RADAR_LLM_API_KEY":  "sk-123",
		"RADAR_GITHUB_TOKEN": "ghp_abc",
	}), nil)
	if err != nil {
		t.Fatal(err)
	}
	dump := strings.Join(c.Dump(), "\n")
	for _, secret := range []string{"hunter2", "keypass", "redispass", "pa55", "sssss", "sk-123", "ghp_abc"} {
		if strings.Contains(dump, secret) {
			t.Errorf("dump shows %q:\n%s", secret, dump)
		}
	}
	for _, shown := range []string{
		"RADAR_DATABASE_URL=postgres://radar:****@db.internal:5432/radar?sslmode=require&sslpassword=****",
		"RADAR_REDIS_URL=redis://:****@cache.internal:6379/0",
		"RADAR_SMTP_URL=smtp://mailer:****@smtp.example:587?tls=starttls",
		"RADAR_SECRET=****", "RADAR_LLM_API_KEY=****", "RADAR_GITHUB_TOKEN=****", "RADAR_ADDR=127.0.0.1:8080",
	} {
		if !strings.Contains(dump, shown) {
			t.Errorf("dump lacks %q:\n%s", shown, dump)
		}
	}
}

func TestDatabasePath(t *testing.T) {
	dir := t.TempDir()
	for url, want := range map[string]string{
		"sqlite:": "RADAR_DATABASE_URL: sqlite: needs a file path",
		"sqlite:" + dir + "/missing/deeper/radar.db": "does not exist",
		"sqlite:" + dir + "/radar.db":                "",
		"sqlite:radar.db":                            "",
	} {
		c, err := Load(env(map[string]string{"RADAR_DATABASE_URL": url}), nil)
		if err == nil {
			err = c.Finish()
		}
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: err = %v, want %q", url, err, want)
		}
	}
	if _, err := os.Stat(dir + "/missing"); !os.IsNotExist(err) {
		t.Errorf("validation made the missing folder: %v", err)
	}
}

func TestErrorsAreOneLine(t *testing.T) {
	c, err := Load(env(map[string]string{"RADAR_FETCH_ALLOW_PRIVATE": "maybe", "RADAR_JOB_TIMEOUT": "soon"}), nil)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("Load: %q, want two problems on one line", err)
	}
	c, _ = Load(env(map[string]string{"RADAR_REDIS_URL": "x", "RADAR_SMTP_URL": "y"}), nil)
	if err := c.Finish(); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "; ") {
		t.Errorf("Finish: %q, want two problems on one line", err)
	}
}
