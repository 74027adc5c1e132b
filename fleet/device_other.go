//go:build !unix

package fleet

// device is unknown here: the run's directory stays in the temporary
// directory.
func device(string) (uint64, bool) { return 0, false }
