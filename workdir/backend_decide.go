package workdir

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// backendAction is what init does with the backend, decided by
// decideBackend from the configuration and what was recorded before.
type backendAction int

const (
	// backendLocalDefault: no backend block, none recorded: the default
	// local backend, nothing to write.
	backendLocalDefault backendAction = iota
	// backendUnchanged: the recorded backend is the configured one.
	backendUnchanged
	// backendRehash: the same settings, written differently (an argument
	// moved between the block and -backend-config): only the recorded
	// hash changes, silently.
	backendRehash
	// backendConfigure: the first configuration of a backend (or
	// -reconfigure): the record is written and init says so.
	backendConfigure
	// backendCloudUpdate: a cloud block whose settings changed: the
	// record is rewritten after "Cloud backend configuration has changed."
	backendCloudUpdate
	// backendMigrateEmpty: the backend changed with -migrate-state, and
	// the previous backend's state is known to be empty: nothing to
	// copy; the new backend is recorded after the tool's notice.
	backendMigrateEmpty
	// backendUnset: the block was removed with -migrate-state and the
	// previous backend's state is known to be empty: the record loses
	// its backend.
	backendUnset
	// backendRefused: init stops with diags (the reference tool's errors,
	// or tfdeps' own where the tool would migrate state).
	backendRefused
)

// backendSituation is what decideBackend decides from.
type backendSituation struct {
	// config is the type of backend the root module configures ("":
	// none; a cloud block is the type "cloud"), hash its block's hash.
	config string
	hash   uint64
	// saved is the type of backend recorded in the working directory
	// ("": none), savedHash its hash; sameConfig is set when the
	// recorded settings equal the configured ones (-backend-config
	// merged in).
	saved      string
	savedHash  uint64
	sameConfig bool
	// overrides is set when -backend-config was given (even as the
	// single empty value that clears the others).
	overrides bool
	// localStates is set when a workspace of the default local backend
	// has a non-empty state (which configuring a backend would copy).
	localStates bool
	// sourceEmpty is set when the recorded backend's state is known to
	// be empty (a single workspace, nothing in it): migrating it copies
	// nothing.
	sourceEmpty                          bool
	reconfigure, migrateState, forceCopy bool
}

// decideBackend chooses what init does with the backend, as the reference
// tool chooses: reusing an unchanged backend, configuring a new one, or
// refusing a change that needs -reconfigure or -migrate-state. Where the
// tool would migrate state (-migrate-state, or a cloud block coming or
// going) tfdeps refuses with its own error: it does not migrate state.
func decideBackend(s backendSituation, p product) (backendAction, hcl.Diagnostics) {
	saved, c := s.saved, s.config
	if s.reconfigure {
		saved = ""
	}
	switch {
	case c == "" && saved == "":
		return backendLocalDefault, nil
	case c == "":
		// The backend block was removed: the state would move back to the
		// local backend.
		if saved != "cloud" && !s.migrateState {
			return backendRefused, hcl.Diagnostics{migrateOrReconfigureDiag(p)}
		}
		if d := cloudOptionDiags(p, s, saved == "cloud", true); d != nil {
			return backendRefused, d
		}
		if saved != "cloud" && s.sourceEmpty {
			return backendUnset, nil
		}
		return backendRefused, hcl.Diagnostics{noMigrationDiag(p, s, saved, "local")}
	case saved == "":
		if d := cloudOptionDiags(p, s, c == "cloud", s.localStates); d != nil {
			return backendRefused, d
		}
		if s.localStates {
			return backendRefused, hcl.Diagnostics{noMigrationDiag(p, s, "local", c)}
		}
		return backendConfigure, nil
	}
	if s.hash == s.savedHash && !s.overrides {
		return backendUnchanged, nil
	}
	if c == saved && s.sameConfig {
		return backendRehash, nil
	}
	switch {
	case c == "cloud" && saved == "cloud":
		if d := cloudOptionDiags(p, s, true, false); d != nil {
			return backendRefused, d
		}
		return backendCloudUpdate, nil
	case c == "cloud" || saved == "cloud":
		if d := cloudOptionDiags(p, s, true, true); d != nil {
			return backendRefused, d
		}
		return backendRefused, hcl.Diagnostics{noMigrationDiag(p, s, saved, c)}
	case !s.migrateState:
		return backendRefused, hcl.Diagnostics{migrateOrReconfigureDiag(p)}
	case s.sourceEmpty:
		return backendMigrateEmpty, nil
	}
	return backendRefused, hcl.Diagnostics{noMigrationDiag(p, s, saved, c)}
}

