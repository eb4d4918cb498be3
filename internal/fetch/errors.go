package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
)

var (
	// ErrPrivateAddress reports that the network guard refused a destination:
	// a loopback, private, link-local or otherwise reserved address, or a port
	// other than 80 and 443.
	ErrPrivateAddress = errors.New("private or reserved address refused")
	// ErrScheme reports a URL, first or redirected to, whose scheme is not http or https.
	ErrScheme = errors.New("scheme not allowed")
	// ErrRobots reports a page that the site's robots.txt disallows for Radar's user agent.
	ErrRobots = errors.New("disallowed by robots.txt")
	// ErrTooLarge reports a response body larger than Config.MaxBytes.
	ErrTooLarge = errors.New("response body too large")
	// ErrTooManyRedirects reports a chain of more than Config.MaxRedirects redirects.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrStatus reports a final response whose status is neither 2xx nor 304; see StatusError.
	ErrStatus = errors.New("unexpected status")
)

// StatusError carries the status code of a response that was neither 2xx nor 304.
type StatusError struct {
	Code int    // HTTP status code of the final response
	URL  string // final URL after redirects
}

// Error reports the URL and status.
func (e *StatusError) Error() string {
	return fmt.Sprintf("fetch: %s: %s %d", e.URL, ErrStatus, e.Code)
}

// Is makes errors.Is(err, ErrStatus) true for every StatusError.
func (e *StatusError) Is(target error) bool {
	return target == ErrStatus
}

// IsTimeout reports whether err came from a request that ran out of time,
// connecting or in total.
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
