package web

import (
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"radar"
	"radar/internal/service"
)

// importColumns are the columns a company CSV may have, named as the API's create body names its fields. Lists
// (founders, alertEmails) separate their items with ";".
var importColumns = []string{"companyName", "companyWebsite", "companyLinkedinUrl", "companyTwitterUrl",
	"companyGithubUrl", "companySummary", "founders", "thingsToTrack", "alertEmails", "cadenceDays", "emailAlertsEnabled"}

// importRow is one company of an uploaded CSV.
type importRow struct {
	Line    int
	Name    string
	Website string
	Input   radar.CreateInput
	// Problem says why the row cannot be imported; Existing names the tracked company it would update.
	Problem  string
	Existing *radar.Entity
	// Status and EntityID are the outcome of the import.
	Status   string
	EntityID string
}

// importData is the import page: the upload form, the preview of an upload, or the outcome of an import.
type importData struct {
	Columns  []string
	Problem  string
	Rows     []importRow
	CSV      string
	Key      string
	Valid    int
	Imported bool
	Created  int
	Updated  int
	Failed   int
}

// splitSemicolons splits the founders of a CSV cell, which may contain commas.
func splitSemicolons(s string) []string {
	var out []string
	for v := range strings.SplitSeq(s, ";") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// parseImport reads a company CSV: a header row of importColumns (companyName and companyWebsite required, in
// any order), then one company a row.
func parseImport(text string) ([]importRow, error) {
	cr := csv.NewReader(strings.NewReader(text))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty")
	}
	if err != nil {
		return nil, fmt.Errorf("the file is not CSV: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !slices.Contains(importColumns, h) {
			return nil, fmt.Errorf("unknown column %q in the header row; the columns are %s", h, strings.Join(importColumns, ", "))
		}
		col[h] = i
	}
	for _, need := range []string{"companyName", "companyWebsite"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("the header row has no %s column", need)
		}
	}
	var rows []importRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("line %d is not CSV: %w", line, err)
		}
		if len(rows) == service.MaxBatch {
			return nil, fmt.Errorf("the file has more than %d companies; split it", service.MaxBatch)
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		yes := true
		in := radar.CreateInput{Confirmed: &yes, EntityInput: radar.EntityInput{
			CompanyName: get("companyName"), CompanyWebsite: get("companyWebsite"),
			CompanyLinkedinURL: get("companyLinkedinUrl"), CompanyTwitterURL: get("companyTwitterUrl"),
			CompanyGithubURL: get("companyGithubUrl"), CompanySummary: get("companySummary"),
			ThingsToTrack: get("thingsToTrack"), AlertEmails: splitEmails(get("alertEmails")),
		}}
		for _, n := range splitSemicolons(get("founders")) {
			in.Founders = append(in.Founders, radar.FounderInput{Name: n})
		}
		row := importRow{Line: line, Name: in.CompanyName, Website: in.CompanyWebsite, Input: in}
		if v := get("cadenceDays"); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				row.Input.CadenceDays = &n
			} else {
				row.Problem = "cadenceDays: must be 3, 7 or 30"
			}
		}
		if v := get("emailAlertsEnabled"); v != "" {
			if b, err := strconv.ParseBool(v); err == nil {
				row.Input.EmailAlertsEnabled = &b
			} else {
				row.Problem = "emailAlertsEnabled: must be true or false"
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, errors.New("the file has a header row but no companies")
	}
	return rows, nil
}

func (h *Handler) importPage(w http.ResponseWriter, r *http.Request, v *viewer) {
	h.render(w, r, http.StatusOK, "import", page{Title: "Import companies", Section: "companies", Viewer: v, Data: importData{Columns: importColumns}})
}

// importText reads the CSV of an import form: an uploaded file, else the csv field.
func importText(r *http.Request) (string, error) {
	if err := r.ParseMultipartForm(maxFormBytes); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		return "", errors.New("the upload could not be read; files are limited to 1 MiB")
	}
	if f, _, err := r.FormFile("file"); err == nil {
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return "", errors.New("the upload could not be read")
		}
		return string(b), nil
	}
	return r.FormValue("csv"), nil
}

