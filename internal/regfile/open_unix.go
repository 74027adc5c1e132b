//go:build unix

package regfile

import "syscall"

// nonBlock makes opening a named pipe return at once, whether or not a
// writer has it open; reading a regular file or a directory ignores it.
const nonBlock = syscall.O_NONBLOCK
