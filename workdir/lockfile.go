package workdir

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
)

// lockUpdate is what init does with the lock file after installing.
type lockUpdate struct {
	old, new *lockfile.Locks
	readOnly bool
	// flavour is the product whose header the written file gets.
	flavour flavour.Flavour
	// incomplete is the incomplete-lock warning (nil when not applicable).
	incomplete *hcl.Diagnostic
	// events hears the file about to be written (may be nil).
	events func(LockFileChange)
	// dir is the working directory ("" for the current one).
	dir string
}

// apply compares the selections and writes the file when they changed
// (constraints ignored). It returns what became of the file, the
// diagnostics to show and whether init must fail.
func (u lockUpdate) apply() (LockFileChange, hcl.Diagnostics, bool) {
	if u.new.Equal(u.old) {
		return LockUnchanged, nil, false
	}
	if u.readOnly {
		if !u.new.EqualProviderAddress(u.old) {
			return LockNotUpdated, hcl.Diagnostics{errorDiag("Provider dependency changes detected",
				wordsOf(u.flavour, `Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "tofu init" without the "-lockfile=readonly" flag.`))}, true
		}
		return LockNotUpdated, hcl.Diagnostics{warningDiag("Provider lock file not updated",
			wordsOf(u.flavour, `Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "tofu init" without the "-lockfile=readonly" flag.`))}, false
	}
	var diags hcl.Diagnostics
	if u.incomplete != nil {
		diags = append(diags, u.incomplete)
	}
	change := LockUpdated
	if u.old.Len() == 0 {
		change = LockCreated
	}
	if u.events != nil {
		u.events(change)
	}
	writeDiags := lockfile.WriteFileIn(u.dir, LockFileName, u.new, u.flavour)
	diags = append(diags, writeDiags...)
	return change, diags, writeDiags.HasErrors()
}
