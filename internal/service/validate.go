package service

import (
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"radar"
	"radar/internal/fetch"
)

// Field limits of the specification.
const (
	maxCompanyName   = 200
	maxSummary       = 5000
	maxThingsToTrack = 10000
	maxFounders      = 10
	maxAlertEmails   = 20
	maxFounderName   = 200
	maxURL           = 2048
	maxTags          = 50
	maxTagLen        = 50
)

// CadenceDays lists the allowed cadences.
var CadenceDays = []int{3, 7, 30}

func checkLen(p *radar.Problems, path, v string, min, max int, kind radar.TextKind) {
	if !p.Text(path, v, kind) {
		return
	}
	n := utf8.RuneCountInString(strings.TrimSpace(v))
	switch {
	case n < min && min == 1:
		p.Add(path, "is required")
	case n < min || n > max:
		p.Addf(path, "must be %d-%d characters, got %d", min, max, n)
	}
}

func checkMax(p *radar.Problems, path, v string, max int, kind radar.TextKind) {
	if !p.Text(path, v, kind) {
		return
	}
	if n := utf8.RuneCountInString(v); n > max {
		p.Addf(path, "must be at most %d characters, got %d", max, n)
	}
}

// checkURL requires an absolute http or https URL (when required, or when given).
func checkURL(p *radar.Problems, path, v string, required bool) {
	if v == "" {
		if required {
			p.Add(path, "is required")
		}
		return
	}
	if !p.Text(path, v, radar.SingleLine) {
		return
	}
	if len(v) > maxURL {
		p.Addf(path, "must be at most %d characters", maxURL)
		return
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(v, " \t\n") {
		p.Add(path, "must be an absolute http or https URL")
	}
}

// checkWebsite requires a website URL that the fetcher can reach: unless private fetching is on, a port
// other than 80 and 443, a loopback or private address, or localhost is refused now rather than at every run.
func (s *Service) checkWebsite(p *radar.Problems, path, v string) {
	n := len(*p)
	checkURL(p, path, v, true)
	if len(*p) > n || !s.publicOnly {
		return
	}
	u, _ := url.Parse(v)
	if err := fetch.CheckTarget(u); err != nil {
		p.Addf(path, "must be a public website: %v", err)
	}
}

func checkCadence(p *radar.Problems, path string, v int) {
	for _, c := range CadenceDays {
		if v == c {
			return
		}
	}
	p.Addf(path, "must be 3, 7 or 30, got %d", v)
}

func checkDigest(p *radar.Problems, path, v string) {
	if !slices.Contains(radar.DigestPeriods, v) {
		p.Addf(path, "must be off, daily or weekly, got %q", v)
	}
}

func checkEmails(p *radar.Problems, path string, emails []string) {
	if len(emails) < 1 || len(emails) > maxAlertEmails {
		p.Addf(path, "must have 1-%d items, got %d", maxAlertEmails, len(emails))
	}
	seen := map[string]int{}
	for i, e := range emails {
		ip := fmt.Sprintf("%s[%d]", path, i)
		if !p.Text(ip, e, radar.SingleLine) {
			continue
		}
		a, err := mail.ParseAddress(e)
		if err != nil || a.Address != e || a.Name != "" || !strings.Contains(e[strings.LastIndex(e, "@")+1:], ".") && !strings.HasSuffix(e, "@localhost") {
			p.Addf(ip, "must be an e-mail address like name@example.com, got %q", e)
			continue
		}
		key := strings.ToLower(e)
		if j, dup := seen[key]; dup {
			p.Addf(ip, "duplicates %s[%d]", path, j)
		}
		seen[key] = i
	}
}

func checkFounder(p *radar.Problems, path string, f radar.FounderInput) {
	checkLen(p, path+".name", f.Name, 1, maxFounderName, radar.SingleLine)
	checkURL(p, path+".linkedinUrl", f.LinkedinURL, false)
	checkURL(p, path+".twitterUrl", f.TwitterURL, false)
	checkURL(p, path+".githubUrl", f.GithubURL, false)
}

// validateInput checks every field of a create, or of a draft, which needs only companyName and
// companyWebsite; confirmed is checked only on create.
func (s *Service) validateInput(in *radar.EntityInput, confirmed *bool, create bool) error {
	var p radar.Problems
	draft := !create
	checkLen(&p, "companyName", in.CompanyName, 1, maxCompanyName, radar.SingleLine)
	s.checkWebsite(&p, "companyWebsite", in.CompanyWebsite)
	checkURL(&p, "companyLinkedinUrl", in.CompanyLinkedinURL, false)
	checkURL(&p, "companyTwitterUrl", in.CompanyTwitterURL, false)
	checkURL(&p, "companyGithubUrl", in.CompanyGithubURL, false)
	checkMax(&p, "companySummary", in.CompanySummary, maxSummary, radar.MultiLine)
	if in.Founders == nil {
		if !draft {
			p.Add("founders", "is required")
		}
	} else if len(in.Founders) < 1 || len(in.Founders) > maxFounders {
		p.Addf("founders", "must have 1-%d items, got %d", maxFounders, len(in.Founders))
	}
	for i, f := range in.Founders {
		path := fmt.Sprintf("founders[%d]", i)
		if f.ID != "" {
			p.Add(path+".id", "is accepted only on PATCH")
		}
		checkFounder(&p, path, f)
	}
	if !draft || in.ThingsToTrack != "" {
		checkLen(&p, "thingsToTrack", in.ThingsToTrack, 1, maxThingsToTrack, radar.MultiLine)
	}
	if in.AlertEmails == nil {
		if !draft {
			p.Add("alertEmails", "is required")
		}
	} else {
		checkEmails(&p, "alertEmails", in.AlertEmails)
	}
	if in.CadenceDays != nil {
		checkCadence(&p, "cadenceDays", *in.CadenceDays)
	}
	if in.Digest != nil {
		checkDigest(&p, "digest", *in.Digest)
	}
	if create && (confirmed == nil || !*confirmed) {
		p.Add("confirmed", "must be true: confirm that the company should be tracked")
	}
	return p.Err()
}

// checkQuery checks a free-text query parameter (q, name, entityQuery, …): one line of valid text.
func checkQuery(p *radar.Problems, path, v string) bool {
	if v == "" {
		return true
	}
	return p.Text(path, v, radar.SingleLine)
}

// validateIdempotencyKey checks the Idempotency-Key header: 8-200 printable ASCII characters, no spaces.
func validateIdempotencyKey(k string) error {
	if k == "" {
		return nil
	}
	if len(k) < 8 || len(k) > 200 {
		return radar.Errorf(radar.EValidation, "Idempotency-Key: must be 8-200 printable ASCII characters without spaces, got %d characters", len(k))
	}
	for _, c := range []byte(k) {
		if c <= ' ' || c > '~' {
			return radar.Errorf(radar.EValidation, "Idempotency-Key: must be 8-200 printable ASCII characters without spaces")
		}
	}
	return nil
}

// trimInput normalises white space of a valid input.
func trimInput(in *radar.EntityInput) {
	in.CompanyName = strings.TrimSpace(in.CompanyName)
	in.ThingsToTrack = strings.TrimSpace(in.ThingsToTrack)
	in.CompanySummary = strings.TrimSpace(in.CompanySummary)
	for i := range in.Founders {
		in.Founders[i].Name = strings.TrimSpace(in.Founders[i].Name)
	}
}
