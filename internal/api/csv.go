package api

import (
	"context"
	"encoding/csv"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/negotiation"

	"radar"
	"radar/internal/service"
)

// CSV is the media type of list exports.
const CSV = "text/csv"

// csvRoutes are the lists a client may export as CSV with Accept: text/csv.
var csvRoutes = map[string]string{
	"GET /api/v1/tracker": "companies", "GET /api/v1/signals": "signals",
	"GET /api/v1/alerts": "alerts", "GET /api/v1/leads": "leads",
}

// refuseCSVBody refuses a CSV request body: CSV is only ever an answer, and the CSV format registered for answers
// must not read requests.
func refuseCSVBody(r *http.Request) *radar.Error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == CSV {
		return radar.Errorf(radar.EUnsupportedMediaType, "request body must be JSON: send Content-Type: application/json")
	}
	return nil
}

// negotiateCSV notes in st whether the request asks for a CSV export of a list. Any other route answers JSON
// whatever its Accept header says, as before.
func negotiateCSV(r *http.Request, pattern string, st *requestState) {
	accept := r.Header.Get("Accept")
	if accept == "" || negotiation.SelectQValueFast(accept, []string{"application/json", CSV}) != CSV {
		return
	}
	if name, ok := csvRoutes[pattern]; ok {
		st.csv = true
		st.header.Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
		return
	}
	r.Header.Set("Accept", "application/json")
}

// csvFormat writes a streamed list; anything else (never asked for: other routes answer JSON) is written as
// JSON.
var csvFormat = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		if s, ok := v.(interface{ Stream() func(io.Writer) error }); ok && s.Stream() != nil {
			return s.Stream()(w)
		}
		return encodeJSON(w, v)
	},
	// Never used: refuseCSVBody refuses CSV request bodies first.
	Unmarshal: func([]byte, any) error { return radar.Errorf(radar.EUnsupportedMediaType, "request body must be JSON") },
}

// wantsCSV reports whether the request of ctx asks for a CSV export.
func wantsCSV(ctx context.Context) bool {
	st := stateOf(ctx)
	return st != nil && st.csv
}

// exportPageSize is how many rows an export reads at a time.
const exportPageSize = service.MaxLimit

// CSVTable is how the rows of one list are written as CSV: a header row, then one record a row.
type CSVTable[T any] struct {
	Header []string
	Row    func(T) []string
}

// The CSV tables of the exported lists.
var (
	EntitiesCSV = CSVTable[*radar.Entity]{entityCSVHeader, entityCSVRow}
	SignalsCSV  = CSVTable[*radar.Signal]{signalCSVHeader, signalCSVRow}
	AlertsCSV   = CSVTable[*radar.Alert]{alertCSVHeader, alertCSVRow}
	LeadsCSV    = CSVTable[*radar.Lead]{leadCSVHeader, leadCSVRow}
)

// Write writes the header, the rows of page, then those of every following page that next reads at the page's
// cursor, flushing after each page, so that memory does not grow with the rows.
func (c CSVTable[T]) Write(w io.Writer, page *service.List[T], next func(cursor string) (*service.List[T], error)) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(c.Header); err != nil {
		return err
	}
	for {
		for _, x := range page.Data {
			if err := cw.Write(c.Row(x)); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if page.NextCursor == nil {
			return nil
		}
		var err error
		if page, err = next(*page.NextCursor); err != nil {
			return err
		}
	}
}

// csvExport answers every row of a list as CSV, a header row first: list reads one page at a cursor. The first
// page is read before answering, so that a bad filter still fails with its error; the others are read and
// written one at a time. list gets the first page to narrow the query after it (a company named by entityQuery
// becomes its id, so the name is not looked up again).
func csvExport[T any](ctx context.Context, s *Server, table CSVTable[T],
	list func(cursor string, first *service.List[T]) (*service.List[T], error)) (*body[*service.List[T]], error) {
	first, err := list("", nil)
	if err != nil {
		return nil, fail(ctx, s.logger, err)
	}
	return &body[*service.List[T]]{service.StreamedList[T](func(w io.Writer) error {
		err := table.Write(w, first, func(cursor string) (*service.List[T], error) { return list(cursor, first) })
		if err != nil {
			s.logger.ErrorContext(ctx, "csv export", "request_id", RequestID(ctx), "err", err)
		}
		return err
	})}, nil
}

