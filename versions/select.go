package versions

import (
	"slices"

	goversions "github.com/apparentlymart/go-versions/versions"
)

// NoMatchError says that no available version meets the constraints.
type NoMatchError struct {
	Constraints Constraints
}

func (e *NoMatchError) Error() string {
	return "no available releases match the given constraints " + e.Constraints.String()
}

// ZeroVersionError says that the constraints accept only 0.0.0, which is
// never a valid provider version. Its text (including the space before the
// line break) is OpenTofu's.
type ZeroVersionError struct{}

func (ZeroVersionError) Error() string {
	return "0.0.0 is not a valid provider version. \nIf the version 0.0.0 is intended to represent a non-published provider, consider using dev_overrides - https://opentofu.org/docs/cli/config/config-file/#development-overrides-for-provider-developers"
}

// NoLongerAvailableError says that a version pinned by the lock file is not
// among the available versions.
type NoLongerAvailableError struct {
	Version Version
}

func (e *NoLongerAvailableError) Error() string {
	return "the previously-selected version " + e.Version.String() + " is no longer available"
}

// SelectNewest returns the newest available version that c allows. The
// available list is sorted stably by precedence first, so among versions
// that differ only in build metadata the one listed last wins. Errors are
// ZeroVersionError and *NoMatchError.
func SelectNewest(available List, c Constraints) (Version, error) {
	set := c.set()
	if len(c) > 0 && set.Exactly(goversions.Unspecified) {
		return Version{}, ZeroVersionError{}
	}
	if v, ok := newestIn(available, set); ok {
		return v, nil
	}
	return Version{}, &NoMatchError{Constraints: c}
}

// SelectLocked returns locked when it is among the available versions
// (build metadata included), else *NoLongerAvailableError. Checking that
// locked still meets the configured constraints is the caller's job
// (Constraints.Allows).
func SelectLocked(available List, locked Version) (Version, error) {
	if locked.IsZero() {
		return Version{}, ZeroVersionError{}
	}
	if slices.Contains(available, locked) {
		return locked, nil
	}
	return Version{}, &NoLongerAvailableError{Version: locked}
}

func newestIn(available List, set goversions.Set) (Version, bool) {
	sorted := slices.Clone(available)
	sorted.Sort()
	for i := len(sorted) - 1; i >= 0; i-- {
		if set.Has(sorted[i].lib()) {
			return sorted[i], true
		}
	}
	return Version{}, false
}
