package moduleaddr

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/apparentlymart/go-versions/versions"
	version "github.com/hashicorp/go-version"
)

// ErrNoVersions is SelectVersion's error when no listed version survives
// parsing and the prerelease filter (M11 "Module has no versions").
var ErrNoVersions = errors.New("module has no versions")

// NoMatchError is SelectVersion's error when versions exist but none meets
// the constraint (M14 "Unresolvable module version constraint").
type NoMatchError struct {
	// Newest is the highest surviving version, in go-version's canonical
	// form.
	Newest string
}

func (e *NoMatchError) Error() string {
	return fmt.Sprintf("no available version matches the given version constraint; the newest available version is %s", e.Newest)
}

// versionPattern finds versions in a constraint string so that a leading
// "v" can be removed (OpenTofu's retry for the prerelease test).
var versionPattern = regexp.MustCompile(version.VersionRegexpRaw)

// SelectVersion chooses a registry module version from the strings the
// registry listed, for a call whose `version` argument is constraint (""
// for none), with OpenTofu 1.12.6's rules (modules.md §3.3):
//
//   - each string is parsed with hashicorp/go-version ("v1.0" and "1.0"
//     are accepted); an unparseable one is returned in skipped (warning M13)
//     and ignored;
//   - a prerelease survives only when constraint, read with
//     apparentlymart/go-versions' npm-style parser (retried with "v"
//     prefixes removed), accepts it: in practice a single exact version
//     such as "1.2.0-beta1" or "=1.2.0-beta1", never "= 1.2.0-beta1",
//     ">= 1.2.0-beta1" or a list with commas;
//   - newest is the highest survivor, chosen the highest survivor that meets
//     constraint with go-version semantics (no constraint meets all).
//
// chosen and newest are in go-version's canonical form ("1.0.0" for a listed
// "v1.0"): what is printed, recorded and put in the download URL. Errors:
// a constraint go-version cannot parse (its own error), ErrNoVersions, or a
// *NoMatchError (newest is still returned).
func SelectVersion(listed []string, constraint string) (chosen, newest string, skipped []string, err error) {
	var required version.Constraints
	if constraint != "" {
		required, err = version.NewConstraint(constraint)
		if err != nil {
			return "", "", nil, err
		}
	}
	var latest, match *version.Version
	for _, s := range listed {
		v, perr := version.NewVersion(s)
		if perr != nil {
			skipped = append(skipped, s)
			continue
		}
		if v.Prerelease() != "" && !prereleaseRequested(v, required.String()) {
			continue
		}
		if latest == nil || v.GreaterThan(latest) {
			latest = v
		}
		if required.Check(v) && (match == nil || v.GreaterThan(match)) {
			match = v
		}
	}
	if latest == nil {
		return "", "", skipped, ErrNoVersions
	}
	if match == nil {
		return "", latest.String(), skipped, &NoMatchError{Newest: latest.String()}
	}
	return match.String(), latest.String(), skipped, nil
}

// prereleaseRequested is OpenTofu's prerelease test: the constraint string
// as go-version renders it, parsed npm-style, must contain v.
func prereleaseRequested(v *version.Version, constraint string) bool {
	acceptable, err := versions.MeetingConstraintsString(constraint)
	if err != nil {
		stripped := versionPattern.ReplaceAllStringFunc(constraint, func(m string) string {
			if m[0] == 'v' {
				return m[1:]
			}
			return m
		})
		if stripped == constraint {
			return false
		}
		if acceptable, err = versions.MeetingConstraintsString(stripped); err != nil {
			return false
		}
	}
	pv, err := versions.ParseVersion(v.String())
	if err != nil {
		return false
	}
	return acceptable.Has(pv)
}
