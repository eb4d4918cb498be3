package radar

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
}

// Found is a profile that enrichment found for a draft or an entity.
type Found struct {
	Field  string `json:"field" doc:"The field filled in, e.g. companyLinkedinUrl or founders[0].githubUrl"`
	URL    string `json:"url"`
	Source string `json:"source" doc:"The page where it was found"`
}
