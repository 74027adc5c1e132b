package installer

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/tfdeps/tfdeps/hashes"
)

// fromDir installs an unpacked package directory (an unpacked filesystem
// mirror) by linking it, after checking it against the lock's non-"zh:"
// hashes (init.md §5 step 6.3, local directory). Its authentication result
// is always "unauthenticated".
func (pi *packageInstall) fromDir(src string) error {
	t := pi.task
	if slices.ContainsFunc(pi.allowed, func(h hashes.Hash) bool { return h.Scheme() != hashes.SchemeZip }) {
		ok, err := hashes.MatchesAny(hashes.Dir(src), pi.allowed)
		if err != nil {
			return fmt.Errorf("failed to calculate checksum for %s %s package at %s: %s", t.p, t.v, src, err)
		}
		if !ok {
			return &ChecksumMismatchError{Provider: t.p, Version: t.v, Local: true}
		}
	}
	return linkPackageDir(src, pi.dir())
}

// linkPackageDir makes dst a symlink to the absolute (not resolved) path
// of src, replacing whatever dst was; where a symlink cannot be made it
// copies the tree instead, through a staging directory.
func linkPackageDir(src, dst string) error {
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if si, err := os.Stat(abs); err == nil {
		if di, err := os.Stat(dst); err == nil && os.SameFile(si, di) {
			return fmt.Errorf("cannot install existing provider directory %s to itself", dst)
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.Symlink(abs, dst); err == nil {
		return nil
	}
	staging, err := newStagingDir(dst)
	if err != nil {
		return err
	}
	if err := copyTree(abs, staging); err != nil {
		_ = os.RemoveAll(staging)
		return err
	}
	return commitStaging(staging, dst)
}

// copyTree copies the files and directories below src into dst (which
// exists), keeping permission bits.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(path, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}
