package mcp

import (
	"encoding/json"
	"testing"

	"radar"
)

func TestCheckArgs(t *testing.T) {
	schema := inputSchema[struct {
		pageArgs
		Founders []founderArgs `json:"founders,omitempty" jsonschema:"people"`
		Accepted *bool         `json:"accepted,omitempty" jsonschema:"verdict"`
	}]()
	tests := map[string]struct {
		args string
		want string
	}{
		"no arguments":            {``, ""},
		"null arguments":          {`null`, ""},
		"empty object":            {`{}`, ""},
		"null stands for omitted": {`{"limit": null, "founders": null, "accepted": null}`, ""},
		"valid values":            {`{"limit": 5, "view": "full", "founders": [{"name": "Ada"}], "accepted": false}`, ""},
		"arguments not an object": {`[1, 2]`, "(arguments): must be a JSON object"},
		"arguments not JSON":      {`{"limit":`, "(arguments): must be a JSON object"},
		"fraction for an integer": {`{"limit": 1.5}`, "limit: must be an integer"},
		"integer below minimum":   {`{"limit": -3}`, "limit: must be at least 1"},
		"string for a boolean":    {`{"accepted": "yes"}`, "accepted: must be true or false"},
		"object for an array":     {`{"founders": {"name": "Ada"}}`, "founders: must be an array"},
		"nested unknown and type": {`{"founders": [{"name": "Ada"}, {"name": 1, "age": 40}]}`, "founders[1].age: is not a known field; founders[1].name: must be a string"},
		"item not an object":      {`{"founders": ["Ada"]}`, "founders[0]: must be an object"},
		"every fault at once":     {`{"cursor": 1, "limit": "x", "colour": "red"}`, "colour: is not a known field; cursor: must be a string; limit: must be an integer"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, probs := checkArgs(json.RawMessage(tt.args), schema)
			got := ""
			if e, ok := radar.AsError(probs.Err()); ok {
				got = e.Message
			}
			if got != tt.want {
				t.Errorf("checkArgs(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}
