package providerinstall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// Installed is an unpacked package found in a Dir (or an unpacked
// filesystem mirror). Its "h1:" hash is computed on first use and
// remembered; an Installed is safe for concurrent use.
type Installed struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	// PackageDir is the package directory, possibly a symlink.
	PackageDir string

	// memo is the path of the "h1:" memo (layout_memo.go), "" for none.
	memo   string
	hasher *dirHasher

	once sync.Once
	h1   hashes.Hash
	err  error
}

var _ hashes.Package = (*Installed)(nil)

// NewInstalled describes the unpacked package in dir.
func NewInstalled(p addrs.Provider, v versions.Version, pl addrs.Platform, dir string) *Installed {
	return &Installed{Provider: p, Version: v, Platform: pl, PackageDir: dir}
}

// newInstalledWithHash describes a package whose "h1:" hash is already
// known, e.g. from the extraction that produced it.
func newInstalledWithHash(p addrs.Provider, v versions.Version, pl addrs.Platform, dir string, h1 hashes.Hash) *Installed {
	i := NewInstalled(p, v, pl, dir)
	i.once.Do(func() { i.h1 = h1 })
	return i
}

// H1 returns hashes.HashDir of the package directory, computed once. For
// a package found in a Dir, the hash is taken from the package's memo
// when the memo is still valid, and the memo is refreshed otherwise.
func (i *Installed) H1() (hashes.Hash, error) {
	i.once.Do(func() { i.h1, i.err = i.hasher.H1(i.PackageDir, i.memo) })
	return i.h1, i.err
}

// inDir describes the package directory dir of a Dir: its hash uses the
// memo beside it, computed by h (nil: the default dirHasher).
func inDir(p addrs.Provider, v versions.Version, pl addrs.Platform, dir string, h *dirHasher) *Installed {
	i := NewInstalled(p, v, pl, dir)
	i.memo, i.hasher = h.memoPath(dir), h
	return i
}

// ZH fails: a "zh:" hash cannot be checked against a directory.
func (i *Installed) ZH() (hashes.Hash, error) { return "", hashes.ErrZipHashOfDir }

// MatchesAny reports whether the package matches one of allowed, with the
// rules of hashes.MatchesAny ("zh:" hashes are skipped).
func (i *Installed) MatchesAny(allowed []hashes.Hash) (bool, error) {
	return hashes.MatchesAny(i, allowed)
}

// Executable returns the path of the provider's executable in the package
// directory (see FindExecutable).
func (i *Installed) Executable() (string, error) {
	return FindExecutable(i.PackageDir, i.Provider.Type)
}

// FindExecutable returns the path of the first non-directory entry of dir,
// in name order, named "terraform-provider-TYPE" or starting with
// "terraform-provider-TYPE_" or "terraform-provider-TYPE." (e.g.
// "terraform-provider-aws_v5.31.0_x5", "terraform-provider-aws.exe").
// Permission bits are not checked. The error texts are OpenTofu's.
func FindExecutable(dir, providerType string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("could not read package directory: %s", err)
	}
	prefix := "terraform-provider-" + providerType
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && (rest == "" || rest[0] == '_' || rest[0] == '.') {
			return filepath.Join(dir, e.Name()), nil
		}
	}
	return "", fmt.Errorf("could not find executable file starting with %s", prefix)
}
