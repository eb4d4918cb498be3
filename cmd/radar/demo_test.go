package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"radar/internal/apitest"
)

// startDemo runs `radar demo` in-process on a free port and returns the address it serves and its output.
func startDemo(t *testing.T, dir string, args ...string) (string, *apitest.Buffer, func() error) {
	t.Helper()
	env := map[string]string{"RADAR_ADDR": "127.0.0.1:0"}
	out, errOut := &apitest.Buffer{}, &apitest.Buffer{}
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	m := &Main{
		Args:   append([]string{"demo", "--data", dir}, args...),
		Getenv: func(k string) string { return env[k] },
		Stdin:  strings.NewReader(""), Stdout: out, Stderr: errOut, Ready: ready,
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(60 * time.Second):
			t.Fatal("radar demo did not stop within a minute of Ctrl-C")
			return nil
		}
	}
	select {
	case addr := <-ready:
		return "http://" + addr, out, stop
	case err := <-done:
		cancel()
		t.Fatalf("radar demo ended before serving: %v\nstderr:\n%s", err, errOut)
	case <-time.After(60 * time.Second):
		stop()
		t.Fatalf("radar demo did not come up within a minute\nstderr:\n%s", errOut)
	}
	return "", nil, nil
}

func getJSON(t *testing.T, url, key string, v any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res.StatusCode
}

var apiKey = regexp.MustCompile(`API key\s+(rdr_\S+)`)

func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	base, out, stop := startDemo(t, dir, "--step", "2s", "--runs-every", "3s", "--companies", "3")

	res, err := http.Get(base + "/companies")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Sign in to Radar") {
		t.Fatalf("GET /companies: %d, want the sign-in page", res.StatusCode)
	}
	printed := out.String()
	for _, want := range []string{base + "/", "demo@radar.local", "password ", "curl -H \"Authorization: Bearer rdr_", "Ctrl-C"} {
		if !strings.Contains(printed, want) {
			t.Errorf("the demo does not print %q:\n%s", want, printed)
		}
	}
	m := apiKey.FindStringSubmatch(printed)
	if m == nil {
		t.Fatalf("no API key printed:\n%s", printed)
	}
	key := m[1]

	var companies struct {
		Data []struct {
			CompanyName string `json:"companyName"`
		} `json:"data"`
	}
	if status := getJSON(t, base+"/api/v1/tracker", key, &companies); status != http.StatusOK || len(companies.Data) != 3 {
		t.Fatalf("the printed key lists %d companies (status %d), want 3", len(companies.Data), status)
	}

	var signals struct {
		Data []struct {
			CompanyName, Type string
		} `json:"data"`
	}
	deadline := time.Now().Add(90 * time.Second)
	for len(signals.Data) == 0 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		getJSON(t, base+"/api/v1/signals", key, &signals)
	}
	if len(signals.Data) == 0 {
		t.Fatal("the demo produced no signal within 90 seconds")
	}

	// nextRunAt tells the demo's real schedule (--runs-every 3s), and the company does run again then.
	type schedule struct {
		Data []struct {
			ID            string     `json:"id"`
			LastScrapedAt *time.Time `json:"lastScrapedAt"`
			NextRunAt     *time.Time `json:"nextRunAt"`
		} `json:"data"`
	}
	var first schedule
	getJSON(t, base+"/api/v1/tracker", key, &first)
	ran := map[string]time.Time{}
	for _, c := range first.Data {
		if c.LastScrapedAt == nil {
			continue
		}
		ran[c.ID] = *c.LastScrapedAt
		if c.NextRunAt == nil || c.NextRunAt.Sub(*c.LastScrapedAt) != 3*time.Second {
			t.Errorf("company %s last ran at %v and says it runs next at %v, want 3s later", c.ID, c.LastScrapedAt, c.NextRunAt)
		}
	}
	if len(ran) == 0 {
		t.Fatal("no company has run, though a signal exists")
	}
	again := false
	for until := time.Now().Add(30 * time.Second); !again && time.Now().Before(until); {
		time.Sleep(500 * time.Millisecond)
		var now schedule
		getJSON(t, base+"/api/v1/tracker", key, &now)
		for _, c := range now.Data {
			if last, ok := ran[c.ID]; ok && c.LastScrapedAt != nil && c.LastScrapedAt.After(last) {
				again = true
			}
		}
	}
	if !again {
		t.Errorf("no company ran again within 30 seconds on the demo's 3-second schedule")
	}
	if err := stop(); err != nil {
		t.Fatalf("radar demo after Ctrl-C: %v", err)
	}

	t.Run("a fresh start replaces the data; --keep keeps it", func(t *testing.T) {
		base, out, stop := startDemo(t, dir, "--keep", "--companies", "3")
		if !strings.Contains(out.String(), key) {
			t.Errorf("the kept demo prints another key:\n%s", out)
		}
		var kept struct{ Data []any }
		getJSON(t, base+"/api/v1/tracker", key, &kept)
		if len(kept.Data) != 3 {
			t.Errorf("the kept demo tracks %d companies, want the same 3", len(kept.Data))
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		_, out, stop = startDemo(t, dir, "--companies", "1")
		if strings.Contains(out.String(), key) {
			t.Errorf("a fresh demo prints the old key")
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDemoRefusesAForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := &Main{Args: []string{"demo", "--data", dir}, Getenv: func(string) string { return "" },
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	err := m.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not made by radar demo") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "mine" {
		t.Errorf("the folder's file was touched")
	}
}
