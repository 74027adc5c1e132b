package upgrade

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/versions"
)

// Bump rewrites a provider version constraint (OpenTofu's syntax, as
// versions.ParseConstraints reads it) so that it allows v, keeping each
// part's operator, precision and spacing: only version numbers change.
//
//   - a constraint that already allows v is returned unchanged;
//   - "~>" moves its floor to v's major ("~> 1.0" becomes "~> 2.0") or, at
//     patch precision, to v's minor ("~> 1.2.3" becomes "~> 2.0.0" for
//     2.0.x);
//   - an exact pin ("1.2.3", "= 1.2.3") becomes v;
//   - an upper bound "< X" that excludes v moves by the step of its last
//     non-zero part ("< 2.0" becomes "< 3.0" for 2.x, "< 1.5" becomes
//     "< 2.4" for 2.3.x); "<= X" becomes v;
//   - lower bounds are kept; "!= v" cannot be bumped and is an error.
//
// The result is checked: it must parse and allow v. An unparseable
// constraint is an error, as is a prerelease v.
func Bump(constraint string, v versions.Version) (string, error) {
	return bump(constraint, v, func(s string) (bool, error) {
		c, err := versions.ParseConstraints(s)
		if err != nil {
			return false, err
		}
		return c.Allows(v), nil
	})
}

// BumpModule is Bump for a module call's version constraint, which
// OpenTofu reads with hashicorp/go-version (a "v" prefix is accepted).
func BumpModule(constraint string, v versions.Version) (string, error) {
	return bump(constraint, v, func(s string) (bool, error) {
		chosen, _, _, err := moduleaddr.SelectVersion([]string{v.String()}, s)
		var nm *moduleaddr.NoMatchError
		if errors.As(err, &nm) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return chosen == v.String(), nil
	})
}

// constraintPart is one comma-separated part: its operator, spacing and
// version, and the precision (1 to 3 numeric parts) it was written with.
var constraintPart = regexp.MustCompile(`^(\s*)(=|!=|>=|<=|>|<|~>)?(\s*)(v?)([0-9]+(?:\.[0-9]+){0,2})(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?(\s*)$`)

func bump(constraint string, v versions.Version, allows func(string) (bool, error)) (string, error) {
	ok, err := allows(constraint)
	if err != nil {
		return "", err
	}
	if ok {
		return constraint, nil
	}
	if v.IsPrerelease() {
		return "", fmt.Errorf("will not bump %q to the prerelease %s", constraint, v)
	}
	parts := strings.Split(constraint, ",")
	for i, part := range parts {
		if alone, err := allows(part); err == nil && alone {
			continue // this part is not what excludes v
		}
		m := constraintPart.FindStringSubmatch(part)
		if m == nil {
			return "", fmt.Errorf("cannot read the constraint part %q", strings.TrimSpace(part))
		}
		nums, err := parseParts(m[5])
		if err != nil {
			return "", err
		}
		next, err := bumpPart(m[2], nums, v)
		if err != nil {
			return "", fmt.Errorf("%q: %w", constraint, err)
		}
		if next == nil {
			continue
		}
		parts[i] = m[1] + m[2] + m[3] + m[4] + formatParts(next) + m[8]
	}
	out := strings.Join(parts, ",")
	ok, err = allows(out)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%q cannot be rewritten to allow %s while keeping its operators", constraint, v)
	}
	return out, nil
}

// bumpPart is the new version of one part (nil: unchanged), at the part's
// precision where that loses nothing.
func bumpPart(op string, nums []uint64, v versions.Version) ([]uint64, error) {
	full := []uint64{v.Major, v.Minor, v.Patch}
	prec := len(nums)
	cur := versionOf(nums)
	switch op {
	case "", "=":
		if cur.Same(v) {
			return nil, nil
		}
		return atPrecision(full, prec), nil
	case "~>":
		switch prec {
		case 1:
			return []uint64{v.Major}, nil
		case 2:
			return []uint64{v.Major, 0}, nil
		default:
			return []uint64{v.Major, v.Minor, 0}, nil
		}
	case "<":
		if v.LessThan(cur) {
			return nil, nil
		}
		step := prec - 1
		for step > 0 && nums[step] == 0 {
			step--
		}
		next := make([]uint64, prec)
		copy(next, full[:step])
		next[step] = full[step] + 1
		return next, nil
	case "<=":
		if !cur.LessThan(v) {
			return nil, nil
		}
		return atPrecision(full, prec), nil
	case "!=":
		if cur.Same(v) {
			return nil, fmt.Errorf("it excludes %s itself", v)
		}
	}
	return nil, nil
}

// atPrecision is full cut to prec parts when the parts dropped are zero,
// else full.
func atPrecision(full []uint64, prec int) []uint64 {
	for _, n := range full[prec:] {
		if n != 0 {
			return full
		}
	}
	return full[:prec]
}

func parseParts(s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ".") {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil || n > 1<<53 {
			return nil, fmt.Errorf("version number %q is too large", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func formatParts(nums []uint64) string {
	s := make([]string, len(nums))
	for i, n := range nums {
		s[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(s, ".")
}

func versionOf(nums []uint64) versions.Version {
	var v versions.Version
	v.Major = nums[0]
	if len(nums) > 1 {
		v.Minor = nums[1]
	}
	if len(nums) > 2 {
		v.Patch = nums[2]
	}
	return v
}
