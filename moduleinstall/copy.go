package moduleinstall

import (
	"crypto/sha256"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// copyTree copies the tree at src into dst (which must exist), keeping
// file modes and recreating symlinks with their targets. With skipDot, it
// copies as OpenTofu's directory copy does (for an earlier install of the
// same package, modules.md §4.4, and for init -from-module): entries whose
// name starts with "." are left out and directories are made with mode
// 0755 (less the umask) whatever the source's mode.
func copyTree(dst, src string, skipDot bool) error {
	return copyTreeHashing(dst, src, skipDot, nil)
}

// copyTreeHashing is copyTree that also reports, for every file that
// dirhash.DirFiles lists (regular files and symlinks), its slash path and
// the SHA-256 of its content as dirhash reads it, so that a cache entry is
// verified in the same pass that copies it.
func copyTreeHashing(dst, src string, skipDot bool, onFile func(rel string, sum []byte)) error {
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p == src {
			return nil
		}
		if skipDot && strings.HasPrefix(info.Name(), ".") {
			if info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		var h hash.Hash
		if onFile != nil && !info.IsDir() {
			h = sha256.New()
		}
		if err := copyEntry(target, p, info, h, skipDot); err != nil {
			return err
		}
		if h != nil {
			onFile(filepath.ToSlash(rel), h.Sum(nil))
		}
		return nil
	})
}

// copyEntry copies one directory entry p to target; h (if not nil)
// receives the content of a file or of a symlink's target. A directory
// keeps its mode unless dir0755.
func copyEntry(target, p string, info os.FileInfo, h hash.Hash, dir0755 bool) error {
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		link, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if h != nil {
			if err := hashFile(h, p); err != nil {
				return err
			}
		}
		return os.Symlink(link, target)
	case info.IsDir() && dir0755:
		return os.MkdirAll(target, 0o755)
	case info.IsDir():
		return os.MkdirAll(target, info.Mode().Perm())
	case info.Mode().IsRegular():
		return copyFile(target, p, info.Mode().Perm(), h)
	}
	return nil
}

func hashFile(h hash.Hash, p string) error {
	f, err := regfile.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// copyFile copies src to dst with mode perm, writing what it reads to h
// too when h is not nil.
func copyFile(dst, src string, perm os.FileMode, h hash.Hash) error {
	in, err := regfile.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	var r io.Reader = in
	if h != nil {
		r = io.TeeReader(in, h)
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm)
}
