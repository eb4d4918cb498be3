package radar

// Default digest sending time of an organisation.
const (
	DefaultDigestHour     = 8
	DefaultDigestTimeZone = "UTC"
)

// DigestSettings say when an organisation's digests go out: at Hour o'clock (0-23) in TimeZone (an IANA name),
// every day for daily digests and on Mondays for weekly ones.
type DigestSettings struct {
	Hour     int
	TimeZone string
}

// Digest statuses of a DigestKey's row.
const (
	DigestSending = "sending"
	DigestSent    = "sent"
	// DigestKept is a digest rendered and kept because no SMTP server is configured.
	DigestKept = "kept"
	// DigestEmpty is a period with nothing to report: no e-mail was sent.
	DigestEmpty = "empty"
)

// DigestKey names one digest: the e-mail of one organisation to one recipient for the period starting at
// PeriodStart.
type DigestKey struct {
	OrgID       string
	Recipient   string
	Period      string
	PeriodStart Time
}

// DigestEntity is what a digest needs of an entity whose digest is on.
type DigestEntity struct {
	ID          string
	CompanyName string
	AlertEmails []string
	Digest      string
}
