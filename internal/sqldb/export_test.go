package sqldb

import "context"

// KeyReaderSetting reads a setting of the sessions that read API keys for authentication (PostgreSQL).
func KeyReaderSetting(ctx context.Context, db *DB, name string) (string, error) {
	var v string
	err := pgQuerier{db.eng.(*pgEngine).keys}.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v)
	return v, err
}
