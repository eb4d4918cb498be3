package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/config"
	"radar/internal/demo"
)

// docs are the files whose shell examples must run as shown against radar demo.
var docs = []string{"../../README.md", "../../docs/api.md"}

// example is one curl command of a document, with the answer the document promises in a trailing comment
// "# → STATUS …", for an error "# → STATUS error_code …".
type example struct {
	where   string // file:line
	command string // the command, continuation lines joined, comment removed
	status  int
	code    string
}

var promise = regexp.MustCompile(`→ (\d{3})(?: ([a-z_]+))?`)

// examples returns the curl commands of the shell blocks of the Markdown file at path.
func examples(t *testing.T, path string) []example {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out     []example
		inBlock bool
		cmd     strings.Builder
		start   int
		comment string
	)
	for i, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			inBlock = !inBlock && (trimmed == "```sh" || trimmed == "```bash" || trimmed == "```shell")
			continue
		}
		if !inBlock {
			continue
		}
		if cmd.Len() == 0 {
			start = i + 1
		}
		code, rest, open := splitComment(cmd.String(), line)
		if rest != "" {
			comment = rest
		}
		cmd.WriteString(code)
		if open || strings.HasSuffix(code, "\\") {
			// A quoted string or a backslash continues the command on the next line.
			if !open {
				s := strings.TrimSuffix(cmd.String(), "\\")
				cmd.Reset()
				cmd.WriteString(s)
			} else {
				cmd.WriteString("\n")
			}
			continue
		}
		command := strings.TrimSpace(cmd.String())
		cmd.Reset()
		if !strings.HasPrefix(command, "curl ") {
			comment = ""
			continue
		}
		ex := example{where: fmt.Sprintf("%s:%d", filepath.Base(path), start), command: command}
		m := promise.FindStringSubmatch(comment)
		if m == nil {
			t.Errorf("%s: the example does not say what it answers (a trailing comment \"# → STATUS\"): %s", ex.where, command)
		} else {
			ex.status, _ = strconv.Atoi(m[1])
			if ex.status >= 400 {
				// An error answer names its code: "# → 409 entity_paused".
				ex.code = m[2]
			}
		}
		comment = ""
		out = append(out, ex)
	}
	return out
}

// splitComment returns the code of line, the comment after an unquoted "#", and whether a quote opened in
// before (the command so far) or line is still open at the end of line.
func splitComment(before, line string) (code, comment string, open bool) {
	var quote rune
	for _, r := range before {
		switch {
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case r == quote:
			quote = 0
		}
	}
	for i, r := range line {
		switch {
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case r == quote:
			quote = 0
		case quote == 0 && r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimRight(line[:i], " \t"), line[i+1:], false
		}
	}
	return line, "", quote != 0
}

var variable = regexp.MustCompile(`\$(\w+)|\$\{(\w+)\}`)

