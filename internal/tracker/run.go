package tracker

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"radar"
	"radar/internal/analysis"
	"radar/internal/crawl"
	"radar/internal/leadfind"
	"radar/internal/mail"
)

// Run performs one tracker run: it crawls the entity's sources with the previous run's page copies, analyses
// the items not seen before and the website's changes under the entity's alert rules, and writes the signal,
// the alert (with its e-mail when rules matched and alerts are on), the leads and the new state in one
// transaction. A run that has finished already, or whose entity was deleted, is left alone.
func (e *Engine) Run(ctx context.Context, a radar.RunArgs) error {
	start, err := e.cfg.Store.StartRun(ctx, a, e.now())
	if errors.Is(err, radar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tracker: run %s: %w", a.RunID, err)
	}
	if start.Finished {
		return nil
	}
	ent := start.Entity
	prev := make(map[string]crawl.Snapshot, len(start.Snapshots))
	for _, s := range start.Snapshots {
		var snap crawl.Snapshot
		if err := json.Unmarshal(s.Data, &snap); err != nil {
			e.cfg.Logger.Warn("unreadable page copy dropped", "entity", ent.ID, "url", s.URL, "err", err)
			continue
		}
		prev[s.URL] = snap
	}

	res := e.cfg.Crawler.Run(ctx, target(ent), prev)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("tracker: run %s: %w", a.RunID, err)
	}
	fresh, dups, err := e.newItems(ctx, ent.ID, res)
	if err != nil {
		return fmt.Errorf("tracker: run %s: %w", a.RunID, err)
	}
	sources := e.sourceHealth(ent.ID, res.Sources, start.Sources)
	founders := make([]string, len(ent.Founders))
	for i, f := range ent.Founders {
		founders[i] = f.Name
	}
	in := analysis.Input{CompanyName: ent.CompanyName, Founders: founders, Items: make([]analysis.Item, len(fresh)),
		Policy: policyOf(ent), SourceProblems: sourceProblems(sources)}
	for i, it := range fresh {
		in.Items[i] = analysis.Item{Source: it.Source, Kind: it.Kind, URL: it.URL, Title: it.Title, Text: it.Text, Published: it.Published}
	}
	result, err := e.cfg.Analyser.Analyse(ctx, in)
	if err != nil {
		return fmt.Errorf("tracker: run %s: analyse: %w", a.RunID, err)
	}
	if result.Fallback != "" {
		e.cfg.Logger.Warn("analysis fell back to the built-in analyser", "entity", ent.ID, "reason", result.Fallback)
	}

	now := e.now()
	sig := e.signal(ent, a.RunID, result, sources, now)
	alert, outbox, err := e.alert(ent, sig, result.Evaluations, now)
	if err != nil {
		return fmt.Errorf("tracker: run %s: %w", a.RunID, err)
	}
	rep := &radar.RunReport{
		OrgID: a.OrgID, EntityID: ent.ID, RunID: a.RunID, Signal: sig, Alert: alert, Outbox: outbox,
		Leads:        e.leads(ctx, ent, founders, fresh, now),
		Sources:      sources,
		HealthReason: healthReason(sources),
		Stage:        learnedStage(ent.Stage, result.Findings),
		FinishedAt:   now,
	}
	for _, it := range fresh {
		rep.SeenItems = append(rep.SeenItems, it.Key)
	}
	rep.SeenItems = append(rep.SeenItems, dups...)
	for _, p := range res.Pages {
		data, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("tracker: run %s: page copy: %w", a.RunID, err)
		}
		rep.Snapshots = append(rep.Snapshots, radar.PageSnapshot{URL: p.URL, Data: data})
	}
	// Classify once the site's text is known, and again whenever its pages changed.
	if res.Text != "" && (len(ent.Sectors) == 0 || len(res.Changes) > 0) {
		if paths := e.sectors(ctx, ent.CompanyName, ent.CompanySummary, res.Text); len(paths) > 0 {
			rep.Sectors = paths
		}
	}
	written, err := e.cfg.Store.FinishRun(ctx, rep)
	if errors.Is(err, radar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tracker: run %s: %w", a.RunID, err)
	}
	if written {
		e.cfg.Logger.Info("tracker run finished", "entity", ent.ID, "run", a.RunID, "type", sig.Type,
			"newItems", len(fresh), "outcome", alert.Outcome)
	}
	return nil
}

