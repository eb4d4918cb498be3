package web_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// browserImportCSV has three good companies and one whose alert address is not an address.
const browserImportCSV = `companyName,companyWebsite,founders,thingsToTrack,alertEmails,cadenceDays
Northwind Labs,https://northwind.example,Ada Lovelace; Grace Hopper,Tell me when they raise money.,partners@fund.example,7
Badmail,https://badmail.example,Bob Stone,Tell me when they raise money.,not-an-address,7
"Contoso, Inc.",https://contoso.example,Alan Turing,Tell me when a founder leaves.,partners@fund.example,30
Fabrikam,https://fabrikam.example,Mia Wong,Tell me about layoffs.,partners@fund.example,7
`

// signIn signs the tab in through the sign-in form.
func (c *chrome) signIn(email string) {
	c.t.Helper()
	c.open("/login")
	c.fill("email", email)
	c.fill("password", password)
	c.submit(`button[type="submit"]`)
}

// count is the number of elements that match sel.
func (c *chrome) count(sel string) int {
	c.t.Helper()
	n, err := chromedp.Run(c.ctx, chromedp.Evaluate[int](`document.querySelectorAll('`+sel+`').length`))
	if err != nil {
		c.t.Fatalf("count %s: %v", sel, err)
	}
	return n
}

// lacks fails when the page shows any of unwanted.
func (c *chrome) lacks(unwanted ...string) {
	c.t.Helper()
	txt := c.text("body")
	for _, w := range unwanted {
		if strings.Contains(txt, w) {
			c.t.Errorf("the page shows %q; it should not:\n%s", w, txt)
		}
	}
}

// TestBrowserPages drives the import, unread, quiet-run and rule preview pages in Chromium, on every engine.
func TestBrowserPages(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("browser tests need Chromium at %s", chromium)
	}
	for _, engine := range storetest.Engines() {
		t.Run(engine, func(t *testing.T) { browserPages(t, engine) })
	}
}

