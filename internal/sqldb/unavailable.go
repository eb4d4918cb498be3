package sqldb

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err means the database could not be reached or dropped the connection — it is
// down, restarting or cut off — rather than that a statement failed. Such a failure passes: the pools connect
// again on the next request once the database answers.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return true
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// Class 08 is connection exceptions; 57P01-57P03 are the server shutting down or starting up.
		return strings.HasPrefix(pg.Code, "08") || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"
	}
	var op *net.OpError
	return errors.As(err, &op) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
