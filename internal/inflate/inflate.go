package inflate

import "errors"

// Fast reports whether Inflate is libdeflate's (built with cgo).
const Fast = fast

// ErrCorrupt is returned for a stream that is not valid DEFLATE data or
// ends before its last block.
var ErrCorrupt = errors.New("inflate: invalid or truncated DEFLATE data")

// ErrTooLong is returned when the stream inflates to more than len(dst)
// bytes.
var ErrTooLong = errors.New("inflate: output larger than the buffer")

// Inflate decompresses the DEFLATE stream at the start of src into dst and
// returns the number of bytes written. Bytes of src after the stream's last
// block are ignored, as a streaming decoder ignores them. The content of
// dst past the returned count, and all of it on error, is unspecified.
func Inflate(dst, src []byte) (int, error) { return inflate(dst, src) }
