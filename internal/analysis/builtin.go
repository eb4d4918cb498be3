package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"radar"
)

// builtin is the deterministic analyser: it classifies each item and evaluates the rules itself.
type builtin struct{}

// Builtin returns the deterministic analyser that needs no external service.
func Builtin() Analyser { return builtin{} }

func (builtin) Analyse(ctx context.Context, in Input) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("analyse: %w", err)
	}
	findings := make([]Finding, 0, len(in.Items))
	for _, it := range in.Items {
		findings = append(findings, Classify(it, in.CompanyName, in.Founders))
	}
	evals := Evaluate(in.Policy, findings)
	res := Result{Findings: findings, Evaluations: evals, Analyser: "builtin"}

	topIdx := mostSignificant(findings)
	ok := topIdx >= 0
	var top Finding
	if ok {
		top = findings[topIdx]
	}
	switch {
	case len(findings) == 0 || !ok && allQuiet(findings):
		res.Type, res.Severity = radar.TypeNoChange, SeverityLow
	case !ok:
		res.Type, res.Severity = radar.TypeOther, SeverityLow
	default:
		res.Type, res.Severity = top.Type, top.Severity
	}
	res.Recommendation = recommend(res.Type, res.Severity)
	matched := slices.ContainsFunc(evals, func(e RuleEvaluation) bool { return e.Matched })
	res.NeedsAttention = SeverityRank(res.Severity) >= SeverityRank(SeverityHigh) || matched
	res.Summary = summarise(in, res, top, ok)
	res.Analysis = explain(in, res, topIdx)
	return res, nil
}

// mostSignificant returns the index of the affirmed finding with the highest severity, then score, then the
// earliest; -1 when every finding is a denial or a cosmetic page change, or there are none.
func mostSignificant(findings []Finding) int {
	top := -1
	for i, f := range findings {
		if f.Negated || f.Type == radar.TypeNoChange {
			continue
		}
		if top < 0 || SeverityRank(f.Severity) > SeverityRank(findings[top].Severity) ||
			SeverityRank(f.Severity) == SeverityRank(findings[top].Severity) && f.Score > findings[top].Score {
			top = i
		}
	}
	return top
}

// allQuiet reports whether every finding is a cosmetic page change.
func allQuiet(findings []Finding) bool {
	for _, f := range findings {
		if f.Type != radar.TypeNoChange {
			return false
		}
	}
	return true
}

// recommend maps a run's type and severity to what the investor should do.
func recommend(typ, severity string) string {
	if typ == radar.TypeNoChange {
		return RecommendNoAction
	}
	switch SeverityRank(severity) {
	case 3, 4:
		switch typ {
		case radar.TypeFunding, radar.TypeNewVenture, radar.TypeFounderDeparture, radar.TypeAcquisition, radar.TypeExecutiveChange:
			return RecommendReachOut
		}
		return RecommendReview
	case 2:
		return RecommendReview
	}
	return RecommendMonitor
}

// Evaluate checks each rule of the policy against the findings of a run, in policy order. A typed rule
// matches an affirmed finding of one of its types that, when the rule names people, mentions one of them;
// without thresholds an item containing one of its keywords also matches. A keyword rule matches an item
// containing one of its keywords or people. Either kind must then meet the rule's amount threshold (with an
// amount stated) and severity threshold. Denied items never match.
func Evaluate(p Policy, findings []Finding) []RuleEvaluation {
	evals := make([]RuleEvaluation, 0, len(p.Rules))
	for _, r := range p.Rules {
		evals = append(evals, evaluateRule(r, findings))
	}
	return evals
}