// newItems returns the items of res no earlier run has recorded, followed by the website's changes. The same
// story seen twice in this run (a blog listing and the feed, say) is one item: the one with the longer text; the
// keys of the others are returned too, to be recorded as seen.
func (e *Engine) newItems(ctx context.Context, entityID string, res crawl.Result) ([]crawl.Item, []string, error) {
	all := append(slices.Clip(res.Items), res.Changes...)
	keys := make([]string, len(all))
	for i, it := range all {
		keys[i] = it.Key
	}
	seen, err := e.cfg.Store.SeenItems(ctx, entityID, keys)
	if err != nil {
		return nil, nil, err
	}
	var (
		fresh []crawl.Item
		dups  []string
	)
	taken := make(map[string]bool, len(all))
	stories := make(map[string]int, len(all))
	for _, it := range all {
		if it.Key == "" || seen[it.Key] || taken[it.Key] {
			continue
		}
		taken[it.Key] = true
		story := strings.ToLower(strings.Join(strings.Fields(it.Title), " "))
		if i, ok := stories[story]; ok && story != "" {
			if len(it.Text) > len(fresh[i].Text) {
				dups = append(dups, fresh[i].Key)
				fresh[i] = it
			} else {
				dups = append(dups, it.Key)
			}
			continue
		}
		stories[story] = len(fresh)
		fresh = append(fresh, it)
	}
	return fresh, dups, nil
}

// sourceHealth counts each source's consecutive failures on top of the previous run's. A source's error is its
// plain reason (crawl.SourceResult.Reason), never the failure's detail, which only the log shows.
func (e *Engine) sourceHealth(entityID string, results []crawl.SourceResult, prev map[string]radar.SourceHealth) []radar.SourceHealth {
	out := make([]radar.SourceHealth, 0, len(results))
	for _, r := range results {
		h := radar.SourceHealth{Source: r.Source, OK: r.OK, Error: r.Reason}
		if !r.OK {
			h.Error = cmp.Or(r.Reason, "no answer")
			h.ConsecutiveFailures = prev[r.Source].ConsecutiveFailures + 1
		}
		if r.Err != "" {
			e.cfg.Logger.Info("source failed", "entity", entityID, "source", r.Source, "ok", r.OK, "err", r.Err)
		}
		out = append(out, h)
	}
	return out
}

// nothingChecked reports whether no source of a run could be read.
func nothingChecked(sources []radar.SourceHealth) bool {
	return radar.Signal{Sources: sources}.NothingChecked()
}

// failingTooLong reports whether a source has failed SourceFailureLimit runs in a row or more.
func failingTooLong(sources []radar.SourceHealth) bool {
	return slices.ContainsFunc(sources, func(s radar.SourceHealth) bool { return s.ConsecutiveFailures >= SourceFailureLimit })
}

// sourceFailure words a failing source: "news: HTTP 503", with how long it has failed once that is
// SourceFailureLimit runs or more.
func sourceFailure(s radar.SourceHealth) string {
	p := s.Source + ": " + cmp.Or(s.Error, "no answer")
	if s.ConsecutiveFailures >= SourceFailureLimit {
		p += fmt.Sprintf(", failing for %d runs in a row", s.ConsecutiveFailures)
	}
	return p
}

// sourceProblems words the sources that have failed SourceFailureLimit runs in a row or more.
func sourceProblems(sources []radar.SourceHealth) []string {
	var out []string
	for _, s := range sources {
		if s.ConsecutiveFailures >= SourceFailureLimit {
			out = append(out, sourceFailure(s))
		}
	}
	return out
}

// healthReason is the entity's scrapeHealthReason after a run: "ok: …" when every source was read, "degraded: …"
// naming the sources that failed, "failed: …" when none could be read.
func healthReason(sources []radar.SourceHealth) string {
	var failing []string
	for _, s := range sources {
		if !s.OK {
			failing = append(failing, sourceFailure(s))
		}
	}
	switch {
	case len(failing) == 0:
		names := make([]string, len(sources))
		for i, s := range sources {
			names[i] = s.Source
		}
		return "ok: " + strings.Join(names, ", ") + " read"
	case nothingChecked(sources):
		return "failed: " + strings.Join(failing, "; ")
	}
	return "degraded: " + strings.Join(failing, "; ")
}

