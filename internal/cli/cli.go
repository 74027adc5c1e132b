// Package cli is the tfdeps command line: it parses flags into options,
// calls the libraries, renders their results and diagnostics, and maps
// failures to exit codes. It holds no logic of its own beyond that.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/registry"
)

// Version is the tfdeps release, set at build time with -ldflags.
var Version = "0.1.0-dev"

// DefaultTofuVersion is the OpenTofu version tfdeps emulates unless told otherwise.
const DefaultTofuVersion = flavour.DefaultOpenTofuVersion

// Env is everything a command may touch of the outside world.
type Env struct {
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Environ lists the environment as KEY=VALUE entries.
	Environ func() []string
	// Getwd returns the working directory.
	Getwd func() (string, error)
	// Chdir changes the working directory (the -chdir option).
	Chdir func(string) error
	// IsTerminal reports whether the writer is an interactive terminal.
	IsTerminal func(io.Writer) bool
}

// SystemEnv is the Env of the running process.
func SystemEnv() Env {
	return Env{
		Args:       os.Args[1:],
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Getwd:      os.Getwd,
		Chdir:      os.Chdir,
		IsTerminal: isTerminal,
	}
}

// Meta is what every command receives: the environment and global settings.
type Meta struct {
	Env
	// Flavour is the emulated product (-compat, TFDEPS_COMPAT, or the
	// header of an existing lock file; OpenTofu by default).
	Flavour flavour.Flavour
	// TofuVersion is the emulated OpenTofu version (-tofu-version or TFDEPS_TOFU_VERSION).
	TofuVersion string
	// TerraformVersion is the emulated Terraform version in the Terraform
	// flavour (-terraform-version or TFDEPS_TERRAFORM_VERSION).
	TerraformVersion string
	// Platform is the target platform of this binary, OS_ARCH.
	Platform string
	// LaunchDir is the directory tfdeps was started in, before any -chdir
	// ("" when unknown). Terraform looks for terraform.d/plugins there
	// (OpenTofu 1.12.6 in the -chdir directory).
	LaunchDir string
	// Color is OpenTofu's default coloured output (even when piped);
	// -no-color, accepted by every command, turns it off.
	Color bool
	// terraformKeys replaces HashiCorp's keys in the Terraform flavour's
	// signature checks (nil: the real ones). Only the test binary sets it
	// (mainWith), so that scripts against the fake registry can show the
	// "signed by HashiCorp" and partner results; nothing in the
	// environment or on the command line reaches it.
	terraformKeys *registry.TerraformKeys
}

type command struct {
	synopsis string
	run      func(m *Meta, args []string) int
}

// commands lists every command by its full name ("providers lock").
func commands() map[string]command {
	return map[string]command{
		"version":          {"Show the emulated product's and tfdeps' versions", runVersion},
		"config":           {"Show the effective configuration, override files merged", runConfig},
		"providers":        {"Show the providers required by this configuration", runProviders},
		"providers lock":   {"Write out dependency locks for the configured providers", runProvidersLock},
		"providers mirror": {"Save local copies of all required provider plugins", runProvidersMirror},
		"lock verify":      {"Check the dependency lock file against the configuration", runLockVerify},
		"init":             {"Install providers and update the dependency lock file", runInit},
		"get":              {"Install or upgrade the modules the configuration calls", runGet},
		"serve":            {"Serve a caching provider mirror and private registry", runServe},
		"publish":          {"Publish a provider release or module to a tfdeps server", runPublish},
		"outdated":         {"Show providers and modules with newer versions", runOutdated},
		"upgrade":          {"Upgrade providers and modules, constraints kept or bumped", runUpgrade},
	}
}

// Main runs tfdeps with env and returns the process exit code.
func Main(env Env) int { return mainWith(env, nil) }

