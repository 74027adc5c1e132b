package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall"
)

// init -from-module=SOURCE copies a module into the working directory
// before initialising it (moduleinstall.InstallFromModule): the directory must
// have no configuration files (with Terraform, no test files either) and,
// for the copy itself, nothing at all but .terraform. The copy's progress
// is shown as the module installer's, without directories; a blank line
// follows it, and init goes on as usual (or ends as in an empty directory
// when the module has no configuration files).

// Texts of -from-module.
const (
	fromModuleCopyingText  = "[reset][bold]Copying configuration[reset] from %q..."
	fromModuleNotEmptyTofu = "The -from-module option requires an empty directory into which a copy of \n" +
		"the referenced module will be placed.\n\n" +
		"To initialize the configuration already in this working directory, omit the\n" +
		"-from-module option."
	fromModuleNotEmptyTerraform = "The working directory already contains files. The -from-module option requires\n" +
		"an empty directory into which a copy of the referenced module will be placed.\n\n" +
		"To initialize the configuration already in this working directory, omit the\n" +
		"-from-module option."
	fromModuleCanceledText = "Module initialization was canceled by an interrupt signal."
)

// initFromModule runs -from-module when it was given; stop reports that
// init ends here with exit code code (everything printed).
func (r *initRun) initFromModule(ctx context.Context, reg moduleinstall.Registry) (code int, stop bool) {
	src := r.opts.fromModule
	if src == "" {
		return 0, false
	}
	if d := r.fromModuleTargetDiag(); d != nil {
		r.view.Diagnostics(hcl.Diagnostics{d})
		return 1, true
	}
	r.view.Message("copying_configuration", fmt.Sprintf(fromModuleCopyingText, src), false)
	mi := &moduleInstall{m: r.m, registry: reg, view: r.view}
	o := mi.options(nil)
	o.Events = fromModuleEvents{moduleEvents{view: r.view, flavour: r.m.Flavour}}
	diags := moduleinstall.InstallFromModule(ctx, src, o)
	if errors.Is(ctx.Err(), context.Canceled) {
		if r.m.Flavour == flavour.Terraform {
			diags = append(diags, errorDiag(fromModuleCanceledText, ""))
		} else {
			diags = append(diags, errorDiag("Module initialization canceled", fromModuleCanceledText))
		}
	}
	if diags.HasErrors() {
		r.view.Diagnostics(diags)
		return 1, true
	}
	r.view.Message("from_module_end", r.fromModuleEnd(), false)
	return 0, false
}

// fromModuleEnd is the text (with the view's newline, blank lines) that
// ends -from-module's output. After it, Terraform lays out the next
// section as if it came first, and adds one more blank line where the
// backend's section would have ended, so two without the backend, unless
// the directory has no configuration, where init ends next.
func (r *initRun) fromModuleEnd() string {
	if r.m.Flavour == flavour.Terraform && !r.opts.backend && !workingDirIsEmpty(r.m.Flavour) {
		return "\n"
	}
	return ""
}

// fromModuleTargetDiag is the error for a working directory that already
// has configuration files (nil when it has none).
func (r *initRun) fromModuleTargetDiag() *hcl.Diagnostic {
	tf := r.m.Flavour == flavour.Terraform
	testsDir := ""
	if tf {
		testsDir = r.opts.testsDir
	}
	files, diags := config.DiscoverFiles(config.OSFileSystem{}, ".", testsDir, r.m.Flavour)
	switch {
	case diags.HasErrors() && tf:
		return errorDiag("Error validating destination directory: "+diags.Error(), "")
	case diags.HasErrors():
		return errorDiag("Error validating destination directory", diags.Error())
	case files.Empty() && (!tf || len(files.Tests) == 0):
		return nil
	case tf:
		return errorDiag(fromModuleNotEmptyTerraform, "")
	}
	return errorDiag("The working directory already contains files", fromModuleNotEmptyTofu)
}

// fromModuleEvents shows the progress of -from-module: downloads as the
// module installer's, each installed module by its key alone.
type fromModuleEvents struct{ moduleEvents }

func (e fromModuleEvents) Install(key, _, _ string) {
	text := "- " + key
	machine := "installing " + key
	if e.flavour == flavour.Terraform {
		machine = strings.TrimSpace(text)
	}
	e.view.Text("info", "module_install", text, machine)
}
