package requirements

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tfdeps/tfdeps/flavour"
)

// vPrefixError is the end of versions.ParseConstraints' error for a
// version written with a "v" prefix (go-versions v1.0.3, as OpenTofu).
const vPrefixError = `a "v" prefix should not be used when specifying versions`

// vPrefixSpec matches the specification versions.ParseConstraints names in
// that error: an operator, the spaces after it and the rest.
var vPrefixSpec = regexp.MustCompile(`^invalid specification "(!=|<=|>=|~>|[<>=]|)( *)v`)

// constraintError is the text of err, an error of versions.ParseConstraints,
// as flavour f words it. Terraform v1.15 parses provider
// constraints with go-versions v1.0.2, which words a "v" prefix
// differently: "a "v" prefix should not be used" on its own, or — where the
// "v" follows an operator with no space or more than one — the complaint
// about the spaces after the operator. Every other error is the same.
func constraintError(f flavour.Flavour, err error) string {
	msg := err.Error()
	if f != flavour.Terraform || !strings.HasSuffix(msg, vPrefixError) {
		return msg
	}
	if m := vPrefixSpec.FindStringSubmatch(msg); m != nil && m[1] != "" && len(m[2]) != 1 {
		return fmt.Sprintf("invalid specification %q: only one space is expected after the operator %q", m[1]+m[2], m[1])
	}
	return `a "v" prefix should not be used`
}