// mainWith is Main with the keys the Terraform flavour trusts as
// HashiCorp's (nil: the real ones; tests pass their stand-ins).
func mainWith(env Env, terraformKeys *registry.TerraformKeys) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.IsTerminal == nil {
		env.IsTerminal = func(io.Writer) bool { return false }
	}
	if env.Environ == nil {
		env.Environ = func() []string { return nil }
	}
	if env.Getwd == nil {
		env.Getwd = func() (string, error) { return "", nil }
	}
	m := &Meta{Env: env, Platform: runtime.GOOS + "_" + runtime.GOARCH, terraformKeys: terraformKeys}
	m.LaunchDir, _ = env.Getwd()
	choice := flavourChoice{tofuVer: DefaultTofuVersion, terraformVer: DefaultTerraformVersion}
	if v := env.Getenv("TFDEPS_TOFU_VERSION"); v != "" {
		choice.tofuVer = v
	}
	if v := env.Getenv("TFDEPS_TERRAFORM_VERSION"); v != "" {
		choice.terraformVer = v
	}

	fs := flag.NewFlagSet("tfdeps", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	chdir := fs.String("chdir", "", "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	// -version (also --version) and -v: the version command, as in tofu.
	showVersion := fs.Bool("version", false, "")
	fs.BoolVar(showVersion, "v", false, "")
	fs.StringVar(&choice.tofuVer, "tofu-version", choice.tofuVer, "")
	fs.StringVar(&choice.terraformVer, "terraform-version", choice.terraformVer, "")
	fs.StringVar(&choice.compat, "compat", "", "")
	err := fs.Parse(env.Args)
	var versionArgs []string
	if err != nil && hasVersionFlag(env.Args) {
		// As tofu: with -v, -version or --version anywhere, the version
		// command gets the options that are not global (-json).
		var global []string
		global, versionArgs = splitGlobalArgs(fs, env.Args)
		err = fs.Parse(global)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "Error: %s\n\n", err)
		printUsage(env.Stderr)
		if name, rest, ok := documentCommandAfter(env.Args); ok && wantsJSON(rest) {
			return commandJSONFailure(m, name, hcl.Diagnostics{errorDiag("Invalid global option", err.Error())})
		}
		return 1
	}
	args := fs.Args()
	if !*showVersion && len(args) == 0 || *help {
		printUsage(env.Stdout)
		if *help {
			return 0
		}
		return 1
	}
	// The command's name, resolved before -chdir so that its -json output
	// can report a failing -chdir; "version" for -version.
	name, rest := "version", append(versionArgs, args...)
	if !*showVersion {
		name, rest = resolveCommand(args)
	}
	if *chdir != "" {
		if err := env.Chdir(*chdir); err != nil {
			fmt.Fprintf(env.Stderr, "Error handling -chdir option: %s\n", err)
			if jsonDocumentCommands[name] && wantsJSON(rest) {
				return commandJSONFailure(m, name, hcl.Diagnostics{errorDiag("Error handling -chdir option", err.Error())})
			}
			return 1
		}
	}
	if msg := m.resolveFlavour(choice); msg != "" {
		fmt.Fprintf(env.Stderr, "Error: %s\n\n", msg)
		printUsage(env.Stderr)
		if jsonDocumentCommands[name] && wantsJSON(rest) {
			return commandJSONFailure(m, name, hcl.Diagnostics{errorDiag("Invalid global option", msg)})
		}
		return 1
	}
	if *showVersion {
		// As tofu, the rest of the command line goes to the version
		// command, which ignores what it does not know.
		m.Color, rest = parseViewArgs(rest)
		return runVersion(m, rest)
	}
	cmd, ok := commands()[name]
	rest = envArgs(env.Getenv("TF_CLI_ARGS_"+strings.ReplaceAll(name, " ", "_")), rest)
	rest = envArgs(env.Getenv("TF_CLI_ARGS"), rest)
	m.Color, rest = parseViewArgs(rest)
	if hasVersionFlag(rest) {
		// tofu runs its version command for -v, -version or --version
		// anywhere on the command line (TF_CLI_ARGS included), with the
		// whole command line: the command's name stops its flag parsing.
		return runVersion(m, append(strings.Fields(name), rest...))
	}
	if !ok {
		fmt.Fprintf(env.Stderr, "tfdeps has no command named %q.\n\nTo see all of tfdeps' commands, run:\n  tfdeps -help\n\n", args[0])
		return 1
	}
	return cmd.run(m, rest)
}

// splitGlobalArgs splits a command line whose global options did not
// parse into the options fs knows (with their values) and the rest, in
// order.
func splitGlobalArgs(fs *flag.FlagSet, args []string) (global, other []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil {
			other = append(other, a)
			continue
		}
		global = append(global, a)
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && i+1 < len(args) && (!ok || !bf.IsBoolFlag()) {
			i++
			global = append(global, args[i])
		}
	}
	return global, other
}

// documentCommandAfter finds, in a command line whose global options did
// not parse, the first word that names a command with a JSON document
// (providers, config, version) and the arguments after it.
func documentCommandAfter(args []string) (string, []string, bool) {
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		name, rest := resolveCommand(args[i:])
		return name, rest, jsonDocumentCommands[name]
	}
	return "", nil, false
}

// envArgs puts the arguments of an OpenTofu TF_CLI_ARGS variable (value
// v, split at spaces) before the command's own arguments.
func envArgs(v string, args []string) []string {
	extra := strings.Fields(v)
	if len(extra) == 0 {
		return args
	}
	return append(extra, args...)
}

