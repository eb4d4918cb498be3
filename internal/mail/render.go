package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"

	"radar"
)

//go:embed templates/alert.txt templates/alert.html
var templateFS embed.FS

func templateFuncs() map[string]any {
	return map[string]any{
		"label": func(s string) string { return strings.ReplaceAll(s, "_", " ") },
		"date":  func(t *radar.Time) string { return t.UTC().Format("2 January 2006") },
	}
}

// The alert templates, parsed once at start-up; a broken template fails every test of this package.
var (
	textAlert = texttemplate.Must(texttemplate.New("alert.txt").Funcs(templateFuncs()).ParseFS(templateFS, "templates/alert.txt"))
	htmlAlert = htmltemplate.Must(htmltemplate.New("alert.html").Funcs(templateFuncs()).ParseFS(templateFS, "templates/alert.html"))
)

// Alert is the content of an alert e-mail about one signal.
type Alert struct {
	CompanyName string
	Recipients  []string
	Signal      radar.Signal
	// Matched are the alert rules that matched, with their reasons.
	Matched []radar.RuleEvaluation
	// Link is where a recipient can read the whole signal; empty leaves it out.
	Link string
}

// Subject names the company and the signal, e.g. "Radar: Tallowmere Robotics — funding (high)".
func Subject(companyName string, s radar.Signal) string {
	return oneLine(fmt.Sprintf("Radar: %s — %s (%s)", companyName, strings.ReplaceAll(s.Type, "_", " "), s.Severity))
}

// RenderAlert renders the alert e-mail of a: its subject, plain-text body and HTML body.
func RenderAlert(a Alert) (Message, error) {
	data := struct {
		Alert
		Subject string
	}{a, Subject(a.CompanyName, a.Signal)}
	var text, html bytes.Buffer
	if err := textAlert.Execute(&text, data); err != nil {
		return Message{}, fmt.Errorf("mail: render text: %w", err)
	}
	if err := htmlAlert.Execute(&html, data); err != nil {
		return Message{}, fmt.Errorf("mail: render html: %w", err)
	}
	return Message{To: a.Recipients, Subject: data.Subject, Text: text.String(), HTML: html.String()}, nil
}