// words splits a command into shell words: single quotes keep everything, double quotes and bare words
// expand $NAME and ${NAME} from vars. An unknown variable is an error.
func words(command string, vars map[string]string) ([]string, error) {
	var (
		out     []string
		cur     strings.Builder
		inWord  bool
		missing []string
	)
	expand := func(s string) string {
		return variable.ReplaceAllStringFunc(s, func(m string) string {
			name := strings.Trim(m, "${}")
			v, ok := vars[name]
			if !ok {
				missing = append(missing, name)
			}
			return v
		})
	}
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(command[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed single quote")
			}
			cur.WriteString(command[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			j := strings.IndexByte(command[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unclosed double quote")
			}
			cur.WriteString(expand(command[i+1 : i+1+j]))
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			j := i
			for j < len(command) && !strings.ContainsRune(" \t\n'\"", rune(command[j])) {
				j++
			}
			cur.WriteString(expand(command[i:j]))
			i = j - 1
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("unknown variables %v", missing)
	}
	return out, nil
}

// request turns the words of a curl command into an HTTP request. It knows the options the documents use.
func request(w []string) (*http.Request, error) {
	method, url := "", ""
	var (
		body    *string
		headers [][2]string
	)
	for i := 1; i < len(w); i++ {
		arg := func() (string, error) {
			if i+1 >= len(w) {
				return "", fmt.Errorf("%s needs a value", w[i])
			}
			i++
			return w[i], nil
		}
		switch w[i] {
		case "-s", "--silent", "-i", "--include":
		case "-X", "--request":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			method = v
		case "-H", "--header":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			name, value, ok := strings.Cut(v, ":")
			if !ok {
				return nil, fmt.Errorf("header %q has no colon", v)
			}
			headers = append(headers, [2]string{name, strings.TrimSpace(value)})
		case "-d", "--data", "--data-raw":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			body = &v
		default:
			if strings.HasPrefix(w[i], "-") {
				return nil, fmt.Errorf("curl option %s is not understood by this test", w[i])
			}
			if url != "" {
				return nil, fmt.Errorf("two URLs: %s and %s", url, w[i])
			}
			url = w[i]
		}
	}
	var r io.Reader
	if method == "" {
		method = http.MethodGet
	}
	if body != nil {
		r = strings.NewReader(*body)
		if method == http.MethodGet {
			method = http.MethodPost
		}
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return nil, err
	}
	if body != nil {
		// curl's default for -d, which a -H Content-Type replaces.
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, h := range headers {
		req.Header.Set(h[0], h[1])
	}
	return req, nil
}

// idle waits until no company of the demo is being enriched or run, as a reader who polls would.
func idle(t *testing.T, d *demo.Demo) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		rows, err := d.App.DB.Entities(context.Background(), radar.EntityFilter{OrgID: d.Principal.OrgID, Page: radar.Page{Limit: 1000}})
		if err != nil {
			t.Fatal(err)
		}
		busy := ""
		for _, e := range rows {
			if e.RunningSince != nil || e.EnrichmentStatus == radar.EnrichQueued || e.EnrichmentStatus == radar.EnrichRunning {
				busy = e.CompanyName
			}
		}
		if busy == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still being enriched or run after two minutes", busy)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDocumentedExamples runs every curl example of README.md and docs/api.md, in order, against a demo
// started in-process, and checks that each answers the status (and error code) its comment promises.
// $RADAR and $KEY are the demo's address and key; $ID is the id of the first company an example creates;
// $SIGNAL_ID, $ALERT_ID and $LEAD_ID are the newest of the demo's; $CURSOR is the last nextCursor answered.
func TestDocumentedExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo")
	}
	var all []example
	for _, path := range docs {
		ex := examples(t, path)
		if len(ex) == 0 {
			t.Errorf("%s has no curl examples", path)
		}
		all = append(all, ex...)
	}

	ctx := context.Background()
	cfg, err := config.Load(func(k string) string { return map[string]string{"RADAR_ADDR": "127.0.0.1:0"}[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Finish(); err != nil {
		t.Fatal(err)
	}
	// News every 10ms: the whole simulated timeline is out in a second. Runs every hour, so that no scheduled
	// run starts between an example and the next.
	step := 10 * time.Millisecond
	d, err := demo.Start(ctx, demo.Options{Dir: filepath.Join(t.TempDir(), "demo"), Step: step, RunEvery: time.Hour,
		Companies: 100, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	idle(t, d)
	// Run every company once more after the timeline has passed, so that the demo has leads as well.
	time.Sleep(100 * step)
	rows, err := d.App.DB.Entities(ctx, radar.EntityFilter{OrgID: d.Principal.OrgID, Page: radar.Page{Limit: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rows {
		if _, err := d.App.Service.RefreshEntity(ctx, d.Principal, e.ID); err != nil {
			t.Fatalf("refresh %s: %v", e.CompanyName, err)
		}
	}
	idle(t, d)

	base := "http://" + d.App.Addr()
	vars := map[string]string{"RADAR": base, "KEY": d.Credentials.APIKey}
	for list, name := range map[string]string{"signals": "SIGNAL_ID", "alerts": "ALERT_ID", "leads": "LEAD_ID"} {
		v, err := get(base+"/api/v1/"+list+"?limit=1", d.Credentials.APIKey)
		if err != nil {
			t.Fatal(err)
		}
		items, _ := v["data"].([]any)
		if len(items) == 0 {
			t.Fatalf("the demo has no %s", list)
		}
		vars[name] = items[0].(map[string]any)["id"].(string)
	}

	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, ex := range all {
		idle(t, d)
		w, err := words(ex.command, vars)
		if err != nil {
			t.Errorf("%s: %v: %s", ex.where, err, ex.command)
			continue
		}
		req, err := request(w)
		if err != nil {
			t.Errorf("%s: %v: %s", ex.where, err, ex.command)
			continue
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", ex.where, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var v map[string]any
		json.Unmarshal(body, &v)
		code := ""
		if e, ok := v["error"].(map[string]any); ok {
			code, _ = e["code"].(string)
		}
		if res.StatusCode != ex.status || (ex.code != "" && code != ex.code) {
			t.Errorf("%s: %s %s answered %d %s, the document says %d %s\n%s\n%s", ex.where, req.Method, req.URL,
				res.StatusCode, code, ex.status, ex.code, ex.command, bytes.TrimSpace(body[:min(len(body), 600)]))
		}
		if data, ok := v["data"].(map[string]any); ok && res.StatusCode == http.StatusCreated && vars["ID"] == "" {
			vars["ID"], _ = data["id"].(string)
		}
		if c, ok := v["nextCursor"].(string); ok {
			vars["CURSOR"] = c
		}
	}

	// The demo has no mail server: no alert claims to be sent, and those whose rules matched say why they were not.
	if v, err := get(base+"/api/v1/alerts?outcome=sent", d.Credentials.APIKey); err != nil || len(v["data"].([]any)) != 0 {
		t.Errorf("alerts sent without a mail server: %v %v", v, err)
	}
	v, err := get(base+"/api/v1/alerts?outcome=disabled&changed=true&view=full", d.Credentials.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := v["data"].([]any)
	if len(kept) == 0 {
		t.Errorf("no alert of the demo matched a rule")
	}
	for _, a := range kept {
		a := a.(map[string]any)
		if reason, _ := a["reason"].(string); a["sentAt"] != nil || !strings.HasSuffix(reason, "kept in the outbox: no mail server is configured (RADAR_SMTP_URL)") {
			t.Errorf("alert %v: sentAt %v, reason %q", a["id"], a["sentAt"], reason)
		}
	}
}

func get(url, key string) (map[string]any, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var v map[string]any
	return v, json.NewDecoder(res.Body).Decode(&v)
}

// TestReadmeLayoutListsEveryPackage checks that the README's layout table names every package of the module.
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(b), "## Layout")
	layout, _, _ = strings.Cut(layout, "\n## ")
	seen := map[string]bool{}
	err = filepath.WalkDir("../..", func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".") && path != "../.." || e.Name() == "testdata") {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			return nil
		}
		dir, _ := filepath.Rel("../..", filepath.Dir(path))
		if seen[dir] {
			return nil
		}
		seen[dir] = true
		name := "`" + filepath.ToSlash(dir) + "`"
		if dir == "." {
			name = "`*.go` (package `radar`)"
		}
		if !strings.Contains(layout, name) {
			t.Errorf("the README's layout table does not list %s", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Errorf("found only %d packages", len(seen))
	}
}