// sourceNouns name the sources in sentences.
var sourceNouns = map[string]string{crawl.SourceWebsite: "website", crawl.SourceFeed: "feed",
	crawl.SourceNews: "news search", crawl.SourceGitHub: "GitHub API"}

// uncheckedSummary is the summary of a run that could read no source: "Nothing could be checked: the website did
// not answer (connection refused)".
func uncheckedSummary(sources []radar.SourceHealth) string {
	parts := make([]string, 0, len(sources))
	for _, s := range sources {
		noun := "the " + cmp.Or(sourceNouns[s.Source], s.Source)
		reason := cmp.Or(s.Error, "no answer")
		switch {
		case strings.HasPrefix(reason, "the site "):
			parts = append(parts, noun+strings.TrimPrefix(reason, "the site"))
		case strings.HasPrefix(reason, "HTTP "):
			parts = append(parts, noun+" answered "+reason)
		default:
			parts = append(parts, noun+": "+reason)
		}
	}
	return "Nothing could be checked: " + strings.Join(parts, "; ")
}

// policyOf returns the entity's compiled alert rules, compiling them when the entity has none stored.
func policyOf(ent *radar.Entity) analysis.Policy {
	if ent.Policy == nil {
		return analysis.Compile(ent.ThingsToTrack)
	}
	p := analysis.Policy{Rules: make([]analysis.Rule, len(ent.Policy.Rules))}
	for i, r := range ent.Policy.Rules {
		p.Rules[i] = analysis.Rule{ID: r.ID, Sentence: r.Sentence, Kind: r.Kind, Types: r.Types, Keywords: r.Keywords,
			People: r.People, MinAmountUSD: r.MinAmountUSD, MinSeverity: r.MinSeverity}
	}
	return p
}

// signal turns an analysis result into the run's signal.
func (e *Engine) signal(ent *radar.Entity, runID string, r analysis.Result, sources []radar.SourceHealth, now radar.Time) *radar.Signal {
	s := &radar.Signal{
		ID: newID(), OrgID: ent.OrgID, EntityID: ent.ID, CompanyName: ent.CompanyName, RunID: runID,
		Type: cmp.Or(r.Type, radar.TypeNoChange), Severity: cmp.Or(r.Severity, analysis.SeverityLow),
		Recommendation: cmp.Or(r.Recommendation, analysis.RecommendNoAction), NeedsAttention: r.NeedsAttention,
		Summary: r.Summary, Analysis: r.Analysis, Evidence: []radar.Evidence{}, Sources: sources,
		Analyser: cmp.Or(r.Analyser, "builtin"), CreatedAt: now,
	}
	if failingTooLong(sources) {
		s.NeedsAttention = true
	}
	if nothingChecked(sources) {
		// Not a quiet run: nobody knows whether anything changed.
		s.Type, s.Severity, s.Recommendation, s.NeedsAttention = radar.TypeOther, analysis.SeverityMedium, analysis.RecommendReview, true
		s.Summary = uncheckedSummary(sources)
		failing := make([]string, len(sources))
		for i, src := range sources {
			failing[i] = sourceFailure(src)
		}
		s.Analysis = "No source could be read in this run, so Radar cannot tell whether anything changed: " +
			strings.Join(failing, "; ") + ". Check that the company's website address is right and the site is up; " +
			"the next run tries again."
		return s
	}
	// Evidence lists the affirmed findings, most severe first, before denials.
	order := make([]int, len(r.Findings))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		fa, fb := r.Findings[a], r.Findings[b]
		if fa.Negated != fb.Negated {
			if fa.Negated {
				return 1
			}
			return -1
		}
		return cmp.Compare(analysis.SeverityRank(fb.Severity), analysis.SeverityRank(fa.Severity))
	})
	seen := map[string]bool{}
	for _, i := range order {
		f := r.Findings[i]
		s.Findings = append(s.Findings, finding(f))
		if f.Item.URL == "" || seen[f.Item.URL] {
			continue
		}
		seen[f.Item.URL] = true
		s.Evidence = append(s.Evidence, radar.Evidence{URL: f.Item.URL, Title: f.Item.Title, Source: f.Item.Source,
			Type: f.Type, PublishedAt: radar.TimePtr(f.Item.Published)})
	}
	return s
}

