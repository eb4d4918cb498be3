package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"radar"
)

// Idempotency keys are remembered for idemTTL; a claim still in progress after idemStale is taken over.
const (
	idemTTL   = 24 * time.Hour
	idemStale = 2 * time.Minute
	pollEvery = 2
)

// CreateResult is the outcome of a create or a lead track.
type CreateResult struct {
	Entity   *radar.Entity
	Created  bool // a new entity: 201
	Replayed bool // an idempotent replay: 200
	Existing bool // an already tracked company reused and updated: 200
	// FirstStatus is, on a replay, the status the first request answered (201 or 200).
	FirstStatus int
}

func newID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// CreateEntity tracks a company, or reuses and updates the entity that already tracks it.
func (s *Service) CreateEntity(ctx context.Context, p *radar.Principal, c radar.CreateInput, idemKey string) (*CreateResult, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	in := c.EntityInput
	if err := s.validateInput(&in, c.Confirmed, true); err != nil {
		return nil, err
	}
	if err := validateIdempotencyKey(idemKey); err != nil {
		return nil, err
	}
	trimInput(&in)
	return s.create(ctx, p, in, idemKey, "create", nil)
}

// create runs a validated create under an optional idempotency key; after runs in the same request once the
// entity exists (a lead track records its decision there).
func (s *Service) create(ctx context.Context, p *radar.Principal, in radar.EntityInput, idemKey, scope string, after func(*radar.Entity) error) (*CreateResult, error) {
	var idem *radar.IdempotencyRecord
	if idemKey != "" {
		body, _ := json.Marshal(in)
		sum := sha256.Sum256(append([]byte(scope+"\x00"), body...))
		now := s.nowTime()
		idem = &radar.IdempotencyRecord{OrgID: p.OrgID, Key: idemKey, Scope: scope, RequestHash: hex.EncodeToString(sum[:]), CreatedAt: now}
		existing, claimed, err := s.store.BeginIdempotent(ctx, idem,
			radar.NewTime(now.Add(-idemTTL)), radar.NewTime(now.Add(-idemStale)))
		if err != nil {
			return nil, err
		}
		if !claimed {
			return s.replay(ctx, p, idem, existing)
		}
	}
	res, err := s.createOrReuse(ctx, p, in, idem)
	if err == nil && after != nil {
		err = after(res.Entity)
	}
	if err != nil {
		if idem != nil {
			if aerr := s.store.AbandonIdempotent(context.WithoutCancel(ctx), p.OrgID, idemKey); aerr != nil {
				s.logger.Error("abandon idempotency key", "err", aerr)
			}
		}
		return nil, err
	}
	s.decorate(res.Entity, radar.ViewFull)
	return res, nil
}

func (s *Service) replay(ctx context.Context, p *radar.Principal, req, rec *radar.IdempotencyRecord) (*CreateResult, error) {
	if rec.RequestHash != req.RequestHash || rec.Scope != req.Scope {
		return nil, radar.Errorf(radar.EIdempotencyConflict, "Idempotency-Key %q was used with a different request in the last 24 hours; use a new key", req.Key)
	}
	if rec.State != radar.IdemDone {
		return nil, radar.Errorf(radar.EIdempotencyInProgress, "a request with Idempotency-Key %q is still in progress; retry shortly", req.Key)
	}
	e, err := s.store.Entity(ctx, p.OrgID, rec.EntityID)
	if err != nil {
		return nil, err
	}
	s.decorate(e, radar.ViewFull)
	return &CreateResult{Entity: e, Replayed: true, FirstStatus: rec.StatusCode}, nil
}

func (s *Service) createOrReuse(ctx context.Context, p *radar.Principal, in radar.EntityInput, idem *radar.IdempotencyRecord) (*CreateResult, error) {
	now := s.nowTime()
	e := &radar.Entity{
		ID: newID(), OrgID: p.OrgID, Status: radar.StatusOK, Tags: []string{}, Sectors: []string{},
		Stage: radar.StageUnknown, EnrichmentStatus: radar.EnrichQueued, ScrapeHealthReason: radar.HealthPending,
		EmailAlertsEnabled: true, CadenceDays: 7, Digest: radar.DigestOff, CreatedAt: now, UpdatedAt: now,
	}
	s.applyInput(e, in)
	// The create goes first: a company tracked already is the rarer case, found by the store's refusal of its
	// identity keys, so a new company costs one write and no lookup.
	for attempt := 0; ; attempt++ {
		if idem != nil {
			idem.StatusCode = 201
		}
		jobs := []radar.JobArgs{radar.EnrichArgs{OrgID: p.OrgID, EntityID: e.ID, ThenRun: true}}
		createErr := s.store.CreateEntity(ctx, e, jobs, idem)
		if createErr == nil {
			return &CreateResult{Entity: e, Created: true}, nil
		}
		if !errors.Is(createErr, radar.ErrDuplicate) {
			return nil, createErr
		}
		existing, err := s.store.FindExistingEntity(ctx, p.OrgID, radar.IdentityKeys(e))
		if errors.Is(err, radar.ErrNotFound) {
			if attempt == 0 {
				// The company that held the keys was deleted a moment ago: create it again.
				continue
			}
			return nil, createErr
		}
		if err != nil {
			return nil, err
		}
		s.applyInput(existing, in)
		existing.UpdatedAt = now
		if idem != nil {
			idem.StatusCode = 200
		}
		if err := s.store.UpdateEntity(ctx, existing, nil, idem); err != nil {
			return nil, err
		}
		return &CreateResult{Entity: existing, Existing: true}, nil
	}
}

