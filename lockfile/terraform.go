package lockfile

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// What the Terraform flavour changes in reading a lock file. Terraform
// v1.15.9 decodes the file as OpenTofu v1.12.6 does, with the same
// diagnostics, but over other versions of the libraries below, and those
// show:
//
//   - The product name in two details: a built-in provider, and the warning
//     about module blocks (with Terraform's version).
//   - The address parser (terraform-registry-address): the legacy namespace
//     "-" is an address only on registry.terraform.io, a type may start with
//     "opentofu-" (both in addrs.ParseProviderSourceIn), and only
//     terraform.io/builtin/ providers are built in.
//   - HCL's expression decoding (v2.24): after an evaluation error it still
//     converts the result, so the error is followed by "Unsuitable value
//     type" ("value must be known").
//   - The version parser (go-versions v1.0.2): a "v" before a version
//     number gives other texts (see parseVersionIn, terraformConstraints).
//
// Everything else, including the order of the diagnostics, is the same.

// isBuiltInIn reports whether flavour f bundles provider p, which then
// cannot be locked.
func isBuiltInIn(f Flavour, p addrs.Provider) bool {
	if f == Terraform {
		return p.Hostname == addrs.BuiltInProviderHost && p.Namespace == addrs.BuiltInProviderNamespace
	}
	return p.IsBuiltIn()
}

// parseVersionIn parses a selected version as flavour f does. Terraform's
// go-versions v1.0.2 differs from v1.0.3 only for white space before a "v"
// (its scanner stops at the "v" and finds the white space first).
func parseVersionIn(f Flavour, raw string) (versions.Version, error) {
	v, err := versions.ParseVersion(raw)
	if f == Terraform && err != nil {
		opEnd, sepEnd, _ := scanConstraint(raw)
		if sepEnd > 0 && sepEnd < len(raw) && raw[sepEnd] == 'v' && strings.TrimSpace(raw[:opEnd]) == "" {
			return v, errors.New("extraneous spaces at start of specification")
		}
	}
	return v, err
}

// parseConstraintsIn parses recorded version constraints as flavour f
// does.
func parseConstraintsIn(f Flavour, raw string) (versions.Constraints, error) {
	if f == Terraform && strings.IndexByte(raw, 'v') >= 0 {
		if before, err := terraformConstraints(raw); err != nil {
			// The constraints before the one where the versions differ
			// read alike, and their first error comes first.
			if _, first := versions.ParseConstraints(before); first != nil {
				return nil, first
			}
			return nil, err
		}
	}
	return versions.ParseConstraints(raw)
}

// errTerraformVPrefix is go-versions v1.0.2's error for a version after a
// "v" (v1.0.3, which OpenTofu and the versions package use, adds "when
// specifying versions").
var errTerraformVPrefix = errors.New(`a "v" prefix should not be used`)

// terraformConstraints finds where go-versions v1.0.2, which Terraform uses
// to parse the constraints of a lock file, differs from v1.0.3, which the
// versions package follows: v1.0.2's scanner does not take a "v" between an
// operator and a version number, so it stops there with other errors. It
// returns the error v1.0.2 gives for the first constraint of s where they
// differ, with the constraints before it (as a string that v1.0.3 parses
// as v1.0.2 parses them in s); no error when they do not differ (then
// v1.0.3's result is v1.0.2's). It walks the comma-separated constraints as
// go-versions' ParseRubyStyleMulti does.
func terraformConstraints(s string) (string, error) {
	rest, at := trimSpace(s, 0)
	for rest != "" {
		opEnd, sepEnd, end := scanConstraint(rest)
		if end == sepEnd && sepEnd < len(rest) && rest[sepEnd] == 'v' {
			return s[:at], terraformVSpecError(rest, opEnd, sepEnd)
		}
		specEnd := at + end
		rest, at = trimSpace(rest[end:], specEnd)
		switch {
		case rest == "":
			return "", nil
		case rest[0] == 'v':
			// A comma where the "v" is (no constraint scan takes one
			// there) keeps the constraint's own text and error.
			return s[:specEnd] + ",", errTerraformVPrefix
		case rest[0] != ',':
			return "", nil // "missing comma" in both versions
		}
		rest, at = trimSpace(rest[1:], at+1)
	}
	return "", nil
}

// trimSpace returns s without leading and trailing white space, as
// strings.TrimSpace does, and the offset of the result when s starts at
// offset at.
func trimSpace(s string, at int) (string, int) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	return strings.TrimRightFunc(t, unicode.IsSpace), at + len(s) - len(t)
}

// terraformVSpecError is go-versions v1.0.2's error for constraint s whose
// scan stopped at a "v" at sepEnd, after the operator s[:opEnd] and the
// white space s[opEnd:sepEnd].
func terraformVSpecError(s string, opEnd, sepEnd int) error {
	op, sep := s[:opEnd], s[opEnd:sepEnd]
	wrap := func(err error) error { return fmt.Errorf("invalid specification %q: %s", s[:sepEnd], err) }
	if err := constraintOperatorError(op); err != nil {
		return wrap(err)
	}
	if sep == "" {
		// v1.0.2's scanner, stopping right after the operator, records the
		// operator as the separator too.
		sep = op
	}
	switch {
	case sep == "" || sep == " " && op != "":
		// The constraint parses without a version, and the "v" is left.
		return errTerraformVPrefix
	case op == "":
		return wrap(errors.New("extraneous spaces at start of specification"))
	}
	return wrap(fmt.Errorf("only one space is expected after the operator %q", op))
}

// constraintOperatorError is go-versions' error for an operator it does
// not know.
func constraintOperatorError(op string) error {
	switch op {
	case "", "=", "!=", ">", ">=", "<", "<=", "~>":
		return nil
	case "=<":
		return fmt.Errorf("invalid constraint operator %q; did you mean \"<=\"?", op)
	case "=>":
		return fmt.Errorf("invalid constraint operator %q; did you mean \">=\"?", op)
	}
	return fmt.Errorf("invalid constraint operator %q", op)
}

// scanConstraint scans one constraint at the start of s as go-versions
// v1.0.2's scanner does: an operator (any bytes but digits, white space,
// ASCII letters, "." and "*"), white space, numbers ("*", "x", "X" or
// digits) separated by dots, then "-" and "+" suffixes of letters, digits,
// dots and dashes. It returns the ends of the operator and of the white
// space, and where the scanner stops.
func scanConstraint(s string) (opEnd, sepEnd, end int) {
	i := 0
	for i < len(s) && isOperatorByte(s[i]) {
		i++
	}
	opEnd = i
	for i < len(s) && isScannerSpace(s[i]) {
		i++
	}
	sepEnd = i
	for i < len(s) {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case c == '*' || c == 'x' || c == 'X':
			i++
		default:
			return opEnd, sepEnd, i
		}
		if i == len(s) || s[i] != '.' {
			break
		}
		i++
	}
	if i == sepEnd {
		return opEnd, sepEnd, i
	}
	for _, mark := range []byte{'-', '+'} {
		if i < len(s) && s[i] == mark {
			i++
			start := i
			for i < len(s) && isSuffixByte(s[i]) {
				i++
			}
			if i == start {
				return opEnd, sepEnd, i
			}
		}
	}
	return opEnd, sepEnd, i
}

func isOperatorByte(c byte) bool {
	return !(c >= '0' && c <= '9' || isScannerSpace(c) || isASCIILetter(c) || c == '.' || c == '*')
}

// isScannerSpace is the scanner's white space: ASCII space, \t, \n, \v,
// \f and \r.
func isScannerSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isSuffixByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '.' || c == '-'
}
