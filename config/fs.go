package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/regfile"
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

// ReadDir lists a directory sorted by name, as os.ReadDir does, except
// that a named pipe, device or socket in its place is a
// *regfile.NotRegularError, not waited on.
func (o OSFileSystem) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := regfile.Open(o.path(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// ReadFile reads a whole file, following symbolic links; a file larger
// than MaxFileSize is a *FileTooLargeError, a named pipe, device or socket
// a *regfile.NotRegularError (refused without waiting on it).
func (o OSFileSystem) ReadFile(name string) ([]byte, error) {
	f, err := regfile.Open(o.path(name))
	if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
		notRegular.Path = name
	}
	if err == nil {
		if st, statErr := f.Stat(); statErr == nil && st.Mode().IsRegular() && st.Size() <= MaxFileSize {
			defer f.Close()
			return readSized(name, f, int(st.Size()))
		}
	}
	return readLimited(name, f, err)
}

// readSized reads a regular file of about size bytes into a buffer of that
// capacity (io.ReadAll's doubling would keep up to twice the bytes alive
// for as long as the module is loaded), still refusing more than
// MaxFileSize bytes should the file grow meanwhile.
func readSized(name string, r io.Reader, size int) ([]byte, error) {
	buf := make([]byte, 0, size+1) // +1: EOF is seen without growing
	r = io.LimitReader(r, MaxFileSize+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(buf) > MaxFileSize {
		return nil, &FileTooLargeError{Name: name}
	}
	return buf, nil
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
	if err := regfile.Stat(f.fsys, fsName(name)); err != nil {
		return nil, err
	}
	return fs.ReadDir(f.fsys, fsName(name))
}

// ReadFile refuses a special file (named pipe, device, socket) before
// opening it, as OSFileSystem does.
func (f ioFS) ReadFile(name string) ([]byte, error) {
	if err := regfile.Stat(f.fsys, fsName(name)); err != nil {
		if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
			notRegular.Path = name
		}
		return nil, err
	}
	file, err := f.fsys.Open(fsName(name))
	return readLimited(name, file, err)
}

// readFailure is the error diagnostic for a configuration, test or mock
// file that could not be read; it says so when the file is a named pipe,
// device or socket, which tfdeps refuses to read.
func readFailure(name string, err error) *hcl.Diagnostic {
	detail := fmt.Sprintf("The file %q could not be read.", name)
	if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
		detail = notRegular.Detail(fmt.Sprintf("The file %q", name))
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read file", Detail: detail}
}