func csvTime(t *radar.Time) string {
	if t == nil {
		return ""
	}
	return t.String()
}

func csvBool(b bool) string { return strconv.FormatBool(b) }

// resolvedID is the company a fuzzy query of the first page resolved to, "" when there was none.
func resolvedID(r *service.LookupResolution) string {
	if r == nil {
		return ""
	}
	return r.Entity.ID
}

var entityCSVHeader = []string{"id", "companyName", "companyWebsite", "status", "stage", "sectors", "tags", "founders",
	"alertEmails", "emailAlertsEnabled", "cadenceDays", "enrichmentStatus", "scrapeHealthReason", "lastScrapedAt",
	"latestSignalType", "latestSignalSeverity", "latestSignalAt", "createdAt", "updatedAt"}

func entityCSVRow(e *radar.Entity) []string {
	founders := make([]string, len(e.Founders))
	for i, f := range e.Founders {
		founders[i] = f.Name
	}
	var sigType, sigSeverity, sigAt string
	if e.LatestSignal != nil {
		sigType, sigSeverity, sigAt = e.LatestSignal.Type, e.LatestSignal.Severity, e.LatestSignal.CreatedAt.String()
	}
	return []string{e.ID, e.CompanyName, e.CompanyWebsite, e.Status, e.Stage, strings.Join(e.Sectors, "; "),
		strings.Join(e.Tags, "; "), strings.Join(founders, "; "), strings.Join(e.AlertEmails, "; "),
		csvBool(e.EmailAlertsEnabled), strconv.Itoa(e.CadenceDays), e.EnrichmentStatus, e.ScrapeHealthReason,
		csvTime(e.LastScrapedAt), sigType, sigSeverity, sigAt, e.CreatedAt.String(), e.UpdatedAt.String()}
}

var signalCSVHeader = []string{"id", "createdAt", "entityId", "companyName", "type", "severity", "recommendation",
	"needsAttention", "summary", "evidence", "analyser", "runId"}

func signalCSVRow(x *radar.Signal) []string {
	urls := make([]string, len(x.Evidence))
	for i, e := range x.Evidence {
		urls[i] = e.URL
	}
	return []string{x.ID, x.CreatedAt.String(), x.EntityID, x.CompanyName, x.Type, x.Severity, x.Recommendation,
		csvBool(x.NeedsAttention), x.Summary, strings.Join(urls, " "), x.Analyser, x.RunID}
}

var alertCSVHeader = []string{"id", "createdAt", "entityId", "companyName", "signalId", "outcome", "reason",
	"recipients", "subject", "sentAt"}

func alertCSVRow(x *radar.Alert) []string {
	return []string{x.ID, x.CreatedAt.String(), x.EntityID, x.CompanyName, x.SignalID, x.Outcome, x.Reason,
		strings.Join(x.Recipients, "; "), x.Subject, csvTime(x.SentAt)}
}

var leadCSVHeader = []string{"id", "createdAt", "personName", "personRole", "linkedinUrl", "twitterUrl", "githubUrl",
	"companyName", "companyWebsite", "relation", "sourceEntityId", "sourceCompanyName", "sector", "stage",
	"decision", "decidedAt", "trackedEntityId"}

func leadCSVRow(x *radar.Lead) []string {
	return []string{x.ID, x.CreatedAt.String(), x.PersonName, x.PersonRole, x.LinkedinURL, x.TwitterURL, x.GithubURL,
		x.Company.Name, x.Company.Website, x.Relation, x.Source.EntityID, x.Source.CompanyName, x.Sector, x.Stage,
		x.Decision.Status, csvTime(x.Decision.DecidedAt), x.Decision.TrackedEntityID}
}
