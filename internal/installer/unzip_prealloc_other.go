//go:build !linux

package installer

import "os"

// preallocateMin is the smallest file worth preallocating.
const preallocateMin = 1 << 20

// preallocate does nothing where fallocate is not available.
func preallocate(*os.File, int64) {}
