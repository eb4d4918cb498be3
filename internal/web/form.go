package web

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"radar"
)

// fieldErrors holds the problems of a submitted form by input name; Other holds those no input shows.
type fieldErrors struct {
	byField map[string][]string
	Other   []string
	inputs  map[string]bool
}

// itemIndex matches a trailing array index such as alertEmails[2].
var itemIndex = regexp.MustCompile(`\[(\d+)\]$`)

// newFieldErrors sorts a validation error's fields onto the form's inputs: "founders[1].name" stays as it is,
// "alertEmails[2]" goes to alertEmails, and a path no input carries goes to Other.
func newFieldErrors(err error, inputs ...string) (*fieldErrors, bool) {
	e, ok := radar.AsError(err)
	if !ok || e.Code != radar.EValidation {
		return nil, false
	}
	fe := &fieldErrors{byField: map[string][]string{}, inputs: map[string]bool{}}
	for _, in := range inputs {
		fe.inputs[in] = true
	}
	fields, _ := e.Details["fields"].([]radar.FieldError)
	if len(fields) == 0 {
		fe.Other = append(fe.Other, e.Message)
		return fe, true
	}
	for _, f := range fields {
		fe.add(f.Path, f.Reason)
	}
	return fe, true
}

func (fe *fieldErrors) add(path, reason string) {
	name := path
	if !fe.known(name) {
		if m := itemIndex.FindStringSubmatch(path); m != nil {
			name = strings.TrimSuffix(path, m[0])
			n, _ := strconv.Atoi(m[1])
			reason = fmt.Sprintf("item %d %s", n+1, reason)
		}
	}
	if !fe.known(name) {
		fe.Other = append(fe.Other, path+": "+reason)
		return
	}
	fe.byField[name] = append(fe.byField[name], reason)
}

func (fe *fieldErrors) known(name string) bool {
	if fe.inputs[name] {
		return true
	}
	return founderInput.MatchString(name)
}

var founderInput = regexp.MustCompile(`^founders\[\d+\]\.(name|linkedinUrl|twitterUrl|githubUrl)$`)

// Err is the message to show beside an input, or "".
func (fe *fieldErrors) Err(name string) string {
	if fe == nil {
		return ""
	}
	return strings.Join(fe.byField[name], "; ")
}

// Count is the number of problems.
func (fe *fieldErrors) Count() int {
	if fe == nil {
		return 0
	}
	n := len(fe.Other)
	for _, v := range fe.byField {
		n += len(v)
	}
	return n
}

// founderRow is one founder's inputs.
type founderRow struct {
	Index                                        int
	ID, Name, LinkedinURL, TwitterURL, GithubURL string
}

func (f founderRow) blank() bool {
	return f.ID == "" && strings.TrimSpace(f.Name+f.LinkedinURL+f.TwitterURL+f.GithubURL) == ""
}

// Field is the input name of one of the row's fields.
func (f founderRow) Field(name string) string { return fmt.Sprintf("founders[%d].%s", f.Index, name) }

// entityForm is the add and edit form of a company, as typed.
type entityForm struct {
	CompanyName, CompanyWebsite                               string
	CompanyLinkedinURL, CompanyTwitterURL, CompanyGithubURL   string
	CompanySummary, ThingsToTrack, AlertEmails, Tags, Cadence string
	// Digest is off, daily or weekly; empty leaves it as it is.
	Digest             string
	EmailAlertsEnabled bool
	Founders           []founderRow
	Errors             *fieldErrors
	// blankRows counts the empty founder rows that were on the submitted form.
	blankRows int
}

// entityInputs names every input of the company form that an error can point at.
var entityInputs = []string{"companyName", "companyWebsite", "companyLinkedinUrl", "companyTwitterUrl", "companyGithubUrl",
	"companySummary", "founders", "thingsToTrack", "alertEmails", "emailAlertsEnabled", "cadenceDays", "digest", "tags"}

// Digests lists the choices of the digest input.
func (entityForm) Digests() []string { return radar.DigestPeriods }

// Cadences lists the choices of the cadence input.
func (entityForm) Cadences() []string { return []string{"3", "7", "30"} }

// parseEntityForm reads the form; founder rows left blank are dropped and the others renumbered, so that an
// error's founders[i] is the i-th row shown.
func parseEntityForm(vals url.Values) entityForm {
	get := vals.Get
	f := entityForm{
		CompanyName: get("companyName"), CompanyWebsite: strings.TrimSpace(get("companyWebsite")),
		CompanyLinkedinURL: strings.TrimSpace(get("companyLinkedinUrl")), CompanyTwitterURL: strings.TrimSpace(get("companyTwitterUrl")),
		CompanyGithubURL: strings.TrimSpace(get("companyGithubUrl")), CompanySummary: get("companySummary"),
		ThingsToTrack: get("thingsToTrack"), AlertEmails: get("alertEmails"), Tags: get("tags"),
		Cadence: get("cadenceDays"), EmailAlertsEnabled: get("emailAlertsEnabled") != "", Digest: get("digest"),
	}
	for i := range maxFounderRows {
		row := founderRow{
			ID:          strings.TrimSpace(get(fmt.Sprintf("founders[%d].id", i))),
			Name:        get(fmt.Sprintf("founders[%d].name", i)),
			LinkedinURL: strings.TrimSpace(get(fmt.Sprintf("founders[%d].linkedinUrl", i))),
			TwitterURL:  strings.TrimSpace(get(fmt.Sprintf("founders[%d].twitterUrl", i))),
			GithubURL:   strings.TrimSpace(get(fmt.Sprintf("founders[%d].githubUrl", i))),
		}
		switch {
		case !row.blank():
			row.Index = len(f.Founders)
			f.Founders = append(f.Founders, row)
		case vals.Has(fmt.Sprintf("founders[%d].name", i)):
			f.blankRows++
		}
	}
	return f
}

