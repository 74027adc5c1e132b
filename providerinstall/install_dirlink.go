package providerinstall

import (
	"fmt"
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
			return &ChecksumMismatchError{Provider: t.p, Version: t.v, Local: true, Flavour: t.run.in.Flavour}
		}
	}
	return Link(src, pi.dir())
}
