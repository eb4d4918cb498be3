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
	// Changed keeps only runs that found something (true) or only quiet runs (false); nil keeps both.
	Changed *bool
	// Unseen keeps only signals after the caller's read position.
	Unseen bool
}

// scope names the query for its cursors.
func (q SignalQuery) scope(p *radar.Principal) string {
	return cursorScope("signals", p.OrgID, q.EntityID, q.EntityQuery, q.Classification, q.Since, q.Until, q.NeedsAttention,
		q.Type, q.Severity, q.Recommendation, q.Q, q.Changed)
}

// ListSignals lists signals, newest first.
func (s *Service) ListSignals(ctx context.Context, p *radar.Principal, q SignalQuery) (*List[*radar.Signal], error) {
	f, out, view, err := s.signalFilter(ctx, p, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Signals(ctx, f)
	if err != nil {
		return nil, err
	}
	fill(s, out, q.scope(p), rows, f.Page, signalPos, shapeSignal(view))
	return out, nil
}

// CountSignals counts the signals q selects, up to MaxCount; its paging is ignored.
func (s *Service) CountSignals(ctx context.Context, p *radar.Principal, q SignalQuery) (int, error) {
	q.PageQuery = PageQuery{}
	f, _, _, err := s.signalFilter(ctx, p, q)
	if err != nil {
		return 0, err
	}
	return s.store.CountSignals(ctx, f, MaxCount)
}

// signalFilter checks q and turns it into the store's filter, with the list to fill and its view.
func (s *Service) signalFilter(ctx context.Context, p *radar.Principal, q SignalQuery) (radar.SignalFilter, *List[*radar.Signal], string, error) {
	var f radar.SignalFilter
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return f, nil, "", err
	}
	var probs radar.Problems
	pg, view := s.page(q.scope(p), q.PageQuery, &probs)
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
		return f, nil, "", err
	}
	if err := cursorErr(probs); err != nil {
		return f, nil, "", err
	}
	seen, err := s.seenThrough(ctx, p, q.Unseen)
	if err != nil {
		return f, nil, "", err
	}
	out := &List[*radar.Signal]{Data: []*radar.Signal{}, EntityResolution: res}
	f = radar.SignalFilter{SeenThrough: seen, OrgID: p.OrgID, EntityID: entityID, Since: since, Until: until, NeedsAttention: q.NeedsAttention,
		Type: q.Type, Severity: q.Severity, Recommendation: q.Recommendation, Q: q.Q, Changed: q.Changed, Page: pg}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	return f, out, view, nil
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
	// Changed keeps only alerts of runs that found something (true) or only those of quiet runs (false).
	Changed *bool
	// Unseen keeps only alerts after the caller's read position.
	Unseen bool
}

// scope names the query for its cursors.
func (q AlertQuery) scope(p *radar.Principal) string {
	outcome := q.Outcome
	if outcome == "" {
		outcome = radar.OutcomeAll
	}
	return cursorScope("alerts", p.OrgID, q.EntityID, q.EntityQuery, q.Classification, q.Since, q.Until, outcome,
		q.LatestPerEntity, q.Changed)
}

// ListAlerts lists alerts, newest first.
func (s *Service) ListAlerts(ctx context.Context, p *radar.Principal, q AlertQuery) (*List[*radar.Alert], error) {
	f, out, view, err := s.alertFilter(ctx, p, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Alerts(ctx, f)
	if err != nil {
		return nil, err
	}
	fill(s, out, q.scope(p), rows, f.Page, alertPos, shapeAlert(view))
	return out, nil
}

// CountAlerts counts the alerts q selects, up to MaxCount; its paging is ignored.
func (s *Service) CountAlerts(ctx context.Context, p *radar.Principal, q AlertQuery) (int, error) {
	q.PageQuery = PageQuery{}
	f, _, _, err := s.alertFilter(ctx, p, q)
	if err != nil {
		return 0, err
	}
	return s.store.CountAlerts(ctx, f, MaxCount)
}

// alertFilter checks q and turns it into the store's filter, with the list to fill and its view.
func (s *Service) alertFilter(ctx context.Context, p *radar.Principal, q AlertQuery) (radar.AlertFilter, *List[*radar.Alert], string, error) {
	var f radar.AlertFilter
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return f, nil, "", err
	}
	var probs radar.Problems
	pg, view := s.page(q.scope(p), q.PageQuery, &probs)
	since, until := bounds(q.Since, q.Until, &probs)
	oneOf(&probs, "outcome", q.Outcome, append([]string{radar.OutcomeAll}, radar.Outcomes...))
	terms := s.parseTerms(q.Classification, &probs)
	entityID, res, err := s.companyFilter(ctx, p.OrgID, "entityId", q.EntityID, q.EntityQuery, entityLookup, &probs)
	if err != nil {
		return f, nil, "", err
	}
	if err := cursorErr(probs); err != nil {
		return f, nil, "", err
	}
	seen, err := s.seenThrough(ctx, p, q.Unseen)
	if err != nil {
		return f, nil, "", err
	}
	out := &List[*radar.Alert]{Data: []*radar.Alert{}, EntityResolution: res}
	f = radar.AlertFilter{SeenThrough: seen, OrgID: p.OrgID, EntityID: entityID, Since: since, Until: until, Outcome: q.Outcome,
		LatestPerEntity: q.LatestPerEntity, Changed: q.Changed, Page: pg}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	return f, out, view, nil
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
