//go:build unix

package livedisplay

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// notifyWindowChanges delivers SIGWINCH, the terminal's "window size
// changed", on c until the returned function is called.
func notifyWindowChanges(c chan<- os.Signal) func() {
	signal.Notify(c, unix.SIGWINCH)
	return func() { signal.Stop(c) }
}
