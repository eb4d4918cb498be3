package web

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientAddr(t *testing.T) {
	trusted := []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("127.0.0.1/32"),
		netip.MustParsePrefix("fd00::/8"),
	}
	tests := map[string]struct {
		remote  string
		headers []string
		trusted []netip.Prefix
		want    string
	}{
		"no proxies configured: header ignored":  {remote: "10.1.1.1:5000", headers: []string{"203.0.113.7"}, want: "10.1.1.1"},
		"untrusted peer: header ignored":         {remote: "198.51.100.1:5000", headers: []string{"203.0.113.7"}, trusted: trusted, want: "198.51.100.1"},
		"trusted peer without a header":          {remote: "10.1.1.1:5000", trusted: trusted, want: "10.1.1.1"},
		"one hop":                                {remote: "10.1.1.1:5000", headers: []string{"203.0.113.7"}, trusted: trusted, want: "203.0.113.7"},
		"a forged entry left of the real client": {remote: "10.1.1.1:5000", headers: []string{"1.2.3.4, 203.0.113.7"}, trusted: trusted, want: "203.0.113.7"},
		"trusted hops skipped right to left":     {remote: "127.0.0.1:5000", headers: []string{"203.0.113.7, 10.0.0.5, 10.0.0.6"}, trusted: trusted, want: "203.0.113.7"},
		"several headers in order":               {remote: "10.1.1.1:5000", headers: []string{"1.2.3.4", "203.0.113.7, 10.0.0.5"}, trusted: trusted, want: "203.0.113.7"},
		"several headers, client in the first":   {remote: "10.1.1.1:5000", headers: []string{"203.0.113.7", "10.0.0.5"}, trusted: trusted, want: "203.0.113.7"},
		"spaces and empty items":                 {remote: "10.1.1.1:5000", headers: []string{"  203.0.113.7 ,, 10.0.0.5  ,"}, trusted: trusted, want: "203.0.113.7"},
		"IPv6 client":                            {remote: "[fd00::1]:5000", headers: []string{"2001:db8::7"}, trusted: trusted, want: "2001:db8::7"},
		"IPv6 client with brackets and port":     {remote: "[fd00::1]:5000", headers: []string{"[2001:db8::7]:4711"}, trusted: trusted, want: "2001:db8::7"},
		"IPv4 with a port":                       {remote: "10.1.1.1:5000", headers: []string{"203.0.113.7:4711"}, trusted: trusted, want: "203.0.113.7"},
		"IPv4-mapped IPv6 peer":                  {remote: "[::ffff:10.1.1.1]:5000", headers: []string{"203.0.113.7"}, trusted: trusted, want: "203.0.113.7"},
		"garbage at the right end":               {remote: "10.1.1.1:5000", headers: []string{"203.0.113.7, not-an-address"}, trusted: trusted, want: "10.1.1.1"},
		"garbage behind a trusted hop":           {remote: "10.1.1.1:5000", headers: []string{"bogus, 10.0.0.5"}, trusted: trusted, want: "10.0.0.5"},
		"garbage left of the client":             {remote: "10.1.1.1:5000", headers: []string{"<script>, 203.0.113.7"}, trusted: trusted, want: "203.0.113.7"},
		"all hops trusted: the leftmost":         {remote: "10.1.1.1:5000", headers: []string{"10.0.0.9, 10.0.0.5"}, trusted: trusted, want: "10.0.0.9"},
		"unix socket peer":                       {remote: "@", headers: []string{"203.0.113.7"}, trusted: trusted, want: "invalid IP"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/login", nil)
			r.RemoteAddr = tc.remote
			for _, h := range tc.headers {
				r.Header.Add("X-Forwarded-For", h)
			}
			if got := clientAddr(r, tc.trusted).String(); got != tc.want {
				t.Errorf("clientAddr = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestClientKey(t *testing.T) {
	tests := map[string]string{
		"203.0.113.7":             "203.0.113.7",
		"2001:db8:1:2:aaaa::1":    "2001:db8:1:2::/64",
		"2001:db8:1:2:bbbb::9999": "2001:db8:1:2::/64",
	}
	for in, want := range tests {
		if got := clientKey(netip.MustParseAddr(in)); got != want {
			t.Errorf("clientKey(%s) = %s, want %s", in, got, want)
		}
	}
	if got := clientKey(netip.Addr{}); got != "unknown" {
		t.Errorf("clientKey of no address = %s, want unknown", got)
	}
}
