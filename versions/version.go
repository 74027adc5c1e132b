package versions

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	goversions "github.com/apparentlymart/go-versions/versions"
)

// Version is an exact semantic version. Values are comparable with ==,
// which also compares build metadata; use Same for precedence equality.
type Version struct {
	Major, Minor, Patch uint64
	Prerelease          string
	Metadata            string
}

// ParseVersion parses an exact provider version: one to three numeric parts
// (missing parts become 0), optional "-prerelease" and "+metadata", no "v"
// prefix. The error texts are those of go-versions.
func ParseVersion(s string) (v Version, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = Version{}, fmt.Errorf("invalid version %q: version number too large", s)
		}
	}()
	lv, err := goversions.ParseVersion(s)
	if err != nil {
		return Version{}, err
	}
	return fromLib(lv), nil
}

// String returns MAJOR.MINOR.PATCH[-PRE][+META].
func (v Version) String() string {
	s := strconv.FormatUint(v.Major, 10) + "." + strconv.FormatUint(v.Minor, 10) + "." + strconv.FormatUint(v.Patch, 10)
	if v.Prerelease != "" {
		s += "-" + v.Prerelease
	}
	if v.Metadata != "" {
		s += "+" + v.Metadata
	}
	return s
}

// IsPrerelease reports whether v has a prerelease part.
func (v Version) IsPrerelease() bool { return v.Prerelease != "" }

// IsZero reports whether v is 0.0.0 without prerelease or metadata.
func (v Version) IsZero() bool { return v == Version{} }

// LessThan reports whether v has lower semver precedence than other
// (metadata ignored).
func (v Version) LessThan(other Version) bool { return v.lib().LessThan(other.lib()) }

// Same reports whether v and other have equal precedence (metadata ignored).
func (v Version) Same(other Version) bool { return v.lib().Same(other.lib()) }

// Compare returns -1, 0 or +1 by precedence (metadata ignored).
func (v Version) Compare(other Version) int {
	switch {
	case v.LessThan(other):
		return -1
	case other.LessThan(v):
		return 1
	default:
		return 0
	}
}

func (v Version) lib() goversions.Version {
	return goversions.Version{
		Major: v.Major, Minor: v.Minor, Patch: v.Patch,
		Prerelease: goversions.VersionExtra(v.Prerelease),
		Metadata:   goversions.VersionExtra(v.Metadata),
	}
}

func fromLib(v goversions.Version) Version {
	return Version{
		Major: v.Major, Minor: v.Minor, Patch: v.Patch,
		Prerelease: string(v.Prerelease), Metadata: string(v.Metadata),
	}
}

// List is a list of versions.
type List []Version

// Sort sorts l ascending by precedence, keeping the input order of versions
// that differ only in build metadata.
func (l List) Sort() {
	slices.SortStableFunc(l, Version.Compare)
}

// SortByMetadataThenPrecedence sorts l by precedence, ordering versions that
// differ only in build metadata by their metadata bytes. tfdeps uses it where
// OpenTofu's order is random (versions read from a JSON map).
func (l List) SortByMetadataThenPrecedence() {
	slices.SortStableFunc(l, func(a, b Version) int { return cmp.Compare(a.Metadata, b.Metadata) })
	l.Sort()
}
