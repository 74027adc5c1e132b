package hashes

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

type packageCase struct {
	ZH               Hash    `json:"zh"`
	ZipH1            *Hash   `json:"zip_h1"`
	ZipH1Error       string  `json:"zip_h1_error"`
	Dir              *string `json:"dir"`
	DirH1            Hash    `json:"dir_h1"`
	ExtractedH1      *Hash   `json:"extracted_h1"`
	ExtractError     string  `json:"extract_error"`
	ExtractedH1Error string  `json:"extracted_h1_error"`
}

// loadPackageCases returns the cases keyed by package directory.
func loadPackageCases(t *testing.T) map[string]packageCase {
	t.Helper()
	root := conformance.Dir(t, "hashes")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]packageCase{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(root, e.Name(), "expected.json"))
		if err != nil {
			t.Fatal(err)
		}
		var c packageCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		cases[filepath.Join(root, e.Name())] = c
	}
	if len(cases) == 0 {
		t.Fatal("no conformance packages found")
	}
	return cases
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestConformanceZipH1(t *testing.T) {
	cases := loadPackageCases(t)
	for _, dir := range slices.Sorted(maps.Keys(cases)) {
		c := cases[dir]
		t.Run(filepath.Base(dir), func(t *testing.T) {
			zipPath := filepath.Join(dir, "package.zip")
			got, err := HashZipFile(zipPath)
			lib, libErr := dirhash.HashZip(zipPath, dirhash.Hash1)
			if errText(err) != errText(libErr) || string(got) != lib {
				t.Errorf("HashZipFile = %q, %v; dirhash.HashZip = %q, %v", got, err, lib, libErr)
			}
			if c.ZipH1 == nil {
				if errText(err) != c.ZipH1Error {
					t.Errorf("HashZipFile error = %v, want %q", err, c.ZipH1Error)
				}
				return
			}
			if err != nil || got != *c.ZipH1 {
				t.Errorf("HashZipFile = %q, %v; want %q", got, err, *c.ZipH1)
			}
		})
	}
}

func TestConformanceZH(t *testing.T) {
	cases := loadPackageCases(t)
	for _, dir := range slices.Sorted(maps.Keys(cases)) {
		c := cases[dir]
		t.Run(filepath.Base(dir), func(t *testing.T) {
			zipPath := filepath.Join(dir, "package.zip")
			got, err := ZipHashFile(zipPath)
			if err != nil || got != c.ZH {
				t.Errorf("ZipHashFile = %q, %v; want %q", got, err, c.ZH)
			}
			raw, err := os.ReadFile(zipPath)
			if err != nil {
				t.Fatal(err)
			}
			w := NewZipHasher()
			for chunk := range slices.Chunk(raw, 7) {
				w.Write(chunk)
			}
			if got := w.Sum(); got != c.ZH {
				t.Errorf("ZipHasher = %q, want %q", got, c.ZH)
			}
		})
	}
}

func TestConformanceDirH1(t *testing.T) {
	cases := loadPackageCases(t)
	for _, dir := range slices.Sorted(maps.Keys(cases)) {
		c := cases[dir]
		if c.Dir == nil {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got, err := HashDir(filepath.Join(dir, *c.Dir))
			if err != nil || got != c.DirH1 {
				t.Errorf("HashDir = %q, %v; want %q", got, err, c.DirH1)
			}
		})
	}
}

func TestConformanceExtractedH1(t *testing.T) {
	cases := loadPackageCases(t)
	for _, dir := range slices.Sorted(maps.Keys(cases)) {
		c := cases[dir]
		t.Run(filepath.Base(dir), func(t *testing.T) {
			target := t.TempDir()
			err := unzipForTest(filepath.Join(dir, "package.zip"), target)
			if c.ExtractError != "" {
				if err == nil || !strings.HasPrefix(c.ExtractError, err.Error()) {
					t.Errorf("unzip error = %v, want %q", err, c.ExtractError)
				}
				return
			}
			if err != nil {
				t.Fatalf("unzip: %v", err)
			}
			got, err := HashDir(target)
			if c.ExtractedH1 == nil {
				if errText(err) != c.ExtractedH1Error {
					t.Errorf("HashDir error = %v, want %q", err, c.ExtractedH1Error)
				}
				return
			}
			if err != nil || got != *c.ExtractedH1 {
				t.Errorf("HashDir = %q, %v; want %q", got, err, *c.ExtractedH1)
			}
		})
	}
}

// unzipForTest extracts a trusted test archive into dest: directory entries
// become directories, names leaving dest are refused, nothing is linked.
func unzipForTest(zipPath, dest string) error {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return err
	}
	defer zr.Close()
	if len(zr.File) == 0 {
		return errors.New("empty archive")
	}
	for _, f := range zr.File {
		if err := extractEntry(f, dest); err != nil {
			return err
		}
	}
	return nil
}

func extractEntry(f *zip.File, dest string) error {
	name := filepath.FromSlash(f.Name)
	if !filepath.IsLocal(name) {
		return fmt.Errorf("entry %q leaves the target directory", f.Name)
	}
	path := filepath.Join(dest, name)
	if f.FileInfo().IsDir() {
		return os.MkdirAll(path, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
