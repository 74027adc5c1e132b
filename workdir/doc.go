// Package workdir initialises a working directory, as "tofu init" (or, in
// the Terraform flavour, "terraform init") does for dependencies: it reads
// the configuration, installs the modules it calls (moduleinstall),
// collects the provider requirements of the whole tree and of the state
// (requirements), installs the providers (providerinstall) and creates or
// updates the dependency lock file (lockfile). It also runs "get" (the
// module step alone) and -from-module (a module copied into an empty
// directory first), and holds the working-directory lock that keeps two
// initialisations of one directory apart.
//
// The package owns the order of that work and every decision in it: which
// step runs in which mode (-upgrade, -lockfile=readonly, -get=false), which
// problems stop it, which diagnostics are reported and in what order. It
// reports what happens through Events (typed callbacks: a module being
// installed, a provider queried, installed or verified, the lock file
// created or changed) and returns typed results with hcl.Diagnostics
// worded as OpenTofu words them.
//
// It does not print, and knows nothing of terminals, colour or JSON: every
// word a person reads outside the diagnostics (progress lines, headings,
// the success text, the Terraform flavour's rewording) is made by the
// caller from the events and results, which is why the boundary sits
// here: the same initialisation is then shown as text, as a live display
// or as JSON lines, or not at all by a program that imports it. It reads
// no environment variable and no global state: the flavour, the emulated
// version, the data directory, the variable values, the sources of
// provider packages, the HTTP client and the caches are all passed in
// Options. The backend is recorded by the caller between the steps (the
// command's backend section prints as it decides); Init, for library
// callers, keeps the default local backend and records nothing.
//
// Init runs every step in order for a caller that shows nothing between
// them. A caller that renders between the steps (the tfdeps command, whose
// output interleaves headings with the steps as OpenTofu's does) calls the
// steps of a Run one by one: LoadRoot, InstallModules, Requirements,
// InstallProviders.
package workdir