func finding(f analysis.Finding) radar.Finding {
	out := radar.Finding{Type: f.Type, Severity: f.Severity, Title: f.Item.Title, URL: f.Item.URL, Source: f.Item.Source,
		Round: f.Round, People: f.People, Negated: f.Negated}
	if f.Money != nil {
		out.AmountUSD = math.Round(f.Money.USD)
		out.Amount = formatMoney(f.Money.Amount, f.Money.Currency)
	}
	return out
}

// formatMoney writes an amount the way news does: $12M, €4.5M, £800K.
func formatMoney(amount float64, currency string) string {
	symbol := map[string]string{"USD": "$", "EUR": "€", "GBP": "£"}[currency]
	if symbol == "" {
		symbol = currency + " "
	}
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e9, "B"}, {1e6, "M"}, {1e3, "K"}} {
		if amount >= u.div {
			return symbol + strconv.FormatFloat(math.Round(amount/u.div*10)/10, 'f', -1, 64) + u.unit
		}
	}
	return symbol + strconv.FormatFloat(amount, 'f', -1, 64)
}

// alert decides whether the run e-mails the recipients and renders the e-mail when it does.
func (e *Engine) alert(ent *radar.Entity, sig *radar.Signal, evals []analysis.RuleEvaluation, now radar.Time) (*radar.Alert, *radar.OutboxMessage, error) {
	a := &radar.Alert{ID: newID(), OrgID: ent.OrgID, EntityID: ent.ID, CompanyName: ent.CompanyName, SignalID: sig.ID,
		Recipients: slices.Clone(ent.AlertEmails), RuleEvaluations: make([]radar.RuleEvaluation, len(evals)), CreatedAt: now}
	var matched []radar.RuleEvaluation
	for i, ev := range evals {
		a.RuleEvaluations[i] = radar.RuleEvaluation{RuleID: ev.RuleID, Sentence: ev.Sentence, Matched: ev.Matched,
			Reason: ev.Reason, Evidence: append([]string{}, ev.Evidence...)}
		if ev.Matched {
			matched = append(matched, a.RuleEvaluations[i])
		}
	}
	switch {
	case !ent.EmailAlertsEnabled:
		a.Outcome, a.Reason = radar.OutcomeDisabled, "e-mail alerts are turned off for this company"
		return a, nil, nil
	case ent.Status == radar.StatusPaused:
		a.Outcome, a.Reason = radar.OutcomeDisabled, "the company is paused"
		return a, nil, nil
	case len(matched) == 0 && sig.NothingChecked():
		a.Outcome, a.Reason = radar.OutcomeNoMatch, "no rule matched: nothing could be checked this run"
		return a, nil, nil
	case len(matched) == 0 && sig.Type == radar.TypeNoChange:
		a.Outcome, a.Reason = radar.OutcomeNoMatch, "no rule matched: nothing new this run"
		return a, nil, nil
	case len(matched) == 0:
		a.Outcome, a.Reason = radar.OutcomeNoMatch, fmt.Sprintf("none of the %d rules matched the %s signal", len(evals), strings.ReplaceAll(sig.Type, "_", " "))
		return a, nil, nil
	}
	sentences := make([]string, len(matched))
	for i, m := range matched {
		sentences[i] = strconv.Quote(m.Sentence)
	}
	a.Outcome = radar.OutcomeSent
	a.Reason = fmt.Sprintf("%d of %d rules matched (%s); e-mail to %d recipients", len(matched), len(evals),
		strings.Join(sentences, ", "), len(a.Recipients))
	status := radar.OutboxPending
	if e.cfg.Mailer == nil {
		// Without a mail server e-mail alerts are off for the whole installation: the alert is disabled, never
		// sent (sentAt stays null), and the e-mail waits in the outbox, where the web UI shows it.
		status = radar.OutboxKept
		a.Outcome = radar.OutcomeDisabled
		a.Reason = fmt.Sprintf("%d of %d rules matched (%s); kept in the outbox: no mail server is configured (RADAR_SMTP_URL)",
			len(matched), len(evals), strings.Join(sentences, ", "))
	}
	link := ""
	if e.cfg.BaseURL != "" {
		link = e.cfg.BaseURL + "/signals/" + sig.ID
	}
	msg, err := mail.RenderAlert(mail.Alert{CompanyName: ent.CompanyName, Recipients: a.Recipients, Signal: *sig, Matched: matched, Link: link})
	if err != nil {
		return nil, nil, err
	}
	a.Subject = msg.Subject
	return a, &radar.OutboxMessage{ID: newID(), OrgID: ent.OrgID, AlertID: a.ID, EntityID: ent.ID, To: msg.To,
		Subject: msg.Subject, Text: msg.Text, HTML: msg.HTML, Status: status, CreatedAt: now}, nil
}

