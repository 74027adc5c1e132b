package providerinstall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/hashes"
)

func TestInstallZip(t *testing.T) {
	files := []zipEntry{
		{name: "terraform-provider-foo_v1.0.0", content: "hello\n", mode: 0o755},
		{name: "sub/README.md", content: "doc\n"},
	}
	const wantH1 = hashes.Hash("h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=")
	plain := writeZip(t, files...)
	withDirEntry := writeZip(t, append([]zipEntry{{name: "sub/"}}, files...)...)
	tests := []struct {
		name     string
		zip      string
		prepare  func(t *testing.T, dir string)
		wantKept bool
		wantErr  string
	}{
		{name: "absent", zip: plain},
		{name: "empty directory", zip: plain, prepare: func(t *testing.T, dir string) { mustMkdir(t, dir) }},
		{name: "same content kept", zip: plain, wantKept: true, prepare: func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "terraform-provider-foo_v1.0.0"), "hello\n")
			mustWrite(t, filepath.Join(dir, "sub", "README.md"), "doc\n")
		}},
		{name: "modified content", zip: plain, wantErr: "existing cached package at <dir> does not match the content of the downloaded package; does it contain local modifications?", prepare: func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "terraform-provider-foo_v1.0.0"), "patched\n")
		}},
		{name: "directory entries never match an extracted copy", zip: withDirEntry, wantErr: "existing cached package at <dir> does not match the content of the downloaded package; does it contain local modifications?", prepare: func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "terraform-provider-foo_v1.0.0"), "hello\n")
			mustWrite(t, filepath.Join(dir, "sub", "README.md"), "doc\n")
		}},
		{name: "dangling symlink", zip: plain, wantErr: "failed to calculate checksum for existing cached provider package at <dir>: ", prepare: func(t *testing.T, dir string) {
			mustMkdir(t, filepath.Dir(dir))
			if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), dir); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "1.0.0", "linux_amd64")
			if tt.prepare != nil {
				tt.prepare(t, dir)
			}
			got, kept, err := InstallZip(context.Background(), tt.zip, dir, ExtractOptions{})
			if tt.wantErr != "" {
				want := strings.ReplaceAll(tt.wantErr, "<dir>", dir)
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("error = %v, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != wantH1 || kept != tt.wantKept {
				t.Errorf("InstallZip = %s, kept %v; want %s, kept %v", got, kept, wantH1, tt.wantKept)
			}
			if onDisk, _ := hashes.HashDir(dir); onDisk != wantH1 {
				t.Errorf("HashDir after install = %s, want %s", onDisk, wantH1)
			}
		})
	}
}

func TestInstallZipUnhashableArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "linux_amd64")
	mustWrite(t, filepath.Join(dir, "x"), "x")
	zipPath := writeZip(t, zipEntry{name: "bad\nname", content: "x"})
	_, _, err := InstallZip(context.Background(), zipPath, dir, ExtractOptions{})
	want := "failed to calculate checksum for temporary copy of provider package at " + zipPath + ": dirhash: filenames with newlines are not supported"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
