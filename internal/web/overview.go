package web

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"time"

	"radar"
	"radar/internal/analysis"
	"radar/internal/service"
)

// overviewNew bounds the unread runs the overview lists.
const overviewNew = 50

// overviewCompanies bounds the companies the overview reads to find failing trackers.
const overviewCompanies = 1000

// typeCount is how many runs of one signal type a period had.
type typeCount struct {
	Type  string
	Count int
}

// overviewData is the home page: what is new since the user last looked.
type overviewData struct {
	// Unread counts the unread runs that found something, up to service.MaxCount.
	Unread int
	// New lists them, most severe first, then newest.
	New     []*radar.Signal
	Week    []typeCount
	Failing []*radar.Entity
}

// UnreadLabel words the unread count: "3 new", "1000+ new".
func (d overviewData) UnreadLabel() string { return unreadLabel(d.Unread) }

func unreadLabel(n int) string {
	if n >= service.MaxCount {
		return "1000+ new"
	}
	return strconv.Itoa(n) + " new"
}

// unread is what a list shows of the user's read position: how many runs that found something are unread,
// and which of the listed items are.
type unread struct {
	Count int
	IDs   map[string]bool
}

// Label words the count.
func (u unread) Label() string { return unreadLabel(u.Count) }

// unreadSignals reads the user's position for the signals listed.
func (h *Handler) unreadSignals(r *http.Request, v *viewer, list []*radar.Signal) (unread, error) {
	yes := true
	n, err := h.svc.CountSignals(r.Context(), v.P, service.SignalQuery{Changed: &yes, Unseen: true})
	if err != nil {
		return unread{}, err
	}
	pos, err := h.store.ReadPosition(r.Context(), v.P.OrgID, v.P.KeyID)
	if err != nil {
		return unread{}, err
	}
	u := unread{Count: n, IDs: map[string]bool{}}
	for _, s := range list {
		if pos == nil || s.CreatedAt.After(pos.Time) {
			u.IDs[s.ID] = true
		}
	}
	return u, nil
}

func (h *Handler) overview(w http.ResponseWriter, r *http.Request, v *viewer) {
	ctx := r.Context()
	yes := true
	unseen := service.SignalQuery{Changed: &yes, Unseen: true}
	var d overviewData
	var err error
	if d.Unread, err = h.svc.CountSignals(ctx, v.P, unseen); err != nil {
		h.fail(w, r, v, err)
		return
	}
	unseen.PageQuery = service.PageQuery{Limit: overviewNew, View: radar.ViewCompact}
	list, err := h.svc.ListSignals(ctx, v.P, unseen)
	if err != nil {
		h.fail(w, r, v, err)
		return
	}
	d.New = list.Data
	slices.SortStableFunc(d.New, func(a, b *radar.Signal) int {
		return cmp.Compare(analysis.SeverityRank(b.Severity), analysis.SeverityRank(a.Severity))
	})
	since := radar.NewTime(h.now().Add(-7 * 24 * time.Hour)).String()
	for _, t := range radar.SignalTypes {
		if t == radar.TypeNoChange {
			continue
		}
		n, err := h.svc.CountSignals(ctx, v.P, service.SignalQuery{Type: t, Since: since})
		if err != nil {
			h.fail(w, r, v, err)
			return
		}
		if n > 0 {
			d.Week = append(d.Week, typeCount{Type: t, Count: n})
		}
	}
	slices.SortStableFunc(d.Week, func(a, b typeCount) int { return cmp.Compare(b.Count, a.Count) })
	cursor := ""
	for read := 0; read < overviewCompanies; {
		page, err := h.svc.ListEntities(ctx, v.P, service.EntityQuery{PageQuery: service.PageQuery{Limit: service.MaxLimit, Cursor: cursor, View: radar.ViewCompact}})
		if err != nil {
			h.fail(w, r, v, err)
			return
		}
		for _, e := range page.Data {
			if healthOf(e.ScrapeHealthReason).Warn() {
				d.Failing = append(d.Failing, e)
			}
		}
		read += len(page.Data)
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	h.render(w, r, http.StatusOK, "overview", page{Title: "What is new", Section: "overview", Viewer: v, Data: d})
}

// markRead moves the user's read position to now: every signal and alert so far is read.
func (h *Handler) markRead(w http.ResponseWriter, r *http.Request, v *viewer) {
	now := radar.NewTime(h.now().Add(time.Microsecond))
	if _, err := h.svc.MarkSeen(r.Context(), v.P, "", &now); err != nil {
		h.fail(w, r, v, err)
		return
	}
	next := "/"
	if r.FormValue("next") == "/signals" {
		next = "/signals"
	}
	h.flash(w, "Everything so far is marked read.")
	http.Redirect(w, r, next, http.StatusSeeOther)
}
