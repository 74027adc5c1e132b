//go:build cgo

// Compiles libdeflate's lib/deflate_decompress.c into package inflate (see inflate_cgo.go).
#include "libdeflate/lib/deflate_decompress.c"
