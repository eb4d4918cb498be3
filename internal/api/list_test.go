package api_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"radar"
	"radar/internal/apitest"
	"radar/internal/sqldb/storetest"
)

// walk follows nextCursor from cursor ("" for the first page) through at most pages pages of path at limit,
// and returns the ids in order and the cursor after the last page read ("" at the end of the list).
func walk(t *testing.T, env *apitest.Env, key, path string, limit int, cursor string, pages int) ([]string, string) {
	t.Helper()
	var ids []string
	for range pages {
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		res := env.Serve(t, apitest.Request{Method: http.MethodGet, Path: path + "?" + q.Encode(), Key: key})
		wantStatus(t, res, http.StatusOK)
		items := res.Items()
		if len(items) > limit {
			t.Fatalf("page of %d items at limit %d", len(items), limit)
		}
		for _, it := range items {
			ids = append(ids, str(it, "id"))
		}
		cursor = res.NextCursor()
		if cursor == "" {
			break
		}
		if len(items) != limit {
			t.Fatalf("a page of %d items at limit %d has a next cursor", len(items), limit)
		}
	}
	return ids, cursor
}

func TestListPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		// 1,000 entities in groups of eight sharing one creation time, inserted out of order.
		base := time.Date(2026, 1, 1, 9, 30, 0, 123456000, time.UTC)
		var all []*radar.Entity
		for i := range 1000 {
			slot := (i * 389) % 125
			all = append(all, env.InsertEntity(t, env.OrgA, "Company "+strconv.Itoa(i), base.Add(time.Duration(slot)*time.Millisecond)))
		}
		env.InsertEntity(t, env.OrgB, "Other organisation", base)
		slices.SortFunc(all, func(a, b *radar.Entity) int {
			if c := b.CreatedAt.Compare(a.CreatedAt.Time); c != 0 {
				return c
			}
			return strings.Compare(b.ID, a.ID)
		})
		want := make([]string, len(all))
		for i, e := range all {
			want[i] = e.ID
		}
		// Page size 100 first: its cursors split the walk at page size 1 into segments walked in parallel.
		hundred, starts := []string{}, []string{""}
		for cursor := ""; ; {
			page, next := walk(t, env, key, "/api/v1/tracker", 100, cursor, 1)
			hundred = append(hundred, page...)
			if cursor = next; cursor == "" {
				break
			}
			starts = append(starts, cursor)
		}
		same := func(t *testing.T, limit int, got, want []string) {
			t.Helper()
			if !slices.Equal(got, want) {
				t.Errorf("paging at limit %d returned %d ids (%d distinct); want the %d entities once each, newest first, id descending",
					limit, len(got), len(slices.Compact(slices.Sorted(slices.Values(got)))), len(want))
			}
		}
		same(t, 100, hundred, want)
		t.Run("limit 7", func(t *testing.T) {
			got, _ := walk(t, env, key, "/api/v1/tracker", 7, "", 1000)
			same(t, 7, got, want)
		})
		t.Run("limit 1", func(t *testing.T) {
			for k, start := range starts {
				t.Run("from "+strconv.Itoa(k*100), func(t *testing.T) {
					t.Parallel()
					got, next := walk(t, env, key, "/api/v1/tracker", 1, start, 100)
					same(t, 1, got, want[k*100:min(k*100+100, len(want))])
					wantNext := ""
					if k+1 < len(starts) {
						wantNext = starts[k+1]
					}
					if next != wantNext {
						t.Errorf("nextCursor after entity %d at page size 1 is %q, want %q (as at page size 100; null at the end)",
							k*100+len(got)-1, next, wantNext)
					}
				})
			}
		})
		for q, n := range map[string]int{"": 25, "?limit=100": 100, "?limit=500": 100, "?limit=1": 1, "?limit=99": 99} {
			t.Run("page size "+q, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, "/api/v1/tracker"+q, key, nil)
				wantStatus(t, res, http.StatusOK)
				if got := len(res.Items()); got != n {
					t.Errorf("%d items, want %d", got, n)
				}
				if res.NextCursor() == "" {
					t.Errorf("no nextCursor with more entities left")
				}
			})
		}
		t.Run("cursor is the same in both views", func(t *testing.T) {
			first := env.Do(t, http.MethodGet, "/api/v1/tracker?limit=5", key, nil)
			cursor := url.QueryEscape(first.NextCursor())
			compact := env.Do(t, http.MethodGet, "/api/v1/tracker?limit=5&cursor="+cursor, key, nil)
			full := env.Do(t, http.MethodGet, "/api/v1/tracker?limit=5&view=full&cursor="+cursor, key, nil)
			if ids(compact) == "" || ids(compact) != ids(full) || compact.NextCursor() != full.NextCursor() {
				t.Errorf("compact page %s / %s differs from full page %s / %s", ids(compact), compact.NextCursor(), ids(full), full.NextCursor())
			}
			if ids(compact) != strings.Join(want[5:10], ",") {
				t.Errorf("second page %s, want %s", ids(compact), strings.Join(want[5:10], ","))
			}
		})
	})
}

