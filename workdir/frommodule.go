package workdir

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall"
)

// init -from-module=SOURCE copies a module into the working directory
// before initialising it (moduleinstall.InstallFromModule): the directory
// must have no configuration files (with Terraform, no test files either)
// and, for the copy itself, nothing at all but the data directory.

// Texts of -from-module's errors.
const (
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

// CopyFromModule is -from-module: it checks that the working directory has
// no configuration files, then copies the module at src into it,
// reporting Events.CopyingFromModule, then Events.Modules (each module installed is reported without a
// directory). Variable values and Options.Upgrade play no part.
func (r *Run) CopyFromModule(ctx context.Context, src string) hcl.Diagnostics {
	if d := r.fromModuleTargetDiag(); d != nil {
		return hcl.Diagnostics{d}
	}
	if r.events.CopyingFromModule != nil {
		r.events.CopyingFromModule(src)
	}
	c := &Run{opts: r.opts, events: r.events}
	c.opts.Variables, c.opts.Upgrade = nil, false
	diags := moduleinstall.InstallFromModule(ctx, src, c.moduleOptions(nil, false))
	if errors.Is(ctx.Err(), context.Canceled) {
		if r.opts.Flavour == flavour.Terraform {
			diags = append(diags, errorDiag(fromModuleCanceledText, ""))
		} else {
			diags = append(diags, errorDiag("Module initialization canceled", fromModuleCanceledText))
		}
	}
	return diags
}

// fromModuleTargetDiag is the error for a working directory that already
// has configuration files (nil when it has none).
func (r *Run) fromModuleTargetDiag() *hcl.Diagnostic {
	tf := r.opts.Flavour == flavour.Terraform
	testsDir := ""
	if tf {
		testsDir = r.opts.TestsDir
	}
	files, diags := config.DiscoverFiles(r.opts.fileSystem(), ".", testsDir, r.opts.Flavour)
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

// IsEmpty reports whether the current directory has no configuration
// files of flavour f: IsEmptyDir("", f).
func IsEmpty(f flavour.Flavour) bool { return IsEmptyDir("", f) }

// IsEmptyDir reports whether directory dir ("" for the current one) has
// no configuration files of flavour f (test files do not count): init
// then has nothing to do.
func IsEmptyDir(dir string, f flavour.Flavour) bool {
	files, diags := config.DiscoverFiles(config.OSFileSystem{Root: dir}, ".", "", f)
	return !diags.HasErrors() && files.Empty()
}
