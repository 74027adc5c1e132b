package upgrade

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotRestore: the modules directory copied aside (files, modes,
// directories, symbolic links) comes back as it was after an install
// changed it; discard leaves the install's.
func TestSnapshotRestore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "modules")
	write(t, filepath.Join(dir, "app", "main.tf"), "old")
	write(t, filepath.Join(dir, "modules.json"), `{"Modules":[]}`)
	if err := os.Chmod(filepath.Join(dir, "app", "main.tf"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("app/main.tf", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	b, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "app", "main.tf"), "new")
	write(t, filepath.Join(dir, "other", "main.tf"), "new")
	if err := b.restore(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "app", "main.tf")); string(got) != "old" {
		t.Errorf("app/main.tf = %q after restore, want %q", got, "old")
	}
	if fi, err := os.Stat(filepath.Join(dir, "app", "main.tf")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("app/main.tf mode = %v, %v; want 0600", fi.Mode(), err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "link")); err != nil || target != "app/main.tf" {
		t.Errorf("link = %q, %v; want app/main.tf", target, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); !os.IsNotExist(err) {
		t.Errorf("other/ survived the restore: %v", err)
	}

	b, err = snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.discard()
	if _, err := os.Stat(b.copy); !os.IsNotExist(err) {
		t.Errorf("the copy %s survived discard: %v", b.copy, err)
	}

	// No modules directory before: restore removes the install's.
	none := filepath.Join(t.TempDir(), "modules")
	b, err = snapshot(none)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(none, "x", "main.tf"), "")
	if err := b.restore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(none); !os.IsNotExist(err) {
		t.Errorf("modules directory after restore of none: %v", err)
	}
}
