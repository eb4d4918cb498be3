package web

import "testing"

// The page to return to after sign-in is a path of this site or the home page: none of these known open
// redirect forms leaves the site.
func TestSafeNextRefusesKnownBypasses(t *testing.T) {
	bypasses := []string{
		"//evil.example",
		"///evil.example",
		"////evil.example/x",
		"https://evil.example/",
		"HTTPS://evil.example",
		"http:evil.example",
		"https:/evil.example",
		"javascript:alert(1)",
		"JaVaScRiPt:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"/\\evil.example",
		"/\\/evil.example",
		"\\\\evil.example",
		"\\/evil.example",
		"/%5Cevil.example",
		"/%5c%5cevil.example",
		"/%2F/evil.example",
		"/%2f%2fevil.example",
		"/%252F%252Fevil.example",
		"/%09/evil.example",
		"/\t/evil.example",
		"/%0a/evil.example",
		"/\n/evil.example",
		"/%0d/evil.example",
		"/%0D%0ALocation:%20https://evil.example",
		"/%00/evil.example",
		"/%20/evil.example",
		"/ /evil.example",
		"/%E3%80%80/evil.example",
		"/\u3000/evil.example",
		"/%C2%A0/evil.example",
		"/\u00a0/evil.example",
		"/%2509/evil.example",
		"/%7F/evil.example",
		"/%C2%85/evil.example",
		"/%e2%80%a8/evil.example",
		" /evil.example",
		"\t//evil.example",
		"evil.example",
		"@evil.example",
		"%2F%2Fevil.example",
		"/%zz",
		"/%ff/evil.example",
		"//evil.example%2F..",
		"/login?next=//evil.example",
		"/%6cogin?next=//evil.example",
		"http://radar.test/companies",
		"//radar.test@evil.example",
	}
	if len(bypasses) < 30 {
		t.Fatalf("%d cases, want at least 30", len(bypasses))
	}
	for _, next := range bypasses {
		if got := safeNext(next); got != "/companies" {
			t.Errorf("safeNext(%q) = %q, want the home page", next, got)
		}
	}
	for _, next := range []string{
		"/companies", "/leads?decision=accepted", "/signals?q=Zo%C3%AB", "/signals?type=funding&company=Ledger%20Co",
		"/companies/0190f2a4-0000-7000-8000-000000000001", "/signals#latest", "/signals?q=100%25", "/@team", "/signals?q=a%2Fb",
	} {
		if got := safeNext(next); got != next {
			t.Errorf("safeNext(%q) = %q, want it kept", next, got)
		}
	}
}
