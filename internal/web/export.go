package web

import (
	"net/http"
	"net/url"

	"radar/internal/api"
	"radar/internal/service"
)

// wantsExport reports whether a list page is asked for as CSV (format=csv).
func wantsExport(q url.Values) bool { return q.Get("format") == "csv" }

// exportLink is the address of the CSV export of the list at base with the query q: every row its filters
// select, not only the page shown.
func exportLink(base string, q url.Values) string {
	v := cloneValues(q)
	v.Del("cursor")
	v.Set("format", "csv")
	return link(base, v)
}

// exportCSV answers every row of a list as a CSV file, reading it a page at a time: list reads one page at a
// cursor. A bad filter fails before anything is written.
func exportCSV[T any](h *Handler, w http.ResponseWriter, r *http.Request, v *viewer, name string, table api.CSVTable[T],
	list func(cursor string) (*service.List[T], error)) {
	first, err := list("")
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	if err := table.Write(w, first, list); err != nil {
		h.logger.ErrorContext(r.Context(), "csv export", "request_id", api.RequestID(r.Context()), "err", err)
	}
}
