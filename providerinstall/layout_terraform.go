package providerinstall

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The Terraform flavour's layout. Terraform v1.15 takes no lock while it
// installs a package: it writes no OS_ARCH.lock file, in the working
// directory's providers directory or in the plugin cache, and it creates a
// package's directories only once the archive is downloaded and
// authenticated, so a failed install leaves no directory behind. tfdeps
// keeps its locks (they protect concurrent inits sharing a plugin cache)
// in a directory of its own (Installer.LockDir), and removes, after the
// run, the directories it created for packages whose install failed, when
// nothing else was put in them.

// DefaultLockDir returns the directory of the Terraform flavour's package
// lock files, "tfdeps/package-locks" under the user cache directory
// (userCacheDir is os.UserCacheDir, injected), or "" when there is none.
func DefaultLockDir(userCacheDir func() (string, error)) string {
	base, err := userCacheDir()
	if err != nil || base == "" {
		return ""
	}
	return filepath.Join(base, "tfdeps", "package-locks")
}

// useTerraformLayout moves the lock files of Target and Cache to
// in.LockDir (DefaultLockDir when empty). When there is no such directory
// and it cannot be made, they stay beside the packages: a lock file there
// is better than no lock.
func (in *Installer) useTerraformLayout() {
	dir := in.LockDir
	if dir == "" {
		dir = DefaultLockDir(os.UserCacheDir)
	}
	if dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	in.Target = in.Target.WithLocksIn(dir)
	if in.Cache != nil {
		c := in.Cache.WithLocksIn(dir)
		in.Cache = &c
	}
}

// createdDirs records the directories that installs of failed packages
// created, to remove them when empty at the end of the run.
type createdDirs struct {
	mu   sync.Mutex
	dirs map[string]bool
}

// missingDirs returns dir and those of its ancestors that do not exist,
// deepest first: what installing into dir would create.
func missingDirs(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		parent := filepath.Dir(d)
		if parent == d {
			return out
		}
		d = parent
	}
}

func (c *createdDirs) add(dirs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dirs == nil {
		c.dirs = map[string]bool{}
	}
	for _, d := range dirs {
		c.dirs[d] = true
	}
}

// removeEmpty removes the recorded directories that are empty, deepest
// first, so that a chain of directories made for nothing goes entirely
// and one a successful install shares stays. It is called once every
// install of the run is over.
func (c *createdDirs) removeEmpty() {
	c.mu.Lock()
	defer c.mu.Unlock()
	dirs := make([]string, 0, len(c.dirs))
	for d := range c.dirs {
		dirs = append(dirs, d)
	}
	// Deeper first: a directory's path is longer than its parent's.
	slices.SortFunc(dirs, func(a, b string) int {
		if n := strings.Count(b, string(filepath.Separator)) - strings.Count(a, string(filepath.Separator)); n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	for _, d := range dirs {
		_ = os.Remove(d) // fails, as wanted, when not empty
	}
	c.dirs = nil
}
