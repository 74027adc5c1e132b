package manifest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// writeAtomic writes data to a fresh file next to path and renames it over
// path. The file is created with O_EXCL and mode 0666 so that the umask
// decides its permissions, as for os.Create.
func writeAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, tmp, err := createTemp(dir, "."+base+".tmp-")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// Name the manifest, as OpenTofu's os.Create error does.
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// createTemp creates a new file named prefix+random in dir.
func createTemp(dir, prefix string) (*os.File, string, error) {
	for range 100 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, "", err
		}
		name := filepath.Join(dir, prefix+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("cannot create a temporary file in " + dir)
}
