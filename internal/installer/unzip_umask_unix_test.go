//go:build unix

package installer

import "syscall"

func init() {
	// File modes in these tests are exact; make them independent of the
	// umask of whoever runs the tests.
	syscall.Umask(0o022)
}
