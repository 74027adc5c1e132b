//go:build cgo

// Compiles libdeflate's lib/x86/cpu_features.c into package inflate (see inflate_cgo.go).
#include "libdeflate/lib/x86/cpu_features.c"
