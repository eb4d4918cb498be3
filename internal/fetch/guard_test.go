package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// errURLParse marks cases that url.Parse rejects before any guard runs.
var errURLParse = errors.New("rejected by url parser")

func assertFetchError(t *testing.T, err, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	if want == errURLParse {
		var ue *url.Error
		if !errors.As(err, &ue) || ue.Op != "parse" {
			t.Fatalf("got %v, want a url parse error", err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	if !strings.HasPrefix(err.Error(), "fetch: ") {
		t.Errorf("got message %q, want it to start with %q", err, "fetch: ")
	}
}

func TestGuardRefusesPrivateTargets(t *testing.T) {
	tests := map[string]struct {
		url  string
		want error
	}{
		"loopback 127.0.0.1":                        {"http://127.0.0.1/", ErrPrivateAddress},
		"loopback 127.1.2.3":                        {"http://127.1.2.3/", ErrPrivateAddress},
		"loopback over https":                       {"https://127.0.0.1/", ErrPrivateAddress},
		"loopback on a non-web port":                {"http://127.0.0.1:8080/", ErrPrivateAddress},
		"loopback with userinfo":                    {"http://user:pass@127.0.0.1/", ErrPrivateAddress},
		"loopback with trailing dot":                {"http://127.0.0.1./", ErrPrivateAddress},
		"localhost name resolved then refused":      {"http://localhost/", ErrPrivateAddress},
		"localhost name upper case":                 {"http://LOCALHOST/", ErrPrivateAddress},
		"localhost name on port 443":                {"http://localhost:443/", ErrPrivateAddress},
		"decimal 2130706433 decoded as loopback":    {"http://2130706433/", ErrPrivateAddress},
		"hex 0x7f000001 decoded as loopback":        {"http://0x7f000001/", ErrPrivateAddress},
		"octal 0177.0.0.1 decoded as loopback":      {"http://0177.0.0.1/", ErrPrivateAddress},
		"short form 127.1 decoded as loopback":      {"http://127.1/", ErrPrivateAddress},
		"dotted hex 0x7f.0.0.1 decoded":             {"http://0x7f.0.0.1/", ErrPrivateAddress},
		"padded octal 0177.00.00.01 decoded":        {"http://0177.00.00.01/", ErrPrivateAddress},
		"decimal 2852039166 decoded as metadata":    {"http://2852039166/", ErrPrivateAddress},
		"hex 0xa9fea9fe decoded as metadata":        {"http://0xa9fea9fe/", ErrPrivateAddress},
		"private 10.0.0.1":                          {"http://10.0.0.1/", ErrPrivateAddress},
		"private 10.255.255.254":                    {"http://10.255.255.254/", ErrPrivateAddress},
		"private 172.16.0.1":                        {"http://172.16.0.1/", ErrPrivateAddress},
		"private 172.20.10.5":                       {"http://172.20.10.5/", ErrPrivateAddress},
		"private 172.31.255.254":                    {"http://172.31.255.254/", ErrPrivateAddress},
		"private 192.168.0.1":                       {"http://192.168.0.1/", ErrPrivateAddress},
		"private 192.168.1.254 https":               {"https://192.168.1.254/", ErrPrivateAddress},
		"cloud metadata 169.254.169.254":            {"http://169.254.169.254/latest/meta-data/", ErrPrivateAddress},
		"link-local 169.254.0.1":                    {"http://169.254.0.1/", ErrPrivateAddress},
		"cgnat 100.64.0.1":                          {"http://100.64.0.1/", ErrPrivateAddress},
		"cgnat 100.127.255.254":                     {"http://100.127.255.254/", ErrPrivateAddress},
		"unspecified 0.0.0.0":                       {"http://0.0.0.0/", ErrPrivateAddress},
		"decimal 0 decoded as unspecified":          {"http://0/", ErrPrivateAddress},
		"this network 0.1.2.3":                      {"http://0.1.2.3/", ErrPrivateAddress},
		"multicast 224.0.0.1":                       {"http://224.0.0.1/", ErrPrivateAddress},
		"multicast 239.255.255.250":                 {"http://239.255.255.250/", ErrPrivateAddress},
		"broadcast 255.255.255.255":                 {"http://255.255.255.255/", ErrPrivateAddress},
		"documentation 192.0.2.1":                   {"http://192.0.2.1/", ErrPrivateAddress},
		"benchmarking 198.18.0.1":                   {"http://198.18.0.1/", ErrPrivateAddress},
		"ipv6 loopback [::1]":                       {"http://[::1]/", ErrPrivateAddress},
		"ipv6 loopback [::1] on port 80":            {"http://[::1]:80/", ErrPrivateAddress},
		"ipv6 unspecified [::]":                     {"http://[::]/", ErrPrivateAddress},
		"ipv4-mapped loopback":                      {"http://[::ffff:127.0.0.1]/", ErrPrivateAddress},
		"ipv4-mapped loopback in hex":               {"http://[::ffff:7f00:1]/", ErrPrivateAddress},
		"ipv4-mapped metadata":                      {"http://[::ffff:169.254.169.254]/", ErrPrivateAddress},
		"ipv4-mapped private":                       {"http://[::ffff:10.0.0.1]/", ErrPrivateAddress},
		"ipv4-compatible loopback":                  {"http://[::127.0.0.1]/", ErrPrivateAddress},
		"nat64 mapped loopback":                     {"http://[64:ff9b::7f00:1]/", ErrPrivateAddress},
		"unique-local fc00::1":                      {"http://[fc00::1]/", ErrPrivateAddress},
		"unique-local fd12::1":                      {"http://[fd12::1]/", ErrPrivateAddress},
		"link-local fe80::1":                        {"http://[fe80::1]/", ErrPrivateAddress},
		"link-local fe80::1 with escaped zone":      {"http://[fe80::1%25eth0]/", ErrPrivateAddress},
		"link-local zone unescaped fails url parse": {"http://[fe80::1%eth0]/", errURLParse},
		"multicast ff02::1":                         {"http://[ff02::1]/", ErrPrivateAddress},
		"documentation 2001:db8::1":                 {"http://[2001:db8::1]/", ErrPrivateAddress},
		"6to4 wrapping loopback":                    {"http://[2002:7f00:1::1]/", ErrPrivateAddress},
		"ftp scheme":                                {"ftp://127.0.0.1/file", ErrScheme},
		"file scheme":                               {"file:///etc/passwd", ErrScheme},
		"gopher scheme":                             {"gopher://127.0.0.1:70/_GET", ErrScheme},
		"javascript scheme":                         {"javascript:alert(1)", ErrScheme},
		"data scheme":                               {"data:text/plain,hello", ErrScheme},
		"no scheme":                                 {"//127.0.0.1/", ErrScheme},
	}
	c := New(Config{})
	t.Cleanup(c.CloseIdleConnections)
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := c.Get(context.Background(), Request{URL: tt.url})
			assertFetchError(t, err, tt.want)
			if tt.want == ErrPrivateAddress {
				// A website submitted with such an address is refused at once, by the same rules.
				u, _ := url.Parse(tt.url)
				if err := CheckTarget(u); !errors.Is(err, ErrPrivateAddress) {
					t.Errorf("CheckTarget(%s) = %v, want %v", tt.url, err, ErrPrivateAddress)
				}
			}
		})
	}
}

