package apitest_test

import (
	"testing"
	"time"

	"radar/internal/apitest"
)

func TestScratch(t *testing.T) {
	for _, e := range []string{"sqlite", "postgres"} {
		t0 := time.Now()
		for range 4 {
			apitest.Start(t, e)
		}
		t.Logf("%s: %s per env", e, time.Since(t0)/4)
	}
}