// product is how the flavour names its command ("tofu" or "terraform")
// in the backend's messages, and whether it is Terraform (whose cloud is
// "HCP Terraform").
type product struct {
	cmd       string
	terraform bool
}

// migrateOrReconfigureDiag is the error for a changed or removed backend
// without -reconfigure or -migrate-state.
func migrateOrReconfigureDiag(p product) *hcl.Diagnostic {
	return errorDiag("Backend configuration changed",
		"A change in the backend configuration has been detected, which may require migrating existing state.\n\n"+
			fmt.Sprintf("If you wish to attempt automatic migration of the state, use \"%s init -migrate-state\".\n", p.cmd)+
			fmt.Sprintf("If you wish to store the current configuration with no changes to the state, use \"%s init -reconfigure\".", p.cmd))
}

// noMigrationDiag is tfdeps' own error where the reference tool would
// copy state from one backend to another: tfdeps leaves that to the tool.
func noMigrationDiag(p product, s backendSituation, from, to string) *hcl.Diagnostic {
	command := p.cmd + " init -migrate-state"
	if from == "cloud" || to == "cloud" || s.saved == "" || s.reconfigure {
		command = p.cmd + " init"
	}
	return errorDiag("State migration is not supported by tfdeps",
		fmt.Sprintf("Using the new backend configuration may require copying the existing state from the previous backend (%q) to the new one (%q), which tfdeps does not do. To migrate the state, run \"%s\". To use the new configuration without migrating any state, run \"tfdeps init -reconfigure\". Nothing has been changed.", from, to, command))
}

// cloudOptionDiags are the errors for -reconfigure and -migrate-state
// when the change involves a cloud block (involved), and migration when
// state would move into or out of the cloud.
func cloudOptionDiags(p product, s backendSituation, involved, migration bool) hcl.Diagnostics {
	if !involved {
		return nil
	}
	cloud := "cloud backend"
	if p.terraform {
		cloud = "HCP Terraform"
	}
	var diags hcl.Diagnostics
	if s.reconfigure {
		if migration {
			diags = append(diags, errorDiag("Invalid command-line option", "The -reconfigure option is unsupported when migrating to "+cloud+", because activating "+cloud+" involves some additional steps."))
		} else {
			diags = append(diags, errorDiag("Invalid command-line option", "The -reconfigure option is for in-place reconfiguration of state backends only, and is not needed when changing "+cloud+" settings.\n\nWhen using "+cloud+", initialization automatically activates any new Cloud configuration settings."))
		}
	}
	if s.migrateState {
		name := "-migrate-state"
		if s.forceCopy {
			name = "-force-copy"
		}
		if migration {
			steps := capitalise(cloud) + " migration has additional steps"
			if p.terraform {
				steps = "HCP Terraform migrations have additional steps"
			}
			diags = append(diags, errorDiag("Invalid command-line option", fmt.Sprintf("The %s option is for migration between state backends only, and is not applicable when using %s.\n\n%s, configured by interactive prompts.", name, cloud, steps)))
		} else {
			diags = append(diags, errorDiag("Invalid command-line option", fmt.Sprintf("The %s option is for migration between state backends only, and is not applicable when using %s.\n\nState storage is handled automatically by %s and so the state storage location is not configurable.", name, cloud, cloud)))
		}
	}
	return diags
}

func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// productOf names the flavour in the backend's messages.
func productOf(f flavour.Flavour) product {
	if f == flavour.Terraform {
		return product{cmd: "terraform", terraform: true}
	}
	return product{cmd: "tofu"}
}
