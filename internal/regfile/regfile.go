package regfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error for a path that names a named pipe, device,
// socket or other special file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind())
}

// Kind names the type of file, for messages: "a named pipe (FIFO)",
// "a device", "a socket" or "a special file".
func (e *NotRegularError) Kind() string {
	switch t := e.Mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeSocket != 0:
		return "a socket"
	default:
		return "a special file"
	}
}

// Detail is the detail of a diagnostic about the file, whose subject
// names it (`The file "main.tf"`): what the file is, and why it is not
// read.
func (e *NotRegularError) Detail(subject string) string {
	return subject + " is " + e.Kind() + ", not a regular file. tfdeps reads only regular files (or symbolic links to them), so that it never waits on a pipe or device."
}

// Check returns a *NotRegularError for path when mode is neither a
// regular file nor a directory, and nil otherwise.
func Check(path string, mode fs.FileMode) error {
	if mode.IsRegular() || mode.IsDir() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: mode}
}

// Open opens path for reading as os.Open does, except that a path naming
// anything but a regular file or a directory (after symbolic links) is a
// *NotRegularError, and that it never blocks.
func Open(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := Check(path, info.Mode()); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	info, err = f.Stat()
	if err == nil {
		err = Check(path, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the whole file at path as os.ReadFile does, opening it
// with Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadFileMax is ReadFile for a file that may hold at most max bytes: a
// larger one is an error saying so, read no further than max+1 bytes.
func ReadFileMax(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return src, nil
}

// Stat reports the error Open would give for what fsys holds at name
// (a *NotRegularError for a special file), without opening it: callers of
// an fs.FS call it before Open.
func Stat(fsys fs.FS, name string) error {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return err
	}
	return Check(name, info.Mode())
}
