package providerinstall

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/hashes"
)

// FuzzExtract feeds arbitrary bytes to Extract. Whatever the input, it
// must not panic, must not write anything outside the target directory,
// must leave nothing behind when it fails, and when it succeeds the target
// must hold no symlink and hash to the "h1:" Extract returned.
//
// Seeds: testdata/fuzz/FuzzExtract (valid packages, every refused kind of
// entry, directory entries, duplicates) plus those added below.
func FuzzExtract(f *testing.F) {
	f.Add(buildZip(f, zipEntry{name: "terraform-provider-foo", content: "bin", mode: 0o755}))
	f.Add(buildZip(f, zipEntry{name: "a/../../x", content: "x"}))
	f.Add(buildZip(f, zipEntry{name: "l", content: "../x", mode: fs.ModeSymlink | 0o777}))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		parent := filepath.Join(root, "a", "b")
		target := filepath.Join(parent, "linux_amd64")
		mustMkdir(t, parent)
		opts := ExtractOptions{MaxEntries: 64, MaxBytes: 1 << 20}
		h1, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)), "fuzz.zip", target, opts)
		checkOnlyChild(t, root, "a")
		checkOnlyChild(t, filepath.Join(root, "a"), "b")
		hashed, hashErr := hashArchiveBytes(t, data, opts)
		if err != nil {
			checkOnlyChild(t, parent, "")
			if hashErr == nil {
				t.Fatalf("Extract failed (%v) but HashArchiveFile succeeded", err)
			}
			return
		}
		checkOnlyChild(t, parent, "linux_amd64")
		checkNoSymlinks(t, target)
		if got, err := hashes.HashDir(target); err != nil || got != h1 {
			t.Fatalf("HashDir = %s, %v; Extract returned %s", got, err, h1)
		}
		checkHashedAgrees(t, hashed, hashErr, h1, target)
	})
}

// checkOnlyChild fails unless dir holds exactly the entry name (or nothing
// when name is empty).
func checkOnlyChild(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if name == "" && len(names) == 0 || len(names) == 1 && names[0] == name {
		return
	}
	t.Fatalf("%s holds %q, want only %q", dir, names, name)
}

func checkNoSymlinks(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			t.Errorf("extraction created a symlink: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hashArchiveBytes runs HashArchiveFile on data written to a file.
func hashArchiveBytes(t *testing.T, data []byte, opts ExtractOptions) (HashedArchive, error) {
	t.Helper()
	zipPath := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(zipPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return HashArchiveFile(context.Background(), zipPath, opts)
}

// checkHashedAgrees fails unless HashArchiveFile gave what extracting into
// dir gave: the same h1: and the same executable for a few types.
func checkHashedAgrees(t *testing.T, hashed HashedArchive, hashErr error, h1 hashes.Hash, dir string) {
	t.Helper()
	if hashErr != nil {
		t.Fatalf("Extract succeeded but HashArchiveFile failed: %v", hashErr)
	}
	if hashed.H1 != h1 {
		t.Fatalf("HashArchiveFile h1 = %s, extraction gave %s", hashed.H1, h1)
	}
	for _, typ := range []string{"foo", "aws", ""} {
		want, wantErr := FindExecutable(dir, typ)
		got, gotErr := hashed.Executable(typ)
		if (wantErr == nil) != (gotErr == nil) || wantErr == nil && filepath.Base(want) != got {
			t.Fatalf("executable for %q: hashed %q, %v; extracted %q, %v", typ, got, gotErr, want, wantErr)
		}
	}
}
