package tracker_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"radar"
	"radar/internal/crawl"
	"radar/internal/fetch"
	"radar/internal/simweb"
	"radar/internal/sqldb/storetest"
	"radar/internal/tracker"
)

// internalDetail matches what a health reason or a summary must never show: addresses, ports, Go error wording.
var internalDetail = regexp.MustCompile(`\d+\.\d+\.\d+|\[::|:\d{2,5}\b|dial tcp|connect:|lookup |fetch:|127\.0\.0\.1`)

func TestRunThatReadsNoSourceLooksFailed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, news)
		cfg := v.config()
		fetcher := fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second})
		cfg.Crawler = crawl.New(crawl.Config{Fetcher: fetcher, GitHubAPIURL: v.web.GitHubAPIURL()})
		v.start(cfg)
		ent := v.trackSite("Gone Ltd", simweb.RefusedURL+"/", []string{"Ann Gone"})

		for run := 1; run <= tracker.SourceFailureLimit; run++ {
			if run > 1 {
				v.refresh(ent.ID)
			}
			sig := v.runs(ent.ID, run)[0]
			if sig.Type == radar.TypeNoChange || sig.Type != radar.TypeOther {
				t.Fatalf("run %d: type %q, want other (not no_change)", run, sig.Type)
			}
			if !sig.NeedsAttention || sig.Recommendation != "review" {
				t.Errorf("run %d: needsAttention %v, recommendation %q; want true, review", run, sig.NeedsAttention, sig.Recommendation)
			}
			want := "Nothing could be checked: the website did not answer (connection refused)"
			if sig.Summary != want {
				t.Errorf("run %d: summary %q, want %q", run, sig.Summary, want)
			}
			if !sig.NothingChecked() || sig.Sources[0].Error != "the site did not answer (connection refused)" {
				t.Errorf("run %d: sources %+v", run, sig.Sources)
			}
			for what, text := range map[string]string{"summary": sig.Summary, "analysis": sig.Analysis, "source error": sig.Sources[0].Error} {
				if internalDetail.MatchString(text) {
					t.Errorf("run %d: %s shows internal detail: %q", run, what, text)
				}
			}
			health := v.entity(ent.ID).ScrapeHealthReason
			wantHealth := "failed: website: the site did not answer (connection refused)"
			if run == tracker.SourceFailureLimit {
				wantHealth += ", failing for 3 runs in a row"
			}
			if health != wantHealth {
				t.Errorf("run %d: scrapeHealthReason %q, want %q", run, health, wantHealth)
			}
			if internalDetail.MatchString(health) {
				t.Errorf("run %d: scrapeHealthReason shows internal detail: %q", run, health)
			}
		}
		alerts := v.alerts(ent.ID)
		if len(alerts) != tracker.SourceFailureLimit || alerts[0].Outcome != radar.OutcomeNoMatch ||
			!strings.Contains(alerts[0].Reason, "nothing could be checked") {
			t.Errorf("alerts = %+v, want no_match saying nothing could be checked", alerts)
		}
		changed := true
		listed, err := v.db.Signals(t.Context(), radar.SignalFilter{OrgID: v.orgOf[ent.ID], EntityID: ent.ID, Changed: &changed})
		if err != nil || len(listed) != tracker.SourceFailureLimit {
			t.Errorf("changed=true lists %d signals (err %v), want the %d failed runs", len(listed), err, tracker.SourceFailureLimit)
		}
	})
}

func TestSourceFailingThreeRunsNeedsAttention(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, engine string) {
		v := newEnv(t, engine, nil)
		cfg := v.config()
		fetcher := fetch.New(fetch.Config{AllowPrivate: true, Timeout: 10 * time.Second})
		cfg.Crawler = crawl.New(crawl.Config{Fetcher: fetcher, NewsFeedURL: failingNews(t), GitHubAPIURL: v.web.GitHubAPIURL()})
		v.start(cfg)
		ent := v.track(v.company("corvimesh"))
		for run := 1; run <= tracker.SourceFailureLimit+1; run++ {
			if run > 1 {
				v.refresh(ent.ID)
			}
			sig := v.runs(ent.ID, run)[0]
			if run == 1 {
				continue // the first run reports what the site already shows
			}
			if sig.Type != radar.TypeNoChange {
				t.Fatalf("run %d: type %q, want a quiet run", run, sig.Type)
			}
			if want := run >= tracker.SourceFailureLimit; sig.NeedsAttention != want {
				t.Errorf("run %d: needsAttention %v, want %v (news failing %d runs in a row)", run, sig.NeedsAttention, want, run)
			}
		}
	})
}
