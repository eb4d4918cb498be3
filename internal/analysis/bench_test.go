package analysis

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkAnalyseItem measures the built-in analyser on one item a run, cycling through the evaluation set's
// training items (or the classification table when the set is missing); ns/op is the time per item.
func BenchmarkAnalyseItem(b *testing.B) {
	var inputs []Input
	for _, e := range loadEval(b, "train-*.jsonl") {
		inputs = append(inputs, e.input())
	}
	if len(inputs) == 0 {
		for _, c := range classifyCases {
			inputs = append(inputs, Input{CompanyName: "Northwind", Founders: []string{"Jane Doe", "Raj Patel"},
				Items: []Item{{Source: c.source, Kind: c.kind, Title: c.title, Text: c.text}}})
		}
	}
	a := Builtin()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := a.Analyse(ctx, inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile measures compiling alert rules: a text whose sentences were compiled before (a firm's standing
// rules on its next company) and a text of sentences never seen.
func BenchmarkCompile(b *testing.B) {
	const rules = "Funding rounds over $5M. Any founder leaving. Tell me when they hire a CFO"
	b.Run("kept", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Compile(rules)
		}
	})
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			Compile(rules + " in office " + strconv.Itoa(i))
		}
	})
}
