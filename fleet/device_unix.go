//go:build unix

package fleet

import (
	"os"
	"syscall"
)

// device returns the file system device of path.
func device(path string) (uint64, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // Dev is not uint64 on every architecture
}
