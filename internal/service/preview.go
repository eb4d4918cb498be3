package service

import (
	"context"
	"strings"

	"radar"
	"radar/internal/analysis"
)

// previewRuns bounds how many of a company's latest runs a rule preview reads.
const previewRuns = 200

// RuleCheck is how one rule of a draft would have judged the company's earlier runs.
type RuleCheck struct {
	RuleID   string           `json:"ruleId"`
	Rule     string           `json:"rule" doc:"The rule's sentence, as written"`
	Matched  bool             `json:"matched" doc:"Whether the rule matches at least one item of the earlier runs"`
	Reason   string           `json:"reason"`
	Evidence []radar.Evidence `json:"evidence" doc:"The items the rule matches, newest run first"`
}

// RulePreview is a draft of alert rules compiled and tried on a company's earlier runs.
type RulePreview struct {
	Policy          radar.Policy `json:"policy"`
	Evaluations     []RuleCheck  `json:"evaluations"`
	RunsChecked     int          `json:"runsChecked" doc:"How many earlier runs were read (the latest 200 at most)"`
	FindingsChecked int          `json:"findingsChecked" doc:"How many items of those runs the rules were tried on"`
}

// PreviewRules compiles the draft alert rules thingsToTrack and evaluates them against the findings of the
// company's earlier runs, as a run would: it stores nothing and sends nothing.
func (s *Service) PreviewRules(ctx context.Context, p *radar.Principal, id, thingsToTrack string) (*RulePreview, error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	var probs radar.Problems
	checkLen(&probs, "thingsToTrack", thingsToTrack, 1, maxThingsToTrack, radar.MultiLine)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	ent, err := s.store.Entity(ctx, p.OrgID, id)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(thingsToTrack)
	compiled := analysis.Compile(text)
	pol := radar.Policy{Version: 1, Rules: make([]radar.PolicyRule, len(compiled.Rules))}
	if ent.Policy != nil {
		pol.Version = ent.Policy.Version
		if text != ent.ThingsToTrack {
			pol.Version++
		}
	}
	for i, r := range compiled.Rules {
		pol.Rules[i] = radar.PolicyRule{ID: r.ID, Sentence: r.Sentence, Kind: r.Kind, Types: r.Types, Keywords: r.Keywords,
			People: r.People, MinAmountUSD: r.MinAmountUSD, MinSeverity: r.MinSeverity}
	}
	sigs, err := s.store.Signals(ctx, radar.SignalFilter{OrgID: p.OrgID, EntityID: id, Page: radar.Page{Limit: previewRuns}})
	if err != nil {
		return nil, err
	}
	var findings []analysis.Finding
	items := map[string]radar.Evidence{}
	for _, sig := range sigs {
		for _, f := range sig.Findings {
			findings = append(findings, analysisFinding(f))
			if _, ok := items[f.URL]; !ok && f.URL != "" {
				items[f.URL] = radar.Evidence{URL: f.URL, Title: f.Title, Source: f.Source, Type: f.Type}
			}
		}
	}
	out := &RulePreview{Policy: pol, Evaluations: []RuleCheck{}, RunsChecked: len(sigs), FindingsChecked: len(findings)}
	for _, ev := range analysis.Evaluate(compiled, findings) {
		c := RuleCheck{RuleID: ev.RuleID, Rule: ev.Sentence, Matched: ev.Matched, Reason: ev.Reason, Evidence: []radar.Evidence{}}
		if len(findings) == 0 {
			c.Reason = "no earlier run found anything to try the rule on"
		}
		for _, u := range ev.Evidence {
			c.Evidence = append(c.Evidence, items[u])
		}
		out.Evaluations = append(out.Evaluations, c)
	}
	return out, nil
}

// analysisFinding turns a stored finding back into the analyser's form. Only the title of its item is kept, so a
// keyword is looked for in the title.
func analysisFinding(f radar.Finding) analysis.Finding {
	out := analysis.Finding{
		Item: analysis.Item{Source: f.Source, URL: f.URL, Title: f.Title}, Type: f.Type, Severity: f.Severity,
		Round: f.Round, People: f.People, Negated: f.Negated,
	}
	if f.AmountUSD > 0 {
		out.Money = &analysis.Money{Amount: f.AmountUSD, Currency: "USD", USD: f.AmountUSD}
	}
	return out
}
