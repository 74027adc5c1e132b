package providerinstall

import (
	"os"
	"syscall"
)

// memoSupported reports whether file fingerprints (inode, device, change
// time) can be read on this system.
const memoSupported = true

// statFingerprint returns the fingerprint of a file from its stat result,
// without the name.
func statFingerprint(info os.FileInfo) (fileStamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{
		Size:  info.Size(),
		Mode:  uint32(info.Mode()),
		Mtime: st.Mtim.Nano(),
		Ctime: st.Ctim.Nano(),
		Ino:   st.Ino,
		Dev:   uint64(st.Dev), //nolint:unconvert // Dev is not uint64 on every architecture
	}, true
}