func TestDialerRefusesPrivateAddresses(t *testing.T) {
	tests := map[string]string{
		"loopback":            "127.0.0.1:80",
		"loopback high port":  "127.0.0.1:8080",
		"private":             "10.0.0.1:443",
		"metadata":            "169.254.169.254:80",
		"cgnat":               "100.64.0.1:80",
		"unspecified":         "0.0.0.0:80",
		"multicast":           "224.0.0.1:80",
		"ipv6 loopback":       "[::1]:80",
		"ipv4-mapped":         "[::ffff:127.0.0.1]:80",
		"unique-local":        "[fd12::1]:443",
		"link-local":          "[fe80::1]:80",
		"localhost name":      "localhost:80",
		"localhost name http": "localhost:443",
	}
	c := New(Config{})
	t.Cleanup(c.CloseIdleConnections)
	for name, addr := range tests {
		t.Run(name, func(t *testing.T) {
			conn, err := c.transport.DialContext(context.Background(), "tcp", addr)
			if err == nil {
				conn.Close()
				t.Fatalf("dial %s: got a connection, want %v", addr, ErrPrivateAddress)
			}
			if !errors.Is(err, ErrPrivateAddress) {
				t.Fatalf("dial %s: got %v, want %v", addr, err, ErrPrivateAddress)
			}
		})
	}
}

