package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
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

// Reason words a fetch failure for the people who read a company's health: one of a few plain reasons, with no
// address, port or error text from inside the program. A failure it does not know is "the answer could not be
// read".
func Reason(err error) string {
	var (
		status *StatusError
		dns    *net.DNSError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &status):
		return fmt.Sprintf("HTTP %d", status.Code)
	case IsTimeout(err):
		return "the site did not answer (timeout)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the site did not answer (connection refused)"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the site closed the connection"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "the site's name does not exist (DNS)"
		}
		return "the site's name could not be looked up (DNS)"
	case errors.Is(err, ErrPrivateAddress):
		return "the address is private or reserved"
	case errors.Is(err, ErrRobots):
		return "robots.txt does not allow reading it"
	case errors.Is(err, ErrTooLarge):
		return "the page is too large"
	case errors.Is(err, ErrTooManyRedirects):
		return "too many redirects"
	case errors.Is(err, ErrScheme):
		return "the address is not http or https"
	case isTLS(err):
		return "the secure connection failed (TLS)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the site did not answer (unreachable)"
	case errors.Is(err, context.Canceled):
		return "the run was stopped"
	}
	return "the answer could not be read"
}

// isTLS reports whether err came from the TLS handshake or the server's certificate.
func isTLS(err error) bool {
	var (
		rec       tls.RecordHeaderError
		alert     tls.AlertError
		verify    *tls.CertificateVerificationError
		unknownCA x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	return errors.As(err, &rec) || errors.As(err, &alert) || errors.As(err, &verify) || errors.As(err, &unknownCA) ||
		errors.As(err, &hostname) || errors.As(err, &invalid)
}
