package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

func setFounder(field string, v any) mutation {
	return func(b map[string]any) {
		b["founders"].([]any)[0].(map[string]any)[field] = v
	}
}

// fieldReason returns the reason given for path in a validation_error, "" when path is not named.
func fieldReason(res *apitest.Response, path string) string {
	e := res.Err()
	if e == nil {
		return ""
	}
	for _, f := range list(e.Details["fields"]) {
		m, _ := f.(map[string]any)
		if m["path"] == path {
			r, _ := m["reason"].(string)
			return r
		}
	}
	return ""
}

// wantFieldError checks a 400 validation_error that names path with a reason containing want.
func wantFieldError(t *testing.T, res *apitest.Response, path, want string) {
	t.Helper()
	wantError(t, res, http.StatusBadRequest, radar.EValidation)
	if r := fieldReason(res, path); r == "" || !strings.Contains(r, want) {
		t.Errorf("reason for %s = %q, want one containing %q; body %s", path, r, want, res.Body)
	}
}

// A NUL, another control character, a line break in a one-line field, or text made only of invisible
// characters is refused with a validation_error naming the field, the same on both engines (PostgreSQL
// cannot store a NUL at all), and nothing is stored.
func TestCreateRefusesControlAndInvisibleText(t *testing.T) {
	cases := map[string]struct {
		mutate mutation
		path   string
		reason string
	}{
		"NUL in companyName":           {set("companyName", "North\x00wind"), "companyName", "NUL"},
		"NUL in companySummary":        {set("companySummary", "Builds\x00things"), "companySummary", "NUL"},
		"NUL in thingsToTrack":         {set("thingsToTrack", "\x00"), "thingsToTrack", "NUL"},
		"NUL in a founder name":        {setFounder("name", "Ada\x00"), "founders[0].name", "NUL"},
		"NUL in a founder URL":         {setFounder("linkedinUrl", "https://www.linkedin.com/in/a\x00"), "founders[0].linkedinUrl", "NUL"},
		"NUL in companyWebsite":        {set("companyWebsite", "https://north\x00wind.example"), "companyWebsite", "NUL"},
		"NUL in companyGithubUrl":      {set("companyGithubUrl", "https://github.com/\x00"), "companyGithubUrl", "NUL"},
		"NUL in an alert address":      {set("alertEmails", []any{"a\x00@fund.example"}), "alertEmails[0]", "NUL"},
		"escape in companyName":        {set("companyName", "\x1b[31mNorthwind"), "companyName", "U+001B"},
		"bell in thingsToTrack":        {set("thingsToTrack", "funding\a"), "thingsToTrack", "U+0007"},
		"DEL in a founder name":        {setFounder("name", "Ada\x7f"), "founders[0].name", "U+007F"},
		"C1 control in companySummary": {set("companySummary", "a\u009bb"), "companySummary", "U+009B"},
		"LF in companyName":            {set("companyName", "North\nwind"), "companyName", "single line"},
		"CR in a founder name":         {setFounder("name", "Ada\rLovelace"), "founders[0].name", "single line"},
		"CRLF in an alert address":     {set("alertEmails", []any{"a@fund.example\r\nBcc: x@evil.example"}), "alertEmails[0]", "single line"},
		"LF in companyWebsite":         {set("companyWebsite", "https://northwind.example/\n"), "companyWebsite", "single line"},
		"line separator in a name":     {set("companyName", "North\u2028wind"), "companyName", "single line"},
		"tab in companyName":           {set("companyName", "North\twind"), "companyName", "tab"},
		"only zero-width companyName":  {set("companyName", "\u200b\u200c\u200d"), "companyName", "visible"},
		"only bidi controls as a name": {setFounder("name", "\u202e\u2066\u200f"), "founders[0].name", "visible"},
		"only a BOM as thingsToTrack":  {set("thingsToTrack", "\ufeff \u2060"), "thingsToTrack", "visible"},
		"only a Hangul filler":         {set("companyName", "\u3164"), "companyName", "visible"},
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				body := apitest.CreateBody("Northwind")
				c.mutate(body)
				res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, body)
				wantFieldError(t, res, c.path, c.reason)
			})
		}
		if got := env.Count(t, "entities", ""); got != 0 {
			t.Errorf("refused creates stored %d entities", got)
		}
	})
}

// Line breaks and tabs in multi-line fields, joiners inside words and direction marks beside letters are
// text people write: they are stored as sent.
func TestCreateKeepsOrdinaryText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		body := apitest.CreateBody("Northwind")
		body["companyName"] = "Zoë 👩‍💻 \u200fשלום"
		body["thingsToTrack"] = "Funding rounds.\n\tFounders leaving.\r\nNew offices."
		body["companySummary"] = "Line one\nLine two"
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, body)
		wantStatus(t, res, http.StatusCreated)
		got := env.Do(t, http.MethodGet, "/api/v1/tracker/"+str(res.Data(), "id"), key, nil)
		for _, f := range []string{"companyName", "thingsToTrack", "companySummary"} {
			if v := str(got.Data(), f); v != body[f] {
				t.Errorf("%s stored as %q, want %q", f, v, body[f])
			}
		}
	})
}

