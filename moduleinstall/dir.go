package moduleinstall

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tfdeps/tfdeps/config"
)

// The working directory. Options.Dir names it; every path the installer
// records or reports (MODDIR, module directories, local sources) stays
// relative to it, as when installing from inside it, and is joined to Dir
// only where the operating system is asked (inDir). No current directory
// is involved, so installations of several directories can run at once.

// inDir is path p, relative to the working directory, as the operating
// system must be given it.
func (o *Options) inDir(p string) string {
	if o.Dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(o.Dir, p)
}

// withDir returns o with its loader options reading relative to o.Dir,
// and path.cwd and abspath resolving against it (options of the caller's
// own, given later, win).
func (o Options) withDir() Options {
	if o.Dir != "" {
		o.Config = append([]config.Option{config.WithFileSystem(config.OSFileSystem{Root: o.Dir}), config.WithWorkingDir(o.Dir)}, o.Config...)
	}
	return o
}

// relErr returns err with the path of an *fs.PathError made relative to
// the working directory again, so that messages read as from inside it.
func (o *Options) relErr(err error) error {
	var pe *fs.PathError
	if o.Dir == "" || !errors.As(err, &pe) {
		return err
	}
	if rel, ok := o.relative(pe.Path); ok {
		return &fs.PathError{Op: pe.Op, Path: rel, Err: pe.Err}
	}
	return err
}

// relText is text (an error's) with the working directory's path taken
// out of the paths under it, which the operating system was given whole.
func (o *Options) relText(text string) string {
	if o.Dir == "" {
		return text
	}
	return strings.ReplaceAll(text, filepath.Clean(o.Dir)+string(filepath.Separator), "")
}

// relative is abs (a path under o.Dir, as inDir makes it) relative to the
// working directory again; false when abs is not under it.
func (o *Options) relative(abs string) (string, bool) {
	base := filepath.Clean(o.Dir)
	if abs == base {
		return ".", true
	}
	if rest, ok := strings.CutPrefix(abs, base+string(filepath.Separator)); ok {
		return rest, true
	}
	return "", false
}

// maxLinks bounds the symbolic links followed while resolving one path.
const maxLinks = 255

// evalSymlinks is filepath.EvalSymlinks for path p relative to the working
// directory: the result is relative to it too, unless a link leads to an
// absolute path, exactly as filepath.EvalSymlinks(p) would answer from
// inside the working directory. Links are resolved in p alone, never in
// the working directory's own path; p is looked up from the working
// directory's real path, as the kernel does from inside it (so "../x"
// is beside the real directory, not beside a link to it).
func (o *Options) evalSymlinks(p string) (string, error) {
	if o.Dir == "" || filepath.IsAbs(p) {
		return filepath.EvalSymlinks(p)
	}
	base, err := filepath.EvalSymlinks(o.Dir)
	if err != nil {
		base = o.Dir
	}
	at := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, p)
	}
	dest, rest := "", p
	links := 0
	for rest != "" {
		var comp string
		if i := strings.IndexRune(rest, filepath.Separator); i >= 0 {
			comp, rest = rest[:i], rest[i+1:]
		} else {
			comp, rest = rest, ""
		}
		switch comp {
		case "", ".":
			continue
		case "..":
			if dest == "" || filepath.Base(dest) == ".." {
				dest = filepath.Join(dest, "..")
			} else if !isRoot(dest) {
				dest = filepath.Dir(dest)
				if dest == "." {
					dest = ""
				}
			}
			continue
		}
		next := filepath.Join(dest, comp)
		fi, err := os.Lstat(at(next))
		if err != nil {
			return "", named(err, next)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.IsDir() && rest != "" {
				return "", syscall.ENOTDIR
			}
			dest = next
			continue
		}
		if links++; links > maxLinks {
			return "", errors.New("EvalSymlinks: too many links")
		}
		target, err := os.Readlink(at(next))
		if err != nil {
			return "", named(err, next)
		}
		if filepath.IsAbs(target) {
			vol := filepath.VolumeName(target)
			dest = vol + string(filepath.Separator)
			target = target[len(vol):]
		}
		if rest != "" {
			target += string(filepath.Separator) + rest
		}
		rest = target
	}
	if dest == "" {
		return ".", nil
	}
	return filepath.Clean(dest), nil
}

func isRoot(p string) bool { return filepath.Dir(p) == p }

// named is err naming path p, as p was given.
func named(err error, p string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: p, Err: pe.Err}
	}
	return err
}