func evaluateRule(r Rule, findings []Finding) RuleEvaluation {
	ev := RuleEvaluation{RuleID: r.ID, Sentence: r.Sentence, Evidence: []string{}}
	var hits []string
	var misses []string
	for _, f := range findings {
		hit, miss := matchRule(r, f)
		if hit != "" {
			hits = append(hits, hit)
			if f.Item.URL != "" && !slices.Contains(ev.Evidence, f.Item.URL) {
				ev.Evidence = append(ev.Evidence, f.Item.URL)
			}
		} else if miss != "" {
			misses = append(misses, miss)
		}
	}
	switch {
	case len(hits) > 0:
		ev.Matched = true
		ev.Reason = "matched " + hits[0]
		if len(hits) > 1 {
			ev.Reason += fmt.Sprintf(" and %d more", len(hits)-1)
		}
	case len(findings) == 0:
		ev.Reason = "no new items this run"
	case len(misses) > 0:
		ev.Reason = "not matched: " + misses[0]
		if len(misses) > 1 {
			ev.Reason += fmt.Sprintf(" (and %d more near misses)", len(misses)-1)
		}
	case r.Kind == KindKeyword && len(r.Keywords) == 0 && len(r.People) == 0:
		ev.Reason = "the rule names nothing specific to look for"
	default:
		ev.Reason = "no new item about " + ruleTopic(r)
	}
	return ev
}

// matchRule returns why a finding matches a rule, or else why it came close (a denial, or a finding that
// fails a threshold), or two empty strings when it is unrelated.
func matchRule(r Rule, f Finding) (hit, miss string) {
	text := normalise(f.Item.Title + " \n " + f.Item.Text)
	title := quoteTitle(f.Item)
	person := ""
	for _, p := range r.People {
		if slices.ContainsFunc(f.People, func(n string) bool { return strings.EqualFold(n, p) }) || containsKeyword(text, p) {
			person = p
			break
		}
	}
	keyword := ""
	for _, k := range r.Keywords {
		if containsKeyword(text, k) {
			keyword = k
			break
		}
	}

	var label string
	switch {
	case r.Kind == KindKeyword && keyword != "":
		label = fmt.Sprintf("%q", keyword)
	case r.Kind == KindKeyword && person != "":
		label = fmt.Sprintf("%q", person)
	case r.Kind == KindKeyword:
		return "", ""
	case slices.Contains(r.Types, f.Type) || slices.ContainsFunc(f.Secondary, func(t string) bool { return slices.Contains(r.Types, t) }):
		label = typeLabel(f.Type)
	case keyword != "" && r.MinAmountUSD == 0 && r.MinSeverity == "":
		label = fmt.Sprintf("keyword %q", keyword)
	default:
		return "", ""
	}
	if r.Kind == KindTyped && len(r.People) > 0 && person == "" {
		return "", ""
	}
	if f.Negated {
		return "", fmt.Sprintf("%s is a denial, not counted", title)
	}

	detail := ""
	if r.MinAmountUSD > 0 {
		switch {
		case f.Money == nil:
			return "", fmt.Sprintf("%s %s states no amount to compare with %s", typeLabel(f.Type), title, formatUSD(r.MinAmountUSD))
		case f.Money.USD < r.MinAmountUSD:
			return "", fmt.Sprintf("%s %s is %s, below %s", typeLabel(f.Type), title, formatUSD(f.Money.USD), formatUSD(r.MinAmountUSD))
		}
		detail = fmt.Sprintf(" (%s >= %s)", formatUSD(f.Money.USD), formatUSD(r.MinAmountUSD))
	}
	if r.MinSeverity != "" {
		if SeverityRank(f.Severity) < SeverityRank(r.MinSeverity) {
			return "", fmt.Sprintf("%s %s is %s severity, below %s", typeLabel(f.Type), title, f.Severity, r.MinSeverity)
		}
		detail += fmt.Sprintf(" (%s severity)", f.Severity)
	}
	if person != "" && r.Kind == KindTyped {
		detail += fmt.Sprintf(" (mentions %s)", person)
	}
	return fmt.Sprintf("%s: %s%s", label, title, detail), ""
}

// ruleTopic describes in words what a rule waits for.
func ruleTopic(r Rule) string {
	if r.Kind == KindKeyword {
		words := append(slices.Clone(r.Keywords), r.People...)
		for i, w := range words {
			words[i] = fmt.Sprintf("%q", w)
		}
		return joinOr(words)
	}
	if len(r.Types) >= len(Types())-1 {
		return "anything"
	}
	var topics []string
	for _, t := range r.Types {
		topic := typeTopic[t]
		if len(r.People) > 0 && (t == radar.TypeFounderDeparture || t == radar.TypeExecutiveChange) {
			topic = strings.Join(r.People, " or ") + " leaving"
			if slices.Contains(topics, topic) {
				continue
			}
		}
		topics = append(topics, topic)
	}
	about := joinOr(topics)
	if r.MinAmountUSD > 0 {
		about += " of at least " + formatUSD(r.MinAmountUSD)
	}
	if r.MinSeverity != "" {
		about += " of " + r.MinSeverity + " severity or more"
	}
	return about
}

