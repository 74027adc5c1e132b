package providerinstall

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/hashes"
)

func TestExtractRefusals(t *testing.T) {
	tests := []struct {
		name    string
		entries []zipEntry
		opts    ExtractOptions
		problem ArchiveProblem
		wantErr string
	}{
		{
			name:    "empty archive",
			problem: ProblemEmpty,
			wantErr: "empty archive: <zip>",
		},
		{
			name:    "zip slip",
			entries: []zipEntry{{name: "ok", content: "x"}, {name: "a/../../evil", content: "x"}},
			problem: ProblemDotDot,
			wantErr: "entry contains '..': a/../../evil",
		},
		{
			name:    "dot dot inside package",
			entries: []zipEntry{{name: "a/../b", content: "x"}},
			problem: ProblemDotDot,
			wantErr: "entry contains '..': a/../b",
		},
		{
			name:    "backslash dot dot",
			entries: []zipEntry{{name: `..\evil`, content: "x"}},
			problem: ProblemDotDot,
			wantErr: `entry contains '..': ..\evil`,
		},
		{
			name:    "absolute path",
			entries: []zipEntry{{name: "/etc/evil", content: "x"}},
			problem: ProblemAbsolute,
			wantErr: "entry has an absolute path: /etc/evil",
		},
		{
			name:    "windows drive path",
			entries: []zipEntry{{name: `C:\evil`, content: "x"}},
			problem: ProblemAbsolute,
			wantErr: `entry has an absolute path: C:\evil`,
		},
		{
			name:    "symlink to absolute path",
			entries: []zipEntry{{name: "link", content: "/etc/passwd", mode: fs.ModeSymlink | 0o777}},
			problem: ProblemLinkOutside,
			wantErr: "entry is a symbolic link pointing outside the package: link -> /etc/passwd",
		},
		{
			name:    "symlink climbing out",
			entries: []zipEntry{{name: "sub/link", content: "../../x", mode: fs.ModeSymlink | 0o777}},
			problem: ProblemLinkOutside,
			wantErr: "entry is a symbolic link pointing outside the package: sub/link -> ../../x",
		},
		{
			name:    "symlink climbing out and back",
			entries: []zipEntry{{name: "link", content: "../pkg/x", mode: fs.ModeSymlink | 0o777}},
			problem: ProblemLinkOutside,
			wantErr: "entry is a symbolic link pointing outside the package: link -> ../pkg/x",
		},
		{
			name:    "too many entries",
			entries: []zipEntry{{name: "a"}, {name: "b"}, {name: "c"}},
			opts:    ExtractOptions{MaxEntries: 2},
			problem: ProblemTooManyEntries,
			wantErr: "archive <zip> has more than 2 entries",
		},
		{
			name:    "too large",
			entries: []zipEntry{{name: "a", content: strings.Repeat("x", 600)}, {name: "b", content: strings.Repeat("y", 600)}},
			opts:    ExtractOptions{MaxBytes: 1000},
			problem: ProblemTooLarge,
			wantErr: "archive <zip> unpacks to more than 1000 bytes",
		},
		{
			name:    "file named dot",
			entries: []zipEntry{{name: "./", content: ""}, {name: ".", content: "x"}},
			problem: ProblemBadName,
			wantErr: `entry name is not a valid file name: "."`,
		},
		{
			name:    "newline in file name",
			entries: []zipEntry{{name: "ok", content: "x"}, {name: "bad\nname", content: "x"}},
			wantErr: "dirhash: filenames with newlines are not supported",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zipPath := writeZip(t, tt.entries...)
			parent := t.TempDir()
			target := filepath.Join(parent, "linux_amd64")
			_, err := ExtractFile(context.Background(), zipPath, target, tt.opts)
			if err == nil {
				t.Fatal("ExtractFile succeeded, want an error")
			}
			got := strings.ReplaceAll(err.Error(), zipPath, "<zip>")
			if got != tt.wantErr {
				t.Errorf("error = %q, want %q", got, tt.wantErr)
			}
			var ae *ArchiveError
			if tt.problem != 0 && (!errors.As(err, &ae) || ae.Problem != tt.problem) {
				t.Errorf("error %v is not an ArchiveError with problem %d", err, tt.problem)
			}
			if diff := cmp.Diff([]string(nil), treeListing(t, parent)); diff != "" {
				t.Errorf("files left behind (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractKeepsModesAndHashes(t *testing.T) {
	zipPath := writeZip(t,
		zipEntry{name: "terraform-provider-foo_v1.0.0", content: "binary", mode: 0o755},
		zipEntry{name: "scripts/", mode: fs.ModeDir | 0o700},
		zipEntry{name: "scripts/run.sh", content: "#!/bin/sh\n", mode: 0o750},
		zipEntry{name: "private", content: "p", mode: 0o600, store: true},
		zipEntry{name: "setuid", content: "s", mode: fs.ModeSetuid | 0o755},
		zipEntry{name: "deep/er/file.txt", content: "d", mode: 0o444},
		zipEntry{name: "dup", content: "first"},
		zipEntry{name: "./dup", content: "second", mode: 0o640},
		zipEntry{name: "sub/link", content: "../private", mode: fs.ModeSymlink | 0o777},
	)
	target := filepath.Join(t.TempDir(), "pkg", "linux_amd64")
	got, err := ExtractFile(context.Background(), zipPath, target, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := hashes.HashDir(target)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("h1 from extraction = %s, HashDir = %s", got, want)
	}
	wantTree := []string{
		"deep drwxr-xr-x",
		"deep/er drwxr-xr-x",
		"deep/er/file.txt -r--r--r--",
		"dup -rw-r-----",
		"private -rw-------",
		"scripts drwxr-xr-x",
		"scripts/run.sh -rwxr-x---",
		"setuid -rwxr-xr-x",
		"sub drwxr-xr-x",
		"sub/link -rwxrwxrwx",
		"terraform-provider-foo_v1.0.0 -rwxr-xr-x",
	}
	if diff := cmp.Diff(wantTree, treeListing(t, target)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	for name, want := range map[string]string{"dup": "second", "sub/link": "../private"} {
		b, err := os.ReadFile(filepath.Join(target, name))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

func TestExtractTargetState(t *testing.T) {
	zipPath := writeZip(t, zipEntry{name: "terraform-provider-foo", content: "x"})
	tests := []struct {
		name    string
		prepare func(t *testing.T, target string)
		wantErr error
	}{
		{name: "absent", prepare: func(t *testing.T, target string) {}},
		{name: "empty directory", prepare: func(t *testing.T, target string) {
			mustMkdir(t, target)
		}},
		{name: "non-empty directory", wantErr: ErrPackageExists, prepare: func(t *testing.T, target string) {
			mustMkdir(t, target)
			mustWrite(t, filepath.Join(target, "other"), "y")
		}},
		{name: "symlink", wantErr: ErrPackageExists, prepare: func(t *testing.T, target string) {
			mustMkdir(t, filepath.Dir(target))
			if err := os.Symlink(t.TempDir(), target); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "v", "linux_amd64")
			tt.prepare(t, target)
			_, err := ExtractFile(context.Background(), zipPath, target, ExtractOptions{})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			entries, _ := os.ReadDir(filepath.Dir(target))
			for _, e := range entries {
				if strings.Contains(e.Name(), stagingMarker) {
					t.Errorf("staging directory %s left behind", e.Name())
				}
			}
		})
	}
}

// cancellingReader cancels a context once more than after bytes were read.
type cancellingReader struct {
	r      *bytes.Reader
	after  int64
	read   int64
	cancel context.CancelFunc
}

func (c *cancellingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.read += int64(n)
	if c.read > c.after {
		c.cancel()
	}
	return n, err
}

func TestExtractCancellationCleansUp(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	data := buildZip(t,
		zipEntry{name: "a", content: string(big), store: true},
		zipEntry{name: "b", content: string(big), store: true},
	)
	for _, after := range []int64{0, 100, 1 << 20, 3 << 19} {
		ctx, cancel := context.WithCancel(context.Background())
		r := &cancellingReader{r: bytes.NewReader(data), after: after, cancel: cancel}
		parent := t.TempDir()
		_, err := Extract(ctx, r, int64(len(data)), "pkg.zip", filepath.Join(parent, "linux_amd64"), ExtractOptions{})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("after %d bytes: error = %v, want context.Canceled", after, err)
		}
		if diff := cmp.Diff([]string(nil), treeListing(t, parent)); diff != "" {
			t.Errorf("after %d bytes: files left behind (-want +got):\n%s", after, diff)
		}
	}
}

func TestExtractCorruptArchive(t *testing.T) {
	data := buildZip(t, zipEntry{name: "a", content: strings.Repeat("hello ", 1000)})
	// Flip bytes inside the compressed data of the only entry.
	data[60] ^= 0xff
	data[61] ^= 0xff
	parent := t.TempDir()
	_, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)), "x.zip", filepath.Join(parent, "linux_amd64"), ExtractOptions{})
	if err == nil {
		t.Fatal("Extract of a corrupt archive succeeded")
	}
	if diff := cmp.Diff([]string(nil), treeListing(t, parent)); diff != "" {
		t.Errorf("files left behind (-want +got):\n%s", diff)
	}
}

func mustMkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t testing.TB, name, content string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(name))
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
