//go:build cgo

// Compiles libdeflate's lib/arm/cpu_features.c into package inflate (see inflate_cgo.go).
#include "libdeflate/lib/arm/cpu_features.c"
