package tracker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"radar"
	"radar/internal/crawl"
)

// profileSlots are the profile fields of a company and its founders, addressed the way the API names them.
type profileSlots struct {
	fields []slot
}

// slot is one profile field: its API path, the crawler's field name, and where its value lives.
type slot struct {
	path  string // companyLinkedinUrl, founders[1].githubUrl
	field string // crawl.FieldCompanyLinkedIn, crawl.FounderField(name, kind)
	value *string
}

func companySlots(linkedin, twitter, github *string) []slot {
	return []slot{
		{"companyLinkedinUrl", crawl.FieldCompanyLinkedIn, linkedin},
		{"companyTwitterUrl", crawl.FieldCompanyTwitter, twitter},
		{"companyGithubUrl", crawl.FieldCompanyGitHub, github},
	}
}

func founderSlots(i int, name string, linkedin, twitter, github *string) []slot {
	p := fmt.Sprintf("founders[%d].", i)
	return []slot{
		{p + crawl.KindLinkedIn, crawl.FounderField(name, crawl.KindLinkedIn), linkedin},
		{p + crawl.KindTwitter, crawl.FounderField(name, crawl.KindTwitter), twitter},
		{p + crawl.KindGitHub, crawl.FounderField(name, crawl.KindGitHub), github},
	}
}

// fill sets every empty slot the crawler found a profile for and returns what it set.
func (s profileSlots) fill(profiles []crawl.Profile) []radar.Found {
	byField := make(map[string]crawl.Profile, len(profiles))
	for _, p := range profiles {
		byField[foldField(p.Field)] = p
	}
	var found []radar.Found
	for _, sl := range s.fields {
		if strings.TrimSpace(*sl.value) != "" {
			continue
		}
		p, ok := byField[foldField(sl.field)]
		if !ok || p.URL == "" {
			continue
		}
		*sl.value = p.URL
		found = append(found, radar.Found{Field: sl.path, URL: p.URL, Source: p.Source})
	}
	return found
}

// missing counts the slots still empty.
func (s profileSlots) missing() int {
	n := 0
	for _, sl := range s.fields {
		if strings.TrimSpace(*sl.value) == "" {
			n++
		}
	}
	return n
}

// foldField compares crawler field names regardless of case and spacing in founder names.
func foldField(f string) string { return strings.Join(strings.Fields(strings.ToLower(f)), " ") }

// EnrichDraft finds the missing profiles of a company that is not tracked yet, writing nothing: it returns the
// draft with the profiles it found filled in, and what it found where. A website that cannot be read leaves
// the draft as it is.
func (e *Engine) EnrichDraft(ctx context.Context, in radar.EntityInput) (radar.EntityInput, []radar.Found, error) {
	out := in
	out.Founders = append([]radar.FounderInput(nil), in.Founders...)
	names := make([]string, len(out.Founders))
	slots := profileSlots{fields: companySlots(&out.CompanyLinkedinURL, &out.CompanyTwitterURL, &out.CompanyGithubURL)}
	for i := range out.Founders {
		f := &out.Founders[i]
		names[i] = f.Name
		slots.fields = append(slots.fields, founderSlots(i, f.Name, &f.LinkedinURL, &f.TwitterURL, &f.GithubURL)...)
	}
	res, err := e.cfg.Crawler.Enrich(ctx, crawl.Target{CompanyName: in.CompanyName, Website: in.CompanyWebsite,
		GitHubURL: in.CompanyGithubURL, Founders: names})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return in, nil, fmt.Errorf("tracker: enrich draft: %w", ctxErr)
	}
	if err != nil && !errors.Is(err, crawl.ErrUnreachable) {
		return in, nil, fmt.Errorf("tracker: enrich draft: %w", err)
	}
	found := slots.fill(res.Profiles)
	if found == nil {
		found = []radar.Found{}
	}
	return out, found, nil
}

