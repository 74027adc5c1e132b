//go:build cgo

// Compiles libdeflate's lib/utils.c into package inflate (see inflate_cgo.go).
#include "libdeflate/lib/utils.c"
