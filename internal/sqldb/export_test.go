package sqldb

import (
	"context"

	"radar"
)

// KeyReaderSetting reads a setting of the sessions that read API keys for authentication (PostgreSQL).
func KeyReaderSetting(ctx context.Context, db *DB, name string) (string, error) {
	var v string
	err := pgQuerier{db.eng.(*pgEngine).keys}.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v)
	return v, err
}

// PageCondition is the keyset condition of p on a table aliased alias, its placeholders numbered after the
// first bound values of a query, and its own values.
func PageCondition(alias string, p radar.Page, bound int) (string, []any) {
	w := where{args: make([]any, bound)}
	w.page(alias, p)
	if len(w.conds) == 0 {
		return "TRUE", nil
	}
	return w.conds[0], w.args[bound:]
}

// KeyStatesPlan is the plan, in JSON, of the key reader's statement for the keys ids of the organisations orgs
// (PostgreSQL).
func KeyStatesPlan(ctx context.Context, db *DB, ids, orgs []string) (string, error) {
	var plan string
	err := pgQuerier{db.eng.(*pgEngine).keys}.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+db.keyStatesRead, ids, orgs).Scan(&plan)
	return plan, err
}
