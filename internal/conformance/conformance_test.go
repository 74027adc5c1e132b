package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirFindsSharedData(t *testing.T) {
	dir := Dir(t, "config")
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("Dir(config) = %s, which has no README.md: %v", dir, err)
	}
}

func TestDirSkipsWhenAbsent(t *testing.T) {
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Dir(t, "no-such-folder-here")
		t.Error("Dir returned for a folder that does not exist")
	})
	if !skipped {
		t.Error("Dir did not skip for a missing folder")
	}
}
