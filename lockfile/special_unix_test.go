//go:build unix

package lockfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestReadFileSpecial: a lock file that is a FIFO (or a link to a device)
// is an error naming it, found without waiting for a writer.
func TestReadFileSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".terraform.lock.hcl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(dir, "device.hcl")
	if err := os.Symlink(os.DevNull, device); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe (FIFO)", device: "a device"} {
		_, _, diags := ReadFile(path, ReadOptions{})
		want := hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   `The dependency lock file "` + path + `" is ` + kind + ", not a regular file. tfdeps reads only regular files (or symbolic links to them), so that it never waits on a pipe or device.",
		}}
		if diff := cmp.Diff(want, diags); diff != "" {
			t.Errorf("ReadFile(%s) diagnostics (-want +got):\n%s", path, diff)
		}
	}
}