// Invalid UTF-8, and an escaped half of a surrogate pair, would be replaced by U+FFFD by the JSON decoder:
// they are refused, naming the field, instead of being stored changed.
func TestCreateRefusesInvalidUnicode(t *testing.T) {
	cases := map[string]struct {
		body string
		path string
	}{
		"invalid UTF-8 in companyName":        {`{"companyName":"North` + "\xff" + `wind"}`, "companyName"},
		"truncated UTF-8 in a founder name":   {`{"founders":[{"name":"Zo` + "\xc3" + `"}]}`, "founders[0].name"},
		"overlong encoding in an address":     {`{"alertEmails":["a@fund.example","` + "\xc0\xaf" + `"]}`, "alertEmails[1]"},
		"lone high surrogate in companyName":  {`{"companyName":"North\ud800wind"}`, "companyName"},
		"lone low surrogate in thingsToTrack": {`{"thingsToTrack":"x\udc00"}`, "thingsToTrack"},
		"reversed pair in a founder URL":      {`{"founders":[{"name":"A"},{"name":"B","githubUrl":"\udc00\ud800"}]}`, "founders[1].githubUrl"},
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, []byte(c.body))
				wantError(t, res, http.StatusBadRequest, radar.EValidation)
				if r := fieldReason(res, c.path); !strings.Contains(r, "valid U") {
					t.Errorf("reason for %s = %q, want it to say the text is not valid Unicode; body %s", c.path, r, res.Body)
				}
			})
		}
		body := apitest.CreateBody("Northwind")
		body["companyName"] = "Northwind"
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key,
			[]byte(strings.Replace(mustJSON(t, body), `"Northwind"`, `"North\ud83d\ude00wind \\ud800"`, 1)))
		wantStatus(t, res, http.StatusCreated)
		if got, want := str(res.Data(), "companyName"), "North😀wind \\ud800"; got != want {
			t.Errorf("companyName = %q, want %q", got, want)
		}
	})
}

// The other writes (PATCH, lead track, draft enrichment) run the same check.
func TestWritesRefuseControlText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		id := create(t, env, key, "Northwind")
		for name, c := range map[string]struct {
			body   map[string]any
			path   string
			reason string
		}{
			"companyName":    {map[string]any{"companyName": "a\x00"}, "companyName", "NUL"},
			"companySummary": {map[string]any{"companySummary": "\x00"}, "companySummary", "NUL"},
			"thingsToTrack":  {map[string]any{"thingsToTrack": "a\x01"}, "thingsToTrack", "U+0001"},
			"a tag":          {map[string]any{"tags": []any{"ok", "b\x00"}}, "tags[1]", "NUL"},
			"an address":     {map[string]any{"alertEmails": []any{"a@fund.example\n"}}, "alertEmails[0]", "single line"},
			"a founder":      {map[string]any{"founders": []any{map[string]any{"name": "\u200b"}}}, "founders[0].name", "visible"},
		} {
			t.Run("PATCH "+name, func(t *testing.T) {
				res := env.Do(t, http.MethodPatch, "/api/v1/tracker/"+id, key, c.body)
				wantFieldError(t, res, c.path, c.reason)
			})
		}
		lead := env.SeedRun(t, env.OrgA, id).LeadID
		res := env.Do(t, http.MethodPost, "/api/v1/leads/"+lead+"/track", key, map[string]any{
			"thingsToTrack": "funding\x00", "alertEmails": []any{"a@fund.example"}})
		wantFieldError(t, res, "thingsToTrack", "NUL")
		res = env.Do(t, http.MethodPost, "/api/v1/tracker/enrich", key, map[string]any{
			"companyName": "North\x00wind", "companyWebsite": "https://northwind.example"})
		wantFieldError(t, res, "companyName", "NUL")
	})
}

// Query parameters are text too: every parameter, read by the service or not, is refused with a
// validation_error naming it when it holds a NUL, a control character, a line break or invalid UTF-8.
func TestQueryParametersRefuseControlText(t *testing.T) {
	cases := map[string]struct{ path, param, reason string }{
		"q with a NUL":                  {"/api/v1/signals?q=a%00b", "q", "NUL"},
		"q with a line break":           {"/api/v1/signals?q=a%0Ab", "q", "single line"},
		"q with invalid UTF-8":          {"/api/v1/signals?q=%FF", "q", "UTF-8"},
		"entityQuery with a NUL":        {"/api/v1/signals?entityQuery=North%00", "entityQuery", "NUL"},
		"alerts entityQuery with ESC":   {"/api/v1/alerts?entityQuery=%1B", "entityQuery", "U+001B"},
		"lead name with a NUL":          {"/api/v1/leads?name=%00", "name", "NUL"},
		"sourceQuery with a NUL":        {"/api/v1/leads?sourceQuery=a%00", "sourceQuery", "NUL"},
		"classification with a NUL":     {"/api/v1/tracker?classification=fin%00tech", "classification", "NUL"},
		"sector alias with a NUL":       {"/api/v1/signals?sector=%00", "sector", "NUL"},
		"updatedAfter with a NUL":       {"/api/v1/tracker?updatedAfter=2026-01-01%00", "updatedAfter", "NUL"},
		"cursor with a NUL":             {"/api/v1/tracker?cursor=%00", "cursor", "NUL"},
		"an unknown parameter":          {"/api/v1/tracker?colour=%00", "colour", "NUL"},
		"a parameter name with a NUL":   {"/api/v1/tracker?a%00=1", "(query)", "NUL"},
		"a single read with a NUL view": {"/api/v1/tracker/" + radarUUID + "?view=full%00", "view", "NUL"},
	}
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, c.path, key, nil)
				wantFieldError(t, res, c.param, c.reason)
			})
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
