package registrytest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"sort"
	"strings"

	"github.com/ulikunitz/xz"
)

// BuildModuleArchive builds a deterministic module package archive from a
// file map (slash path → content; a trailing "*" on a path makes the file
// executable and is removed). prefix, when set, is a directory every file
// is put under. format is "zip", "tar.gz", "tgz", "tar.bz2" or "tar.xz";
// "tar.bz2" runs the bzip2 command (Go has no bzip2 writer).
func BuildModuleArchive(format, prefix string, files map[string]string) ([]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	entries := make([]archiveEntry, 0, len(names))
	for _, n := range names {
		e := archiveEntry{name: n, mode: 0o644, content: files[n]}
		if strings.HasSuffix(n, "*") {
			e.name, e.mode = strings.TrimSuffix(n, "*"), 0o755
		}
		if prefix != "" {
			e.name = path.Join(prefix, e.name)
		}
		entries = append(entries, e)
	}
	if format == "zip" {
		return buildZip(entries)
	}
	tarball, err := buildTar(entries)
	if err != nil {
		return nil, err
	}
	switch format {
	case "tar.gz", "tgz":
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(tarball)
		err := zw.Close()
		return b.Bytes(), err
	case "tar.xz":
		var b bytes.Buffer
		xw, err := xz.NewWriter(&b)
		if err != nil {
			return nil, err
		}
		xw.Write(tarball)
		err = xw.Close()
		return b.Bytes(), err
	case "tar.bz2":
		cmd := exec.Command("bzip2", "-c")
		cmd.Stdin = bytes.NewReader(tarball)
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("bzip2: %w", err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown module archive format %q", format)
}

type archiveEntry struct {
	name    string
	mode    int64
	content string
}

func buildZip(entries []archiveEntry) ([]byte, error) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: zipTime()}
		h.SetMode(fsMode(e.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(e.content)); err != nil {
			return nil, err
		}
	}
	err := zw.Close()
	return b.Bytes(), err
}

func buildTar(entries []archiveEntry) ([]byte, error) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	dirs := map[string]bool{}
	for _, e := range entries {
		for d := path.Dir(e.name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	dirNames := make([]string, 0, len(dirs))
	for d := range dirs {
		dirNames = append(dirNames, d)
	}
	sort.Strings(dirNames)
	for _, d := range dirNames {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: zipTime()}); err != nil {
			return nil, err
		}
	}
	for _, e := range entries {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: e.name, Mode: e.mode, Size: int64(len(e.content)), ModTime: zipTime()}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(e.content)); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return b.Bytes(), err
}

func fsMode(m int64) fs.FileMode { return fs.FileMode(m) }
