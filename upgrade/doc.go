// Package upgrade keeps a root module's dependencies current: it finds
// which providers and registry modules have newer versions (Outdated),
// works out an upgrade (Report.Plan) and carries it out (Plan.Apply).
//
// Outdated reads what "init" installed: the module tree through the
// module manifest (.terraform/modules/modules.json), the provider
// requirements of the whole tree (package requirements) and the lock
// file. It asks each provider's and each registry module package's
// versions once, through a Versions that many root modules of one run can
// share, and never downloads a package.
//
// An upgrade either keeps the version constraints as written
// (KeepConstraints: the newest versions they allow, as "init -upgrade"
// chooses them) or first rewrites the root module's constraints that
// exclude the newest version (BumpConstraints: Bump and BumpModule,
// pure functions that keep each constraint's operators and precision).
// Constraints are found through hclwrite, and only the bytes of the
// version strings are replaced, so comments and layout stay as they were.
// A constraint written in any other module, in a JSON file or as an
// expression is never rewritten: the plan names it as a limit. Apply
// installs through package workdir's init, with the caller's workdir
// options (registry clients, caches, CLI configuration), and puts the
// configuration files, the lock file and the modules directory back as
// they were when anything fails.
//
// The flavour (Options.Flavour) decides the default registry host of
// addresses and how the lock file is read and written; a lock file that
// the other product wrote is noted by Outdated and refused by Apply
// (ErrOtherFlavour).
//
// The package does not print: the "outdated" and "upgrade" commands
// render its reports.
package upgrade
