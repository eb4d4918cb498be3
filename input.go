package radar

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// FounderInput is a founder as a client sends it.
type FounderInput struct {
	ID          string `json:"id,omitempty" doc:"Only on PATCH: the id of a stored founder to update in place"`
	Name        string `json:"name" doc:"Full name" minLength:"1" maxLength:"200"`
	LinkedinURL string `json:"linkedinUrl,omitempty" doc:"LinkedIn profile URL" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	TwitterURL  string `json:"twitterUrl,omitempty" doc:"X/Twitter profile URL" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	GithubURL   string `json:"githubUrl,omitempty" doc:"GitHub profile URL" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
}

// EntityInput holds the creation and draft fields of a tracked company.
type EntityInput struct {
	CompanyName        string         `json:"companyName" doc:"Company name, 1-200 characters" minLength:"1" maxLength:"200"`
	CompanyWebsite     string         `json:"companyWebsite" doc:"Company website (http or https URL)" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	CompanyLinkedinURL string         `json:"companyLinkedinUrl,omitempty" doc:"Company LinkedIn page" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	CompanyTwitterURL  string         `json:"companyTwitterUrl,omitempty" doc:"Company X/Twitter profile" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	CompanyGithubURL   string         `json:"companyGithubUrl,omitempty" doc:"Company GitHub organisation" format:"uri" pattern:"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/]+"`
	CompanySummary     string         `json:"companySummary,omitempty" doc:"What the company does, up to 5000 characters" maxLength:"5000"`
	Founders           []FounderInput `json:"founders" doc:"1-10 founders" minItems:"1" maxItems:"10"`
	ThingsToTrack      string         `json:"thingsToTrack" doc:"Alert rules in plain language, 1-10000 characters; compiled into a governed policy" minLength:"1" maxLength:"10000"`
	AlertEmails        []string       `json:"alertEmails" doc:"1-20 distinct recipient addresses" minItems:"1" maxItems:"20" format:"email"`
	EmailAlertsEnabled *bool          `json:"emailAlertsEnabled,omitempty" doc:"Send alert e-mails; default true"`
	CadenceDays        *int           `json:"cadenceDays,omitempty" doc:"Days between scheduled runs: 3, 7 or 30; default 7" enum:"3,7,30"`
	Digest             *string        `json:"digest,omitempty" doc:"Digest e-mail of the runs that found something, one per recipient: off, daily or weekly; default off" enum:"off,daily,weekly"`
}

// CreateInput is the body of a create: the entity fields and the required confirmation.
type CreateInput struct {
	EntityInput
	Confirmed *bool `json:"confirmed" required:"true" enum:"true" doc:"Must be true: the caller confirms the company should be tracked"`
}

// EntityPatch holds the changeable fields of a tracked company; nil fields stay as they are.
type EntityPatch struct {
	CompanyName        *string        `json:"companyName,omitempty" doc:"Company name, 1-200 characters" minLength:"1" maxLength:"200"`
	CompanySummary     *string        `json:"companySummary,omitempty" doc:"Up to 5000 characters" maxLength:"5000"`
	AlertEmails        []string       `json:"alertEmails,omitempty" doc:"1-20 distinct recipient addresses" minItems:"1" maxItems:"20" format:"email"`
	CadenceDays        *int           `json:"cadenceDays,omitempty" doc:"3, 7 or 30" enum:"3,7,30"`
	Tags               []string       `json:"tags,omitempty" doc:"Free tags, replaced as a whole; up to 50 of up to 50 characters" maxItems:"50"`
	Founders           []FounderInput `json:"founders,omitempty" doc:"Founders: an item with id updates that founder in place, an item without id adds one" maxItems:"10"`
	Status             *string        `json:"status,omitempty" doc:"ok or paused" enum:"ok,paused"`
	ThingsToTrack      *string        `json:"thingsToTrack,omitempty" doc:"Alert rules, 1-10000 characters" minLength:"1" maxLength:"10000"`
	EmailAlertsEnabled *bool          `json:"emailAlertsEnabled,omitempty" doc:"Send alert e-mails"`
	Digest             *string        `json:"digest,omitempty" doc:"Digest e-mail of the runs that found something: off, daily or weekly" enum:"off,daily,weekly"`
}

// Found is a profile that enrichment found for a draft or an entity.
type Found struct {
	Field  string `json:"field" doc:"The field filled in, e.g. companyLinkedinUrl or founders[0].githubUrl"`
	URL    string `json:"url"`
	Source string `json:"source" doc:"The page where it was found"`
}

// TextKind says which characters a text input may hold.
type TextKind int

const (
	// SingleLine is a name, an e-mail address, a URL or a query parameter: no control characters at all,
	// and no line breaks.
	SingleLine TextKind = iota
	// MultiLine is free text such as alert rules or a summary: tabs and line breaks (LF, CR) are allowed,
	// other control characters are not.
	MultiLine
)

// TextProblem returns why v is not acceptable text of kind, or "" when it is: it must be valid UTF-8, hold no
// NUL and no control character other than those kind allows, and not consist only of invisible characters
// (zero-width characters, direction marks and other format characters). Every edge (REST, MCP, the web UI)
// passes its text through this one check, so that both storage engines see the same text.
func TextProblem(v string, kind TextKind) string {
	if !utf8.ValidString(v) {
		return "must be valid UTF-8"
	}
	visible, invisible := false, false
	for _, r := range v {
		switch {
		case r == 0:
			return "must not contain a NUL character (U+0000)"
		case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			if kind != MultiLine {
				return fmt.Sprintf("must be a single line: line break U+%04X not allowed", r)
			}
		case r == '\t':
			if kind != MultiLine {
				return "must not contain a tab (U+0009)"
			}
		case unicode.IsControl(r):
			return fmt.Sprintf("must not contain the control character U+%04X", r)
		case unicode.Is(unicode.Cf, r) || isFiller(r):
			invisible = true
		case !unicode.IsSpace(r):
			visible = true
		}
	}
	if invisible && !visible {
		return "must contain visible characters, not only zero-width characters or direction marks"
	}
	return ""
}

// isFiller reports the blank letters that render as nothing (Hangul fillers, the blank Braille pattern).
func isFiller(r rune) bool {
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800':
		return true
	}
	return false
}

// Text records a problem when v is not acceptable text of kind, and reports whether it is.
func (p *Problems) Text(path, v string, kind TextKind) bool {
	if reason := TextProblem(v, kind); reason != "" {
		p.Add(path, reason)
		return false
	}
	return true
}
