package modules

import (
	"regexp"

	goversions "github.com/apparentlymart/go-versions/versions"
	version "github.com/hashicorp/go-version"
)

var versionInConstraint = regexp.MustCompile(version.VersionRegexpRaw)

// prereleaseAllowed is OpenTofu's prerelease rule for module versions: the
// constraint string, read by the npm-style parser of go-versions (with a
// "v" before versions stripped when it fails), must accept v.
func prereleaseAllowed(v *version.Version, constraint string) bool {
	set, err := goversions.MeetingConstraintsString(constraint)
	if err != nil {
		stripped := versionInConstraint.ReplaceAllStringFunc(constraint, func(m string) string {
			if m[0] == 'v' {
				return m[1:]
			}
			return m
		})
		if stripped == constraint {
			return false
		}
		if set, err = goversions.MeetingConstraintsString(stripped); err != nil {
			return false
		}
	}
	pv, err := goversions.ParseVersion(v.String())
	return err == nil && set.Has(pv)
}
