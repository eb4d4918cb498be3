package leadfind

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"radar"
)

// Undescribed is a lead's company summary when no item it was found in says what the company is or does.
func Undescribed(company string) string {
	return radar.UndescribedCompany(company)
}

// describeVerbs, right after a company's name, start a sentence that says what it does.
var describeVerbs = wordSet(`makes builds develops sells offers provides helps lets uses designs produces operates runs
turns gives connects automates creates specialises specializes focuses works brings enables powers supplies
manufactures delivers tracks monitors measures maps grows serves trains writes plans is was`)

// notDescribing, right after "which" or "that", start a clause about an event rather than about the
// company: "which raised a seed round", "which was founded in 2021".
var notDescribing = wordSet(`raised raises closed closes announced announces was were has had have will would said says
recently just also last this earlier later reportedly secured secures landed lands emerged emerges came comes
launched launches is 's did does could can may might t`)

// doingWords mark a description that says what a company does, preferred over one that only names its
// kind ("a stealth startup").
var doingWords = wordSet(`makes make making builds build building develops develop developing sells sell selling
offers offer provides provide helps help lets uses designs produces operates turns gives connects automates creates
specialises specializes focuses brings enables powers supplies manufactures delivers tracks monitors measures maps
maker makers developer developers provider providers platform software marketplace app tool tools service
designer designers manufacturer manufacturers supplier operator`)

// describe returns what the item's sentences say the company named key is or does, as a sentence, or "".
func (sc *itemScan) describe(key string) string {
	first, doing := "", ""
	for _, s := range sc.sents {
		for i, t := range s.toks {
			if t.span < 0 || !sameCompany(s.spans[t.span].companyKey(), key) {
				continue
			}
			d, ok := s.description(i)
			if !ok {
				continue
			}
			if first == "" {
				first = d
			}
			if doing == "" && s.describesDoing(d) {
				doing = d
			}
		}
		if doing != "" {
			return doing
		}
	}
	return first
}

// describesDoing reports whether a description says what the company does.
func (s *sentence) describesDoing(d string) bool {
	for w := range strings.FieldsSeq(strings.ToLower(d)) {
		if doingWords[strings.Trim(w, ".,;:()")] {
			return true
		}
	}
	return false
}

// description reads what the sentence says about the company at token i: an appositive ("Fieldgrid, a
// Lisbon start-up that makes soil sensors, ..."), a relative clause ("Fieldgrid, which builds ..."), or
// the sentence itself when the company is its subject ("Fieldgrid makes soil sensors.").
func (s *sentence) description(i int) (string, bool) {
	name := s.toks[i].text
	n := len(s.toks)
	if i+2 < n && (s.toks[i+1].form == "," || s.toks[i+1].form == "(") {
		closer := ","
		if s.toks[i+1].form == "(" {
			closer = ")"
		}
		end := i + 2
		for end < n && s.toks[end].form != closer && s.toks[end].form != ";" {
			end++
		}
		body := s.toks[i+2 : end]
		if len(body) < 2 {
			return "", false
		}
		switch body[0].form {
		case "a", "an", "the", "one":
			if strings.HasPrefix(body[1].form, rolePrefix) || body[1].form == "company" && len(body) > 2 && body[2].form == "'s" {
				return "", false
			}
			return sentenceOf(name + " is " + joinTokens(body)), true
		case "which", "that":
			if notDescribing[body[1].form] || body[1].span >= 0 || body[1].form == "T" {
				return "", false
			}
			return sentenceOf(name + " " + joinTokens(body[1:])), true
		case "whose":
			return sentenceOf(name + "'s " + joinTokens(body[1:])), true
		}
		return "", false
	}
	if i+2 < n && s.subjectAt(i) && describeVerbs[s.toks[i+1].form] {
		verb := s.toks[i+1].form
		if (verb == "is" || verb == "was") && !describedAs(s.toks[i+2].form) {
			return "", false
		}
		return sentenceOf(joinTokens(s.toks[i:])), true
	}
	return "", false
}

// describedAs reports whether the word after "is" starts a description ("is a soil-sensor start-up").
func describedAs(w string) bool {
	switch w {
	case "a", "an", "the", "one", "building", "developing", "making":
		return true
	}
	return false
}

// subjectAt reports whether the name at token i opens the sentence, allowing an opening phrase set off by
// a comma ("Today, Fieldgrid makes ...").
func (s *sentence) subjectAt(i int) bool {
	if i == 0 {
		return true
	}
	return i >= 2 && s.toks[i-1].form == "," && i <= 4
}

// joinTokens writes tokens back as text, without spaces before punctuation or after an opening bracket.
func joinTokens(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			switch {
			case t.hyphen:
				b.WriteByte('-')
			case t.text == "," || t.text == ")" || t.text == ";" || t.text == ":" || t.text == "'s":
			case toks[i-1].text != "(":
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// sentenceOf capitalises s and ends it with a full stop.
func sentenceOf(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ",;: ")
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}
