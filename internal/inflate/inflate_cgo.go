//go:build cgo

package inflate

/*
#cgo CFLAGS: -O2
#include "libdeflate/libdeflate.h"

// inflate_whole decompresses in one call with a decompressor of its own
// (its allocation is small next to the work).
static int inflate_whole(const void *in, size_t in_n, void *out, size_t out_n, size_t *got) {
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	if (d == NULL) {
		return -1;
	}
	size_t used;
	enum libdeflate_result r = libdeflate_deflate_decompress_ex(d, in, in_n, out, out_n, &used, got);
	libdeflate_free_decompressor(d);
	return (int)r;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

const fast = true

func inflate(dst, src []byte) (int, error) {
	var got C.size_t
	r := C.inflate_whole(unsafe.Pointer(unsafe.SliceData(src)), C.size_t(len(src)),
		unsafe.Pointer(unsafe.SliceData(dst)), C.size_t(len(dst)), &got)
	switch r {
	case C.LIBDEFLATE_SUCCESS:
		return int(got), nil
	case C.LIBDEFLATE_INSUFFICIENT_SPACE:
		return 0, ErrTooLong
	case -1:
		return 0, errors.New("inflate: cannot allocate a decompressor")
	}
	return 0, ErrCorrupt
}
