//go:build !unix

package sqldb_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
