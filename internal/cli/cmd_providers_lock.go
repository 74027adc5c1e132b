package cli

import "fmt"

// runProvidersLock is not built yet; its issue replaces this file.
func runProvidersLock(m *Meta, args []string) int {
	fmt.Fprintln(m.Stderr, "Error: this command is not implemented yet")
	return 1
}
