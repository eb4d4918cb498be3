package service

import (
	"context"

	"radar"
)

// SignalQuery filters the signal list.
type SignalQuery struct {
	PageQuery
	EntityID       string
	EntityQuery    string
	Classification string
	Since, Until   string
	NeedsAttention *bool
	Type           string
	Severity       string
	Recommendation string
	Q              string
}

// ListSignals lists signals, newest first.
func (s *Service) ListSignals(ctx context.Context, p *radar.Principal, q SignalQuery) (*List[*radar.Signal], error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, err
	}
	var probs radar.Problems
	pg, view := s.page("signals", q.PageQuery, &probs)
	since, until := bounds(q.Since, q.Until, &probs)
	oneOf(&probs, "type", q.Type, radar.SignalTypes)
	oneOf(&probs, "severity", q.Severity, radar.Severities)
	oneOf(&probs, "recommendation", q.Recommendation, radar.Recommendations)
	if checkQuery(&probs, "q", q.Q) && len(q.Q) > 200 {
		probs.Add("q", "must be at most 200 characters")
	}
	terms := s.parseTerms(q.Classification, &probs)
	entityID, res, err := s.companyFilter(ctx, p.OrgID, "entityId", q.EntityID, q.EntityQuery, entityLookup, &probs)
	if err != nil {
		return nil, err
	}
	if err := cursorErr(probs); err != nil {
		return nil, err
	}
	out := &List[*radar.Signal]{Data: []*radar.Signal{}, EntityResolution: res}
	f := radar.SignalFilter{OrgID: p.OrgID, EntityID: entityID, Since: since, Until: until, NeedsAttention: q.NeedsAttention,
		Type: q.Type, Severity: q.Severity, Recommendation: q.Recommendation, Q: q.Q, Page: pg}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	rows, err := s.store.Signals(ctx, f)
	if err != nil {
		return nil, err
	}
	fill(s, out, "signals", rows, pg, signalPos, shapeSignal(view))
	return out, nil
}

func signalPos(x *radar.Signal) (int64, string) { return x.CreatedAt.Micros(), x.ID }

func shapeSignal(view string) func(*radar.Signal) {
	return func(x *radar.Signal) {
		if view == radar.ViewCompact {
			*x = x.Compact()
		}
	}
}

// GetSignal reads one signal; view defaults to full.
func (s *Service) GetSignal(ctx context.Context, p *radar.Principal, id, view string) (*radar.Signal, error) {
	return getOne(ctx, p, radar.ScopeTrackerRead, id, view, s.store.Signal, shapeSignal(radar.ViewCompact))
}

// AlertQuery filters the alert list.
type AlertQuery struct {
	PageQuery
	EntityID        string
	EntityQuery     string
	Classification  string
	Since, Until    string
	Outcome         string
	LatestPerEntity bool
}

// ListAlerts lists alerts, newest first.
func (s *Service) ListAlerts(ctx context.Context, p *radar.Principal, q AlertQuery) (*List[*radar.Alert], error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, err
	}
	var probs radar.Problems
	pg, view := s.page("alerts", q.PageQuery, &probs)
	since, until := bounds(q.Since, q.Until, &probs)
	oneOf(&probs, "outcome", q.Outcome, append([]string{radar.OutcomeAll}, radar.Outcomes...))
	terms := s.parseTerms(q.Classification, &probs)
	entityID, res, err := s.companyFilter(ctx, p.OrgID, "entityId", q.EntityID, q.EntityQuery, entityLookup, &probs)
	if err != nil {
		return nil, err
	}
	if err := cursorErr(probs); err != nil {
		return nil, err
	}
	out := &List[*radar.Alert]{Data: []*radar.Alert{}, EntityResolution: res}
	f := radar.AlertFilter{OrgID: p.OrgID, EntityID: entityID, Since: since, Until: until, Outcome: q.Outcome,
		LatestPerEntity: q.LatestPerEntity, Page: pg}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	rows, err := s.store.Alerts(ctx, f)
	if err != nil {
		return nil, err
	}
	fill(s, out, "alerts", rows, pg, alertPos, shapeAlert(view))
	return out, nil
}

func alertPos(x *radar.Alert) (int64, string) { return x.CreatedAt.Micros(), x.ID }

func shapeAlert(view string) func(*radar.Alert) {
	return func(x *radar.Alert) {
		if view == radar.ViewCompact {
			*x = x.Compact()
		}
	}
}

// GetAlert reads one alert with its rule evaluations; view defaults to full.
func (s *Service) GetAlert(ctx context.Context, p *radar.Principal, id, view string) (*radar.Alert, error) {
	return getOne(ctx, p, radar.ScopeTrackerRead, id, view, s.store.Alert, shapeAlert(radar.ViewCompact))
}
