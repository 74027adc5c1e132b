package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/internal/providertree"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/workdir"
)

const providersHelp = `
Usage: tfdeps [global options] providers [options]

  Shows which providers the configuration needs and why: the module tree,
  each module with the providers and version constraints it declares or
  implies, then the providers used by resources in the local state. The
  layout is that of "tofu providers".

  Child modules, local ones included, are read through
  .terraform/modules/modules.json as written by "tofu init": a module that
  is not installed, or whose source or version constraint changed since,
  is an error (exit 1), as in "tofu providers".

Options:

  -json         Print the requirements as JSON: every provider with its
                canonical version constraints and the modules, files and
                declarations that require it. Every diagnostic goes into
                the document ("diagnostics"), the CLI configuration's
                problems and command-line errors included, so that stdout
                is always one JSON value; nothing is written to stderr
                (but for a failing -chdir or a bad global option, also
                printed there as text).

  -state=PATH   The local state file whose resources' providers are listed.
                Default: terraform.tfstate, or the current workspace's
                terraform.tfstate.d/NAME/terraform.tfstate.

  -test-directory=DIR  The directory of test files besides the module's own
                (default "tests"); the providers test files require are
                shown as test.NAME branches.
`

// providersOptions are the flags of the providers command.
type providersOptions struct {
	json      bool
	statePath string
	testsDir  string
}

func runProviders(m *Meta, args []string) int {
	fs := newFlagSet(m, "providers", providersHelp)
	var opts providersOptions
	fs.BoolVar(&opts.json, "json", false, "")
	fs.StringVar(&opts.statePath, "state", "", "")
	fs.StringVar(&opts.testsDir, "test-directory", config.DefaultTestsDir, "")
	vars := addVarFlags(m, fs)
	jsonFailure := func(diags hcl.Diagnostics) int { return printProvidersJSON(m, &requirements.Result{}, diags, nil) }
	if code, ok := parseDocumentFlags(m, fs, args, jsonFailure); !ok {
		return code
	}
	if fs.NArg() > 0 {
		if opts.json {
			return jsonFailure(hcl.Diagnostics{unexpectedArgumentDiag()})
		}
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	// With -json, the CLI configuration's problems go into the document
	// (tofu prints its warnings on stdout, before anything else).
	var cliCfg *cliconfig.Config
	var cliDiags hcl.Diagnostics
	if opts.json {
		cliCfg, cliDiags = readCLIConfig(m, m.cliConfigOptions())
	} else {
		cliCfg = loadCLIConfig(m, m.cliConfigOptions())
	}
	if opts.statePath == "" {
		opts.statePath = initrun.DefaultStatePath(&initrun.Env{Getenv: m.Getenv})
	}

	if diags := noConfigurationFiles(m, ""); diags != nil && !(m.Flavour == flavour.Terraform && hasTestFiles(opts.testsDir)) {
		// terraform providers counts test files as configuration.
		return printProvidersErrors(m, vars, diags, opts.json, cliDiags)
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printProvidersErrors(m, vars, varDiags, opts.json, cliDiags)
	}
	res, diags := requirements.Load(".", requirements.Options{
		Config:    m.configOptions(append([]config.Option{config.WithTestsDir(opts.testsDir)}, varOpts...)...),
		StateFile: opts.statePath,
	})
	if m.Flavour == flavour.Terraform {
		diags = workdir.WithoutMockDataAfterErrors(diags)
	}
	if !hasConfigErrors(diags) {
		// tofu loads the root module a second time (without test files)
		// for its encryption settings, before it collects requirements;
		// the JSON output is tfdeps' own and shows each warning once.
		// terraform providers shows the warnings of one load only.
		if !opts.json && m.Flavour != flavour.Terraform {
			diags = withRootWarningsAgain(m, "", diags)
		}
		if !opts.json {
			diags = withoutOwnWarnings(diags)
		}
		diags = append(diags, backendDiags(res.Tree)...)
		if !diags.HasErrors() {
			diags = append(diags, installedPluginDiags(m, cliCfg.DevOverrides())...)
		}
	}
	if opts.json {
		return printProvidersJSON(m, res, diags, cliDiags)
	}
	printer := newDiagPrinter(m, treeFiles(res.Tree))
	printer.ExtraNewline = true
	if diags.HasErrors() {
		printer.Print(diags)
		return 1
	}
	providertree.Write(m.Stdout, res, m.Flavour)
	printer.Print(diags)
	return 0
}

// backendDiags are the problems tofu providers finds when it opens the
// root module's backend: an unknown type, or a backend or cloud block not
// yet initialised (no .terraform/terraform.tfstate). An initialised
// non-local backend gets tfdeps' own warning that its state was not read
// (a deviation: tofu would read the remote state).
func backendDiags(tree *config.Tree) hcl.Diagnostics {
	if tree == nil || tree.Module == nil {
		return nil
	}
	mod := tree.Module
	_, statErr := os.Stat(filepath.Join(".terraform", "terraform.tfstate"))
	initialised := statErr == nil
	switch {
	case mod.Cloud != nil && mod.Backend == nil:
		if !initialised {
			return hcl.Diagnostics{cloudInitRequired(mod.Flavour())}
		}
		return stateNotRead("cloud", mod.Cloud.DeclRange)
	case mod.Backend != nil:
		b := mod.Backend
		if !knownBackends[b.Type] {
			detail := fmt.Sprintf("There is no backend type named %q.", b.Type)
			if msg, ok := removedBackends[b.Type]; ok {
				detail = msg
				if msg == "" {
					detail = fmt.Sprintf("The %q backend is not supported in %s v1.3 or later.", b.Type, mod.Flavour().Product())
				}
			}
			d := errorDiag("Invalid backend type", detail)
			d.Subject = b.TypeRange.Ptr()
			return hcl.Diagnostics{d}
		}
		if !initialised {
			f := mod.Flavour()
			return hcl.Diagnostics{errorDiag(fmt.Sprintf(`Backend initialization required, please run "%s init"`, f.Command()),
				backendInitTextIn(f, fmt.Sprintf("Initial configuration of the requested backend %q", b.Type)))}
		}
		if b.Type != "local" {
			return stateNotRead(fmt.Sprintf("%q backend", b.Type), b.DeclRange)
		}
	}
	return nil
}

func stateNotRead(kind string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "State not read",
		Detail:   fmt.Sprintf("This configuration keeps its state with the %s. tfdeps reads only local state files, so providers that only the state requires are not listed.", kind),
		Subject:  rng.Ptr(),
	}}
}

