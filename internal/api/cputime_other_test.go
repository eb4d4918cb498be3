//go:build !unix

package api_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
