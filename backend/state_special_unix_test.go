//go:build unix

package backend

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// A named pipe where the saved backend belongs is refused at once, never
// waited on.
func TestReadStateRefusesNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, StateFileName), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := ReadState(dir)
	var notRegular *regfile.NotRegularError
	if !errors.As(err, &notRegular) {
		t.Fatalf("ReadState on a named pipe: got %v, want a *regfile.NotRegularError", err)
	}
}
