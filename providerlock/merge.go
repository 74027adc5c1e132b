package providerlock

import (
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/versions"
)

// ObtainedKind says how a platform's hashes relate to the old lock entry.
type ObtainedKind int

const (
	// NewProvider: the old locks had no entry for the provider.
	NewProvider ObtainedKind = iota + 1
	// AlreadyTracked: the old entry held all of the platform's hashes.
	AlreadyTracked
	// Additional: the platform added hashes to the old entry.
	Additional
)

// Obtained is one "- Obtained … checksums for …" line.
type Obtained struct {
	Provider addrs.Provider
	Platform addrs.Platform
	Kind     ObtainedKind
}

// Merge builds the new locks from old (nothing is removed) and a
// successful Result: each required provider gets the old entry's hashes
// plus every platform's, its chosen version and the configuration's
// constraints. It returns the lines to print (providers in address order,
// platforms in the result's order) and whether anything new was found.
func Merge(old *lockfile.Locks, reqs Requirements, res *Result) (*lockfile.Locks, []Obtained, bool) {
	out := lockfile.New()
	if old == nil {
		old = lockfile.New()
	}
	for _, p := range old.Providers() {
		out.SetProvider(p.Provider(), p.Version(), p.Constraints(), p.Hashes())
	}
	type acc struct {
		version versions.Version
		hashes  []hashes.Hash
		lines   []Obtained
	}
	byProvider := map[addrs.Provider]*acc{}
	changed := false
	for _, pr := range res.Platforms {
		for _, r := range pr.Packages {
			if r.Err != nil {
				continue
			}
			a := byProvider[r.Provider]
			if a == nil {
				a = &acc{version: r.Version}
				if lock := old.Provider(r.Provider); lock != nil {
					a.hashes = lock.Hashes()
				}
				byProvider[r.Provider] = a
			}
			kind := obtainedKind(old.Provider(r.Provider), r)
			changed = changed || kind != AlreadyTracked
			a.hashes = append(a.hashes, r.Hashes...)
			a.lines = append(a.lines, Obtained{Provider: r.Provider, Platform: r.Platform, Kind: kind})
		}
	}
	var lines []Obtained
	for _, p := range sortedKeys(byProvider) {
		a := byProvider[p]
		out.SetProvider(p, a.version, reqs[p], a.hashes)
		lines = append(lines, a.lines...)
	}
	return out, lines, changed
}

// obtainedKind compares the platform's lock entry with the old one. The
// platform's entry, like the installer's, also holds the old entry's
// preferred hashes when it locked the same version.
func obtainedKind(old *lockfile.ProviderLock, r PackageResult) ObtainedKind {
	if old == nil {
		return NewProvider
	}
	platform := r.Hashes
	if old.Version() == r.Version {
		platform = hashes.SortedUnique(append(old.PreferredHashes(), r.Hashes...))
	}
	if containsAll(old.Hashes(), platform) {
		return AlreadyTracked
	}
	return Additional
}

// containsAll reports whether want appears in have as a subsequence. Both
// are assumed sorted, which makes this a subset test; an old entry with
// hand-edited, unsorted hashes can fail it although nothing is new, as in
// OpenTofu.
func containsAll(have, want []hashes.Hash) bool {
	if len(want) == 0 {
		return true
	}
	i := 0
	for _, h := range have {
		if h == want[i] {
			i++
			if i == len(want) {
				return true
			}
		}
	}
	return false
}

func sortedKeys[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sortProviders(out)
	return out
}
