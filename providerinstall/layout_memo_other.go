//go:build !linux

package providerinstall

import "os"

// memoSupported reports whether file fingerprints (inode, device, change
// time) can be read on this system: tfdeps reads them on Linux only, so
// elsewhere the "h1:" memo is not used.
const memoSupported = false

func statFingerprint(os.FileInfo) (fileStamp, bool) { return fileStamp{}, false }
