package hashes

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

// zipEntry is one entry of a test archive; raw entries are stored as given.
type zipEntry struct {
	name    string
	content string
	raw     bool
}

func buildZip(t testing.TB, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		var err error
		if e.raw {
			var w interface{ Write([]byte) (int, error) }
			w, err = zw.CreateRaw(&zip.FileHeader{
				Name: rawPlaceholder(e.name), Method: zip.Store,
				CompressedSize64: uint64(len(e.content)), UncompressedSize64: uint64(len(e.content)),
			})
			if err == nil {
				_, err = w.Write([]byte(e.content))
			}
		} else {
			var w interface{ Write([]byte) (int, error) }
			w, err = zw.Create(e.name)
			if err == nil && e.content != "" {
				_, err = w.Write([]byte(e.content))
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for _, e := range entries {
		if e.raw {
			data = bytes.ReplaceAll(data, []byte(rawPlaceholder(e.name)), []byte(e.name))
		}
	}
	return data
}

// rawPlaceholder is the name written in place of a raw entry's name (which
// zip.Writer may refuse, as for a directory with data) and patched afterwards.
func rawPlaceholder(name string) string {
	return name[:len(name)-1] + "\x00"
}

// workedExample is the package of hashes.md §4.
var workedExample = []zipEntry{
	{name: "terraform-provider-foo_v1.0.0", content: "hello\n"},
	{name: "sub/README.md", content: "doc\n"},
}

func TestHashZipMatchesDirhash(t *testing.T) {
	tests := []struct {
		name    string
		entries []zipEntry
		want    Hash // checked when not empty
	}{
		{name: "worked example", entries: workedExample, want: "h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY="},
		{name: "worked example with dir entry", entries: append([]zipEntry{{name: "sub/"}}, workedExample...),
			want: "h1:I12X7hOKs/g4HD+XXPT3ZQrqIQKDeGAMMIrQWrjrdUI="},
		{name: "no entries", entries: nil, want: EmptyH1},
		{name: "duplicate names use the last content", entries: []zipEntry{
			{name: "a", content: "first"}, {name: "b", content: "x"}, {name: "a", content: "second"}}},
		{name: "names kept as-is", entries: []zipEntry{
			{name: "./a", content: "1"}, {name: `dir\b`, content: "2"}, {name: "/abs", content: "3"}, {name: "../up", content: "4"}}},
		{name: "dir entry with data", entries: []zipEntry{{name: "d/", content: "data", raw: true}}},
		{name: "dir entry with data among files", entries: []zipEntry{
			{name: "a", content: "x"}, {name: "d/", content: "data", raw: true}}},
		{name: "newline after a bad entry", entries: []zipEntry{
			{name: "a", content: "x"}, {name: "b\nc", content: "y"}}},
		{name: "many files", entries: manyEntries(200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := buildZip(t, tt.entries)
			got, err := HashZip(bytes.NewReader(data), int64(len(data)))
			path := filepath.Join(t.TempDir(), "p.zip")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			lib, libErr := dirhash.HashZip(path, dirhash.Hash1)
			if string(got) != lib || errText(err) != errText(libErr) {
				t.Errorf("HashZip = %q, %v; dirhash.HashZip = %q, %v", got, err, lib, libErr)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("HashZip = %q, want %q", got, tt.want)
			}
		})
	}
}

func manyEntries(n int) []zipEntry {
	out := make([]zipEntry, n)
	for i := range out {
		out[i] = zipEntry{name: filepath.Join("d", string(rune('a'+i%26)), "f"+string(rune('0'+i%10))+string(rune('a'+i/26))), content: string(bytes.Repeat([]byte{byte(i)}, i))}
	}
	return out
}

func TestHashZipNotAZip(t *testing.T) {
	data := []byte("hello\n")
	if _, err := HashZip(bytes.NewReader(data), int64(len(data))); err == nil {
		t.Fatal("HashZip of non-zip bytes succeeded")
	}
}

func TestHashDirErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := HashDir(file)
	if want := file + " is not a directory"; errText(err) != want {
		t.Errorf("HashDir(file) error = %v, want %q", err, want)
	}
	if _, err := HashDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("HashDir(missing) succeeded")
	}
}

func TestHashDirSymlinks(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "pkg")
	mustWrite(t, filepath.Join(pkg, "terraform-provider-foo_v1.0.0"), "hello\n")
	mustWrite(t, filepath.Join(root, "outside", "README.md"), "doc\n")
	if err := os.MkdirAll(filepath.Join(pkg, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A symlink to a file hashes as the target's content.
	if err := os.Symlink(filepath.Join(root, "outside", "README.md"), filepath.Join(pkg, "sub", "README.md")); err != nil {
		t.Skipf("symlinks not available: %v", err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(pkg, link); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{pkg, link} {
		got, err := HashDir(dir)
		if want := Hash("h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY="); err != nil || got != want {
			t.Errorf("HashDir(%s) = %q, %v; want %q", dir, got, err, want)
		}
	}
	// A symlink to a directory is a file whose read fails.
	if err := os.Symlink(filepath.Join(root, "outside"), filepath.Join(pkg, "dirlink")); err != nil {
		t.Fatal(err)
	}
	if _, err := HashDir(pkg); err == nil {
		t.Error("HashDir with a symlink to a directory succeeded")
	}
}

// declaredSize returns the total uncompressed size the archive's central
// directory declares (archive/zip refuses to read past it), 0 if unreadable.
func declaredSize(data []byte) uint64 {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if zr == nil || (err != nil && !errors.Is(err, zip.ErrInsecurePath)) {
		return 0
	}
	var total uint64
	for _, f := range zr.File {
		total += min(f.UncompressedSize64, 1<<40)
	}
	return total
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzHashZip checks that HashZip never panics and agrees with dirhash on
// arbitrary archive bytes.
func FuzzHashZip(f *testing.F) {
	f.Add(buildZip(f, workedExample))
	f.Add(buildZip(f, append([]zipEntry{{name: "sub/"}}, workedExample...)))
	f.Add(buildZip(f, []zipEntry{{name: "a", content: "1"}, {name: "a", content: "2"}}))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		if declaredSize(data) > 1<<20 {
			t.Skip("declares more than 1 MiB of content; hashing it is merely slow")
		}
		got, err := HashZip(bytes.NewReader(data), int64(len(data)))
		path := filepath.Join(t.TempDir(), "p.zip")
		if werr := os.WriteFile(path, data, 0o644); werr != nil {
			t.Fatal(werr)
		}
		lib, libErr := dirhash.HashZip(path, dirhash.Hash1)
		if (err == nil) != (libErr == nil) || string(got) != lib {
			t.Errorf("HashZip = %q, %v; dirhash.HashZip = %q, %v", got, err, lib, libErr)
		}
	})
}