// applyInput writes the fields of in over e; founders are matched to stored ones by profile or name.
func (s *Service) applyInput(e *radar.Entity, in radar.EntityInput) {
	e.CompanyName = in.CompanyName
	e.CompanyWebsite = in.CompanyWebsite
	for _, f := range []struct {
		dst *string
		v   string
	}{{&e.CompanyLinkedinURL, in.CompanyLinkedinURL}, {&e.CompanyTwitterURL, in.CompanyTwitterURL}, {&e.CompanyGithubURL, in.CompanyGithubURL}, {&e.CompanySummary, in.CompanySummary}} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	for _, f := range in.Founders {
		i := slices.IndexFunc(e.Founders, func(g radar.Founder) bool { return sameFounder(g, f) })
		if i < 0 {
			e.Founders = append(e.Founders, radar.Founder{ID: newID(), Name: f.Name})
			i = len(e.Founders) - 1
		}
		mergeFounder(&e.Founders[i], f)
	}
	s.setRules(e, in.ThingsToTrack)
	e.AlertEmails = in.AlertEmails
	if in.EmailAlertsEnabled != nil {
		e.EmailAlertsEnabled = *in.EmailAlertsEnabled
	}
	if in.CadenceDays != nil {
		e.CadenceDays = *in.CadenceDays
	}
	if in.Digest != nil {
		e.Digest = *in.Digest
	}
}

func sameFounder(g radar.Founder, f radar.FounderInput) bool {
	if strings.EqualFold(strings.TrimSpace(g.Name), strings.TrimSpace(f.Name)) {
		return true
	}
	for _, pair := range [][2]string{{g.LinkedinURL, f.LinkedinURL}, {g.TwitterURL, f.TwitterURL}, {g.GithubURL, f.GithubURL}} {
		if k := radar.NormalizeURLKey(pair[0]); k != "" && k == radar.NormalizeURLKey(pair[1]) {
			return true
		}
	}
	return false
}

func mergeFounder(dst *radar.Founder, f radar.FounderInput) {
	dst.Name = f.Name
	if f.LinkedinURL != "" {
		dst.LinkedinURL = f.LinkedinURL
	}
	if f.TwitterURL != "" {
		dst.TwitterURL = f.TwitterURL
	}
	if f.GithubURL != "" {
		dst.GithubURL = f.GithubURL
	}
}

// setRules stores new alert rules and compiles them into the next policy version.
func (s *Service) setRules(e *radar.Entity, text string) {
	if text == e.ThingsToTrack && e.Policy != nil {
		return
	}
	version := 1
	if e.Policy != nil {
		version = e.Policy.Version + 1
	}
	e.ThingsToTrack = text
	pol := radar.Policy{Rules: []radar.PolicyRule{}}
	if s.compile != nil {
		pol = s.compile(text)
	}
	pol.Version = version
	e.Policy = &pol
}

// operation is the enrichment progress of e.
func (s *Service) operation(e *radar.Entity) *radar.Operation {
	op := &radar.Operation{
		EntityID: e.ID, PollURL: s.baseURL + "/api/v1/tracker/" + e.ID,
		EnrichmentStatus: e.EnrichmentStatus, EnrichmentComplete: radar.EnrichmentComplete(e.EnrichmentStatus),
	}
	if !op.EnrichmentComplete || e.LastScrapedAt == nil || e.RunningSince != nil {
		v := pollEvery
		op.SuggestedPollIntervalSeconds = &v
	}
	return op
}

// decorate adds the operation and shapes the view; the store has read the latest signal with the entity.
func (s *Service) decorate(e *radar.Entity, view string) {
	e.Operation = s.operation(e)
	shapeEntity(e, view)
}

