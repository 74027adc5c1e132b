//go:build unix

package regfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpen: regular files and links to them open and read; named pipes
// (also through a link), devices and sockets are refused at once with
// their kind, and nothing blocks (a FIFO without a writer would).
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	join := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(join("main.tf"), []byte("locals {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink("main.tf", join("link.tf")))
	must(t, syscall.Mkfifo(join("fifo.tf"), 0o600))
	must(t, os.Symlink("fifo.tf", join("fifolink.tf")))
	must(t, os.Mkdir(join("dir.tf"), 0o700))
	// A socket path must be short: make it relative to the directory.
	t.Chdir(dir)
	l, err := net.Listen("unix", "sock.tf")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	tests := []struct {
		path     string
		content  string // for files that read
		kind     string // for a *NotRegularError
		notExist bool
		readErr  bool // opens, but reading fails (a directory)
	}{
		{path: join("main.tf"), content: "locals {}\n"},
		{path: join("link.tf"), content: "locals {}\n"},
		{path: join("fifo.tf"), kind: "a named pipe (FIFO)"},
		{path: join("fifolink.tf"), kind: "a named pipe (FIFO)"},
		{path: "sock.tf", kind: "a socket"},
		{path: os.DevNull, kind: "a device"},
		{path: join("dir.tf"), readErr: true},
		{path: join("missing.tf"), notExist: true},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			got, err := ReadFile(tt.path)
			var notRegular *NotRegularError
			switch {
			case tt.kind != "":
				if !errors.As(err, &notRegular) {
					t.Fatalf("ReadFile error = %v, want a *NotRegularError", err)
				}
				if notRegular.Path != tt.path || notRegular.Kind() != tt.kind {
					t.Errorf("error names %q as %q, want %q as %q", notRegular.Path, notRegular.Kind(), tt.path, tt.kind)
				}
				if want := tt.path + " is " + tt.kind + ", not a regular file"; err.Error() != want {
					t.Errorf("Error() = %q, want %q", err, want)
				}
			case tt.notExist:
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("ReadFile error = %v, want one that is fs.ErrNotExist", err)
				}
			case tt.readErr:
				if err == nil || errors.As(err, &notRegular) {
					t.Errorf("ReadFile error = %v, want a read error", err)
				}
			default:
				if err != nil || string(got) != tt.content {
					t.Errorf("ReadFile = %q, %v; want %q", got, err, tt.content)
				}
			}
			if tt.kind != "" {
				if err := Stat(os.DirFS(filepath.Dir(tt.path)), filepath.Base(tt.path)); !errors.As(err, &notRegular) {
					t.Errorf("Stat error = %v, want a *NotRegularError", err)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
