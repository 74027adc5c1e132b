package cli

import (
	"errors"
	"flag"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/initrun"
)

// backendFlags are init's options about the backend and its state, which
// tfdeps accepts so that "tofu init" (or "terraform init") command lines
// work unchanged: validated as the reference validates them, and used by
// init's backend section (package initrun) as the reference uses them,
// except that tfdeps never migrates state and ignores the locking flags.
// (-json-into, OpenTofu's, is here too: it is parsed and checked with
// them.)
type backendFlags struct {
	configs                                            []string // -backend-config, in order
	reconfigure, migrateState, forceCopy, ignoreRemote bool
	lock                                               bool
	lockTimeout                                        time.Duration
	// backendCheck is tfdeps' -backend-check: contact the backend as
	// the reference tool does (initrun's backend_check.go).
	backendCheck bool
	cloud        bool
	// backendSet and cloudSet report -backend and -cloud on the command
	// line: they are aliases, and only one may be given.
	backendSet, cloudSet bool

	// jsonInto is OpenTofu's -json-into=FILE: the JSON output goes to
	// FILE too, beside the human output (its file once open).
	jsonInto jsonIntoFlag

	// Terraform's own flags.
	targets                []string
	compactWarnings        bool
	createDefaultWorkspace bool
	pssExperiment          bool
}

// register adds the flags of flavour f's init to fs.
func (b *backendFlags) register(fs *flag.FlagSet, f flavour.Flavour) {
	fs.Var((*stringList)(&b.configs), "backend-config", "")
	fs.BoolVar(&b.reconfigure, "reconfigure", false, "")
	fs.BoolVar(&b.migrateState, "migrate-state", false, "")
	fs.BoolVar(&b.forceCopy, "force-copy", false, "")
	fs.BoolVar(&b.ignoreRemote, "ignore-remote-version", false, "")
	fs.BoolVar(&b.lock, "lock", true, "")
	fs.DurationVar(&b.lockTimeout, "lock-timeout", 0, "")
	fs.BoolVar(&b.cloud, "cloud", true, "")
	fs.BoolVar(&b.backendCheck, "backend-check", false, "")
	b.jsonInto.register(f, fs)
	if f == flavour.Terraform {
		fs.Var((*stringList)(&b.targets), "target", "")
		fs.BoolVar(&b.compactWarnings, "compact-warnings", false, "")
		fs.BoolVar(&b.createDefaultWorkspace, "create-default-workspace", true, "")
		fs.BoolVar(&b.pssExperiment, "enable-pluggable-state-storage-experiment", false, "")
	}
}

// parseInitArgs parses init's arguments into o and returns the problems
// with them, in the order and words of m's flavour (tofu stops at the
// first kind of problem; terraform lists them all), and whether -help
// was asked for.
func parseInitArgs(m *Meta, fs *flag.FlagSet, o *initOptions, args []string) (diags hcl.Diagnostics, help bool) {
	// The flag package calls Usage on every parse error: the help text
	// is printed by initArgsError, when the flavour prints it.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if errors.Is(err, flag.ErrHelp) {
		return nil, true
	}
	b := &o.backendFlags
	parallelismSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "backend":
			b.backendSet = true
		case "cloud":
			b.cloudSet = true
		case "parallelism":
			parallelismSet = true
		}
	})
	if err == nil && parallelismSet && !o.recursive {
		// -parallelism is tfdeps' own, for -recursive: without it, init
		// refuses it as the reference's init does (it has no such flag).
		err = errors.New("flag provided but not defined: -parallelism")
	}
	if err != nil {
		diags = append(diags, errorDiag("Failed to parse command-line flags", err.Error()))
	}
	if m.Flavour == flavour.Terraform {
		return append(diags, terraformInitArgDiags(m, fs, o, diags.HasErrors())...), false
	}
	diags = append(diags, b.openJSONInto(o.json)...)
	if diags.HasErrors() {
		return diags, false
	}
	if b.backendSet && b.cloudSet {
		return hcl.Diagnostics{errorDiag("Wrong combination of options", "The -backend and -cloud options are aliases of one another and mutually-exclusive in their use")}, false
	}
	b.resolveAlias(o)
	if b.migrateState && b.reconfigure {
		diags = append(diags, errorDiag("Wrong combination of options", "The -migrate-state and -reconfigure options are mutually-exclusive"))
	}
	if fs.NArg() > 0 {
		diags = append(diags, unexpectedArgumentDiag())
	}
	return diags, false
}

