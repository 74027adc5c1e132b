//go:build unix

package hashes

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time used by this process so
// far, so that benchmarks on a busy machine can report CPU cost as well as
// wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
