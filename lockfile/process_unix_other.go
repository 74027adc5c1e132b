//go:build unix && !linux

package lockfile

// processState is not read on this system: processRunning relies on
// signal 0 alone.
func processState(pid int) (byte, bool) { return 0, false }