// installedPluginDiags is what tofu providers reports when it prepares
// the providers the lock file selects: the lock file's errors folded into
// one, or the selected packages missing from .terraform/providers for
// this platform (dev overrides excepted).
func installedPluginDiags(m *Meta, devOverrides map[addrs.Provider]string) hcl.Diagnostics {
	locks, _, diags := lockfile.ReadFile(lockFileName, m.lockReadOptions())
	if diags.HasErrors() && m.Flavour == flavour.Terraform {
		// terraform providers shows the lock file's errors as they are.
		return diags
	}
	if diags.HasErrors() {
		return hcl.Diagnostics{workdir.LockReadFailure(diags)}
	}
	platform, err := addrs.ParsePlatform(m.Platform)
	if err != nil {
		return nil
	}
	base := filepath.Join(dataDir(m), "providers")
	dir := providerinstall.NewDir(base)
	var missing []string
	for _, lock := range locks.Providers() {
		p := lock.Provider()
		if _, ok := devOverrides[p]; ok {
			continue
		}
		if _, ok := dir.Lookup(p, lock.Version(), platform); !ok {
			missing = append(missing, fmt.Sprintf("\n  - %s: there is no package for %s %s cached in %s", p, p, lock.Version(), base))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return hcl.Diagnostics{errorDiag("Required plugins are not installed", fmt.Sprintf(
		"The installed provider plugins are not consistent with the packages selected in the dependency lock file:%s\n\n"+
			"%s uses external plugins to integrate with a variety of different infrastructure services. %s",
		strings.Join(missing, ""), m.Flavour.Product(), pluginSuggestion(m)))}
}

func pluginSuggestion(m *Meta) string {
	if m.Getenv("TF_IN_AUTOMATION") != "" {
		return fmt.Sprintf("You must install the required plugins before running %s operations.", m.Flavour.Product())
	}
	return "To download the plugins required for this configuration, run:\n  " + m.Flavour.Command() + " init"
}

// knownBackends are the backend types of OpenTofu 1.12.
var knownBackends = map[string]bool{
	"local": true, "remote": true, "azurerm": true, "consul": true, "cos": true, "gcs": true, "http": true,
	"inmem": true, "kubernetes": true, "oss": true, "pg": true, "s3": true, "cloud": true,
}

// removedBackends are the backend types the products name as removed:
// "" is "not supported in PRODUCT v1.3 or later".
var removedBackends = map[string]string{
	"artifactory": "",
	"azure":       `The "azure" backend name has been removed, please use "azurerm".`,
	"etcd":        "",
	"etcdv3":      "",
	"manta":       "",
	"swift":       "",
}

// backendInitTextIn is the detail of "Backend initialization required"
// for the given reason, in flavour f's words.
func backendInitTextIn(f flavour.Flavour, reason string) string {
	p, c := f.Product(), f.Command()
	return "Reason: " + reason + `

The "backend" is the interface that ` + p + ` uses to store state,
perform operations, etc. If this message is showing up, it means that the
` + p + ` configuration you're using is using a custom configuration for
the ` + p + ` backend.

Changes to backend configurations require reinitialization. This allows
` + p + ` to set up the new configuration, copy existing state, etc. Please run
"` + c + ` init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`
}

// cloudInitRequired is the error for a cloud block not yet initialised, in
// the words of flavour f (Terraform's cloud block configures "HCP
// Terraform or Terraform Enterprise").
func cloudInitRequired(f flavour.Flavour) *hcl.Diagnostic {
	summary := `Cloud backend initialization required: please run "tofu init"`
	reason, block := "Initial configuration of cloud backend", "the cloud backend configuration"
	if f == flavour.Terraform {
		summary = `HCP Terraform or Terraform Enterprise initialization required: please run "terraform init"`
		reason, block = "Initial configuration of HCP Terraform or Terraform Enterprise", "the HCP Terraform configuration"
	}
	return errorDiag(summary, "Reason: "+reason+".\n\n"+
		"Changes to "+block+" block require reinitialization, to discover any changes to the available workspaces.\n\n"+
		"To re-initialize, run:\n  "+f.Command()+" init\n\n"+
		f.Product()+" has not yet made changes to your existing configuration or state.")
}

// treeFiles collects the parsed files of every module of the tree, for
// source snippets in diagnostics.
func treeFiles(tree *config.Tree) map[string]*hcl.File {
	files := map[string]*hcl.File{}
	if tree == nil {
		return files
	}
	tree.Walk(func(t *config.Tree) {
		if t.Module == nil {
			return
		}
		for name, f := range t.Module.ParsedFiles() {
			files[name] = f
		}
	})
	return files
}

// printProvidersJSON writes the requirements as one JSON document and
// returns the exit code: 1 when diags has errors. cliDiags, the CLI
// configuration's problems, come first in the document's diagnostics and
// do not change the exit code (tofu carries on after them).
func printProvidersJSON(m *Meta, res *requirements.Result, diags, cliDiags hcl.Diagnostics) int {
	if err := writeDocument(m, newProvidersJSON(m, res, diags, cliDiags)); err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
		return 1
	}
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// providersJSON is the document "providers -json" prints.
type providersJSON struct {
	FormatVersion string               `json:"format_version"`
	Providers     []providerJSON       `json:"providers"`
	Modules       []moduleJSON         `json:"modules"`
	Diagnostics   []documentDiagnostic `json:"diagnostics"`
}

type providerJSON struct {
	Address     string `json:"address"`
	DisplayName string `json:"display_name"`
	// VersionConstraints is the canonical intersection of all constraints.
	VersionConstraints string           `json:"version_constraints"`
	Explicit           bool             `json:"explicit"`
	BuiltIn            bool             `json:"built_in"`
	InState            bool             `json:"in_state"`
	RequiredBy         []requiredByJSON `json:"required_by"`
}

type requiredByJSON struct {
	Module             string `json:"module"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	VersionConstraints string `json:"version_constraints,omitempty"`
	File               string `json:"file,omitempty"`
	Line               int    `json:"line,omitempty"`
}

type moduleJSON struct {
	Path      string            `json:"path"`
	Dir       string            `json:"dir"`
	Providers map[string]string `json:"providers"`
}

func newProvidersJSON(m *Meta, res *requirements.Result, diags, cliDiags hcl.Diagnostics) providersJSON {
	fl := m.Flavour
	doc := providersJSON{FormatVersion: "1.0", Providers: []providerJSON{}, Modules: []moduleJSON{}}
	inState := map[string]bool{}
	for _, p := range res.State {
		inState[p.String()] = true
	}
	for _, p := range res.Sorted() {
		pj := providerJSON{
			Address:            p.String(),
			DisplayName:        p.ForDisplayIn(fl),
			VersionConstraints: res.Providers[p].String(),
			Explicit:           res.Explicit[p],
			BuiltIn:            p.IsBuiltIn(),
			InState:            inState[p.String()],
			RequiredBy:         []requiredByJSON{},
		}
		for _, src := range res.Sources[p] {
			rb := requiredByJSON{Module: src.Module, Kind: string(src.Kind), Name: src.Name, VersionConstraints: src.Constraints.String()}
			if src.Range.Filename != "" {
				rb.File, rb.Line = filepath.ToSlash(src.Range.Filename), src.Range.Start.Line
			}
			pj.RequiredBy = append(pj.RequiredBy, rb)
		}
		doc.Providers = append(doc.Providers, pj)
	}
	for _, mod := range res.Modules() {
		mj := moduleJSON{Path: mod.Path, Dir: filepath.ToSlash(mod.Dir), Providers: map[string]string{}}
		for p, c := range mod.Providers {
			mj.Providers[p.String()] = c.String()
		}
		doc.Modules = append(doc.Modules, mj)
	}
	doc.Diagnostics = append(documentDiagnostics(m, cliDiags), documentDiagnostics(m, diags)...)
	return doc
}

// printProvidersErrors prints errors found before the configuration is
// loaded (no configuration files, bad -var options) as providers prints
// diagnostics: JSON with -json (after cliDiags), else text with tofu's
// blank line after each diagnostic.
func printProvidersErrors(m *Meta, v *varFlags, diags hcl.Diagnostics, asJSON bool, cliDiags hcl.Diagnostics) int {
	if asJSON {
		return printProvidersJSON(m, &requirements.Result{}, diags, cliDiags)
	}
	p := newDiagPrinter(m, v.files)
	p.ExtraNewline = true
	p.Print(diags)
	return 1
}

// hasTestFiles reports whether the working directory or its tests
// directory holds Terraform test files.
func hasTestFiles(testsDir string) bool {
	files, diags := config.DiscoverFiles(config.OSFileSystem{}, ".", testsDir, flavour.Terraform)
	return !diags.HasErrors() && len(files.Tests) > 0
}
