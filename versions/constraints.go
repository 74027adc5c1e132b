package versions

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	goversions "github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

// Constraint is one version constraint: an operator and a boundary
// version that may omit its minor and patch parts. It is comparable.
type Constraint struct {
	spec constraints.SelectionSpec
}

// Constraints is a list of constraints that all must hold (an
// intersection). The nil list allows every released version.
type Constraints []Constraint

// ParseConstraints parses a comma-separated list of constraints with the
// Ruby-style parser OpenTofu uses for provider requirements and lock files:
// operators "=" (or none), "!=", ">", ">=", "<", "<=", "~>", at most one
// space after the operator, one to three numeric parts, no "v" prefix and no
// wildcards. An empty or all-space string gives no constraints.
//
// Error texts are go-versions' (e.g. `invalid specification "v1.2": a "v"
// prefix should not be used when specifying versions`); configuration
// wraps them as "Incorrect version constraint syntax: %s.".
//
// Deviation: go-versions panics on a version number above 2^64-1 (and so
// does OpenTofu); tfdeps returns an error instead.
func ParseConstraints(s string) (Constraints, error) {
	spec, err := parseRubyStyleMulti(s)
	if err != nil {
		return nil, err
	}
	if len(spec) == 0 {
		return nil, nil
	}
	ret := make(Constraints, len(spec))
	for i, sel := range spec {
		ret[i] = Constraint{spec: sel}
	}
	return ret, nil
}

// MustParseConstraints is ParseConstraints for known-good constants; it
// panics on error and is meant for tests.
func MustParseConstraints(s string) Constraints {
	c, err := ParseConstraints(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Intersect returns the constraints of all the lists together (AND).
func Intersect(lists ...Constraints) Constraints {
	var ret Constraints
	for _, l := range lists {
		ret = append(ret, l...)
	}
	return ret
}

// Exactly returns the constraint "= v".
func Exactly(v Version) Constraints {
	return Constraints{{spec: constraints.SelectionSpec{
		Operator: constraints.OpEqual,
		Boundary: constraints.VersionSpec{
			Major:      constraints.NumConstraint{Num: v.Major},
			Minor:      constraints.NumConstraint{Num: v.Minor},
			Patch:      constraints.NumConstraint{Num: v.Patch},
			Prerelease: v.Prerelease,
			Metadata:   v.Metadata,
		},
	}}}
}

// Allows reports whether v is acceptable under c, prerelease rule included:
// a prerelease is acceptable only when an exact ("=" or bare) constraint
// names it and every other constraint allows it. 0.0.0 is never acceptable
// once any constraint is given.
func (c Constraints) Allows(v Version) bool {
	return c.set().Has(v.lib())
}

func (c Constraints) set() goversions.Set {
	spec := make(constraints.IntersectionSpec, len(c))
	for i, one := range c {
		spec[i] = one.spec
	}
	return goversions.MeetingConstraints(spec)
}

// String returns the canonical constraint string OpenTofu writes into lock
// files and messages: duplicates removed, sorted by boundary then operator,
// each rendered in a normal form, joined with ", " (e.g. ">= 1.0, < 2"
// becomes ">= 1.0.0, < 2.0.0" and "~> 1" becomes "~> 1.0"). The empty list
// gives "".
func (c Constraints) String() string {
	uniq := make([]canonical, 0, len(c))
	seen := make(map[canonical]bool, len(c))
	for _, one := range c {
		k := canonicalOf(one.spec)
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, k)
		}
	}
	slices.SortStableFunc(uniq, compareCanonical)
	parts := make([]string, len(uniq))
	for i, k := range uniq {
		parts[i] = k.render()
	}
	return strings.Join(parts, ", ")
}

// String returns the constraint in canonical form.
func (c Constraint) String() string { return canonicalOf(c.spec).render() }

// canonical is a constraint reduced to what the canonical string shows:
// the operator and the boundary with missing parts set to 0.
type canonical struct {
	op       constraints.SelectionOp
	boundary constraints.VersionSpec
}

func canonicalOf(s constraints.SelectionSpec) canonical {
	return canonical{op: s.Operator, boundary: s.Boundary.ConstrainToZero()}
}

// operatorPriority orders constraints with the same boundary.
func operatorPriority(op constraints.SelectionOp) int {
	switch op {
	case constraints.OpGreaterThan:
		return 1
	case constraints.OpGreaterThanOrEqual:
		return 2
	case constraints.OpEqual:
		return 3
	case constraints.OpGreaterThanOrEqualPatchOnly:
		return 4
	case constraints.OpGreaterThanOrEqualMinorOnly:
		return 5
	case constraints.OpLessThanOrEqual:
		return 6
	case constraints.OpLessThan:
		return 7
	case constraints.OpNotEqual:
		return 8
	default:
		return 9
	}
}

func compareCanonical(a, b canonical) int {
	va, vb := specVersion(a.boundary), specVersion(b.boundary)
	if c := va.Compare(vb); c != 0 {
		return c
	}
	if c := cmp.Compare(va.Metadata, vb.Metadata); c != 0 {
		return c
	}
	return cmp.Compare(operatorPriority(a.op), operatorPriority(b.op))
}

func specVersion(s constraints.VersionSpec) Version {
	return Version{
		Major: s.Major.Num, Minor: s.Minor.Num, Patch: s.Patch.Num,
		Prerelease: s.Prerelease, Metadata: s.Metadata,
	}
}

func (k canonical) render() string {
	v := specVersion(k.boundary)
	var num string
	if k.op == constraints.OpGreaterThanOrEqualMinorOnly {
		num = strconv.FormatUint(v.Major, 10) + "." + strconv.FormatUint(v.Minor, 10)
	} else {
		num = strconv.FormatUint(v.Major, 10) + "." + strconv.FormatUint(v.Minor, 10) + "." + strconv.FormatUint(v.Patch, 10)
	}
	if v.Prerelease != "" {
		num += "-" + v.Prerelease
	}
	if v.Metadata != "" {
		num += "+" + v.Metadata
	}
	return operatorText(k.op) + num
}

func operatorText(op constraints.SelectionOp) string {
	switch op {
	case constraints.OpGreaterThan:
		return "> "
	case constraints.OpGreaterThanOrEqual:
		return ">= "
	case constraints.OpGreaterThanOrEqualPatchOnly, constraints.OpGreaterThanOrEqualMinorOnly:
		return "~> "
	case constraints.OpLessThanOrEqual:
		return "<= "
	case constraints.OpLessThan:
		return "< "
	case constraints.OpNotEqual:
		return "!= "
	default:
		return ""
	}
}

// parseRubyStyleMulti calls the go-versions parser, turning its panic on
// numbers that overflow uint64 into an error.
func parseRubyStyleMulti(s string) (spec constraints.IntersectionSpec, err error) {
	defer func() {
		if r := recover(); r != nil {
			spec, err = nil, fmt.Errorf("invalid specification %q: version number too large", s)
		}
	}()
	return constraints.ParseRubyStyleMulti(s)
}
