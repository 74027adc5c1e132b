package lockfile

import (
	"maps"
	"slices"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// ProviderLock is the selection recorded for one provider: its version, the
// configuration's constraints when it was selected and the package hashes
// accepted for it. Values are immutable.
type ProviderLock struct {
	addr        addrs.Provider
	version     versions.Version
	constraints versions.Constraints
	hashes      []hashes.Hash
	// decl is where the plain reader read the block (not compared).
	decl declPos
}

// NewProviderLock returns a selection as an installer records it: the
// hashes sorted by byte order and without duplicates.
func NewProviderLock(addr addrs.Provider, v versions.Version, c versions.Constraints, hs []hashes.Hash) *ProviderLock {
	return &ProviderLock{addr: addr, version: v, constraints: slices.Clone(c), hashes: hashes.SortedUnique(hs)}
}

// Provider returns the provider address.
func (p *ProviderLock) Provider() addrs.Provider { return p.addr }

// Version returns the selected version.
func (p *ProviderLock) Version() versions.Version { return p.version }

// Constraints returns the recorded version constraints (nil for none).
func (p *ProviderLock) Constraints() versions.Constraints { return slices.Clone(p.constraints) }

// Hashes returns the recorded hashes in their stored order.
func (p *ProviderLock) Hashes() []hashes.Hash { return slices.Clone(p.hashes) }

// PreferredHashes returns the recorded hashes of the schemes used for
// verification ("h1:" and "zh:").
func (p *ProviderLock) PreferredHashes() []hashes.Hash { return hashes.Preferred(p.hashes) }

// Locks is the set of provider selections of one lock file. The zero value
// is not usable; call [New].
type Locks struct {
	providers map[addrs.Provider]*ProviderLock
}

// New returns an empty set of selections.
func New() *Locks {
	return &Locks{providers: map[addrs.Provider]*ProviderLock{}}
}

// Provider returns the selection for addr, or nil.
func (l *Locks) Provider(addr addrs.Provider) *ProviderLock { return l.providers[addr] }

// Providers returns every selection, sorted by provider address.
func (l *Locks) Providers() []*ProviderLock {
	out := make([]*ProviderLock, 0, len(l.providers))
	for _, addr := range l.Addresses() {
		out = append(out, l.providers[addr])
	}
	return out
}

// Addresses returns the providers that have a selection, sorted.
func (l *Locks) Addresses() []addrs.Provider {
	return slices.SortedFunc(maps.Keys(l.providers), addrs.Provider.Compare)
}

// Len returns the number of selections.
func (l *Locks) Len() int { return len(l.providers) }

// SetProvider records a selection through [NewProviderLock] (hashes sorted
// and de-duplicated), replacing any earlier one for addr, and returns it.
func (l *Locks) SetProvider(addr addrs.Provider, v versions.Version, c versions.Constraints, hs []hashes.Hash) *ProviderLock {
	p := NewProviderLock(addr, v, c, hs)
	l.providers[addr] = p
	return p
}

// setRead records a selection exactly as read from a file (hashes in file
// order, duplicates kept).
func (l *Locks) setRead(p *ProviderLock) { l.providers[p.addr] = p }

// RemoveProvider drops the selection for addr, if any.
func (l *Locks) RemoveProvider(addr addrs.Provider) { delete(l.providers, addr) }

// Equal reports whether l and other select the same versions (build metadata
// included) with the same hash lists, element by element, for the same
// providers. Constraints are ignored, as in OpenTofu's change detection.
func (l *Locks) Equal(other *Locks) bool {
	if !l.EqualProviderAddress(other) {
		return false
	}
	for addr, p := range l.providers {
		o := other.providers[addr]
		if p.version != o.version || !slices.Equal(p.hashes, o.hashes) {
			return false
		}
	}
	return true
}

// EqualProviderAddress reports whether l and other have selections for the
// same providers.
func (l *Locks) EqualProviderAddress(other *Locks) bool {
	if len(l.providers) != len(other.providers) {
		return false
	}
	for addr := range l.providers {
		if _, ok := other.providers[addr]; !ok {
			return false
		}
	}
	return true
}
