package service

import (
	"context"
	"errors"
	"strings"

	"radar"
	"radar/internal/leadfind"
)

// LeadQuery filters the lead list.
type LeadQuery struct {
	PageQuery
	Decision       string
	SourceEntityID string
	SourceQuery    string
	Classification string
	Stage          string
	Name           string
}

// ListLeads lists leads, newest first.
func (s *Service) ListLeads(ctx context.Context, p *radar.Principal, q LeadQuery) (*List[*radar.Lead], error) {
	if err := p.Require(radar.ScopeLeadsRead); err != nil {
		return nil, err
	}
	var probs radar.Problems
	scope := cursorScope("leads", p.OrgID, q.Decision, q.SourceEntityID, q.SourceQuery, q.Classification, q.Stage, q.Name)
	pg, view := s.page(scope, q.PageQuery, &probs)
	oneOf(&probs, "decision", q.Decision, []string{radar.DecisionUnreviewed, radar.DecisionAccepted, radar.DecisionRejected})
	oneOf(&probs, "stage", q.Stage, radar.Stages)
	if checkQuery(&probs, "name", q.Name) && len(q.Name) > 200 {
		probs.Add("name", "must be at most 200 characters")
	}
	terms := s.parseTerms(q.Classification, &probs)
	sourceID, res, err := s.companyFilter(ctx, p.OrgID, "sourceEntityId", q.SourceEntityID, q.SourceQuery, sourceLookup, &probs)
	if err != nil {
		return nil, err
	}
	if err := cursorErr(probs); err != nil {
		return nil, err
	}
	out := &List[*radar.Lead]{Data: []*radar.Lead{}, SourceResolution: res}
	f := radar.LeadFilter{OrgID: p.OrgID, Decision: q.Decision, SourceEntityID: sourceID, Stage: q.Stage,
		Name: strings.TrimSpace(q.Name), Page: pg}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	rows, err := s.store.Leads(ctx, f)
	if err != nil {
		return nil, err
	}
	fill(s, out, scope, rows, pg, leadPos, shapeLead(view))
	return out, nil
}

func leadPos(x *radar.Lead) (int64, string) { return x.CreatedAt.Micros(), x.ID }

func shapeLead(view string) func(*radar.Lead) {
	return func(x *radar.Lead) {
		if view == radar.ViewCompact {
			*x = x.Compact()
		}
	}
}

// GetLead reads one lead with full company detail; view defaults to full.
func (s *Service) GetLead(ctx context.Context, p *radar.Principal, id, view string) (*radar.Lead, error) {
	return getOne(ctx, p, radar.ScopeLeadsRead, id, view, s.store.Lead, shapeLead(radar.ViewCompact))
}

// DecideLead accepts or rejects a lead without tracking anything.
func (s *Service) DecideLead(ctx context.Context, p *radar.Principal, id string, accepted *bool) (*radar.Lead, error) {
	if err := p.Require(radar.ScopeLeadsWrite); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	if accepted == nil {
		return nil, radar.Errorf(radar.EValidation, "accepted: is required (true accepts, false rejects)")
	}
	status := radar.DecisionRejected
	if *accepted {
		status = radar.DecisionAccepted
	}
	return s.store.DecideLead(ctx, p.OrgID, id, status, "", s.nowTime())
}

// TrackInput is the body of a lead track.
type TrackInput struct {
	ThingsToTrack      string   `json:"thingsToTrack" doc:"Alert rules in plain language, 1-10000 characters" minLength:"1" maxLength:"10000"`
	AlertEmails        []string `json:"alertEmails" doc:"1-20 recipient addresses" minItems:"1" maxItems:"20"`
	EmailAlertsEnabled *bool    `json:"emailAlertsEnabled,omitempty" doc:"Send alert e-mails; default true"`
	CadenceDays        *int     `json:"cadenceDays,omitempty" doc:"3, 7 or 30; default 7" enum:"3,7,30"`
	CompanyWebsite     string   `json:"companyWebsite,omitempty" doc:"The company's website, required when the lead has none" format:"uri"`
}

// TrackLead accepts a lead and tracks its company through the same path as a create.
func (s *Service) TrackLead(ctx context.Context, p *radar.Principal, id string, in TrackInput, idemKey string) (*CreateResult, error) {
	if err := p.Require(radar.ScopeLeadsWrite, radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	if err := validateIdempotencyKey(idemKey); err != nil {
		return nil, err
	}
	l, err := s.store.Lead(ctx, p.OrgID, id)
	if err != nil {
		return nil, err
	}
	if l.Decision.TrackedEntityID != "" {
		e, err := s.store.Entity(ctx, p.OrgID, l.Decision.TrackedEntityID)
		if err == nil {
			s.decorate(e, radar.ViewFull)
			return &CreateResult{Entity: e, Existing: true}, nil
		}
		if !errors.Is(err, radar.ErrNotFound) {
			return nil, err
		}
	}
	website := in.CompanyWebsite
	if website == "" {
		website = l.Company.Website
	}
	summary := l.Company.Summary
	if summary == leadfind.Undescribed(l.Company.Name) {
		summary = ""
	}
	yes := true
	ein := radar.EntityInput{
		CompanyName: l.Company.Name, CompanyWebsite: website, CompanySummary: summary,
		Founders:      []radar.FounderInput{{Name: l.PersonName, LinkedinURL: l.LinkedinURL, TwitterURL: l.TwitterURL, GithubURL: l.GithubURL}},
		ThingsToTrack: in.ThingsToTrack, AlertEmails: in.AlertEmails, EmailAlertsEnabled: in.EmailAlertsEnabled,
		CadenceDays: in.CadenceDays,
	}
	if err := s.validateInput(&ein, &yes, true); err != nil {
		if e, ok := radar.AsError(err); ok && website == "" {
			e.Message = strings.Replace(e.Message, "companyWebsite: is required", "companyWebsite: is required: the lead has no known website, so send companyWebsite", 1)
		}
		return nil, err
	}
	trimInput(&ein)
	return s.create(ctx, p, ein, idemKey, "track:"+id, func(e *radar.Entity) error {
		_, err := s.store.DecideLead(ctx, p.OrgID, id, radar.DecisionAccepted, e.ID, s.nowTime())
		return err
	})
}
