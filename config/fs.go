package config

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// FileSystem is what the loader reads. Names are slash- or OS-separated
// paths as the caller gave them joined with entry names (OpenTofu's
// filepath.Join), e.g. "main.tf" for the root loaded as ".".
type FileSystem interface {
	ReadDir(name string) ([]fs.DirEntry, error)
	ReadFile(name string) ([]byte, error)
}

// OSFileSystem reads the operating system's file system relative to Root
// (the current directory when Root is "").
type OSFileSystem struct {
	Root string
}

func (o OSFileSystem) path(name string) string {
	if o.Root == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(o.Root, name)
}

// ReadDir lists a directory sorted by name.
func (o OSFileSystem) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(o.path(name))
}

// ReadFile reads a whole file, following symbolic links; a file larger
// than MaxFileSize is a *FileTooLargeError.
func (o OSFileSystem) ReadFile(name string) ([]byte, error) {
	f, err := os.Open(o.path(name))
	return readLimited(name, f, err)
}

// FS adapts an io/fs file system (for example testing/fstest.MapFS or
// os.DirFS) to FileSystem. Paths are cleaned to fs.FS form: "." is the root,
// "./a" is "a".
func FS(fsys fs.FS) FileSystem { return ioFS{fsys} }

type ioFS struct{ fsys fs.FS }

func fsName(name string) string {
	name = path.Clean(filepath.ToSlash(name))
	name = strings.TrimPrefix(name, "/")
	if name == "" {
		return "."
	}
	return name
}

func (f ioFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(f.fsys, fsName(name))
}

func (f ioFS) ReadFile(name string) ([]byte, error) {
	file, err := f.fsys.Open(fsName(name))
	return readLimited(name, file, err)
}
