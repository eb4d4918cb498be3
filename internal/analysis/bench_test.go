package analysis

import (
	"context"
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
