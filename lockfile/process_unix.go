//go:build unix

package lockfile

import (
	"errors"
	"syscall"
)

// processRunning reports whether process pid still runs. A zombie (a
// process that has exited and that its parent has not yet waited for) does
// not: it will never finish a write. Where the process state can be read
// (processState), it decides; elsewhere signal 0 checks that the pid
// exists without sending anything (EPERM: it exists under another user),
// which a zombie passes.
func processRunning(pid int) bool {
	if state, ok := processState(pid); ok {
		return state != 'Z' && state != 'X'
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
