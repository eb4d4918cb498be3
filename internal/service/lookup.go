package service

import (
	"context"
	"strings"

	"radar"
	"radar/internal/fuzzy"
	"radar/internal/taxonomy"
)

// Classification is the classificationResolution of a list filtered by sector.
type Classification = taxonomy.Resolution

// LookupResolution reports how a fuzzy company name was resolved.
type LookupResolution struct {
	Query     string         `json:"query"`
	MatchedOn string         `json:"matchedOn"`
	Score     float64        `json:"score"`
	Entity    ResolvedEntity `json:"entity"`
}

// ResolvedEntity names the company a fuzzy query resolved to.
type ResolvedEntity struct {
	ID          string `json:"id"`
	CompanyName string `json:"companyName"`
	FounderName string `json:"founderName"`
}

// orgIndex is an organisation's fuzzy index at one data version.
type orgIndex struct {
	version int64
	index   *fuzzy.Index
}

// indexPage is how many companies a build of the fuzzy index reads at a time: only the index and one page of
// rows are in memory at once, however many companies the organisation tracks.
const indexPage = 500

// index returns the organisation's fuzzy index, rebuilt when its data version changed (on any replica). One
// build of an organisation's index runs at a time: lookups that find it building wait for it, rather than
// each reading every company and holding an index of its own.
func (s *Service) index(ctx context.Context, orgID string) (*fuzzy.Index, error) {
	for {
		v, err := s.store.DataVersion(ctx, orgID)
		if err != nil {
			return nil, err
		}
		s.indexMu.Lock()
		cached, building := s.indexes[orgID], s.building[orgID]
		if cached != nil && cached.version >= v {
			s.indexMu.Unlock()
			return cached.index, nil
		}
		if building != nil {
			s.indexMu.Unlock()
			select {
			case <-building:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		s.building[orgID] = done
		s.indexMu.Unlock()

		ix, err := s.buildIndex(ctx, orgID)
		s.indexMu.Lock()
		if cur := s.indexes[orgID]; err == nil && (cur == nil || cur.version <= v) {
			s.indexes[orgID] = &orgIndex{version: v, index: ix}
		}
		delete(s.building, orgID)
		close(done)
		s.indexMu.Unlock()
		return ix, err
	}
}

// buildIndex reads the organisation's companies a page at a time and indexes them.
func (s *Service) buildIndex(ctx context.Context, orgID string) (*fuzzy.Index, error) {
	var (
		docs []fuzzy.Doc
		page = radar.Page{Limit: indexPage}
	)
	for {
		es, err := s.store.Entities(ctx, radar.EntityFilter{OrgID: orgID, Compact: true, Page: page})
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			d := fuzzy.Doc{ID: e.ID, CompanyName: e.CompanyName, Website: e.CompanyWebsite}
			for _, f := range e.Founders {
				d.Founders = append(d.Founders, f.Name)
			}
			docs = append(docs, d)
		}
		if len(es) < page.Limit {
			return fuzzy.Build(docs), nil
		}
		last := es[len(es)-1]
		page.AfterCreated, page.AfterID = last.CreatedAt.Micros(), last.ID
	}
}

// lookupCodes are the error codes of a fuzzy lookup on one endpoint.
type lookupCodes struct{ param, notFound, ambiguous string }

var (
	entityLookup = lookupCodes{"entityQuery", radar.EEntityNotFound, radar.EAmbiguousEntity}
	sourceLookup = lookupCodes{"sourceQuery", radar.ESourceNotFound, radar.EAmbiguousSource}
)

// resolve maps a fuzzy company query to one entity of the organisation.
func (s *Service) resolve(ctx context.Context, orgID, query string, codes lookupCodes) (*LookupResolution, error) {
	ix, err := s.index(ctx, orgID)
	if err != nil {
		return nil, err
	}
	r := ix.Lookup(query)
	switch r.Outcome {
	case fuzzy.Matched:
		b := r.Best
		return &LookupResolution{Query: query, MatchedOn: b.MatchedOn, Score: b.Score,
			Entity: ResolvedEntity{ID: b.ID, CompanyName: b.CompanyName, FounderName: b.FounderName}}, nil
	case fuzzy.Ambiguous:
		names := make([]string, len(r.Candidates))
		for i, c := range r.Candidates {
			names[i] = c.CompanyName
		}
		return nil, &radar.Error{
			Code: codes.ambiguous,
			Message: codes.param + ": " + quote(query) + " matches several companies about equally (" + strings.Join(names, ", ") +
				"); show the candidates to the user and query again by id",
			Details: map[string]any{"candidates": r.Candidates},
		}
	}
	return nil, radar.Errorf(codes.notFound, "%s: no tracked company or founder matches %s", codes.param, quote(query))
}

func quote(s string) string { return `"` + s + `"` }

// parseTerms validates a classification parameter; nil means no sector filter.
func (s *Service) parseTerms(raw string, p *radar.Problems) []string {
	if !checkQuery(p, "classification", raw) || strings.TrimSpace(raw) == "" {
		return nil
	}
	terms, err := taxonomy.ParseTerms(raw)
	if err != nil {
		p.Add("classification", strings.TrimPrefix(err.Error(), "classification: "))
		return nil
	}
	if len(terms) == 0 {
		return nil
	}
	return terms
}

// classify resolves sector terms to category paths; the paths are never nil, so nothing matching yields an
// empty list rather than no filter.
func (s *Service) classify(ctx context.Context, terms []string) (*Classification, []string) {
	res := taxonomy.Resolve(ctx, s.tax, s.classes, terms)
	paths := res.Paths
	if paths == nil {
		paths = []string{}
	}
	return &res, paths
}

// companyFilter resolves the exact or fuzzy company parameters of a list.
func (s *Service) companyFilter(ctx context.Context, orgID, exactParam, exact, query string, codes lookupCodes, p *radar.Problems) (string, *LookupResolution, error) {
	if exact != "" && query != "" {
		p.Addf(codes.param, "cannot be combined with %s; send one of them", exactParam)
		return "", nil, nil
	}
	if exact != "" {
		if err := checkID(exactParam, exact); err != nil {
			e, _ := radar.AsError(err)
			p.Add(exactParam, strings.TrimPrefix(e.Message, exactParam+": "))
		}
		return exact, nil, nil
	}
	if !checkQuery(p, codes.param, query) || strings.TrimSpace(query) == "" {
		return "", nil, nil
	}
	if len(*p) > 0 {
		// Report the other faults first; a lookup would be wasted.
		return "", nil, nil
	}
	res, err := s.resolve(ctx, orgID, query, codes)
	if err != nil {
		return "", nil, err
	}
	return res.Entity.ID, res, nil
}
