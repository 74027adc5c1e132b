//go:build !unix

package livedisplay

import "os"

// notifyWindowChanges: without SIGWINCH, the width read at the start
// stays.
func notifyWindowChanges(chan<- os.Signal) func() { return func() {} }
