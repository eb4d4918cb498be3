package service

import (
	"regexp"
	"strings"
	"testing"
)

// keyForm is the form of an API key, as documented: rdr_, 12 characters of id, _, 39 of secret and check.
var keyForm = regexp.MustCompile(`^rdr_([a-z2-7]{12})_([a-z2-7]{39})$`)

// parseKey accepts exactly the tokens of the documented form, and splits them into id and secret.
func FuzzParseKey(f *testing.F) {
	good := "rdr_abcdefghijkl_" + strings.Repeat("a2", 19) + "z"
	for _, s := range []string{
		good, "", "rdr_", strings.ToUpper(good), good + "a", good[:len(good)-1], strings.Replace(good, "_a", "-a", 1),
		strings.Replace(good, "rdr_", "rdx_", 1), strings.Replace(good, "b", "1", 1), strings.Replace(good, "z", "8", 1),
		strings.Replace(good, "c", "é", 1), "rdr_abcdefghijkl" + strings.Repeat("a", 40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		id, secret, ok := parseKey(token)
		m := keyForm.FindStringSubmatch(token)
		if ok != (m != nil) {
			t.Fatalf("parseKey(%q) ok = %v, want %v", token, ok, m != nil)
		}
		if ok && (id != m[1] || secret != m[2]) {
			t.Fatalf("parseKey(%q) = %q, %q; want %q, %q", token, id, secret, m[1], m[2])
		}
	})
}
