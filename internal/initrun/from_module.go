package initrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/workdir"
)

// init -from-module=SOURCE copies a module into the working directory
// before initialising it (workdir.Run.CopyFromModule). The copy's progress
// is shown as the module installer's, without directories; a blank line
// follows it, and init goes on as usual (or ends as in an empty directory
// when the module has no configuration files).

// fromModuleCopyingText heads -from-module's output.
const fromModuleCopyingText = "[reset][bold]Copying configuration[reset] from %q..."

// initFromModule runs -from-module when it was given; stop reports that
// init ends here with exit code code (everything printed).
func (r *initRun) initFromModule(ctx context.Context, opts workdir.Options) (code int, stop bool) {
	src := r.opts.fromModule
	if src == "" {
		return 0, false
	}
	run := workdir.NewRun(opts, workdir.Events{
		CopyingFromModule: func(src string) {
			r.view.Message("copying_configuration", fmt.Sprintf(fromModuleCopyingText, src), false)
		},
		Modules:       fromModuleEvents{moduleEvents{view: r.view, flavour: r.m.Flavour}},
		ModuleFetches: liveModuleFetches(r.view),
	})
	if diags := run.CopyFromModule(ctx, src); diags.HasErrors() {
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
	if r.m.Flavour == flavour.Terraform && !r.opts.backend && !r.m.isEmpty() {
		return "\n"
	}
	return ""
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
