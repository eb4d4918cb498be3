package radar

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTimeJSON(t *testing.T) {
	at := NewTime(time.Date(2026, 11, 21, 9, 30, 0, 123456789, time.FixedZone("CET", 3600)))
	b, err := json.Marshal(struct {
		At  Time  `json:"at"`
		Nil *Time `json:"nil"`
	}{At: at})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"at":"2026-11-21T08:30:00.123456+00:00","nil":null}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var back struct{ At Time }
	if err := json.Unmarshal([]byte(`{"At":"2026-11-21T09:30:00.123456789+01:00"}`), &back); err != nil {
		t.Fatal(err)
	}
	if !back.At.Equal(at.Time) || back.At.Micros() != at.Micros() {
		t.Errorf("round trip: %s, want %s", back.At, at)
	}
	if err := json.Unmarshal([]byte(`{"At":12}`), &back); err == nil {
		t.Error("a number was accepted as a timestamp")
	}
}

func TestTruncate(t *testing.T) {
	cases := map[string]struct {
		in   string
		n    int
		want string
	}{
		"short":     {"abc", 5, "abc"},
		"exact":     {"abcde", 5, "abcde"},
		"cut":       {"abcdef", 5, "abcd…"},
		"multibyte": {"ééééééé", 4, "ééé…"},
	}
	for name, c := range cases {
		if got := Truncate(c.in, c.n); got != c.want {
			t.Errorf("%s: Truncate(%q, %d) = %q, want %q", name, c.in, c.n, got, c.want)
		}
	}
}

func TestNormalizeURLKey(t *testing.T) {
	cases := map[string]string{
		"https://www.Northwind.io/":              "northwind.io",
		"http://northwind.io":                    "northwind.io",
		"northwind.io/about/":                    "northwind.io/about",
		"https://twitter.com/NorthwindHQ":        "x.com/northwindhq",
		"https://mobile.twitter.com/northwindhq": "x.com/northwindhq",
		"https://www.linkedin.com/in/jane?x=1":   "linkedin.com/in/jane",
		"http://127.0.0.1:8081/":                 "127.0.0.1:8081",
		"https://northwind.io:443/":              "northwind.io",
		"":                                       "",
		"   ":                                    "",
	}
	for in, want := range cases {
		if got := NormalizeURLKey(in); got != want {
			t.Errorf("NormalizeURLKey(%q) = %q, want %q", in, got, want)
		}
	}
	// A founder who shares the company's X account, and a founder named twice, give each key once.
	e := &Entity{CompanyWebsite: "https://northwind.io", CompanyTwitterURL: "https://twitter.com/nw",
		Founders: []Founder{{Name: "Jane", LinkedinURL: "https://linkedin.com/in/jane", TwitterURL: "https://x.com/nw"},
			{Name: "Jane Doe", LinkedinURL: "https://www.linkedin.com/in/jane/"}}}
	want := []string{"site:northwind.io", "profile:x.com/nw", "profile:linkedin.com/in/jane"}
	if got := IdentityKeys(e); !slices.Equal(got, want) {
		t.Errorf("IdentityKeys = %v, want %v", got, want)
	}
}

func TestProblems(t *testing.T) {
	var p Problems
	if p.Err() != nil {
		t.Fatal("no problems must be no error")
	}
	p.Add("companyName", "is required")
	p.Addf("founders[2].linkedinUrl", "must be an absolute %s URL", "http or https")
	err := p.Err()
	e, ok := AsError(err)
	if !ok || e.Code != EValidation || StatusOf(e.Code) != 400 {
		t.Fatalf("got %v", err)
	}
	if want := "companyName: is required; founders[2].linkedinUrl: must be an absolute http or https URL"; e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	if fields, _ := e.Details["fields"].([]FieldError); len(fields) != 2 || fields[1].Path != "founders[2].linkedinUrl" {
		t.Errorf("details %v", e.Details)
	}
}

func TestRequire(t *testing.T) {
	p := &Principal{Scopes: []string{ScopeTrackerRead}}
	if err := p.Require(ScopeTrackerRead); err != nil {
		t.Errorf("held scope refused: %v", err)
	}
	err := p.Require(ScopeLeadsWrite, ScopeTrackerWrite)
	e, ok := AsError(err)
	if !ok || e.Code != EInsufficientScope || StatusOf(e.Code) != 403 {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(e.Message, `"leads:write" and "tracker:write"`) {
		t.Errorf("message %q names not both missing scopes", e.Message)
	}
	if req, _ := e.Details["required"].([]string); len(req) != 2 {
		t.Errorf("details.required = %v", e.Details["required"])
	}
	if got, _ := e.Details["granted"].([]string); !slices.Equal(got, []string{ScopeTrackerRead}) {
		t.Errorf("details.granted = %v", e.Details["granted"])
	}
	if ErrorCode(err) != EInsufficientScope || ErrorCode(nil) != EInternal || StatusOf("nonsense") != 500 {
		t.Error("ErrorCode or StatusOf misreads codes")
	}
}
