package web

import "testing"

func TestSafeNext(t *testing.T) {
	tests := []struct{ name, next, want string }{
		{"a page of this site", "/leads?decision=accepted", "/leads?decision=accepted"},
		{"nothing", "", "/companies"},
		{"another host, scheme-relative", "//evil.example/x", "/companies"},
		{"another host, absolute", "https://evil.example/", "/companies"},
		{"a backslash browsers read as a slash", "/\\evil.example", "/companies"},
		{"the sign-in page itself", "/login?next=/x", "/companies"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := safeNext(tc.next); got != tc.want {
				t.Errorf("safeNext(%q) = %q, want %q", tc.next, got, tc.want)
			}
		})
	}
}