func shapeEntity(e *radar.Entity, view string) {
	if view == radar.ViewCompact {
		e.Policy = nil
		e.CompanySummary = radar.Truncate(e.CompanySummary, radar.CompactSummaryLen)
		e.ThingsToTrack = radar.Truncate(e.ThingsToTrack, radar.CompactSummaryLen)
	}
}

func checkID(path, id string) error {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return radar.Errorf(radar.EValidation, "%s: must be a UUID, got %q", path, id)
	}
	return nil
}

func checkView(view, def string) (string, error) {
	switch view {
	case "":
		return def, nil
	case radar.ViewCompact, radar.ViewFull:
		return view, nil
	}
	return "", radar.Errorf(radar.EValidation, "view: must be compact or full, got %q", view)
}

// GetEntity reads one entity with its operation; view defaults to full.
func (s *Service) GetEntity(ctx context.Context, p *radar.Principal, id, view string) (*radar.Entity, error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, err
	}
	view, err := checkView(view, radar.ViewFull)
	if err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	e, err := s.store.Entity(ctx, p.OrgID, id)
	if err != nil {
		return nil, err
	}
	s.decorate(e, view)
	return e, nil
}

// EntityQuery filters the entity list.
type EntityQuery struct {
	PageQuery
	Status         string
	Stage          string
	UpdatedAfter   string
	Classification string
}

// ListEntities lists the organisation's entities, newest first, each with its latest signal.
func (s *Service) ListEntities(ctx context.Context, p *radar.Principal, q EntityQuery) (*List[*radar.Entity], error) {
	if err := p.Require(radar.ScopeTrackerRead); err != nil {
		return nil, err
	}
	var probs radar.Problems
	scope := cursorScope("tracker", p.OrgID, q.Status, q.Stage, q.UpdatedAfter, q.Classification)
	pg, view := s.page(scope, q.PageQuery, &probs)
	oneOf(&probs, "status", q.Status, []string{radar.StatusOK, radar.StatusPaused})
	oneOf(&probs, "stage", q.Stage, radar.Stages)
	after, err := parseBound(q.UpdatedAfter, false)
	if err != nil {
		probs.Add("updatedAfter", err.Error())
	}
	terms := s.parseTerms(q.Classification, &probs)
	if err := cursorErr(probs); err != nil {
		return nil, err
	}
	out := &List[*radar.Entity]{Data: []*radar.Entity{}}
	f := radar.EntityFilter{OrgID: p.OrgID, Status: q.Status, Stage: q.Stage, UpdatedAfter: after, Page: pg,
		Compact: view == radar.ViewCompact}
	if terms != nil {
		out.ClassificationResolution, f.Sectors = s.classify(ctx, terms)
	}
	rows, err := s.store.Entities(ctx, f)
	if err != nil {
		return nil, err
	}
	rows, out.NextCursor = finish(s, scope, rows, pg, func(e *radar.Entity) (int64, string) { return e.CreatedAt.Micros(), e.ID })
	for _, e := range rows {
		shapeEntity(e, view)
	}
	out.Data = append(out.Data, rows...)
	return out, nil
}

