package providerinstall

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Link installs the unpacked package directory src (an unpacked
// filesystem mirror package or a plugin-cache entry) at the package
// directory dst, as OpenTofu does (init.md §5, step 6.3 "local directory"
// 1 and 4, and step 8):
//
//   - src and dst must not be the same directory ("cannot install existing
//     provider directory %s to itself");
//   - whatever is at dst is removed, and dst's parent directories created;
//   - dst becomes a symlink to the absolute, unresolved path of src;
//   - where no symlink can be made, dst becomes a copy of src's tree
//     (see copyPackageTree), built in a staging directory and renamed
//     into place.
//
// The symlink is created under a temporary name and renamed over dst, so
// dst is never a half-made link. Link does not check hashes; callers
// check src against the lock file first where OpenTofu does.
func Link(src, dst string) error {
	return linkWith(os.Symlink, src, dst)
}

// linkWith is Link with the symlink maker injected (tests use one that
// fails, to exercise the copy).
func linkWith(symlink func(oldname, newname string) error, src, dst string) error {
	absSrc, err := filepath.Abs(src)
	if err != nil {
		return fmt.Errorf("failed to make source path %s absolute: %w", src, err)
	}
	absDst, err := filepath.Abs(dst)
	if err != nil {
		return fmt.Errorf("failed to make target path %s absolute: %w", dst, err)
	}
	if err := checkNotSame(absSrc, absDst, dst); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("failed to remove existing %s before linking it to %s: %w", dst, src, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("failed to create parent directories leading to %s: %w", dst, err)
	}
	if tmp, err := newStagingLink(symlink, absSrc, dst); err == nil {
		return renameOrClean(tmp, dst)
	}
	tmp, err := newStagingDir(dst)
	if err != nil {
		return err
	}
	if err := copyPackageTree(symlink, absSrc, tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("failed to either symlink or copy %s to %s: %w", absSrc, dst, err)
	}
	return renameOrClean(tmp, dst)
}

// checkNotSame fails when src and dst are the same directory entry
// (compared without following a final symlink, as OpenTofu does: a dst
// that is a symlink to src is not the same).
func checkNotSame(src, dst, dstName string) error {
	same, err := sameEntry(src, dst)
	if err != nil {
		return fmt.Errorf("failed to determine if %s and %s are the same: %w", src, dst, err)
	}
	if same {
		return fmt.Errorf("cannot install existing provider directory %s to itself", dstName)
	}
	return nil
}

func sameEntry(a, b string) (bool, error) {
	if a == b {
		return true, nil
	}
	aInfo, err := os.Lstat(a)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	bInfo, err := os.Lstat(b)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(aInfo, bInfo), nil
}

func renameOrClean(tmp, dst string) error {
	if err := os.Rename(tmp, dst); err != nil {
		_ = os.RemoveAll(tmp)
		return err
	}
	return nil
}

// copyPackageTree copies the tree below src (symlinks in its path
// resolved) into the existing directory dst the way OpenTofu copies a
// package: names starting with "." are skipped, directories are made
// 0755, files keep their permission bits, symlinks are recreated with the
// same target.
func copyPackageTree(symlink func(oldname, newname string) error, src, dst string) error {
	real, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == real {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, strings.TrimPrefix(path, real))
		switch {
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return symlink(link, target)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyPackageFile(path, target, info.Mode().Perm())
	})
}

func copyPackageFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Chmod(perm)
	}
	return errors.Join(err, out.Close())
}
