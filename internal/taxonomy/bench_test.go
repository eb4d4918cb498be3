package taxonomy

import (
	"context"
	"strings"
	"testing"
)

func BenchmarkResolveTerm(b *testing.B) {
	c := NewBuiltin(Default())
	ctx := context.Background()
	for _, term := range []string{"fintech", "AI for radiology", "b2b payments for marketplaces", "cybersecurty", "underwater basket weaving"} {
		b.Run(strings.ReplaceAll(term, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ResolveTerm(ctx, term); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkClassifyCompany(b *testing.B) {
	c := NewBuiltin(Default())
	ctx := context.Background()
	short := "Accept card payments, wallets and bank transfers at checkout. Our payment gateway handles acquiring, fraud checks and payouts to merchants in 40 countries."
	website := strings.Repeat("Ledgerly powers checkout for ten thousand merchants. Read our blog about payouts, fraud and careers in Lisbon. ", 100)
	for name, text := range map[string]string{"summary": short, "website_10KB": website} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ClassifyCompany(ctx, "Ledgerly", "Payments infrastructure for online businesses", text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolve(b *testing.B) {
	tx := Default()
	c := NewBuiltin(tx)
	ctx := context.Background()
	terms := []string{"fintech", "healthcare", "developer tools", "climate"}
	b.ReportAllocs()
	for b.Loop() {
		Resolve(ctx, tx, c, terms)
	}
}

func BenchmarkDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Default()
	}
}