func ids(res *apitest.Response) string {
	var out []string
	for _, it := range res.Items() {
		out = append(out, str(it, "id"))
	}
	return strings.Join(out, ",")
}

func TestListParameters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		long := apitest.CreateBody("Northwind")
		long["companySummary"] = strings.Repeat("Northwind makes wind. ", 50)
		res := env.Do(t, http.MethodPost, "/api/v1/tracker", key, long)
		wantStatus(t, res, http.StatusCreated)
		first := str(res.Data(), "id")
		env.SeedRun(t, env.OrgA, first)
		env.SeedRun(t, env.OrgA, create(t, env, key, "Contoso"))
		create(t, env, key, "Fabrikam")

		for name, q := range map[string]string{
			"limit 0":              "limit=0",
			"limit -1":             "limit=-1",
			"limit abc":            "limit=abc",
			"limit 1.5":            "limit=1.5",
			"view other":           "view=summary",
			"view in capitals":     "view=FULL",
			"status other":         "status=archived",
			"stage other":          "stage=series_z",
			"updatedAfter garbage": "updatedAfter=yesterday",
			"five sector terms":    "classification=fintech,biotech,software,retail,energy",
			"five sectors alias":   "sectors=fintech,biotech,software,retail,energy",
		} {
			t.Run(name, func(t *testing.T) {
				wantError(t, env.Do(t, http.MethodGet, "/api/v1/tracker?"+q, key, nil), http.StatusBadRequest, radar.EValidation)
			})
		}
		for name, q := range map[string]string{"limit abc": "limit=abc", "limit 0": "limit=0", "view other": "view=other"} {
			for _, list := range []string{"signals", "alerts", "leads"} {
				t.Run(list+" "+name, func(t *testing.T) {
					wantError(t, env.Do(t, http.MethodGet, "/api/v1/"+list+"?"+q, key, nil), http.StatusBadRequest, radar.EValidation)
				})
			}
		}

		t.Run("views", func(t *testing.T) {
			compact := env.Do(t, http.MethodGet, "/api/v1/tracker", key, nil)
			full := env.Do(t, http.MethodGet, "/api/v1/tracker?view=full", key, nil)
			explicit := env.Do(t, http.MethodGet, "/api/v1/tracker?view=compact", key, nil)
			if string(compact.Body) != string(explicit.Body) {
				t.Errorf("the default list view is not compact")
			}
			for _, it := range compact.Items() {
				if _, ok := it["policy"]; ok {
					t.Errorf("compact item %s carries the policy", str(it, "id"))
				}
				if s := str(it, "companySummary"); utf8.RuneCountInString(s) > radar.CompactSummaryLen {
					t.Errorf("compact summary of %d characters", utf8.RuneCountInString(s))
				}
			}
			for _, it := range full.Items() {
				if _, ok := it["policy"]; !ok {
					t.Errorf("full item %s lacks the policy", str(it, "id"))
				}
				if str(it, "id") == first && str(it, "companySummary") != strings.TrimSpace(long["companySummary"].(string)) {
					t.Errorf("full summary was cut")
				}
			}
			if ids(compact) != ids(full) {
				t.Errorf("compact and full lists hold different entities")
			}
			for _, it := range compact.Items() {
				sig, ok := it["latestSignal"].(map[string]any)
				if str(it, "companyName") == "Fabrikam" {
					if it["latestSignal"] != nil {
						t.Errorf("Fabrikam has no run yet but a latestSignal")
					}
					continue
				}
				if !ok || len(list(sig["evidence"])) > radar.CompactEvidence || utf8.RuneCountInString(str(sig, "summary")) > radar.CompactSummaryLen {
					t.Errorf("%s: latestSignal not in its compact view: %v", str(it, "companyName"), it["latestSignal"])
				}
			}
		})

		cursors := map[string]string{}
		for _, list := range []string{"tracker", "signals", "alerts", "leads"} {
			res := env.Do(t, http.MethodGet, "/api/v1/"+list+"?limit=1", key, nil)
			wantStatus(t, res, http.StatusOK)
			if cursors[list] = res.NextCursor(); cursors[list] == "" {
				t.Fatalf("/%s?limit=1 has no nextCursor: %s", list, res.Body)
			}
		}
		raw, err := base64.RawURLEncoding.DecodeString(cursors["tracker"])
		if err != nil {
			t.Fatalf("cursor is not base64url: %v", err)
		}
		bad := map[string]string{
			"malformed":          "!!!not-a-cursor",
			"short":              "abc",
			"truncated":          cursors["tracker"][:len(cursors["tracker"])-4],
			"extended":           cursors["tracker"] + "AAAA",
			"other server's":     base64.RawURLEncoding.EncodeToString(append(raw[:len(raw)-16:len(raw)-16], make([]byte, 16)...)),
			"from signals":       cursors["signals"],
			"from alerts":        cursors["alerts"],
			"from leads":         cursors["leads"],
			"non-base64 letters": strings.Repeat("é", 20),
		}
		for i := range raw {
			flipped := slices.Clone(raw)
			flipped[i] ^= 0x01
			bad["byte "+strconv.Itoa(i)+" flipped"] = base64.RawURLEncoding.EncodeToString(flipped)
		}
		for name, c := range bad {
			t.Run("cursor "+name, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, "/api/v1/tracker?cursor="+url.QueryEscape(c), key, nil)
				wantError(t, res, http.StatusBadRequest, radar.EInvalidCursor)
			})
		}
		for _, list := range []string{"signals", "alerts", "leads"} {
			t.Run("tracker cursor on "+list, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, "/api/v1/"+list+"?cursor="+url.QueryEscape(cursors["tracker"]), key, nil)
				wantError(t, res, http.StatusBadRequest, radar.EInvalidCursor)
			})
		}
	})
}