// UpdateEntity applies a patch.
func (s *Service) UpdateEntity(ctx context.Context, p *radar.Principal, id string, patch radar.EntityPatch) (*radar.Entity, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	e, err := s.store.Entity(ctx, p.OrgID, id)
	if err != nil {
		return nil, err
	}
	var probs radar.Problems
	if patch.CompanyName != nil {
		checkLen(&probs, "companyName", *patch.CompanyName, 1, maxCompanyName, radar.SingleLine)
	}
	if patch.CompanySummary != nil {
		checkMax(&probs, "companySummary", *patch.CompanySummary, maxSummary, radar.MultiLine)
	}
	if patch.AlertEmails != nil {
		checkEmails(&probs, "alertEmails", patch.AlertEmails)
	}
	if patch.CadenceDays != nil {
		checkCadence(&probs, "cadenceDays", *patch.CadenceDays)
	}
	if patch.Digest != nil {
		checkDigest(&probs, "digest", *patch.Digest)
	}
	if patch.Status != nil {
		oneOf(&probs, "status", *patch.Status, []string{radar.StatusOK, radar.StatusPaused})
	}
	if patch.ThingsToTrack != nil {
		checkLen(&probs, "thingsToTrack", *patch.ThingsToTrack, 1, maxThingsToTrack, radar.MultiLine)
	}
	if patch.Tags != nil {
		if len(patch.Tags) > maxTags {
			probs.Addf("tags", "must have at most %d items, got %d", maxTags, len(patch.Tags))
		}
		for i, t := range patch.Tags {
			checkLen(&probs, fmt.Sprintf("tags[%d]", i), t, 1, maxTagLen, radar.SingleLine)
		}
	}
	added := 0
	for i, f := range patch.Founders {
		path := fmt.Sprintf("founders[%d]", i)
		checkFounder(&probs, path, f)
		if f.ID == "" {
			added++
		} else if !slices.ContainsFunc(e.Founders, func(g radar.Founder) bool { return g.ID == f.ID }) {
			probs.Addf(path+".id", "no founder %q on this entity", f.ID)
		}
	}
	if n := len(e.Founders) + added; n > maxFounders {
		probs.Addf("founders", "an entity has at most %d founders; this patch would make %d", maxFounders, n)
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if patch.CompanyName != nil {
		e.CompanyName = strings.TrimSpace(*patch.CompanyName)
	}
	if patch.CompanySummary != nil {
		e.CompanySummary = strings.TrimSpace(*patch.CompanySummary)
	}
	if patch.AlertEmails != nil {
		e.AlertEmails = patch.AlertEmails
	}
	if patch.CadenceDays != nil {
		e.CadenceDays = *patch.CadenceDays
	}
	if patch.Digest != nil {
		e.Digest = *patch.Digest
	}
	if patch.Status != nil {
		e.Status = *patch.Status
	}
	if patch.ThingsToTrack != nil {
		s.setRules(e, strings.TrimSpace(*patch.ThingsToTrack))
	}
	if patch.EmailAlertsEnabled != nil {
		e.EmailAlertsEnabled = *patch.EmailAlertsEnabled
	}
	if patch.Tags != nil {
		e.Tags = make([]string, len(patch.Tags))
		for i, t := range patch.Tags {
			e.Tags[i] = strings.TrimSpace(t)
		}
	}
	for _, f := range patch.Founders {
		f.Name = strings.TrimSpace(f.Name)
		if f.ID == "" {
			e.Founders = append(e.Founders, radar.Founder{ID: newID()})
			mergeFounder(&e.Founders[len(e.Founders)-1], f)
			continue
		}
		i := slices.IndexFunc(e.Founders, func(g radar.Founder) bool { return g.ID == f.ID })
		mergeFounder(&e.Founders[i], f)
	}
	e.UpdatedAt = s.nowTime()
	if err := s.store.UpdateEntity(ctx, e, nil, nil); err != nil {
		return nil, err
	}
	s.decorate(e, radar.ViewFull)
	return e, nil
}

// DeleteEntity stops tracking a company and deletes its history.
func (s *Service) DeleteEntity(ctx context.Context, p *radar.Principal, id string) error {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return err
	}
	if err := checkID("id", id); err != nil {
		return err
	}
	return s.store.DeleteEntity(ctx, p.OrgID, id)
}

// RefreshResult is an accepted refresh.
type RefreshResult struct {
	Entity   *radar.Entity
	Baseline *radar.Time
}

// RefreshEntity starts a tracker run now.
func (s *Service) RefreshEntity(ctx context.Context, p *radar.Principal, id string) (*RefreshResult, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	if err := checkID("id", id); err != nil {
		return nil, err
	}
	now := s.nowTime()
	job := radar.RunArgs{OrgID: p.OrgID, EntityID: id, RunID: newID(), Trigger: "refresh"}
	before, err := s.store.StartRefresh(ctx, p.OrgID, id, now, []radar.JobArgs{job})
	if err != nil {
		return nil, err
	}
	e := *before
	e.RunningSince, e.ScrapeHealthReason = &now, radar.HealthRunning
	s.decorate(&e, radar.ViewFull)
	return &RefreshResult{Entity: &e, Baseline: before.LastScrapedAt}, nil
}

// EnrichResult is an enriched draft.
type EnrichResult struct {
	Data  radar.EntityInput `json:"data"`
	Found []radar.Found     `json:"found"`
}

// EnrichDraft finds the missing profiles of a draft before it is created.
func (s *Service) EnrichDraft(ctx context.Context, p *radar.Principal, in radar.EntityInput) (*EnrichResult, error) {
	if err := p.Require(radar.ScopeTrackerWrite); err != nil {
		return nil, err
	}
	if err := s.validateInput(&in, nil, false); err != nil {
		return nil, err
	}
	trimInput(&in)
	if s.enrich == nil {
		return nil, radar.Errorf(radar.EUnavailable, "draft enrichment is not available on this server")
	}
	out, found, err := s.enrich.EnrichDraft(ctx, in)
	if err != nil {
		return nil, err
	}
	if found == nil {
		found = []radar.Found{}
	}
	return &EnrichResult{Data: out, Found: found}, nil
}