func joinOr(words []string) string {
	switch len(words) {
	case 0:
		return "it"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

var typeTopic = map[string]string{
	radar.TypeFunding: "funding", radar.TypeAcquisition: "an acquisition, merger or exit",
	radar.TypeExecutiveChange: "an executive change", radar.TypeFounderDeparture: "a founder leaving",
	radar.TypeNewVenture: "a founder's new venture", radar.TypeTeamGrowth: "hiring or team growth",
	radar.TypeContraction: "layoffs or closures", radar.TypeProductLaunch: "a product launch",
	radar.TypePartnership: "a partnership", radar.TypeExpansion: "an expansion", radar.TypeLegal: "legal matters",
	radar.TypeRecognition: "an award or ranking", radar.TypeOpenSource: "open-source activity",
	radar.TypeWebsiteChange: "a website change", radar.TypeOther: "other news", radar.TypeNoChange: "no change",
}

var typeLabels = map[string]string{
	radar.TypeFunding: "funding", radar.TypeAcquisition: "acquisition", radar.TypeExecutiveChange: "executive change",
	radar.TypeFounderDeparture: "founder departure", radar.TypeNewVenture: "new venture", radar.TypeTeamGrowth: "team growth",
	radar.TypeContraction: "contraction", radar.TypeProductLaunch: "product launch", radar.TypePartnership: "partnership",
	radar.TypeExpansion: "expansion", radar.TypeLegal: "legal", radar.TypeRecognition: "recognition",
	radar.TypeOpenSource: "open source", radar.TypeWebsiteChange: "website change", radar.TypeOther: "other news",
	radar.TypeNoChange: "no change",
}

func typeLabel(t string) string {
	if l, ok := typeLabels[t]; ok {
		return l
	}
	return t
}

// quoteTitle names an item in a sentence: its quoted title, or the start of its text.
func quoteTitle(it Item) string {
	t := it.Title
	if strings.TrimSpace(t) == "" {
		t = it.Text
	}
	if strings.TrimSpace(t) == "" {
		t = it.URL
	}
	return "'" + truncate(t, 140) + "'"
}

// summarise writes the one- or two-sentence summary.
func summarise(in Input, res Result, top Finding, ok bool) string {
	company := strings.TrimSpace(in.CompanyName)
	if company == "" {
		company = "the company"
	}
	switch {
	case len(res.Findings) == 0:
		return fmt.Sprintf("No new items about %s this run.", company)
	case res.Type == radar.TypeNoChange:
		return fmt.Sprintf("Only cosmetic changes on %s's website this run (dates, counters, page furniture).", company)
	case !ok:
		denial := res.Findings[0]
		for _, f := range res.Findings {
			if f.Negated {
				denial = f
				break
			}
		}
		return fmt.Sprintf("No confirmed event at %s: %s reads as a denial.", company, quoteTitle(denial.Item))
	}
	var b strings.Builder
	label := typeLabel(top.Type)
	fmt.Fprintf(&b, "%s%s at %s: %s", strings.ToUpper(label[:1]), label[1:], company, quoteTitle(top.Item))
	var details []string
	if top.Money != nil {
		details = append(details, top.Money.stated())
	}
	if top.Round != "" {
		details = append(details, roundLabel(top.Round))
	}
	if len(details) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(details, ", "))
	}
	b.WriteString(".")
	if others := len(res.Findings) - 1; others > 0 {
		fmt.Fprintf(&b, " %d more new %s.", others, plural(others, "item", "items"))
	}
	return b.String()
}