// Enrich runs the enrichment of a stored entity: it finds the profiles that are missing, fills only those, sets
// the enrichment status (ready when nothing is missing, partial when something still is, failed when the website
// cannot be read), assigns sectors, and enqueues the first run when asked, in one transaction. An entity whose
// enrichment is over already, or that was deleted, is left alone.
func (e *Engine) Enrich(ctx context.Context, a radar.EnrichArgs) error {
	ent, done, err := e.cfg.Store.BeginEnrichment(ctx, a.OrgID, a.EntityID)
	if errors.Is(err, radar.ErrNotFound) || done {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tracker: enrich %s: %w", a.EntityID, err)
	}
	res, crawlErr := e.cfg.Crawler.Enrich(ctx, target(ent))
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("tracker: enrich %s: %w", a.EntityID, ctxErr)
	}
	if crawlErr != nil && !errors.Is(crawlErr, crawl.ErrUnreachable) {
		return fmt.Errorf("tracker: enrich %s: %w", a.EntityID, crawlErr)
	}

	enr := radar.Enrichment{}
	co := struct{ linkedin, twitter, github string }{ent.CompanyLinkedinURL, ent.CompanyTwitterURL, ent.CompanyGithubURL}
	slots := profileSlots{fields: companySlots(&co.linkedin, &co.twitter, &co.github)}
	founders := make([]radar.FounderProfiles, len(ent.Founders))
	for i, f := range ent.Founders {
		founders[i] = radar.FounderProfiles{FounderID: f.ID, LinkedinURL: f.LinkedinURL, TwitterURL: f.TwitterURL, GithubURL: f.GithubURL}
		fp := &founders[i]
		slots.fields = append(slots.fields, founderSlots(i, f.Name, &fp.LinkedinURL, &fp.TwitterURL, &fp.GithubURL)...)
	}
	found := slots.fill(res.Profiles)
	enr.CompanyLinkedinURL, enr.CompanyTwitterURL, enr.CompanyGithubURL = co.linkedin, co.twitter, co.github
	enr.Founders = founders
	switch {
	case crawlErr != nil:
		enr.Status = radar.EnrichFailed
	case slots.missing() == 0:
		enr.Status = radar.EnrichReady
	default:
		enr.Status = radar.EnrichPartial
	}
	if len(ent.Sectors) == 0 {
		enr.Sectors = e.sectors(ctx, ent.CompanyName, ent.CompanySummary, res.Text)
	}
	if a.ThenRun {
		enr.FirstRun = &radar.RunArgs{OrgID: a.OrgID, EntityID: a.EntityID, RunID: newID(), Trigger: radar.TriggerFirst}
	}
	if err := e.cfg.Store.FinishEnrichment(ctx, a.OrgID, a.EntityID, enr, e.now()); err != nil {
		if errors.Is(err, radar.ErrNotFound) {
			return nil
		}
		return fmt.Errorf("tracker: enrich %s: %w", a.EntityID, err)
	}
	e.cfg.Logger.Info("enriched", "entity", a.EntityID, "status", enr.Status, "found", len(found), "crawlError", crawlErr)
	return nil
}

// giveUpEnrichment ends an enrichment that failed on its last attempt: the status becomes failed and the first
// run still follows.
func (e *Engine) giveUpEnrichment(ctx context.Context, a radar.EnrichArgs, cause error) error {
	e.cfg.Logger.Error("enrichment failed", "entity", a.EntityID, "err", cause)
	enr := radar.Enrichment{Status: radar.EnrichFailed}
	if a.ThenRun {
		enr.FirstRun = &radar.RunArgs{OrgID: a.OrgID, EntityID: a.EntityID, RunID: newID(), Trigger: radar.TriggerFirst}
	}
	err := e.cfg.Store.FinishEnrichment(ctx, a.OrgID, a.EntityID, enr, e.now())
	if err != nil && !errors.Is(err, radar.ErrNotFound) {
		return fmt.Errorf("tracker: enrich %s: %w (after %w)", a.EntityID, err, cause)
	}
	return nil
}

// sectors classifies a company into taxonomy paths, best first; nil when nothing fits or the classifier fails.
func (e *Engine) sectors(ctx context.Context, name, summary, text string) []string {
	as, err := e.cfg.Classifier.ClassifyCompany(ctx, name, summary, text)
	if err != nil {
		e.cfg.Logger.Warn("sector classification failed", "company", name, "err", err)
		return nil
	}
	if len(as) == 0 {
		return nil
	}
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Path
	}
	return out
}
