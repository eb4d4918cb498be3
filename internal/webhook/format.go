package webhook

import (
	"encoding/json"
	"fmt"
	"strings"

	"radar"
)

// card is what a chat message shows of an event, whatever the chat.
type card struct {
	Title    string
	Company  string
	Type     string // the signal type, when the event has one
	Severity string
	Summary  string
	Evidence []radar.Evidence
	Link     string // back to Radar
}

// eventData is the union of the data documents of every event, as far as a chat message needs them.
type eventData struct {
	ID          string           `json:"id"`
	CompanyName string           `json:"companyName"`
	Type        string           `json:"type"`
	Severity    string           `json:"severity"`
	Summary     string           `json:"summary"`
	Evidence    []radar.Evidence `json:"evidence"`
	Outcome     string           `json:"outcome"`
	Reason      string           `json:"reason"`
	PersonName  string           `json:"personName"`
	PersonRole  string           `json:"personRole"`
	Relation    string           `json:"relation"`
	Company     struct {
		Name string `json:"name"`
	} `json:"company"`
	Message string `json:"message"`
}

// cardOf reads the card of a stored payload; base is Radar's public address.
func cardOf(payload []byte, base string) (card, error) {
	var p struct {
		Type string    `json:"type"`
		Data eventData `json:"data"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return card{}, fmt.Errorf("webhook: payload: %w", err)
	}
	d := p.Data
	c := card{Company: d.CompanyName, Evidence: d.Evidence}
	switch p.Type {
	case radar.EventSignalCreated, radar.EventSignalChanged:
		c.Title = "New signal: " + d.CompanyName
		c.Type, c.Severity, c.Summary = d.Type, d.Severity, d.Summary
		c.Link = base + "/signals/" + d.ID
	case radar.EventAlertSent, radar.EventAlertFailed:
		c.Title = "Alert e-mail " + d.Outcome + ": " + d.CompanyName
		if p.Type == radar.EventAlertFailed {
			c.Title = "Alert e-mail failed: " + d.CompanyName
		}
		c.Summary = d.Reason
		c.Link = base + "/alerts/" + d.ID
	case radar.EventLeadFound:
		c.Company = d.Company.Name
		c.Title = "New lead: " + d.PersonName
		c.Summary = strings.TrimSpace(d.PersonName + ", " + d.PersonRole + " (" + d.Relation + ")")
		c.Link = base + "/leads/" + d.ID
	case radar.EventEnrichmentCompleted:
		c.Title = "Profiles found: " + d.CompanyName
		c.Summary = "Radar finished looking for the company's profiles."
		c.Link = base + "/companies/" + d.ID
	default:
		c.Title = "Radar test event"
		c.Summary = d.Message
		c.Link = base + "/webhooks"
	}
	return c, nil
}

// Limits of Slack's Block Kit.
const (
	slackHeaderMax  = 150
	slackSectionMax = 3000
	slackFieldMax   = 2000
	// chatEvidence bounds the evidence links of a chat message.
	chatEvidence = 5
)

// slackEscape escapes the characters Slack's mrkdwn reserves.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

type slackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type slackBlock struct {
	Type     string         `json:"type"`
	Text     *slackText     `json:"text,omitempty"`
	Fields   []slackText    `json:"fields,omitempty"`
	Elements []slackElement `json:"elements,omitempty"`
}

type slackElement struct {
	Type string    `json:"type"`
	Text slackText `json:"text"`
	URL  string    `json:"url"`
}

// slackMessage is a Slack incoming-webhook message of c in Block Kit.
func slackMessage(c card) ([]byte, error) {
	blocks := []slackBlock{{Type: "header", Text: &slackText{Type: "plain_text", Text: radar.Truncate(c.Title, slackHeaderMax)}}}
	var fields []slackText
	for _, f := range [][2]string{{"Company", c.Company}, {"Signal type", c.Type}, {"Severity", c.Severity}} {
		if f[1] != "" {
			fields = append(fields, slackText{Type: "mrkdwn", Text: radar.Truncate("*"+f[0]+"*\n"+slackEscape(f[1]), slackFieldMax)})
		}
	}
	if len(fields) > 0 {
		blocks = append(blocks, slackBlock{Type: "section", Fields: fields})
	}
	if c.Summary != "" {
		blocks = append(blocks, slackBlock{Type: "section", Text: &slackText{Type: "mrkdwn", Text: radar.Truncate(slackEscape(c.Summary), slackSectionMax)}})
	}
	if len(c.Evidence) > 0 {
		var b strings.Builder
		b.WriteString("*Evidence*")
		for _, e := range c.Evidence[:min(len(c.Evidence), chatEvidence)] {
			title := e.Title
			if title == "" {
				title = e.URL
			}
			fmt.Fprintf(&b, "\n• <%s|%s>", strings.NewReplacer("|", "%7C", ">", "%3E").Replace(e.URL), slackEscape(title))
		}
		blocks = append(blocks, slackBlock{Type: "section", Text: &slackText{Type: "mrkdwn", Text: radar.Truncate(b.String(), slackSectionMax)}})
	}
	blocks = append(blocks, slackBlock{Type: "actions", Elements: []slackElement{{
		Type: "button", Text: slackText{Type: "plain_text", Text: "Open in Radar"}, URL: c.Link,
	}}})
	return json.Marshal(map[string]any{"text": c.Title, "blocks": blocks})
}

// teamsMessage is a Microsoft Teams incoming-webhook message: an Adaptive Card of c in the message envelope.
func teamsMessage(c card) ([]byte, error) {
	body := []map[string]any{{"type": "TextBlock", "text": c.Title, "weight": "Bolder", "size": "Medium", "wrap": true}}
	var facts []map[string]string
	for _, f := range [][2]string{{"Company", c.Company}, {"Signal type", c.Type}, {"Severity", c.Severity}} {
		if f[1] != "" {
			facts = append(facts, map[string]string{"title": f[0], "value": f[1]})
		}
	}
	if len(facts) > 0 {
		body = append(body, map[string]any{"type": "FactSet", "facts": facts})
	}
	if c.Summary != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": c.Summary, "wrap": true})
	}
	if len(c.Evidence) > 0 {
		var b strings.Builder
		for i, e := range c.Evidence[:min(len(c.Evidence), chatEvidence)] {
			if i > 0 {
				b.WriteString("\n")
			}
			title := e.Title
			if title == "" {
				title = e.URL
			}
			fmt.Fprintf(&b, "- [%s](%s)", strings.NewReplacer("[", "(", "]", ")").Replace(title), e.URL)
		}
		body = append(body, map[string]any{"type": "TextBlock", "text": b.String(), "wrap": true})
	}
	content := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    body,
		"actions": []map[string]any{{"type": "Action.OpenUrl", "title": "Open in Radar", "url": c.Link}},
	}
	return json.Marshal(map[string]any{
		"type": "message",
		"attachments": []map[string]any{{
			"contentType": "application/vnd.microsoft.card.adaptive",
			"contentUrl":  nil,
			"content":     content,
		}},
	})
}

// Body is what a delivery of payload to an endpoint of kind sends: the payload itself, or a chat message.
func Body(kind string, payload []byte, base string) ([]byte, error) {
	if kind == radar.WebhookKindWebhook {
		return payload, nil
	}
	c, err := cardOf(payload, base)
	if err != nil {
		return nil, err
	}
	if kind == radar.WebhookKindSlack {
		return slackMessage(c)
	}
	return teamsMessage(c)
}