// explain writes the longer analysis, in plain text for an e-mail.
func explain(in Input, res Result, topIdx int) string {
	ok := topIdx >= 0
	var top Finding
	if ok {
		top = res.Findings[topIdx]
	}
	var b strings.Builder
	company := strings.TrimSpace(in.CompanyName)
	if company == "" {
		company = "the company"
	}
	if len(res.Findings) == 0 {
		fmt.Fprintf(&b, "Radar found nothing new about %s on the sources it checked.", company)
	} else {
		fmt.Fprintf(&b, "Radar found %d new %s about %s (%s).", len(res.Findings),
			plural(len(res.Findings), "item", "items"), company, sourceCounts(res.Findings))
	}
	if ok {
		fmt.Fprintf(&b, "\n\nMost significant: %s, rated %s (confidence %.2f): %s", typeLabel(top.Type), top.Severity,
			top.Score, quoteTitle(top.Item))
		if top.Item.URL != "" {
			fmt.Fprintf(&b, " <%s>", top.Item.URL)
		}
		b.WriteString(".")
		if top.Money != nil {
			fmt.Fprintf(&b, " Amount: %s.", top.Money.String())
		}
		if top.Round != "" {
			fmt.Fprintf(&b, " Round: %s.", roundLabel(top.Round))
		}
		if len(top.People) > 0 {
			fmt.Fprintf(&b, " People: %s.", strings.Join(top.People, ", "))
		}
		if len(top.Reasons) > 0 {
			fmt.Fprintf(&b, " Decided by: %s.", strings.Join(top.Reasons, "; "))
		}
		if len(top.Secondary) > 0 {
			also := make([]string, len(top.Secondary))
			for i, t := range top.Secondary {
				also[i] = typeLabel(t)
			}
			fmt.Fprintf(&b, " The item also reports: %s.", strings.Join(also, ", "))
		}
	}

	var others, denied []string
	for i, f := range res.Findings {
		if i == topIdx {
			continue
		}
		line := fmt.Sprintf("- %s (%s): %s", typeLabel(f.Type), f.Severity, quoteTitle(f.Item))
		if f.Item.URL != "" {
			line += " <" + f.Item.URL + ">"
		}
		if f.Negated {
			denied = append(denied, line)
		} else {
			others = append(others, line)
		}
	}
	if len(others) > 0 {
		b.WriteString("\n\nOther new items:\n" + strings.Join(others, "\n"))
	}
	if len(denied) > 0 {
		b.WriteString("\n\nNot counted, because the item denies the event:\n" + strings.Join(denied, "\n"))
	}

	if len(res.Evaluations) > 0 {
		b.WriteString("\n\nAlert rules:")
		for _, e := range res.Evaluations {
			state := "not matched"
			if e.Matched {
				state = "matched"
			}
			fmt.Fprintf(&b, "\n- %s %q: %s. %s.", e.RuleID, e.Sentence, state, upperFirst(strings.TrimPrefix(strings.TrimPrefix(e.Reason, "matched "), "not matched: ")))
		}
	}

	fmt.Fprintf(&b, "\n\nRecommendation: %s. %s", strings.ReplaceAll(res.Recommendation, "_", " "), recommendationWhy(res))
	if len(in.SourceProblems) > 0 {
		fmt.Fprintf(&b, "\n\nSome sources had problems this run, so this picture may be incomplete: %s.",
			strings.Join(in.SourceProblems, "; "))
	}
	return b.String()
}

func recommendationWhy(res Result) string {
	switch res.Recommendation {
	case RecommendReachOut:
		return fmt.Sprintf("This %s-severity %s signal is a good moment to contact the founders.", res.Severity, typeLabel(res.Type))
	case RecommendReview:
		return fmt.Sprintf("This %s-severity %s signal deserves a closer look.", res.Severity, typeLabel(res.Type))
	case RecommendMonitor:
		return "Nothing here calls for action; keep watching."
	}
	return "Nothing changed."
}

func sourceCounts(findings []Finding) string {
	counts := map[string]int{}
	var order []string
	for _, f := range findings {
		src := f.Item.Source
		if src == "" {
			src = "unknown source"
		}
		if counts[src] == 0 {
			order = append(order, src)
		}
		counts[src]++
	}
	parts := make([]string, 0, len(order))
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%s %d", s, counts[s]))
	}
	return strings.Join(parts, ", ")
}

func roundLabel(round string) string {
	switch round {
	case "pre_seed":
		return "pre-seed"
	case "seed", "angel", "bridge":
		return round
	}
	if l, ok := strings.CutPrefix(round, "series_"); ok {
		return "Series " + strings.ToUpper(l)
	}
	return round
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
