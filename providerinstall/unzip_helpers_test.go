package providerinstall

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// zipEntry describes one entry of a test archive.
type zipEntry struct {
	name    string
	content string
	mode    fs.FileMode // 0 means 0644 (or 0755 for a directory)
	store   bool        // store instead of deflate
}

// buildZip returns the bytes of an archive holding entries, in order.
func buildZip(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.store {
			h.Method = zip.Store
		}
		mode := e.mode
		if mode == 0 {
			mode = 0o644
			if strings.HasSuffix(e.name, "/") {
				mode = fs.ModeDir | 0o755
			}
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeZip writes an archive of entries to a file in a new temporary
// directory and returns its path.
func writeZip(t testing.TB, entries ...zipEntry) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "package.zip")
	if err := os.WriteFile(p, buildZip(t, entries...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// treeListing describes every entry below root: "path mode" for files and
// directories, "path -> target" for symlinks, sorted.
func treeListing(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out = append(out, filepath.ToSlash(rel)+" -> "+target)
			return nil
		}
		out = append(out, filepath.ToSlash(rel)+" "+info.Mode().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
