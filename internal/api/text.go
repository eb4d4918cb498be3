package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"radar"
)

// checkQueryText rejects a query string with a parameter that is not one line of valid text (a NUL, a
// control character, a line break, invalid UTF-8): the service checks its own fields, and this check covers
// every parameter at the edge, including those the service never reads.
func checkQueryText(raw string) *radar.Error {
	if plainASCII(raw) {
		return nil // every parameter is printable ASCII: acceptable text
	}
	return checkQueryValues(raw)
}

// checkQueryValues is checkQueryText for any raw query: it decodes every parameter and checks its text.
func checkQueryValues(raw string) *radar.Error {
	vals, _ := url.ParseQuery(raw)
	var p radar.Problems
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		if !p.Text("(query)", k, radar.SingleLine) {
			continue
		}
		for _, v := range vals[k] {
			if v != "" && !p.Text(k, v, radar.SingleLine) {
				break
			}
		}
	}
	if err := p.Err(); err != nil {
		e, _ := radar.AsError(err)
		return e
	}
	return nil
}

// plainASCII reports whether raw holds only printable ASCII and no escape (%), so that every name and value it
// decodes to is printable ASCII too ('+' decodes to a space).
func plainASCII(raw string) bool {
	for i := range len(raw) {
		if c := raw[i]; c <= ' ' || c >= 0x7f || c == '%' {
			return false
		}
	}
	return true
}

// jsonBody reports whether a request's body is read as JSON: it says so, or says nothing (the API then
// assumes JSON).
func jsonBody(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// ReadJSONBody reads a JSON request body whole and checks that its text is valid Unicode, which the JSON
// decoder would silently replace with U+FFFD: invalid UTF-8, or an escaped surrogate (\ud800) without its
// pair. It returns the body, a validation_error naming the field that holds the bad text, or the read error
// (http.MaxBytesError for a body over the limit).
func ReadJSONBody(r io.Reader) ([]byte, *radar.Error, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return b, nil, err
	}
	return b, CheckJSONText(b), nil
}

// replay gives a handler the body the middleware has read, then the error its reading ended with.
type replay struct {
	io.Reader
	io.Closer
}

// failing is a reader that fails with err, or ends when err is nil.
type failing struct{ err error }

func (f failing) Read([]byte) (int, error) {
	if f.err == nil {
		return 0, io.EOF
	}
	return 0, f.err
}

// CheckJSONText returns a validation_error when a JSON document holds invalid UTF-8 or an unpaired
// surrogate escape, naming the field where it is; nil otherwise.
func CheckJSONText(b []byte) *radar.Error {
	at, reason := -1, ""
	if !utf8.Valid(b) {
		at, reason = invalidUTF8At(b), "must be valid UTF-8"
	}
	if s, esc := loneSurrogateAt(b); s >= 0 && (at < 0 || s < at) {
		at, reason = s, "must be valid Unicode: the escape "+esc+" is half of a surrogate pair"
	}
	if at < 0 {
		return nil
	}
	var p radar.Problems
	p.Add(jsonPathAt(b, at), reason)
	e, _ := radar.AsError(p.Err())
	return e
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// loneSurrogateAt returns the offset and text of the first \uXXXX escape that is a surrogate without its pair.
// A backslash only occurs inside strings in valid JSON, so no string tracking is needed.
func loneSurrogateAt(b []byte) (int, string) {
	for i := 0; i < len(b)-1; {
		if b[i] != '\\' {
			i++
			continue
		}
		r, ok := escapeAt(b, i)
		if !ok {
			i += 2
			continue
		}
		if utf16.IsSurrogate(r) {
			r2, ok2 := escapeAt(b, i+6)
			if r >= 0xDC00 || !ok2 || r2 < 0xDC00 || r2 > 0xDFFF {
				return i, string(b[i : i+6])
			}
			i += 12
			continue
		}
		i += 6
	}
	return -1, ""
}

// escapeAt decodes the \uXXXX escape at b[i:], if there is one.
func escapeAt(b []byte, i int) (rune, bool) {
	if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
	return rune(n), err == nil
}

// jsonPathAt returns the path (founders[0].name) of the JSON token that spans offset at, or "(body)".
func jsonPathAt(b []byte, at int) string {
	type frame struct {
		obj       bool
		key       string
		idx       int
		expectKey bool
	}
	var stack []frame
	path := func() string {
		var sb strings.Builder
		for _, f := range stack {
			if f.obj {
				if sb.Len() > 0 {
					sb.WriteByte('.')
				}
				sb.WriteString(f.key)
			} else {
				fmt.Fprintf(&sb, "[%d]", f.idx)
			}
		}
		if sb.Len() == 0 {
			return "(body)"
		}
		return sb.String()
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "(body)"
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].expectKey = true
			}
			continue
		}
		if top != nil && top.obj && top.expectKey {
			top.key, top.expectKey = tok.(string), false
			if int(dec.InputOffset()) > at {
				return path()
			}
			continue
		}
		if top != nil && !top.obj {
			top.idx++
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{obj: d == '{', idx: -1, expectKey: d == '{'})
			continue
		}
		if int(dec.InputOffset()) > at {
			return path()
		}
		if top != nil && top.obj {
			top.expectKey = true
		}
	}
}
