//go:build unix

package providerinstall

import "syscall"

func init() {
	// File modes in these tests are exact; make them independent of the
	// umask of whoever runs the tests.
	syscall.Umask(0o022)
}
