package sqldb

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"radar"
)

// where builds a dynamic WHERE clause with $n placeholders.
type where struct {
	conds []string
	args  []any
}

// arg adds a bound value and returns its placeholder.
func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return "$" + strconv.Itoa(len(w.args))
}

// add appends a condition; each %s in cond takes the placeholder of the matching value.
func (w *where) add(cond string, vals ...any) {
	ph := make([]any, len(vals))
	for i, v := range vals {
		ph[i] = w.arg(v)
	}
	w.conds = append(w.conds, fmt.Sprintf(cond, ph...))
}

// in appends "col IN (…)"; an empty list matches nothing.
func (w *where) in(col string, vals []string) {
	if len(vals) == 0 {
		w.conds = append(w.conds, "1 = 0")
		return
	}
	ph := make([]string, len(vals))
	for i, v := range vals {
		ph[i] = w.arg(v)
	}
	w.conds = append(w.conds, col+" IN ("+strings.Join(ph, ", ")+")")
}

// page adds the keyset condition of p for a table aliased alias, ordered by created_at DESC, id DESC. It is a
// row comparison, which both engines turn into a range of the (org_id, created_at DESC, id DESC) index, so a
// page starts where the last one ended. The equivalent "created_at < c OR (created_at = c AND id < i)" is only
// a filter for PostgreSQL: every page would walk the index from the newest row, and an export of n rows would
// read n²/2 of them.
func (w *where) page(alias string, p radar.Page) {
	if p.AfterID == "" {
		return
	}
	c, id := w.arg(p.AfterCreated), w.arg(p.AfterID)
	w.conds = append(w.conds, fmt.Sprintf("(%[1]s.created_at, %[1]s.id) < (%[2]s, %[3]s)", alias, c, id))
}

func (w *where) sql() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

func (w *where) limit(p radar.Page) string {
	n := p.Limit
	if n <= 0 {
		n = math.MaxInt32
	}
	return " LIMIT " + w.arg(n)
}

func marshalJSON(v any) ([]byte, error) { return json.Marshal(v) }

// jsonText encodes v for a TEXT column; nil slices become [].
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "[]"
	}
	return string(b)
}

func unmarshalText(s string, v any) error {
	if s == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("sqldb: stored JSON: %w", err)
	}
	return nil
}

// unmarshalStrings decodes a stored JSON array of strings into v, leaving v as it is for an empty array.
func unmarshalStrings(s string, v *[]string) error {
	if s == "[]" {
		return nil
	}
	return unmarshalText(s, v)
}

func nullMicros(t *radar.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.Micros(), Valid: true}
}

func timePtr(n sql.NullInt64) *radar.Time {
	if !n.Valid {
		return nil
	}
	t := radar.TimeFromMicros(n.Int64)
	return &t
}

func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + strings.ToLower(r.Replace(s)) + "%"
}

// inList is the condition that col is one of the strings bound to $n as listArg: an array on PostgreSQL, a
// JSON array on SQLite, so that a statement's text is the same for any number of values.
func inList(engine, col string, n int) string {
	if engine == SQLite {
		return col + " IN (SELECT value FROM json_each($" + strconv.Itoa(n) + "))"
	}
	return col + " = ANY($" + strconv.Itoa(n) + ")"
}

// listArg is the value of vals bound for inList.
func listArg(engine string, vals []string) any {
	if engine == SQLite {
		return jsonText(vals)
	}
	return vals
}
