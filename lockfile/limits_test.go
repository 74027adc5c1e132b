package lockfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

func TestReadRefusesDeepNesting(t *testing.T) {
	const n = 80000
	tests := []struct {
		name string
		src  string
		want hcl.Pos
	}{
		{"hashes list", "provider \"registry.opentofu.org/a/b\" {\n  version = \"1.0.0\"\n  hashes = " +
			strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n",
			// The 1,000th bracket is level 1,001: the block is level 1.
			hcl.Pos{Line: 3, Column: 12 + 999, Byte: 70 + 999}},
		{"objects", "provider \"registry.opentofu.org/a/b\" {\n  version = " +
			strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n}\n",
			hcl.Pos{Line: 2, Column: 13 + 3*999, Byte: 51 + 3*999}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locks, file, diags := Read([]byte(tt.src), "x.hcl", ReadOptions{})
			if len(diags) != 1 || diags[0].Summary != "Nesting too deep" {
				t.Fatalf("diagnostics = %v, want one nesting error", diags)
			}
			if diff := cmp.Diff(tt.want, diags[0].Subject.Start); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
			if locks.Len() != 0 || file == nil || string(file.Bytes) != tt.src {
				t.Errorf("locks %d, file %v", locks.Len(), file)
			}
		})
	}
}

func TestReadFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".terraform.lock.hcl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the size counts, not the content.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, file, diags := ReadFile(path, ReadOptions{})
	want := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Dependency lock file too large",
		Detail:   fmt.Sprintf("The dependency lock file %q is larger than 8 MiB, the most tfdeps reads. A lock file of this size was not written by OpenTofu or tfdeps.", path),
	}}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if file != nil {
		t.Errorf("file = %v, want nil", file)
	}

	// Exactly at the limit the file is read: a lock file padded with
	// spaces.
	src := []byte("provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n}\n")
	n := len(src)
	src = append(src, make([]byte, MaxFileSize-n)...)
	for i := n; i < len(src); i++ {
		src[i] = ' '
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	locks, _, diags := ReadFile(path, ReadOptions{})
	if len(diags) != 0 || locks.Len() != 1 {
		t.Errorf("a file of exactly MaxFileSize bytes: %d locks, diagnostics %v", locks.Len(), diags)
	}
}

func TestRemoveStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, ".terraform.lock.hcl")
	old := time.Now().Add(-time.Hour)
	files := []struct {
		name  string
		old   bool
		stale bool
	}{
		// A process id above any pid_max: that process does not run.
		{".terraform.lock.hcl.tfdeps-2147483646-0a1b2c.tmp", false, true},
		{fmt.Sprintf(".terraform.lock.hcl.tfdeps-%d-0a1b2c.tmp", os.Getpid()), false, false},
		{fmt.Sprintf(".terraform.lock.hcl.tfdeps-%d-0a1b2c.tmp", os.Getpid()), true, true},
		{"..terraform.lock.hcl.tmp123456", true, true},
		{"..terraform.lock.hcl.tmp123456", false, false},
		{"..terraform.lock.hcl.tmpabc", true, false},
		{".terraform.lock.hcl.tfdeps-x-0a1b2c.tmp", true, false},
		{".terraform.lock.hcl.tfdeps-2147483646-.tmp", true, false},
		{"other.tfdeps-2147483646-0a1b2c.tmp", true, false},
		{".terraform.lock.hcl", true, false},
		{"main.tf", true, false},
	}
	for i, f := range files {
		t.Run(fmt.Sprintf("%d %s old=%v", i, f.name, f.old), func(t *testing.T) {
			for _, e := range mustReadDir(t, dir) {
				os.Remove(filepath.Join(dir, e))
			}
			path := filepath.Join(dir, f.name)
			if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			if f.old {
				if err := os.Chtimes(path, old, old); err != nil {
					t.Fatal(err)
				}
			}
			removed := RemoveStaleTempFiles(lock)
			var want []string
			if f.stale {
				want = []string{f.name}
			}
			if diff := cmp.Diff(want, removed); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
			}
			_, err := os.Stat(path)
			if exists := err == nil; exists == f.stale {
				t.Errorf("file exists = %v after cleanup, stale = %v", exists, f.stale)
			}
		})
	}
}

// TestWriteFileRemovesStaleTemps: the temporary file of a killed run is
// gone after the next write, which leaves no temporary file of its own.
func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, ".terraform.lock.hcl")
	stale := filepath.Join(dir, ".terraform.lock.hcl.tfdeps-2147483646-ffffff.tmp")
	if err := os.WriteFile(stale, []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := New()
	l.SetProvider(addrs.NewDefaultProvider("null"), mustVersion(t, "3.2.1"), nil, nil)
	if diags := WriteFile(lock, l, OpenTofu); diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{".terraform.lock.hcl"}, mustReadDir(t, dir)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}