func browserPages(t *testing.T, engine string) {
	s := startSite(t, engine, web.Config{})
	c := startChrome(t, s.URL)
	c.signIn(s.OwnerA)
	c.shows("Companies", "No companies yet")
	shot := func(name string) { c.shot(engine + "-" + name) }

	t.Run("import a CSV file", func(t *testing.T) {
		c.t = t
		file := filepath.Join(t.TempDir(), "companies.csv")
		if err := os.WriteFile(file, []byte(browserImportCSV), 0o644); err != nil {
			t.Fatal(err)
		}
		c.submit(`a[href="/companies/import"]`)
		c.shows("Import companies", "CSV file")
		c.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"][name="file"]`), []string{file}))
		c.submit(`form[action="/companies/import/preview"] button.primary`)
		c.shows("3 rows of 4 can be imported", "Import 3 rows")
		if got := c.text(`tr[data-line="3"] td.error`); !strings.Contains(got, "alertEmails") {
			t.Errorf("the bad row's problem = %q, want one about alertEmails", got)
		}
		if n := c.count(`table.import-rows tbody td.error`); n != 1 {
			t.Errorf("%d rows with a problem in the preview, want 1", n)
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 0 {
			t.Fatalf("the preview saved %d companies", n)
		}
		shot("import-preview")

		// The page's script imports the rows a batch a request and shows the outcome of each.
		c.do(chromedp.Click(chromedp.CSS(`form[data-import] button.primary`)))
		c.until("the import", `[data-import-progress] [role="status"]`, "4 of 4 rows done. Finished.", 30*time.Second)
		hidden, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`document.querySelector("form[data-import]").hidden`))
		if err != nil || !hidden {
			t.Errorf("the import button is still shown after the import (err %v)", err)
		}
		max, err := chromedp.Run(c.ctx, chromedp.Evaluate[float64](`document.querySelector("[data-import-progress] progress").max`))
		if err != nil || max != 4 {
			t.Errorf("progress max = %v (err %v), want 4", max, err)
		}
		value, err := chromedp.Run(c.ctx, chromedp.Evaluate[float64](`document.querySelector("[data-import-progress] progress").value`))
		if err != nil || value != 4 {
			t.Errorf("progress value = %v (err %v), want 4", value, err)
		}
		out := c.text(`[data-import-progress] tbody`)
		for _, want := range []string{"Northwind Labs", "Contoso, Inc.", "Fabrikam", "Now tracked", "alertEmails"} {
			if !strings.Contains(out, want) {
				t.Errorf("the outcome does not show %q:\n%s", want, out)
			}
		}
		if n := c.count(`[data-import-progress] tbody a[href^="/companies/"]`); n != 3 {
			t.Errorf("%d imported companies linked, want 3", n)
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 3 {
			t.Errorf("%d companies after the import, want 3", n)
		}
		shot("import-done")
		c.open("/companies")
		c.shows("Northwind Labs", "Contoso, Inc.", "Fabrikam")
		c.lacks("Badmail", "No companies yet")
		shot("import-companies")
	})

	t.Run("a large import runs in batches", func(t *testing.T) {
		c.t = t
		csv := "companyName,companyWebsite,founders,thingsToTrack,alertEmails\n"
		for i := range 45 {
			mail := "partners@fund.example"
			if i == 29 {
				mail = "nobody"
			}
			csv += fmt.Sprintf("Batch %02d,https://batch-%02d.example,Ada %d,Tell me when they raise money.,%s\n", i, i, i, mail)
		}
		file := filepath.Join(t.TempDir(), "many.csv")
		if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		c.open("/companies/import")
		c.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"][name="file"]`), []string{file}))
		c.submit(`form[action="/companies/import/preview"] button.primary`)
		c.shows("44 rows of 45 can be imported", "Import 44 rows")
		c.do(chromedp.Click(chromedp.CSS(`form[data-import] button.primary`)))
		c.until("the import", `[data-import-progress] [role="status"]`, "45 of 45 rows done. Finished.", 60*time.Second)
		// Three requests of at most 20 rows each, every row listed once and in the order of the file.
		lines, err := chromedp.Run(c.ctx, chromedp.Evaluate[[]string](
			`Array.from(document.querySelectorAll("[data-import-progress] tbody tr td:first-child"), td => td.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 45 || lines[0] != "2" || lines[44] != "46" {
			t.Errorf("the outcome lists lines %v, want 2 to 46", lines)
		}
		if got := c.text(`[data-import-progress] tbody tr:nth-child(30) td.error`); !strings.Contains(got, "alertEmails") {
			t.Errorf("line 31's problem = %q", got)
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 3+44 {
			t.Errorf("%d companies after the large import, want 47", n)
		}
		shot("import-batches")
	})

	t.Run("an import stops with a reason when the session ends", func(t *testing.T) {
		c.t = t
		file := filepath.Join(t.TempDir(), "one.csv")
		if err := os.WriteFile(file, []byte("companyName,companyWebsite,founders,thingsToTrack,alertEmails\nLate Ltd,https://late.example,Ann Late,Funding,partners@fund.example\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c.open("/companies/import")
		c.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"][name="file"]`), []string{file}))
		c.submit(`form[action="/companies/import/preview"] button.primary`)
		c.shows("Import 1 row")
		// Signed out elsewhere, e.g. in another tab.
		if _, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`fetch("/logout", {method: "POST"}).then(r => r.ok)`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		c.do(chromedp.Click(chromedp.CSS(`form[data-import] button.primary`)))
		c.until("the stopped import", `[data-import-progress] [role="status"]`, "Stopped: you are no longer signed in", 30*time.Second)
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 47 {
			t.Errorf("%d companies after a signed-out import, want 47", n)
		}
		if hidden, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`document.querySelector("[data-import-progress] table").hidden`)); err != nil || !hidden {
			t.Errorf("an empty outcome table is shown (err %v)", err)
		}
		shot("import-stopped")
		c.signIn(s.OwnerA)
	})

	ledger := s.track(t, s.OrgA, "Ledgerwyn")
	s.enrich(t, s.OrgA, ledger.ID)
	s.SeedRun(t, s.OrgA, ledger.ID)
	for range 3 {
		s.Clock.Advance(time.Second)
		s.SeedQuietRun(t, s.OrgA, ledger.ID)
	}
	gone := s.track(t, s.OrgA, "Gone Ltd")
	s.Clock.Advance(time.Second)
	s.SeedFailedRun(t, s.OrgA, gone.ID)

	t.Run("unread counts clear when marked read", func(t *testing.T) {
		c.t = t
		c.open("/")
		c.shows("What is new", "Raised a Series A.", "Nothing could be checked")
		if got := c.text(`h2 .unread-count`); got != "2 new" {
			t.Errorf("unread count on the overview = %q, want 2 new", got)
		}
		if n := c.count(`.card[data-unread]`); n != 2 {
			t.Errorf("%d unread rows on the overview, want 2", n)
		}
		bold, err := chromedp.Run(c.ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(".card[data-unread] .strong")).fontWeight`))
		if err != nil || bold != "700" {
			t.Errorf("an unread row's company is in weight %q (err %v), want bold", bold, err)
		}
		shot("overview-unread")

		c.open("/signals")
		if got := c.text(`h1 .unread-count`); got != "2 new" {
			t.Errorf("unread count on the signals page = %q, want 2 new", got)
		}
		if n := c.count(`.card[data-unread]`); n != 2 {
			t.Errorf("%d unread rows on the signals page, want 2", n)
		}
		shot("signals-unread")
		c.submit(`form[action="/signals/mark-read"] button`)
		c.shows("Everything so far is marked read.")
		if n := c.count(`.unread-count, .card[data-unread], form[action="/signals/mark-read"]`); n != 0 {
			t.Errorf("%d unread marks left on the signals page after mark all read", n)
		}
		weight, err := chromedp.Run(c.ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(".feed .card p")).fontWeight`))
		if err != nil || weight == "700" {
			t.Errorf("a read row's summary is in weight %q (err %v), want normal", weight, err)
		}
		shot("signals-read")

		c.open("/")
		c.shows("Nothing new since you last looked.")
		c.lacks("0 new")
		if n := c.count(`.unread-count, .card[data-unread], form[action="/signals/mark-read"]`); n != 0 {
			t.Errorf("%d unread marks left on the overview after mark all read", n)
		}
		shot("overview-read")

		// Mark all read from the overview too.
		s.Clock.Advance(time.Second)
		s.SeedRun(t, s.OrgA, ledger.ID)
		c.open("/")
		if got := c.text(`h2 .unread-count`); got != "1 new" {
			t.Errorf("unread count after a new run = %q, want 1 new", got)
		}
		c.submit(`form[action="/signals/mark-read"] button`)
		c.shows("Everything so far is marked read.", "Nothing new since you last looked.")
		if n := c.count(`.unread-count, .card[data-unread]`); n != 0 {
			t.Errorf("%d unread marks left on the overview after mark all read there", n)
		}
	})

	t.Run("quiet runs are hidden until shown", func(t *testing.T) {
		c.t = t
		c.open("/signals")
		c.shows("3 quiet runs hidden — show", "Raised a Series A.")
		c.lacks("Nothing new this run.")
		shot("signals-quiet-hidden")
		c.submit(`.quiet-note a`)
		c.shows("Nothing new this run.", "Hide quiet runs")
		c.lacks("quiet runs hidden")
		if loc, err := chromedp.Run(c.ctx, chromedp.Location()); err != nil || !strings.HasSuffix(loc, "/signals?quiet=show") {
			t.Errorf("the show link led to %q (err %v)", loc, err)
		}
		if n := c.count(`.feed > li`); n != 6 {
			t.Errorf("%d runs listed with the quiet ones, want 6", n)
		}
		shot("signals-quiet-shown")
		c.submit(`.quiet-note a`)
		c.shows("3 quiet runs hidden — show")

		c.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		defer c.do(chromedp.EmulateViewport(1280, 900))
		c.open("/signals")
		shot("signals-phone")
		wide, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool]("document.documentElement.scrollWidth > window.innerWidth + 1"))
		if err != nil || wide {
			t.Errorf("the signals page is wider than a phone screen (err %v)", err)
		}
	})

	t.Run("preview the rules of a company", func(t *testing.T) {
		c.t = t
		c.open("/companies/" + ledger.ID + "/edit")
		c.fill("thingsToTrack", "Tell me when they raise money.\nAny founder leaving.")
		c.submit(`button[name="preview"]`)
		c.shows("Preview:", "2 rules tried on", "Would alert", "Would not alert")
		if n := c.count(`#rule-preview li[data-rule]`); n != 2 {
			t.Errorf("%d rules in the preview, want 2", n)
		}
		if got := c.text(`#rule-preview li.matched`); !strings.Contains(got, "Would alert: “Tell me when they raise money”") {
			t.Errorf("the matching rule = %q", got)
		}
		if got, err := chromedp.Run(c.ctx, chromedp.Value(chromedp.CSS(`[name="thingsToTrack"]`))); err != nil || !strings.Contains(got, "Any founder leaving.") {
			t.Errorf("the draft is not kept in the form: %q (err %v)", got, err)
		}
		shot("rule-preview")
		res := s.Do(t, http.MethodGet, "/api/v1/tracker/"+ledger.ID, s.Key(t, s.OrgA), nil)
		if things, _ := res.Data()["thingsToTrack"].(string); strings.Contains(things, "Any founder leaving.") || res.Status != http.StatusOK {
			t.Errorf("the previewed rules were saved: %d %q", res.Status, things)
		}
	})
}
