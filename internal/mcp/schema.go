package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"radar"
)

// inputSchema derives the JSON Schema of a tool's arguments from In: descriptions come from jsonschema tags,
// constraints from the enum, format, minimum, minLength, maxLength, minItems and maxItems tags. Optional
// arguments are simply left out, so the schema never offers null.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %T: %v", *new(In), err))
	}
	refine(s, reflect.TypeFor[In]())
	return s
}

// refine applies the constraint tags of struct type t to the object schema s, recursively.
func refine(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		p := s.Properties[name]
		if p == nil {
			continue
		}
		notNull(p)
		if p.Items != nil {
			notNull(p.Items)
			refine(p.Items, f.Type)
		}
		if p.Type == "object" {
			refine(p, f.Type)
		}
		if v := f.Tag.Get("enum"); v != "" {
			for _, e := range strings.Split(v, ",") {
				switch p.Type {
				case "integer":
					n, err := strconv.Atoi(e)
					if err != nil {
						panic(fmt.Sprintf("mcp: enum of %s is not an integer: %q", f.Name, e))
					}
					p.Enum = append(p.Enum, n)
				case "boolean":
					p.Enum = append(p.Enum, e == "true")
				default:
					p.Enum = append(p.Enum, e)
				}
			}
		}
		if v := f.Tag.Get("format"); v != "" {
			if p.Items != nil {
				p.Items.Format = v
			} else {
				p.Format = v
			}
		}
		if v, ok := intTag(f, "minimum"); ok {
			m := float64(v)
			p.Minimum = &m
		}
		for _, c := range []struct {
			tag string
			dst **int
		}{{"minLength", &p.MinLength}, {"maxLength", &p.MaxLength}, {"minItems", &p.MinItems}, {"maxItems", &p.MaxItems}} {
			if v, ok := intTag(f, c.tag); ok {
				*c.dst = &v
			}
		}
	}
}

func intTag(f reflect.StructField, tag string) (int, bool) {
	v, ok := f.Tag.Lookup(tag)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("mcp: tag %s of %s is not an integer: %q", tag, f.Name, v))
	}
	return n, true
}

// notNull turns the ["null", T] type of a pointer or slice into plain T.
func notNull(s *jsonschema.Schema) {
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
}

// checkArgs reports every argument whose JSON type does not fit the schema, every integer below its minimum
// and every unknown argument, so that an agent can fix all of them in one round trip. JSON null stands for an
// omitted argument. Everything else about the values is checked by the service, which owns those rules.
func checkArgs(raw json.RawMessage, s *jsonschema.Schema) (map[string]any, radar.Problems) {
	var p radar.Problems
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		p.Add("(arguments)", "must be a JSON object")
		return nil, p
	}
	if v == nil {
		return map[string]any{}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		p.Add("(arguments)", "must be a JSON object")
		return nil, p
	}
	checkObject(&p, "", obj, s)
	return obj, p
}

func checkObject(p *radar.Problems, prefix string, obj map[string]any, s *jsonschema.Schema) {
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		ps := s.Properties[name]
		if ps == nil {
			p.Add(path, "is not a known field")
			continue
		}
		checkValue(p, path, obj[name], ps)
	}
}

func checkValue(p *radar.Problems, path string, v any, s *jsonschema.Schema) {
	if v == nil {
		return
	}
	switch s.Type {
	case "string":
		if _, ok := v.(string); !ok {
			p.Add(path, "must be a string")
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			p.Add(path, "must be true or false")
		}
	case "integer":
		n, ok := v.(json.Number)
		i, err := n.Int64()
		switch {
		case !ok || err != nil:
			p.Add(path, "must be an integer")
		case s.Minimum != nil && float64(i) < *s.Minimum:
			p.Addf(path, "must be at least %g", *s.Minimum)
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			p.Add(path, "must be a number")
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			p.Add(path, "must be an array")
			return
		}
		for i, item := range items {
			checkValue(p, fmt.Sprintf("%s[%d]", path, i), item, s.Items)
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			p.Add(path, "must be an object")
			return
		}
		checkObject(p, path, obj, s)
	}
}
