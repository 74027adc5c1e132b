package lockfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Requirements maps each provider a configuration needs to the intersection
// of its version constraints (nil for none).
type Requirements map[addrs.Provider]versions.Constraints

// ConsistencyOptions adjust [CheckConsistency].
type ConsistencyOptions struct {
	// Overridden lists providers that are not installed from a registry
	// (dev_overrides, unmanaged providers); they are not checked.
	Overridden map[addrs.Provider]bool
	// RequirementsErr, when not nil, says the configuration's requirements
	// could not be determined; it is reported among the errors.
	RequirementsErr error
	// Flavour selects the product whose command CheckConsistency's
	// advice names ("tofu init" or "terraform init").
	Flavour Flavour
}

// InconsistencyErrors returns the per-provider problems of locks against
// reqs, sorted by their text: a required provider without a selection, or a
// selected version that the constraints do not allow. Built-in, legacy and
// overridden providers are skipped; selections nothing requires are fine.
func InconsistencyErrors(reqs Requirements, locks *Locks, opts ConsistencyOptions) []string {
	var errs []string
	if opts.RequirementsErr != nil {
		errs = append(errs, fmt.Sprintf("failed to determine the configuration's provider requirements: %s", opts.RequirementsErr))
	}
	for addr, constraints := range reqs {
		if addr.IsBuiltIn() || addr.IsLegacy() || opts.Overridden[addr] {
			continue
		}
		lock := locks.Provider(addr)
		switch {
		case lock == nil:
			errs = append(errs, fmt.Sprintf("provider %s: required by this configuration but no version is selected", addr))
		case constraints.Allows(lock.version):
			// consistent
		case constraints.String() != lock.constraints.String():
			errs = append(errs, fmt.Sprintf("provider %s: locked version selection %s doesn't match the updated version constraints %q",
				addr, lock.version, constraints.String()))
		default:
			errs = append(errs, fmt.Sprintf("provider %s: version constraints %q don't match the locked version selection %s",
				addr, constraints.String(), lock.version))
		}
	}
	slices.Sort(errs)
	return errs
}

// CheckConsistency returns OpenTofu's "Inconsistent dependency lock file"
// error when [InconsistencyErrors] finds any problem, else nothing.
func CheckConsistency(reqs Requirements, locks *Locks, opts ConsistencyOptions) hcl.Diagnostics {
	errs := InconsistencyErrors(reqs, locks, opts)
	if len(errs) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("The following dependency selections recorded in the lock file are inconsistent with the current configuration:")
	for _, e := range errs {
		b.WriteString("\n  - " + e)
	}
	if locks.Len() == 0 {
		b.WriteString("\n\nTo make the initial dependency selections that will initialize the dependency lock file, run:\n  " + opts.Flavour.Command() + " init")
	} else {
		b.WriteString("\n\nTo update the locked dependency selections to match a changed configuration, run:\n  " + opts.Flavour.Command() + " init -upgrade")
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Inconsistent dependency lock file",
		Detail:   b.String(),
	}}
}
