//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// TestReadSpecialFiles: a FIFO among the configuration, test or variables
// files is an error naming it, read through either file system, without
// waiting for a writer; a link to a regular file is read. A FIFO in place
// of a directory is refused too.
func TestReadSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("real.txt", "locals {\n  a = 1\n}\n")
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.tf")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "tests"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pipe.tf", "tests/pipe.tftest.hcl", "terraform.tfvars"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fifoDetail := func(subject string) string {
		return subject + " is a named pipe (FIFO), not a regular file. tfdeps reads only regular files (or symbolic links to them), so that it never waits on a pipe or device."
	}
	for name, fsys := range map[string]FileSystem{"os": OSFileSystem{Root: dir}, "fs": FS(os.DirFS(dir))} {
		t.Run(name, func(t *testing.T) {
			if src, err := fsys.ReadFile("link.tf"); err != nil || string(src) != "locals {\n  a = 1\n}\n" {
				t.Errorf("ReadFile(link.tf) = %q, %v", src, err)
			}
			_, err := fsys.ReadFile("pipe.tf")
			want := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read file", Detail: fifoDetail(`The file "pipe.tf"`)}
			if diff := cmp.Diff(want, readFailure("pipe.tf", err)); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s", diff)
			}
			var notRegular *regfile.NotRegularError
			if _, err := fsys.ReadDir("pipe.tf"); !errors.As(err, &notRegular) {
				t.Errorf("ReadDir(pipe.tf) error = %v, want a *regfile.NotRegularError", err)
			}
			if entries, err := fsys.ReadDir("."); err != nil || len(entries) != 5 || entries[0].Name() != "link.tf" {
				t.Errorf("ReadDir(.) = %v, %v", entries, err)
			}
			_, diags := CollectInputValues(VarSources{FS: fsys, Dir: "."})
			if len(diags) != 1 || diags[0].Summary != "Failed to read variables file" || diags[0].Detail != fifoDetail("The variables file terraform.tfvars") {
				t.Errorf("CollectInputValues diagnostics = %v", diags)
			}
		})
	}
	_, diags := LoadDir(dir, WithTestsDir("tests"))
	var details []string
	for _, d := range diags {
		details = append(details, d.Detail)
	}
	want := []string{fifoDetail(`The file "` + filepath.Join(dir, "pipe.tf") + `"`), fifoDetail(`The file "` + filepath.Join(dir, "tests", "pipe.tftest.hcl") + `"`)}
	if diff := cmp.Diff(want, details); diff != "" {
		t.Errorf("LoadDir diagnostics (-want +got):\n%s", diff)
	}
}