// openJSONInto opens -json-into's file (openJSONIntoFile) as tofu does,
// even when other arguments are wrong. -json and -json-into exclude each
// other (the file is opened first).
func (b *backendFlags) openJSONInto(json bool) hcl.Diagnostics {
	if b.jsonInto.path == "" {
		return nil
	}
	var diags hcl.Diagnostics
	if f, d := openJSONIntoFile(b.jsonInto.path); d != nil {
		diags = append(diags, d)
	} else {
		b.jsonInto.file = f
	}
	if json {
		diags = append(diags, jsonIntoConflict()...)
	}
	return diags
}

// resolveAlias gives -backend the value of -cloud when only -cloud was
// given, as both reference tools do.
func (b *backendFlags) resolveAlias(o *initOptions) {
	if b.cloudSet && !b.backendSet {
		o.backend = b.cloud
	}
}

// terraformInitArgDiags are terraform init's checks of its arguments
// after parsing them (whether or not parsing failed), in its order. A
// release build of terraform has experiments disabled.
func terraformInitArgDiags(m *Meta, fs *flag.FlagSet, o *initOptions, parseFailed bool) hcl.Diagnostics {
	b := &o.backendFlags
	var diags hcl.Diagnostics
	if m.Getenv("TF_ENABLE_PLUGGABLE_STATE_STORAGE") != "" {
		b.pssExperiment = true
	}
	if m.Getenv("TF_SKIP_CREATE_DEFAULT_WORKSPACE") != "" {
		b.createDefaultWorkspace = false
	}
	if b.pssExperiment {
		diags = append(diags, errorDiag("Cannot use -enable-pluggable-state-storage-experiment flag without experiments enabled",
			"Terraform cannot use the -enable-pluggable-state-storage-experiment flag (or TF_ENABLE_PLUGGABLE_STATE_STORAGE environment variable) unless experiments are enabled."))
	}
	if !b.createDefaultWorkspace {
		diags = append(diags, errorDiag("Cannot use -create-default-workspace flag without experiments enabled",
			"Terraform cannot use the -create-default-workspace flag (or TF_SKIP_CREATE_DEFAULT_WORKSPACE environment variable) unless experiments are enabled."))
	}
	if b.migrateState && o.json {
		diags = append(diags, errorDiag("The -migrate-state and -json options are mutually-exclusive",
			"Terraform cannot ask for interactive approval when -json is set. To use the -migrate-state option, disable the -json option."))
	}
	if b.migrateState && b.reconfigure {
		diags = append(diags, errorDiag("Invalid init options", "The -migrate-state and -reconfigure options are mutually-exclusive."))
	}
	if b.backendSet && b.cloudSet {
		diags = append(diags, errorDiag("Invalid init options", "The -backend and -cloud options are aliases of one another and mutually-exclusive in their use"))
	} else {
		b.resolveAlias(o)
	}
	if !parseFailed && !diags.HasErrors() && fs.NArg() > 0 {
		// terraform finds extra arguments only once the others are
		// valid, and words the error as a summary alone.
		diags = append(diags, errorDiag("Too many command line arguments. Did you mean to use -chdir?", ""))
	}
	return diags
}

// initArgsError shows the problems with init's arguments and returns exit
// code 1: OpenTofu prints them, then the help text (tfdeps' own), unless
// -json was given before the problem, when it prints them as JSON alone;
// Terraform prints them alone, as text or JSON.
func initArgsError(m *Meta, fs *flag.FlagSet, o initOptions, diags hcl.Diagnostics) int {
	if o.jsonInto.file != nil {
		initrun.NewJSONView(m.runEnv(), o.jsonInto.file, false).Diagnostics(diags)
	}
	if !o.json && m.Flavour != flavour.Terraform {
		p := newDiagPrinter(m, nil)
		p.ExtraNewline = true
		p.Print(diags)
		fs.Usage()
		return 1
	}
	v := initrun.NewView(m.runEnv(), o.runOptions())
	v.Diagnostics(diags)
	v.Close()
	return 1
}
