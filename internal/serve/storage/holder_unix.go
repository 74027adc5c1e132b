//go:build unix

package storage

import (
	"errors"
	"syscall"
)

// pidUnused reports, where /proc is missing, whether no process has the
// id: signal 0 checks without sending anything.
func pidUnused(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
