package digest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"radar"
	"radar/internal/sqldb/storetest"
)

// benchCompanies is the size of the organisation of BenchmarkDigestBuild.
const benchCompanies = 1000

// BenchmarkDigestBuild builds (reads and renders, sends nothing) the daily digest of one recipient of an
// organisation with 1,000 companies, each with a run that found something and a quiet run since the last digest.
func BenchmarkDigestBuild(b *testing.B) {
	for _, engine := range storetest.Engines() {
		b.Run(engine, func(b *testing.B) {
			v := start(b, engine)
			const partner = "partner@fund.example"
			severities := radar.Severities
			for i := range benchCompanies {
				e := v.entity(b, fmt.Sprintf("Company %04d", i), radar.DigestDaily, partner, fmt.Sprintf("analyst%d@fund.example", i%7))
				v.SeedSignal(b, v.OrgA, e.ID, radar.TypeFunding, severities[i%len(severities)], fmt.Sprintf("Company %04d raised a round.", i))
				v.SeedSignal(b, v.OrgA, e.ID, radar.TypeNoChange, "low", "Nothing new.")
			}
			v.Clock.Advance(time.Second)
			ctx := context.Background()
			for b.Loop() {
				ps, err := v.digests.Preview(ctx, v.OrgA.ID, partner)
				if err != nil || len(ps) != 1 || ps[0].Runs != benchCompanies {
					b.Fatalf("preview: %+v, %v", ps, err)
				}
			}
		})
	}
}
