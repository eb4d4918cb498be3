package config

import (
	"slices"
	"strings"
	"testing"
)

func TestTrustedProxies(t *testing.T) {
	cases := map[string]struct {
		value string
		want  []string
		err   string
	}{
		"unset":                   {value: "", want: nil},
		"one network":             {value: "10.0.0.0/8", want: []string{"10.0.0.0/8"}},
		"several with spaces":     {value: " 10.0.0.0/8 , 192.168.1.0/24,fd00::/8 ", want: []string{"10.0.0.0/8", "192.168.1.0/24", "fd00::/8"}},
		"bare addresses":          {value: "127.0.0.1,::1", want: []string{"127.0.0.1/32", "::1/128"}},
		"host bits are dropped":   {value: "10.1.2.3/8", want: []string{"10.0.0.0/8"}},
		"empty items are skipped": {value: "10.0.0.0/8,,", want: []string{"10.0.0.0/8"}},
		"a host name":             {value: "nginx.internal", err: `RADAR_TRUSTED_PROXIES: want comma-separated CIDRs like 10.0.0.0/8,fd00::/8, got "nginx.internal"`},
		"a bad length":            {value: "10.0.0.0/33", err: `got "10.0.0.0/33"`},
		"one bad among good":      {value: "10.0.0.0/8, 300.1.1.1", err: `got "300.1.1.1"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Load(env(map[string]string{"RADAR_TRUSTED_PROXIES": tc.value}), nil)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Finish()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(c.Proxies))
			for i, p := range c.Proxies {
				got[i] = p.String()
			}
			if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("Proxies = %v, want %v", got, tc.want)
			}
			for _, p := range c.Proxies {
				if p != p.Masked() || !p.IsValid() {
					t.Errorf("prefix %v is not canonical", p)
				}
			}
		})
	}
}
