package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"radar/internal/sqldb/storetest"
	"radar/internal/web"
)

// upload posts a CSV file to the import preview.
func upload(t *testing.T, b *browser, content string) page {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "companies.csv")
	fw.Write([]byte(content))
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.base+"/companies/import/preview", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(req)
}

const importCSV = `companyName,companyWebsite,founders,thingsToTrack,alertEmails,cadenceDays
Northwind Labs,https://northwind.example,Ada Lovelace; Grace Hopper,Funding rounds,partners@fund.example,7
,https://nameless.example,Nobody,Funding,partners@fund.example,7
"Contoso, Inc.",https://contoso.example,Alan Turing,"Tell me about funding.
And founders leaving.",a@fund.example; b@fund.example,30
Ledgerwyn,https://ledgerwyn.example,Ada Ledgerwyn,Funding,partners@fund.example,7
Badmail,https://badmail.example,Bob,Funding,not-an-address,7
`

func TestCSVImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		s := startSite(t, engine, web.Config{})
		tracked := s.track(t, s.OrgA, "Ledgerwyn")
		b := s.signedIn(t, s.OwnerA)
		contains(t, b.get("/companies/import"), "CSV file", "companyWebsite")

		p := upload(t, b, importCSV)
		if p.Status != http.StatusOK {
			t.Fatalf("preview: %d\n%s", p.Status, text(p.Body))
		}
		contains(t, p, "3 rows of 5 can be imported", "companyName: is required", "Already tracked as Ledgerwyn", "Import 3 rows")
		if !strings.Contains(text(p.Body), "alertEmails") {
			t.Errorf("the bad address is not reported:\n%s", text(p.Body))
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 1 {
			t.Fatalf("the preview saved companies: %d entities", n)
		}

		form := url.Values{"csv": {inputCSV(t, p.Body)}, "key": {inputValue(p.Body, "key")}}
		done := b.post("/companies/import", form)
		if done.Status != http.StatusOK {
			t.Fatalf("import: %d\n%s", done.Status, text(done.Body))
		}
		contains(t, done, "Imported: 2 newly tracked, 1 already tracked and updated, 2 rows not imported.")
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 3 {
			t.Errorf("%d entities after the import, want 3", n)
		}
		if !strings.Contains(done.Body, `href="/companies/`+tracked.ID+`"`) {
			t.Errorf("the updated company is not linked")
		}
		// Submitting the same import again changes nothing.
		again := b.post("/companies/import", form)
		contains(t, again, "Imported: 2 newly tracked, 1 already tracked and updated")
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 3 {
			t.Errorf("%d entities after a repeated import, want 3", n)
		}

		// The page's script imports a few rows a request and shows how far it has come.
		fresh := "companyName,companyWebsite,founders,thingsToTrack,alertEmails\n"
		for i := range 25 {
			fresh += fmt.Sprintf("Chunk %d,https://chunk-%d.example,Ada %d,Funding,partners@fund.example\n", i, i, i)
		}
		var reached int
		for offset := 0; offset < 25; offset = reached {
			res := b.post("/companies/import", url.Values{"csv": {fresh}, "key": {"import-chunks-0001"}, "offset": {fmt.Sprint(offset)}},
				"Accept", "application/json")
			var out struct {
				Done, Total int
				Rows        []struct{ Status string }
			}
			if err := json.Unmarshal([]byte(res.Body), &out); err != nil || res.Status != http.StatusOK {
				t.Fatalf("chunk at %d: %d %s", offset, res.Status, res.Body)
			}
			if out.Total != 25 || out.Done <= offset || len(out.Rows) != out.Done-offset || out.Rows[0].Status != "created" {
				t.Fatalf("chunk at %d: %+v", offset, out)
			}
			reached = out.Done
		}
		if n := s.Count(t, "entities", "org_id = $1", s.OrgA.ID); n != 28 {
			t.Errorf("%d entities after the chunked import, want 28", n)
		}

		for name, bad := range map[string]string{
			"empty":          "",
			"unknown column": "companyName,companyWebsite,colour\nA,https://a.example,red\n",
			"no website":     "companyName\nA\n",
			"header only":    "companyName,companyWebsite\n",
		} {
			if p := upload(t, b, bad); p.Status != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400", name, p.Status)
			}
		}
	})
}

// inputCSV reads the CSV kept in the preview's hidden textarea.
func inputCSV(t *testing.T, html string) string {
	t.Helper()
	i := strings.Index(html, `<textarea name="csv" hidden>`)
	j := strings.Index(html[i:], "</textarea>")
	if i < 0 || j < 0 {
		t.Fatalf("no CSV kept in the preview")
	}
	raw := html[i+len(`<textarea name="csv" hidden>`) : i+j]
	r := strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#39;", "'")
	return r.Replace(raw)
}