// maxFounderRows bounds the founder rows of the form (the specification allows ten founders).
const maxFounderRows = 10

// withBlankRow adds an empty founder row to fill in, while there is room.
func (f entityForm) withBlankRow() entityForm { return f.withBlankRows(1) }

// withBlankRows adds n empty founder rows, while there is room.
func (f entityForm) withBlankRows(n int) entityForm {
	for range n {
		if len(f.Founders) >= maxFounderRows {
			break
		}
		f.Founders = append(f.Founders, founderRow{Index: len(f.Founders)})
	}
	return f
}

// rowsToShow is the number of empty founder rows to show again: one, or one more than were sent when the
// user asked for another row.
func (f entityForm) rowsToShow(more bool) int {
	if more {
		return f.blankRows + 1
	}
	return 1
}

func (f entityForm) founderInputs() []radar.FounderInput {
	out := make([]radar.FounderInput, len(f.Founders))
	for i, r := range f.Founders {
		out[i] = radar.FounderInput{ID: r.ID, Name: r.Name, LinkedinURL: r.LinkedinURL, TwitterURL: r.TwitterURL, GithubURL: r.GithubURL}
	}
	return out
}

// splitList splits addresses or tags typed one per line or separated by commas or semicolons.
func splitList(s string) []string {
	out := []string{}
	for _, v := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' }) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// splitEmails is splitList that also splits on spaces, which no address contains.
func splitEmails(s string) []string {
	return splitList(strings.Join(strings.Fields(s), ","))
}

// cadence parses the cadence input; ok is false for anything but a number.
func cadence(v string) (*int, bool) {
	if v == "" {
		return nil, true
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, false
	}
	return &n, true
}

// input converts the form into a create.
func (f entityForm) input() (radar.CreateInput, *fieldErrors) {
	yes := true
	in := radar.CreateInput{Confirmed: &yes, EntityInput: radar.EntityInput{
		CompanyName: f.CompanyName, CompanyWebsite: f.CompanyWebsite, CompanyLinkedinURL: f.CompanyLinkedinURL,
		CompanyTwitterURL: f.CompanyTwitterURL, CompanyGithubURL: f.CompanyGithubURL, CompanySummary: strings.TrimSpace(f.CompanySummary),
		Founders: f.founderInputs(), ThingsToTrack: f.ThingsToTrack, EmailAlertsEnabled: &f.EmailAlertsEnabled,
	}}
	if emails := splitEmails(f.AlertEmails); len(emails) > 0 {
		in.AlertEmails = emails
	}
	if len(in.Founders) == 0 {
		in.Founders = nil
	}
	c, ok := cadence(f.Cadence)
	if !ok {
		return in, cadenceError()
	}
	in.CadenceDays = c
	if f.Digest != "" {
		in.Digest = &f.Digest
	}
	return in, nil
}

func cadenceError() *fieldErrors {
	fe := &fieldErrors{byField: map[string][]string{"cadenceDays": {"must be 3, 7 or 30"}}}
	return fe
}

// patch converts the edit form into a change of every editable field.
func (f entityForm) patch() (radar.EntityPatch, *fieldErrors) {
	name, summary, rules := f.CompanyName, strings.TrimSpace(f.CompanySummary), f.ThingsToTrack
	p := radar.EntityPatch{
		CompanyName: &name, CompanySummary: &summary, ThingsToTrack: &rules, EmailAlertsEnabled: &f.EmailAlertsEnabled,
		AlertEmails: splitEmails(f.AlertEmails), Tags: splitList(f.Tags), Founders: f.founderInputs(),
	}
	c, ok := cadence(f.Cadence)
	if !ok {
		return p, cadenceError()
	}
	p.CadenceDays = c
	if f.Digest != "" {
		p.Digest = &f.Digest
	}
	return p, nil
}

// formFromEntity fills the edit form with the stored values.
func formFromEntity(e *radar.Entity) entityForm {
	f := entityForm{
		CompanyName: e.CompanyName, CompanyWebsite: e.CompanyWebsite, CompanyLinkedinURL: e.CompanyLinkedinURL,
		CompanyTwitterURL: e.CompanyTwitterURL, CompanyGithubURL: e.CompanyGithubURL, CompanySummary: e.CompanySummary,
		ThingsToTrack: e.ThingsToTrack, AlertEmails: strings.Join(e.AlertEmails, "\n"), Tags: strings.Join(e.Tags, ", "),
		Cadence: strconv.Itoa(e.CadenceDays), EmailAlertsEnabled: e.EmailAlertsEnabled, Digest: e.Digest,
	}
	for i, fd := range e.Founders {
		f.Founders = append(f.Founders, founderRow{Index: i, ID: fd.ID, Name: fd.Name, LinkedinURL: fd.LinkedinURL, TwitterURL: fd.TwitterURL, GithubURL: fd.GithubURL})
	}
	return f
}

// inputField is one labelled input with its error, for the "input" template.
type inputField struct {
	Name, Label, Value, Type, Hint, Placeholder, Error string
	Rows                                               int
	Required                                           bool
}

// field builds an inputField; options are "req", "type=url", "rows=4", "hint=…" and "ph=…" (placeholder).
func field(errs *fieldErrors, name, label, value string, options ...string) inputField {
	f := inputField{Name: name, Label: label, Value: value, Type: "text", Error: errs.Err(name), Rows: 4}
	for _, o := range options {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "req":
			f.Required = true
		case "type":
			f.Type = v
		case "rows":
			if n, err := strconv.Atoi(v); err == nil {
				f.Rows = n
			}
		case "hint":
			f.Hint = v
		case "ph":
			f.Placeholder = v
		}
	}
	return f
}