func TestGuardAllowsPublicAddresses(t *testing.T) {
	tests := map[string]struct {
		url     string
		network string
		addr    string
	}{
		"ipv4 http":  {"http://93.184.216.34/", "tcp4", "93.184.216.34:80"},
		"ipv4 https": {"https://8.8.8.8/", "tcp4", "8.8.8.8:443"},
		"ipv6 https": {"https://[2606:4700::1111]/", "tcp6", "[2606:4700::1111]:443"},
		"name":       {"https://example.com/", "tcp4", "93.184.216.34:443"},
	}
	g := newGuard(netip.AddrPort{})
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			u, err := url.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.checkURL(u); err != nil {
				t.Errorf("checkURL(%s): got %v, want nil", tt.url, err)
			}
			if err := g.control(tt.network, tt.addr, nil); err != nil {
				t.Errorf("control(%s, %s): got %v, want nil", tt.network, tt.addr, err)
			}
		})
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	tests := map[string]struct {
		in     string
		want   string
		wantOK bool
	}{
		"decimal":           {"2130706433", "127.0.0.1", true},
		"hex":               {"0x7f000001", "127.0.0.1", true},
		"upper hex":         {"0X7F000001", "127.0.0.1", true},
		"octal dotted":      {"0177.0.0.1", "127.0.0.1", true},
		"two parts":         {"127.1", "127.0.0.1", true},
		"three parts":       {"10.1.258", "10.1.1.2", true},
		"zero":              {"0", "0.0.0.0", true},
		"plain dotted quad": {"8.8.8.8", "8.8.8.8", true},
		"name":              {"example.com", "", false},
		"hex-like name":     {"0xdeadbeef.com", "", false},
		"octet over 255":    {"256.0.0.1", "", false},
		"last part too big": {"1.2.3.256", "", false},
		"over 32 bits":      {"4294967296", "", false},
		"bad octal digit":   {"08.0.0.1", "", false},
		"five parts":        {"1.2.3.4.5", "", false},
		"empty part":        {"1..2", "", false},
		"signed":            {"+1", "", false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := parseLegacyIPv4(tt.in)
			if ok != tt.wantOK {
				t.Fatalf("parseLegacyIPv4(%q): got ok=%v, want %v", tt.in, ok, tt.wantOK)
			}
			if ok && got.String() != tt.want {
				t.Errorf("parseLegacyIPv4(%q): got %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestGuardRefusesRedirectToPrivateTarget(t *testing.T) {
	var firstHops atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /robots.txt", http.NotFound)
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "served")
	})
	mux.HandleFunc("GET /to", func(w http.ResponseWriter, r *http.Request) {
		firstHops.Add(1)
		http.Redirect(w, r, r.URL.Query().Get("target"), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c := newClient(Config{}, netip.MustParseAddrPort(srv.Listener.Addr().String()))
	t.Cleanup(c.CloseIdleConnections)

	resp, err := c.Get(context.Background(), Request{URL: srv.URL + "/ok"})
	if err != nil {
		t.Fatalf("first hop on the exempt server: got %v, want success", err)
	}
	if string(resp.Body) != "served" {
		t.Fatalf("first hop body: got %q, want %q", resp.Body, "served")
	}

	tests := map[string]struct {
		target string
		want   error
	}{
		"metadata 169.254.169.254":       {"http://169.254.169.254/latest/meta-data/", ErrPrivateAddress},
		"loopback 127.0.0.1":             {"http://127.0.0.1/", ErrPrivateAddress},
		"loopback on another port":       {"http://127.0.0.1:6379/", ErrPrivateAddress},
		"localhost name refused at dial": {"http://localhost/admin", ErrPrivateAddress},
		"ipv6 loopback":                  {"http://[::1]/", ErrPrivateAddress},
		"ipv4-mapped metadata":           {"http://[::ffff:169.254.169.254]/", ErrPrivateAddress},
		"decimal metadata":               {"http://2852039166/", ErrPrivateAddress},
		"private 10.0.0.1":               {"http://10.0.0.1/", ErrPrivateAddress},
		"file scheme":                    {"file:///etc/passwd", ErrScheme},
		"ftp scheme":                     {"ftp://127.0.0.1/", ErrScheme},
		"gopher scheme":                  {"gopher://127.0.0.1:70/", ErrScheme},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			before := firstHops.Load()
			_, err := c.Get(context.Background(), Request{URL: srv.URL + "/to?target=" + url.QueryEscape(tt.target)})
			assertFetchError(t, err, tt.want)
			if got := firstHops.Load() - before; got != 1 {
				t.Errorf("first hop served %d times, want 1", got)
			}
		})
	}
}

// CheckTarget refuses, without any lookup, every URL of the guard's table that it refuses for its address,
// so that a website can be refused when it is submitted, by the same rules.
func TestCheckTargetRefusesWhatTheGuardRefuses(t *testing.T) {
	refused := map[string]string{
		"loopback":                    "http://127.0.0.1/",
		"loopback on a non-web port":  "http://127.0.0.1:8080/",
		"decimal loopback":            "http://2130706433/",
		"octal loopback":              "http://0177.0.0.1/",
		"short loopback":              "http://127.1/",
		"private":                     "http://10.0.0.1/",
		"private 192.168":             "https://192.168.1.254/",
		"metadata":                    "http://169.254.169.254/latest/meta-data/",
		"hex metadata":                "http://0xa9fea9fe/",
		"cgnat":                       "http://100.64.0.1/",
		"unspecified":                 "http://0.0.0.0/",
		"multicast":                   "http://224.0.0.1/",
		"ipv6 loopback":               "http://[::1]/",
		"ipv4-mapped loopback":        "http://[::ffff:127.0.0.1]/",
		"unique-local":                "http://[fd12::1]/",
		"link-local with zone":        "http://[fe80::1%25eth0]/",
		"nat64 loopback":              "http://[64:ff9b::7f00:1]/",
		"localhost":                   "http://localhost/",
		"localhost upper case":        "http://LOCALHOST/",
		"localhost trailing dot":      "http://localhost./",
		"under localhost":             "http://app.localhost/",
		"public name on port 8080":    "http://example.com:8080/",
		"public name on port 22":      "https://example.com:22/",
		"public address on port 6379": "http://8.8.8.8:6379/",
		"port out of range":           "http://example.com:99999/",
		"port zero":                   "http://example.com:0/",
	}
	for name, raw := range refused {
		t.Run(name, func(t *testing.T) {
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckTarget(u)
			if !errors.Is(err, ErrPrivateAddress) {
				t.Fatalf("CheckTarget(%s) = %v, want %v", raw, err, ErrPrivateAddress)
			}
			if strings.Contains(err.Error(), "fetch:") || !strings.Contains(err.Error(), "never fetched") {
				t.Errorf("message %q should say, in words, that the address is never fetched", err)
			}
		})
	}
	for _, raw := range []string{"http://example.com/", "https://example.com/", "http://example.com:80/", "https://example.com:443/",
		"http://example.com:443/", "https://93.184.216.34/", "https://[2606:4700::1111]/", "https://localhost.example/"} {
		u, _ := url.Parse(raw)
		if err := CheckTarget(u); err != nil {
			t.Errorf("CheckTarget(%s) = %v, want nil", raw, err)
		}
	}
}
