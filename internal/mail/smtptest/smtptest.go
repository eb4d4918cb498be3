// Package smtptest runs an SMTP server inside a test process that keeps every message it accepts, so that
// tests of Radar's e-mail can assert what a recipient would receive.
package smtptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one accepted e-mail.
type Message struct {
	From   string
	To     []string
	Header mail.Header
	// Parts maps each body part's media type (text/plain, text/html) to its decoded content.
	Parts map[string]string
	Raw   []byte
}

// Subject returns the decoded Subject header.
func (m Message) Subject() string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return m.Header.Get("Subject")
	}
	return s
}

// Options configure Start.
type Options struct {
	// User and Password, when set, are required with AUTH PLAIN, over STARTTLS, before a message is accepted.
	User, Password string
}

// Server is a running SMTP server on loopback.
type Server struct {
	// URL is the server's RADAR_SMTP_URL.
	URL string
	// ClientTLS trusts the server's certificate; STARTTLS is offered when Options has credentials.
	ClientTLS *tls.Config

	opts     Options
	srv      *smtp.Server
	mu       sync.Mutex
	messages []Message
	rejects  []*smtp.SMTPError
}

// Start runs a server until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	s := &Server{opts: opts}
	s.srv = smtp.NewServer(backend{s})
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	s.URL = "smtp://" + ln.Addr().String() + "?tls=none"
	if opts.User != "" {
		serverTLS, clientTLS, err := selfSigned()
		if err != nil {
			t.Fatalf("smtptest: certificate: %v", err)
		}
		s.srv.TLSConfig, s.ClientTLS = serverTLS, clientTLS
		s.URL = "smtp://" + url.UserPassword(opts.User, opts.Password).String() + "@" + ln.Addr().String() + "?tls=starttls"
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = s.srv.Close()
		<-done
	})
	return s
}

// Messages returns the messages accepted so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Reject makes the next n messages fail at the end of DATA with code (4xx temporary, 5xx permanent).
func (s *Server) Reject(n, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.rejects = append(s.rejects, &smtp.SMTPError{Code: code, Message: "rejected by the test server"})
	}
}

func (s *Server) accept(m Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.rejects) > 0 {
		err := s.rejects[0]
		s.rejects = s.rejects[1:]
		return err
	}
	s.messages = append(s.messages, m)
	return nil
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s      *Server
	authed bool
	from   string
	to     []string
}

var errAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.User == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != ss.s.opts.User || pass != ss.s.opts.Password {
			return errors.New("invalid credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.User != "" && !ss.authed {
		return errAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Message{From: ss.from, To: append([]string(nil), ss.to...), Raw: raw, Parts: map[string]string{}}
	parsed, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unparsable message: " + err.Error()}
	}
	m.Header = parsed.Header
	if err := collectParts(parsed.Header.Get("Content-Type"), parsed.Header.Get("Content-Transfer-Encoding"), parsed.Body, m.Parts); err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unparsable body: " + err.Error()}
	}
	return ss.s.accept(m)
}

func (ss *session) Reset() { ss.from, ss.to = "", nil }

func (ss *session) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and the client configuration that trusts it.
func selfSigned() (server, client *tls.Config, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "smtptest"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}
	client = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return server, client, nil
}

// collectParts decodes a body, descending into multipart containers, into parts by media type.
func collectParts(contentType, encoding string, body io.Reader, parts map[string]string) error {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = "text/plain"
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := collectParts(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, parts); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	parts[mediaType] = string(b)
	return nil
}