// leads finds founder leads in a run's new items.
func (e *Engine) leads(ctx context.Context, ent *radar.Entity, founders []string, fresh []crawl.Item, now radar.Time) []*radar.Lead {
	items := make([]leadfind.Item, len(fresh))
	byURL := make(map[string]crawl.Item, len(fresh))
	for i, it := range fresh {
		items[i] = leadfind.Item{URL: it.URL, Title: it.Title, Text: it.Text, Published: it.Published}
		if _, ok := byURL[it.URL]; !ok {
			byURL[it.URL] = it
		}
	}
	var out []*radar.Lead
	for _, c := range e.cfg.Leads(ent.CompanyName, founders, items) {
		l := &radar.Lead{
			ID: newID(), OrgID: ent.OrgID, Key: c.Key, PersonName: c.PersonName, PersonRole: c.PersonRole,
			Company:  radar.LeadCompany{Name: c.CompanyName, Website: c.CompanyWebsite, Summary: cmp.Or(c.CompanySummary, leadfind.Undescribed(c.CompanyName))},
			Relation: c.Relation, Source: radar.LeadSource{EntityID: ent.ID, CompanyName: ent.CompanyName},
			Stage: cmp.Or(c.Stage, radar.StageUnknown), Evidence: []radar.Evidence{},
			Decision:  radar.LeadDecision{Status: radar.DecisionUnreviewed},
			CreatedAt: now, UpdatedAt: now,
		}
		for _, u := range c.Evidence {
			it := byURL[u]
			l.Evidence = append(l.Evidence, radar.Evidence{URL: u, Title: it.Title, Source: it.Source, PublishedAt: radar.TimePtr(it.Published)})
		}
		about := c.CompanySummary
		if about == leadfind.Undescribed(c.CompanyName) {
			about = ""
		}
		if sectors := e.sectors(ctx, c.CompanyName, about, c.Summary); len(sectors) > 0 {
			l.Sector = sectors[0]
		} else if len(ent.Sectors) > 0 {
			l.Sector = ent.Sectors[0]
		}
		out = append(out, l)
	}
	return out
}

// learnedStage is the most advanced funding stage among the run's affirmed funding findings and the current one.
func learnedStage(current string, findings []analysis.Finding) string {
	best := current
	for _, f := range findings {
		if f.Negated || f.Type != radar.TypeFunding {
			continue
		}
		if s := stageOfRound(f.Round); stageRank(s) > stageRank(best) {
			best = s
		}
	}
	if best == current {
		return ""
	}
	return best
}

func stageOfRound(round string) string {
	switch {
	case round == "pre_seed" || round == "seed" || round == "angel":
		return radar.StagePreSeedSeed
	case round == "series_a":
		return radar.StageSeriesA
	case strings.HasPrefix(round, "series_"):
		return radar.StageSeriesBPlus
	}
	return ""
}

func stageRank(stage string) int {
	return slices.Index([]string{radar.StageUnknown, radar.StagePreSeedSeed, radar.StageSeriesA, radar.StageSeriesBPlus}, stage)
}

// Compile turns plain-language alert rules into the policy stored on an entity (its version is left to the
// caller).
func Compile(thingsToTrack string) radar.Policy {
	p := analysis.Compile(thingsToTrack)
	out := radar.Policy{Rules: make([]radar.PolicyRule, len(p.Rules))}
	for i, r := range p.Rules {
		out.Rules[i] = radar.PolicyRule{ID: r.ID, Sentence: r.Sentence, Kind: r.Kind, Types: r.Types, Keywords: r.Keywords,
			People: r.People, MinAmountUSD: r.MinAmountUSD, MinSeverity: r.MinSeverity}
	}
	return out
}
