// Package inflate decompresses a raw DEFLATE stream (RFC 1951) held whole in
// memory into a buffer of known size: the content of a zip entry whose
// sizes the central directory gives.
//
// Built with cgo, it uses the decompressor of libdeflate
// (https://github.com/ebiggers/libdeflate, v1.25, MIT licence, the files
// needed for decompression kept unchanged in libdeflate/), which inflates
// provider-like content with about 2.5 times less CPU than the fastest
// streaming Go decoder (github.com/klauspost/compress/flate): 0.10 against
// 0.27 CPU-s for a 150 MB executable deflated 3:1. Decompressing whole is
// what makes it fast; the price is a buffer of the whole output.
//
// Without cgo (CGO_ENABLED=0, cross-compiled builds) Inflate decodes with
// klauspost/compress/flate into the same buffer; Fast is then false, and a
// caller that can stream should stream instead (no whole-size buffer).
//
// The package owns no zip handling: sizes, CRC-32 and limits are the
// caller's (providerinstall's unzip).
package inflate
