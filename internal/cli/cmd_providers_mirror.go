package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/internal/lockview"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/providermirror"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

const providersMirrorUsage = `
Usage: tfdeps [global options] providers mirror [options] <target-dir>

  Downloads, verifies and stores in <target-dir> the provider packages this
  configuration requires, for each platform named with -platform, in the
  packed filesystem-mirror layout (HOST/NAMESPACE/TYPE/*.zip).

  The directory works as a filesystem_mirror as it is. It also holds the
  index.json and VERSION.json files of the network mirror protocol, so a
  static HTTPS server can publish it as a network_mirror. Unlike OpenTofu's,
  each VERSION.json lists both the h1: and the zh: hash of every package,
  so clients can lock every platform without downloading.

  Running it again downloads only what is missing.

  With -oci, each provider version is also pushed into the OCI repository
  TEMPLATE names (an oci_mirror repository_template using ${hostname},
  ${namespace}, ${type}), each zip checked first against the zh: its origin
  registry signed, blobs already there skipped; <target-dir> is optional.

Options:

  -platform=os_arch  Choose which target platform to build a mirror for.
                     May be repeated; default: the current platform.

  -parallelism=N     At most N concurrent requests per host (default 4).

  -oci=TEMPLATE      Also push into OCI repositories, for oci_mirror.
`

// runProvidersMirror implements "tfdeps providers mirror".
func runProvidersMirror(m *Meta, args []string) int {
	var platformFlags []string
	fs := newFlagSet(m, "providers mirror", providersMirrorUsage)
	fs.Var((*stringList)(&platformFlags), "platform", "")
	parallelism := fs.Int("parallelism", providerlock.DefaultParallelism, "")
	ociTemplate := fs.String("oci", "", "")
	vars := addVarFlags(m, fs)
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printVarErrorsExtra(m, vars, varDiags)
	}
	*parallelism = max(*parallelism, 1)
	var diags hcl.Diagnostics
	if fs.NArg() > 1 || (fs.NArg() == 0 && *ociTemplate == "") {
		diags = append(diags, errorDiag("Wrong number of arguments", "The providers mirror command requires an output directory as a command-line argument."))
		printMirrorDiags(m, diags, nil)
		return 1
	}
	platforms, platformDiags := parsePlatformFlags(m, platformFlags)
	req, res, diags := providermirror.ReadModule(".", providermirror.ModuleOptions{
		Config: m.configOptions(varOpts...), LockFile: m.lockReadOptions(), Flavour: m.Flavour,
		Platforms: platforms, Diagnostics: append(diags, platformDiags...),
	})
	if req == nil {
		printMirrorDiags(m, diags, res)
		return 1
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	client := limitedRegistryClient(m, cfg, *parallelism)
	oci, ociDiags := providersource.NewOCIPushTarget("-oci", *ociTemplate, providersource.BuildOptions{Config: cfg, Registry: client, Getenv: m.Getenv})
	if diags = append(diags, ociDiags...); ociDiags.HasErrors() {
		printMirrorDiags(m, diags, res)
		return 1
	}
	b := &providermirror.Builder{
		Source: providersource.NewMemoize(providersource.NewRegistry(client, m.Getenv, nil)), Client: client,
		Target: fs.Arg(0), Parallelism: *parallelism, OCI: oci,
	}
	ev := mirrorEvents(m)
	var live *livedisplay.Display
	if liveDisplayWanted(m, !m.Color) {
		live = livedisplay.OnTerminal(m.Stdout)
		pushed := ev.Pushed
		ev = lockview.MirrorLive(live, m.Flavour, ev)
		ev.Pushed = func(p addrs.Provider, v versions.Version, r providersource.OCIPushResult) {
			live.Print(func() { pushed(p, v, r) })
		}
	}
	problems := b.Build(ctx, *req, ev)
	if live != nil {
		live.Close()
	}
	diags = append(diags, providermirror.Diagnostics(problems)...)
	printMirrorDiags(m, diags, res)
	if diags.HasErrors() {
		return 1
	}
	return 0
}

func mirrorEvents(m *Meta) *providermirror.Events {
	fl := m.Flavour
	out := m.Stdout
	return &providermirror.Events{
		Skipping: func(p addrs.Provider) {
			fmt.Fprintf(out, "- Skipping %s because it is built in to %s CLI\n", p.ForDisplayIn(fl), fl.Product())
		},
		Mirroring: func(p addrs.Provider) { fmt.Fprintf(out, "- Mirroring %s...\n", p.ForDisplayIn(fl)) },
		Selected: func(p addrs.Provider, v versions.Version, locked bool, c versions.Constraints) {
			switch {
			case locked:
				fmt.Fprintf(out, "  - Selected v%s to match dependency lock file\n", v)
			case c.String() != "":
				fmt.Fprintf(out, "  - Selected v%s to meet constraints %s\n", v, c.String())
			default:
				fmt.Fprintf(out, "  - Selected v%s with no constraints\n", v)
			}
		},
		Downloading: func(p addrs.Provider, pl addrs.Platform) {
			fmt.Fprintf(out, "  - Downloading package for %s...\n", pl)
		},
		Authenticated: func(p addrs.Provider, pl addrs.Platform, auth *registry.AuthResult) {
			fmt.Fprintf(out, "  - Package authenticated: %s\n", auth.SummaryFor(fl))
		},
		Pushed: func(p addrs.Provider, v versions.Version, r providersource.OCIPushResult) {
			fmt.Fprintf(out, "- Pushed %s v%s to %s (%d blobs sent, %d already there)\n", p.ForDisplayIn(fl), v, r.Repository, r.BlobsPushed, r.BlobsPresent)
		},
	}
}

func printMirrorDiags(m *Meta, diags hcl.Diagnostics, res *requirements.Result) {
	if len(diags) == 0 {
		return
	}
	var tree *config.Tree
	if res != nil {
		tree = res.Tree
	}
	p := newDiagPrinter(m, diagrender.SnippetFiles(diags, treeFiles(tree)))
	p.ExtraNewline = true
	p.Print(diags)
}
