package cli

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
}

// apply compares the selections and writes the file when they changed
// (constraints ignored). It returns the diagnostics to show and whether
// init must fail.
func (u lockUpdate) apply(view initView) (hcl.Diagnostics, bool) {
	if u.new.Equal(u.old) {
		return nil, false
	}
	if u.readOnly {
		if !u.new.EqualProviderAddress(u.old) {
			return hcl.Diagnostics{errorDiag("Provider dependency changes detected",
				`Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "tofu init" without the "-lockfile=readonly" flag.`)}, true
		}
		return hcl.Diagnostics{warningDiag("Provider lock file not updated",
			`Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "tofu init" without the "-lockfile=readonly" flag.`)}, false
	}
	var diags hcl.Diagnostics
	if u.incomplete != nil {
		diags = append(diags, u.incomplete)
	}
	if u.old.Len() == 0 {
		view.Message("lock_created", lockCreatedText, false)
	} else {
		view.Message("lock_changed", lockChangedText, false)
	}
	writeDiags := lockfile.WriteFile(lockFileName, u.new, u.flavour)
	diags = append(diags, writeDiags...)
	return diags, writeDiags.HasErrors()
}