// previewImport checks every row of an upload as a create would, saving nothing.
func (h *Handler) previewImport(w http.ResponseWriter, r *http.Request, v *viewer) {
	d := importData{Columns: importColumns}
	text, err := importText(r)
	if err == nil {
		d.Rows, err = parseImport(text)
	}
	if err != nil {
		d.Problem = err.Error()
		h.render(w, r, http.StatusBadRequest, "import", page{Title: "Import companies", Section: "companies", Viewer: v, Data: d})
		return
	}
	for i := range d.Rows {
		row := &d.Rows[i]
		if row.Problem == "" {
			existing, err := h.svc.CheckCreate(r.Context(), v.P, row.Input)
			if e, ok := radar.AsError(err); ok && e.Code != radar.EInternal {
				row.Problem = e.Message
			} else if err != nil {
				h.fail(w, r, v, err)
				return
			}
			row.Existing = existing
		}
		if row.Problem == "" {
			d.Valid++
		}
	}
	b := make([]byte, 16)
	rand.Read(b)
	d.CSV, d.Key = text, "import-"+hex.EncodeToString(b)
	h.render(w, r, http.StatusOK, "import", page{Title: "Import companies", Section: "companies", Viewer: v, Data: d})
}

// runImport imports the rows of a previewed upload; rows that fail leave the others alone.
func (h *Handler) runImport(w http.ResponseWriter, r *http.Request, v *viewer) {
	d := importData{Columns: importColumns, Imported: true}
	rows, err := parseImport(r.FormValue("csv"))
	if err != nil {
		d.Problem = err.Error()
		h.render(w, r, http.StatusBadRequest, "import", page{Title: "Import companies", Section: "companies", Viewer: v, Data: d})
		return
	}
	key := r.FormValue("key")
	if len(key) < 8 || len(key) > 150 {
		key = ""
	}
	if r.Header.Get("Accept") == "application/json" {
		h.importChunk(w, r, v, rows, key)
		return
	}
	items := batchInputs(rows)
	res, err := h.svc.CreateBatch(r.Context(), v.P, items, key)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	for i, it := range res {
		row := &rows[i]
		row.Status = it.Status
		switch it.Status {
		case service.BatchCreated:
			d.Created++
			row.EntityID = it.Entity.ID
		case service.BatchExisting:
			d.Updated++
			row.EntityID = it.Entity.ID
		default:
			d.Failed++
			row.Problem = it.Error.Message
		}
	}
	d.Rows = rows
	h.render(w, r, http.StatusOK, "import", page{Title: "Import companies", Section: "companies", Viewer: v, Data: d})
}

func batchInputs(rows []importRow) []service.BatchInput {
	items := make([]service.BatchInput, len(rows))
	for i, row := range rows {
		items[i].Input = row.Input
		if row.Problem != "" {
			items[i].Err = radar.Errorf(radar.EValidation, "%s", row.Problem)
		}
	}
	return items
}

// importChunkSize is how many rows the page's script imports a request, so that it can show progress.
const importChunkSize = 20

// chunkRow is one imported row in the answer to the page's script.
type chunkRow struct {
	Line     int    `json:"line"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Problem  string `json:"problem,omitempty"`
	EntityID string `json:"entityId,omitempty"`
}

// importChunk imports the rows from the form's offset on, importChunkSize of them, for the page's script, and
// answers their outcome with how far the import has come.
func (h *Handler) importChunk(w http.ResponseWriter, r *http.Request, v *viewer, rows []importRow, key string) {
	offset, err := strconv.Atoi(r.FormValue("offset"))
	if err != nil || offset < 0 || offset >= len(rows) {
		http.Error(w, `{"error":"offset out of range"}`, http.StatusBadRequest)
		return
	}
	part := rows[offset:min(offset+importChunkSize, len(rows))]
	if key != "" {
		key += "-" + strconv.Itoa(offset)
	}
	res, err := h.svc.CreateBatch(r.Context(), v.P, batchInputs(part), key)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	out := struct {
		Done  int        `json:"done"`
		Total int        `json:"total"`
		Rows  []chunkRow `json:"rows"`
	}{Done: offset + len(part), Total: len(rows), Rows: []chunkRow{}}
	for i, it := range res {
		c := chunkRow{Line: part[i].Line, Name: part[i].Name, Status: it.Status}
		if it.Entity != nil {
			c.EntityID = it.Entity.ID
		}
		if it.Error != nil {
			c.Problem = it.Error.Message
		}
		out.Rows = append(out.Rows, c)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
