package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"radar"
)

// outboxData is the outbox page.
type outboxData struct {
	Status   string
	Statuses []string
	Messages []*radar.OutboxMessage
	// Recorded is false when this server keeps no outbox.
	Recorded bool
	Pager    pager
}

// outboxPage lists the alert e-mails of the organisation, newest first; "before" pages on by the position of
// the last message shown (creation time in microseconds and id).
func (h *Handler) outboxPage(w http.ResponseWriter, r *http.Request, v *viewer) {
	q := r.URL.Query()
	d := outboxData{Status: q.Get("status"), Recorded: h.outbox != nil,
		Statuses: []string{radar.OutboxPending, radar.OutboxSending, radar.OutboxSent, radar.OutboxKept, radar.OutboxFailed}}
	if h.outbox == nil {
		h.render(w, r, http.StatusOK, "outbox", page{Title: "Outbox", Section: "outbox", Viewer: v, Data: d})
		return
	}
	const size = 25
	f := radar.OutboxFilter{OrgID: v.Org.ID, Status: d.Status, Page: radar.Page{Limit: size + 1}}
	if b := q.Get("before"); b != "" {
		at, id, ok := strings.Cut(b, ".")
		n, err := strconv.ParseInt(at, 10, 64)
		if !ok || err != nil || id == "" {
			h.fail(w, r, v, radar.Errorf(radar.EValidation, "before: not a position in the outbox"))
			return
		}
		f.Page.AfterCreated, f.Page.AfterID = n, id
	}
	msgs, err := h.outbox.OutboxMessages(r.Context(), f)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	if len(msgs) > size {
		msgs = msgs[:size]
		last := msgs[size-1]
		next := url.Values{"status": {d.Status}, "before": {strconv.FormatInt(last.CreatedAt.Micros(), 10) + "." + last.ID}}
		d.Pager.Next = link("/outbox", next)
	}
	if q.Get("before") != "" {
		d.Pager.First = link("/outbox", url.Values{"status": {d.Status}})
	}
	d.Messages = msgs
	h.render(w, r, http.StatusOK, "outbox", page{Title: "Outbox", Section: "outbox", Viewer: v, Data: d})
}
