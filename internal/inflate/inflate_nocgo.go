//go:build !cgo

package inflate

import (
	"bytes"
	"errors"
	"io"

	"github.com/klauspost/compress/flate"
)

const fast = false

func inflate(dst, src []byte) (int, error) {
	r := flate.NewReader(bytes.NewReader(src))
	defer r.Close()
	n := 0
	for {
		var err error
		if n < len(dst) {
			var m int
			m, err = r.Read(dst[n:])
			n += m
		} else {
			// dst is full: the stream must end here.
			var one [1]byte
			var m int
			if m, err = r.Read(one[:]); m > 0 {
				return 0, ErrTooLong
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			return n, nil
		case err != nil:
			// Truncated input is io.ErrUnexpectedEOF.
			return 0, ErrCorrupt
		}
	}
}
