package versions

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// goVersionRaw and goConstraintRegexp reproduce the grammar of HashiCorp's
// go-version (which OpenTofu uses to decode constraint strings in
// configuration): optional operator, optional whitespace, a version with an
// optional "v" prefix, any number of dot-separated numbers, optional
// prerelease and metadata.
const goVersionRaw = `v?([0-9]+(\.[0-9]+)*?)` +
	`(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?` +
	`(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?` +
	`?`

var goConstraintRegexp = regexp.MustCompile(`^\s*(~>|>=|<=|!=|=|>|<|)\s*(` + goVersionRaw + `)\s*$`)

// errGoVersionSyntax is returned by CheckConfigSyntax; configuration
// decoders report it as "This string does not use correct version
// constraint syntax."
var errGoVersionSyntax = errors.New("malformed version constraint")

// CheckConfigSyntax reports whether s is accepted by the constraint parser
// OpenTofu applies when it decodes configuration (HashiCorp go-version's
// NewConstraint): comma-separated pieces, each an optional operator and a
// version, with any whitespace around them. The empty string is rejected.
//
// A string that passes can still fail ParseConstraints, which OpenTofu
// applies afterwards when it collects requirements.
func CheckConfigSyntax(s string) error {
	for _, piece := range strings.Split(s, ",") {
		m := goConstraintRegexp.FindStringSubmatch(piece)
		if m == nil {
			return errGoVersionSyntax
		}
		for _, num := range strings.Split(m[3], ".") {
			if _, err := strconv.ParseInt(num, 10, 64); err != nil {
				return errGoVersionSyntax
			}
		}
	}
	return nil
}