// TestCursorsBelongToTheirQuery checks that a cursor pages only the query that made it: the same list, the
// same filters and the same organisation; limit and view may change from page to page.
func TestCursorsBelongToTheirQuery(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key, other := env.Key(t, env.OrgA), env.Key(t, env.OrgB)
		for _, name := range []string{"Northwind", "Contoso", "Fabrikam"} {
			env.SeedRun(t, env.OrgA, create(t, env, key, name))
			env.SeedRun(t, env.OrgB, create(t, env, other, name))
		}
		lists := []struct{ list, filter, otherFilter, moreFilters string }{
			{"tracker", "status=ok", "status=paused", "stage=unknown"},
			{"signals", "severity=high", "severity=low", "type=funding&changed=true"},
			{"alerts", "outcome=sent", "outcome=failed", "latestPerEntity=true"},
			{"leads", "decision=unreviewed", "decision=accepted", "stage=pre_seed_seed"},
		}
		for _, l := range lists {
			t.Run(l.list, func(t *testing.T) {
				first := env.Do(t, http.MethodGet, "/api/v1/"+l.list+"?limit=1&"+l.filter, key, nil)
				wantStatus(t, first, http.StatusOK)
				cursor := url.QueryEscape(first.NextCursor())
				if cursor == "" {
					t.Fatalf("no nextCursor: %s", first.Body)
				}
				next := env.Do(t, http.MethodGet, "/api/v1/"+l.list+"?limit=5&view=full&"+l.filter+"&cursor="+cursor, key, nil)
				wantStatus(t, next, http.StatusOK)
				if len(next.Items()) != 2 {
					t.Errorf("the same query with another limit and view gave %d items, want the 2 left", len(next.Items()))
				}
				for name, q := range map[string]string{
					"other filter value": l.otherFilter,
					"filter dropped":     "",
					"filter added":       l.filter + "&" + l.moreFilters,
				} {
					t.Run(name, func(t *testing.T) {
						res := env.Do(t, http.MethodGet, "/api/v1/"+l.list+"?limit=1&"+q+"&cursor="+cursor, key, nil)
						wantError(t, res, http.StatusBadRequest, radar.EInvalidCursor)
					})
				}
				for _, o := range lists {
					if o.list == l.list {
						continue
					}
					t.Run("on "+o.list, func(t *testing.T) {
						res := env.Do(t, http.MethodGet, "/api/v1/"+o.list+"?limit=1&"+o.filter+"&cursor="+cursor, key, nil)
						wantError(t, res, http.StatusBadRequest, radar.EInvalidCursor)
					})
				}
				t.Run("another organisation's key", func(t *testing.T) {
					res := env.Do(t, http.MethodGet, "/api/v1/"+l.list+"?limit=1&"+l.filter+"&cursor="+cursor, other, nil)
					wantError(t, res, http.StatusBadRequest, radar.EInvalidCursor)
				})
			})
		}
	})
}

func TestListFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		env := start(t, engine)
		key := env.Key(t, env.OrgA)
		at := func(s string) time.Time {
			v, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		mk := func(name, when, stage, status string, sectors ...string) string {
			e := env.InsertEntityWith(t, env.OrgA, name, at(when), func(e *radar.Entity) {
				e.Stage, e.Status, e.Sectors = stage, status, append([]string{}, sectors...)
			})
			return e.ID
		}
		jan := mk("January", "2026-01-15T12:00:00Z", radar.StageSeriesA, radar.StatusOK, "Financial Services > Fintech > Payments")
		feb := mk("February", "2026-02-15T12:00:00Z", radar.StagePreSeedSeed, radar.StatusPaused, "Software")
		mar := mk("March", "2026-03-15T12:00:00Z", radar.StageUnknown, radar.StatusOK)

		cases := map[string]struct {
			query string
			want  []string
		}{
			"no filter":                          {"", []string{mar, feb, jan}},
			"status ok":                          {"status=ok", []string{mar, jan}},
			"status paused":                      {"status=paused", []string{feb}},
			"updatedAfter a date":                {"updatedAfter=2026-02-01", []string{mar, feb}},
			"updatedAfter a timestamp":           {"updatedAfter=2026-02-15T12:00:00Z", []string{mar}},
			"updatedAfter a microsecond earlier": {"updatedAfter=" + url.QueryEscape("2026-02-15T11:59:59.999999+00:00"), []string{mar, feb}},
			"updatedAfter an offset":             {"updatedAfter=" + url.QueryEscape("2026-02-15T13:00:00+02:00"), []string{mar, feb}},
			"updatedAfter the future":            {"updatedAfter=2030-01-01", nil},
			"stage series_a":                     {"stage=series_a", []string{jan}},
			"stage pre_seed_seed":                {"stage=pre_seed_seed", []string{feb}},
			"classification":                     {"classification=fintech", []string{jan}},
			"sector alias":                       {"sector=payments", []string{jan}},
			"sectors alias with two terms":       {"sectors=fintech,software", []string{feb, jan}},
			"classification matching nothing":    {"classification=" + url.QueryEscape("deep sea mining"), nil},
			"status and stage":                   {"status=ok&stage=series_a", []string{jan}},
			"status and stage matching nothing":  {"status=paused&stage=series_a", nil},
		}
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				res := env.Do(t, http.MethodGet, "/api/v1/tracker?"+c.query, key, nil)
				wantStatus(t, res, http.StatusOK)
				if got := ids(res); got != strings.Join(c.want, ",") {
					t.Errorf("got %s, want %s", got, strings.Join(c.want, ","))
				}
				_, resolved := res.Object()["classificationResolution"]
				if sectors := strings.Contains(c.query, "sector") || strings.Contains(c.query, "classification"); sectors != resolved {
					t.Errorf("classificationResolution present = %v, want %v", resolved, sectors)
				}
			})
		}
	})
}