// parseViewArgs removes the output options OpenTofu accepts on every
// command wherever they appear (-no-color, -compact-warnings,
// -consolidate-warnings[=BOOL], -consolidate-errors[=BOOL], -concise,
// -deprecation=module:LEVEL) and reports whether colour stays on.
func parseViewArgs(args []string) (bool, []string) {
	color := true
	var rest []string
	for _, a := range args {
		switch {
		case a == "-no-color":
			color = false
		case a == "-compact-warnings", a == "-concise",
			a == "-consolidate-warnings", a == "-consolidate-warnings=true", a == "-consolidate-warnings=false",
			a == "-consolidate-errors", a == "-consolidate-errors=true", a == "-consolidate-errors=false",
			strings.HasPrefix(a, "-deprecation=module:"):
		default:
			rest = append(rest, a)
		}
	}
	return color, rest
}

// resolveCommand finds the longest command name at the start of args.
func resolveCommand(args []string) (string, []string) {
	if len(args) >= 2 {
		if _, ok := commands()[args[0]+" "+args[1]]; ok {
			return args[0] + " " + args[1], args[2:]
		}
	}
	return args[0], args[1:]
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: tfdeps [global options] <subcommand> [args]\n\n")
	fmt.Fprintf(w, "tfdeps does the configuration and provider part of \"tofu init\", standalone.\n\n")
	fmt.Fprintf(w, "Commands:\n")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, cmds[n].synopsis)
	}
	fmt.Fprintf(w, "\nGlobal options (use these before the subcommand, if any):\n")
	fmt.Fprintf(w, "  -chdir=DIR          Switch to a different working directory before executing\n")
	fmt.Fprintf(w, "                      the given subcommand.\n")
	fmt.Fprintf(w, "  -help               Show this help output, or the help for a specified subcommand.\n")
	fmt.Fprintf(w, "  -version            An alias for the \"version\" subcommand (also -v and\n")
	fmt.Fprintf(w, "                      --version, anywhere on the command line).\n")
	fmt.Fprintf(w, "  -tofu-version=VER   The OpenTofu version to emulate (default %s;\n", DefaultTofuVersion)
	fmt.Fprintf(w, "                      also TFDEPS_TOFU_VERSION).\n")
	fmt.Fprintf(w, "  -compat=FLAVOUR     Emulate \"opentofu\" (the default) or \"terraform\"\n")
	fmt.Fprintf(w, "                      (also TFDEPS_COMPAT). Without either, a lock file\n")
	fmt.Fprintf(w, "                      written by \"terraform init\" selects terraform.\n")
	fmt.Fprintf(w, "  -terraform-version=VER  The Terraform version to emulate with\n")
	fmt.Fprintf(w, "                      -compat=terraform (default %s;\n", DefaultTerraformVersion)
	fmt.Fprintf(w, "                      also TFDEPS_TERRAFORM_VERSION).\n")
}

// newFlagSet makes a command's flag set; usage is that command's help text.
// Parsing "-help" prints the usage to stdout and returns flag.ErrHelp.
func newFlagSet(m *Meta, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { fmt.Fprint(m.Stdout, strings.TrimLeft(usage, "\n")) }
	return fs
}

// parseFlags parses args into fs. It returns an exit code and false when the
// command must stop: 0 after -help, 1 after a usage error.
func parseFlags(m *Meta, fs *flag.FlagSet, args []string) (int, bool) {
	// The flag package calls Usage on every parse error; print the help
	// text only when it was asked for.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if err == nil {
		return 0, true
	}
	return flagError(m, fs, err)
}

// flagError reports err from parsing fs's flags (fs.Usage restored): the
// help text after -help, else the diagnostic and the help text.
func flagError(m *Meta, fs *flag.FlagSet, err error) (int, bool) {
	usage := fs.Usage
	if err == flag.ErrHelp {
		usage()
		return 0, false
	}
	// As OpenTofu: the diagnostic, then the command's help on stdout.
	p := newDiagPrinter(m, nil)
	p.ExtraNewline = true
	p.Print(hcl.Diagnostics{errorDiag("Failed to parse command-line flags", err.Error())})
	usage()
	return 1, false
}

// usageError prints d as OpenTofu prints argument errors, then the
// command's help on stdout, and returns exit code 1.
func usageError(m *Meta, fs *flag.FlagSet, d *hcl.Diagnostic) int {
	p := newDiagPrinter(m, nil)
	p.ExtraNewline = true
	p.Print(hcl.Diagnostics{d})
	fs.Usage()
	return 1
}

// unexpectedArgumentDiag is OpenTofu's error for positional arguments to
// commands that take none (init, providers).
func unexpectedArgumentDiag() *hcl.Diagnostic {
	return errorDiag("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
}

// userAgent is the product part of the User-Agent header: tfdeps/VERSION,
// or OpenTofu/EMULATED_VERSION when TFDEPS_USER_AGENT=opentofu, for
// servers that only answer OpenTofu. The registry client appends
// TF_APPEND_USER_AGENT.
func (m *Meta) userAgent() string {
	if strings.EqualFold(m.Getenv("TFDEPS_USER_AGENT"), "opentofu") {
		return "OpenTofu/" + m.TofuVersion
	}
	return "tfdeps/" + Version
}
