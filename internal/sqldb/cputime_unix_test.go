//go:build unix

package sqldb_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the test process has used, user and system, which unlike wall time does
// not grow while other processes hold the machine's cores.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
