package cli

import "fmt"

// runLockVerify is not built yet; its issue replaces this file.
func runLockVerify(m *Meta, args []string) int {
	fmt.Fprintln(m.Stderr, "Error: this command is not implemented yet")
	return 1
}
