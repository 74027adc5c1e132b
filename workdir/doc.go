// Package workdir initialises a working directory, as "tofu init" (or, in
// the Terraform flavour, "terraform init") does for dependencies: it reads
// the configuration, installs the modules it calls (moduleinstall),
// records the backend (backend), collects the provider requirements of the
// whole tree and of the state (requirements), installs the providers
// (providerinstall) and creates or updates the dependency lock file
// (lockfile). It also runs "get" (the module step alone) and -from-module
// (a module copied into an empty directory first), and holds the
// working-directory lock that keeps two initialisations of one directory
// apart.
//
// The package owns the order of that work and every decision in it: which
// step runs in which mode (-upgrade, -lockfile=readonly, -get=false,
// -backend=false), which problems stop it, which diagnostics are reported
// and in what order. It reports what happens through Events (typed
// callbacks: a module downloaded or installed, a provider queried,
// installed or verified, the lock file created or changed, the backend
// configured, changed or unset) and returns typed results and
// hcl.Diagnostics worded as OpenTofu words them, with typed errors
// (ErrConfiguration, ErrFailed, ErrUpgradeReadOnly, *WorkspaceError, or
// the context's error) that say how a step ended.
//
// It does not print, and knows nothing of terminals, colour or JSON: every
// word a person reads outside the diagnostics (progress lines, headings,
// the success text, the Terraform flavour's rewording) is made by the
// caller from the events and results. That is why the boundary sits
// here: the same initialisation is shown as text, as a live display or as
// JSON lines by the tfdeps command, or not at all by a program that
// imports this package. It reads no environment variable and keeps no
// global state: the flavour and its version, the data directory, the
// variable values (and the prompt for missing ones, as loader options),
// the CLI configuration, the registry client, the sources of provider
// packages, the HTTP client and the caches come in Options; the backend
// flags, the selected workspace and the contact with remote backends
// (-backend-check, which may ask for input) in BackendOptions.
//
// The working directory is Options.Dir, or the process's current
// directory when it is "". Every file is read and written relative to it,
// and every path recorded or shown is as from inside it (diagnostics name
// "main.tf", modules.json and events ".terraform/modules/x"), as the
// reference tools show them after -chdir; relative paths in the options
// are relative to it too. The package never changes the current
// directory and keeps no global state, so initialisations of different
// directories can run at once in one process.
//
// Init runs the steps in order for a caller that shows nothing between
// them; it keeps the default local backend (no backend block: nothing to
// record). A caller that renders between the steps, as the tfdeps command
// does (its output interleaves headings with the steps, as OpenTofu's and
// Terraform's do, in each flavour's order), calls the steps of a Run one
// by one: LoadRoot, Backend, InstallModules (or CheckModulesInstalled),
// Requirements, InstallProviders; Get for get, CopyFromModule for
// -from-module.
package workdir
