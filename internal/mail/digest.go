package mail

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"slices"
	texttemplate "text/template"
	"time"

	"radar"
)

//go:embed templates/digest.txt templates/digest.html
var digestFS embed.FS

// Digest is the content of a digest e-mail: the runs that found something for one recipient over one period.
type Digest struct {
	Recipient string
	// Period is daily or weekly.
	Period         string
	Since, Through time.Time
	// Signals are the runs, in any order; RenderDigest groups them by company and orders them by severity.
	Signals []*radar.Signal
	// SignalLink, when set, returns where a recipient can read a signal.
	SignalLink func(id string) string
	// UnsubscribeURL is the one-click link that turns the recipient's digests off (RFC 8058).
	UnsubscribeURL string
}

// DigestCompany is one company's runs in a digest, most severe first.
type DigestCompany struct {
	Name    string
	Signals []*radar.Signal
}

// GroupDigest groups signals by company: companies with the most severe run first (then by name), and each
// company's runs most severe first, newest first among equals.
func GroupDigest(signals []*radar.Signal) []DigestCompany {
	byEntity := map[string]int{}
	var out []DigestCompany
	sorted := slices.Clone(signals)
	slices.SortStableFunc(sorted, compareSignals)
	for _, s := range sorted {
		i, ok := byEntity[s.EntityID]
		if !ok {
			i = len(out)
			byEntity[s.EntityID] = i
			out = append(out, DigestCompany{Name: s.CompanyName})
		}
		out[i].Signals = append(out[i].Signals, s)
	}
	slices.SortStableFunc(out, func(a, b DigestCompany) int {
		if c := cmp.Compare(severity(b.Signals[0]), severity(a.Signals[0])); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// compareSignals orders the more severe signal first, then the newer one.
func compareSignals(a, b *radar.Signal) int {
	if c := cmp.Compare(severity(b), severity(a)); c != 0 {
		return c
	}
	return b.CreatedAt.Compare(a.CreatedAt.Time)
}

func severity(s *radar.Signal) int { return slices.Index(radar.Severities, s.Severity) }

// DigestSubject is e.g. "Radar daily digest: 3 runs at 2 companies".
func DigestSubject(period string, runs, companies int) string {
	return fmt.Sprintf("Radar %s digest: %d %s at %d %s", period, runs, plural(runs, "run", "runs"), companies, plural(companies, "company", "companies"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func digestFuncs(link func(string) string) map[string]any {
	fs := templateFuncs()
	fs["stamp"] = func(t any) string {
		switch v := t.(type) {
		case time.Time:
			return v.UTC().Format("2 Jan 2006 15:04")
		case radar.Time:
			return v.UTC().Format("2 Jan 2006 15:04")
		}
		return ""
	}
	fs["link"] = func(id string) string {
		if link == nil {
			return ""
		}
		return link(id)
	}
	return fs
}

// The digest templates, parsed once at start-up; "link" is replaced per digest.
var (
	textDigest = texttemplate.Must(texttemplate.New("digest.txt").Funcs(digestFuncs(nil)).ParseFS(digestFS, "templates/digest.txt"))
	htmlDigest = htmltemplate.Must(htmltemplate.New("digest.html").Funcs(digestFuncs(nil)).ParseFS(digestFS, "templates/digest.html"))
)

// RenderDigest renders the digest e-mail of d, with the List-Unsubscribe headers when d has an unsubscribe link.
func RenderDigest(d Digest) (Message, error) {
	companies := GroupDigest(d.Signals)
	data := struct {
		Digest
		Subject   string
		Runs      int
		Companies []DigestCompany
	}{d, DigestSubject(d.Period, len(d.Signals), len(companies)), len(d.Signals), companies}
	funcs := digestFuncs(d.SignalLink)
	text, err := textDigest.Clone()
	if err != nil {
		return Message{}, fmt.Errorf("mail: render digest: %w", err)
	}
	html, err := htmlDigest.Clone()
	if err != nil {
		return Message{}, fmt.Errorf("mail: render digest: %w", err)
	}
	var tb, hb bytes.Buffer
	if err := text.Funcs(funcs).Execute(&tb, data); err != nil {
		return Message{}, fmt.Errorf("mail: render digest text: %w", err)
	}
	if err := html.Funcs(funcs).Execute(&hb, data); err != nil {
		return Message{}, fmt.Errorf("mail: render digest html: %w", err)
	}
	return Message{To: []string{d.Recipient}, Subject: data.Subject, Text: tb.String(), HTML: hb.String(),
		ListUnsubscribe: d.UnsubscribeURL}, nil
}
