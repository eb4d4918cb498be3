// Package mail sends Radar's alert e-mails over SMTP and renders them from embedded templates, as plain text
// with an HTML alternative.
package mail

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// DefaultFrom is the sender address when RADAR_MAIL_FROM is unset.
const DefaultFrom = "radar@localhost"

// ErrInvalidURL reports an SMTP URL that New cannot use.
var ErrInvalidURL = errors.New("mail: invalid SMTP URL")

// Config configures a Sender.
type Config struct {
	// URL is RADAR_SMTP_URL: smtp://[user:pass@]host:port, with ?tls=starttls to require STARTTLS (or
	// ?tls=none to never use it), or smtps://… for TLS from the first byte.
	URL string
	// From is RADAR_MAIL_FROM; default DefaultFrom.
	From string
	// Timeout bounds connecting and each SMTP command; default 30 seconds.
	Timeout time.Duration
	// TLSConfig overrides the TLS settings, e.g. to trust a test server's certificate.
	TLSConfig *tls.Config
}

// Message is one e-mail with a plain-text body and an HTML alternative.
type Message struct {
	// Key identifies the e-mail for its whole life (an alert's outbox message id). Every attempt to send it
	// carries the same Message-ID, derived from the key and the recipients, so that a copy sent again after a
	// crash can be recognised and dropped by the receiving servers and mail clients. Empty means a random
	// Message-ID.
	Key     string
	To      []string
	Subject string
	Text    string
	HTML    string
	// ListUnsubscribe, when set, is a one-click unsubscribe link sent as List-Unsubscribe with
	// List-Unsubscribe-Post (RFC 8058).
	ListUnsubscribe string
}

// Sender delivers messages through one SMTP server; it is safe for concurrent use.
type Sender struct {
	from string
	host string
	opts []gomail.Option
}

// New returns a Sender for cfg.
func New(cfg Config) (*Sender, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, redact(u))
	}
	if cfg.From == "" {
		cfg.From = DefaultFrom
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithTimeout(cfg.Timeout)}
	port := 25
	switch u.Scheme {
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	case "smtp":
		switch tlsMode := strings.ToLower(u.Query().Get("tls")); tlsMode {
		case "starttls":
			port = 587
			opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		case "none":
			opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
		case "":
			opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
		default:
			return nil, fmt.Errorf("%w: tls=%q: want starttls or none", ErrInvalidURL, tlsMode)
		}
	default:
		return nil, fmt.Errorf("%w: scheme %q: want smtp or smtps", ErrInvalidURL, u.Scheme)
	}
	if p := u.Port(); p != "" {
		port, err = strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("%w: port %q", ErrInvalidURL, p)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if cfg.TLSConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(cfg.TLSConfig))
	}
	if u.User != nil && u.User.Username() != "" {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	if _, err := gomail.NewClient(u.Hostname(), opts...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	return &Sender{from: cfg.From, host: u.Hostname(), opts: opts}, nil
}

// Send delivers m in one SMTP transaction. It returns nil as soon as the server has accepted the message, even
// if closing the connection fails afterwards, so that an accepted message is never sent twice.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from %q: %w", s.from, err)
	}
	if len(m.To) == 0 {
		return errors.New("mail: no recipients")
	}
	if err := msg.To(m.To...); err != nil {
		return fmt.Errorf("mail: recipients: %w", err)
	}
	msg.Subject(oneLine(m.Subject))
	msg.SetDate()
	if m.Key != "" {
		msg.SetMessageIDWithValue(MessageID(m.Key, m.To, s.from))
	} else {
		msg.SetMessageID()
	}
	if m.ListUnsubscribe != "" {
		msg.SetGenHeader("List-Unsubscribe", "<"+m.ListUnsubscribe+">")
		msg.SetGenHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	conn, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("mail: connect to %s: %w", c.ServerAddr(), err)
	}
	defer c.CloseWithSMTPClient(conn)
	if err := c.SendWithSMTPClient(conn, msg); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	return nil
}

// MessageID returns the Message-ID (without angle brackets) of the e-mail key sent to recipients from from:
// the same for every attempt, different for another key or other recipients.
func MessageID(key string, recipients []string, from string) string {
	rs := make([]string, len(recipients))
	for i, r := range recipients {
		rs[i] = strings.ToLower(strings.TrimSpace(r))
	}
	slices.Sort(rs)
	sum := sha256.Sum256([]byte(key + "\x00" + strings.Join(rs, ",")))
	domain := "radar.localhost"
	if i := strings.LastIndex(from, "@"); i >= 0 && i < len(from)-1 {
		domain = from[i+1:]
	}
	return "alert-" + hex.EncodeToString(sum[:16]) + "@" + domain
}

// IsPermanent reports whether err is a delivery failure the SMTP server answered with a 5xx code, one that will
// not go away on a retry, such as an unknown recipient.
func IsPermanent(err error) bool {
	var se *gomail.SendError
	return errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func redact(u *url.URL) string {
	c := *u
	if c.User != nil {
		c.User = url.User(c.User.Username())
	}
	return c.String()
}
