package modules

import (
	"fmt"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// CheckInstalled verifies, without installing, that every module call of
// root has a manifest record that agrees with it (modules.md §9.1): what
// init -get=false reports.
func CheckInstalled(root *config.Module, modsDir string, opts ...config.Option) hcl.Diagnostics {
	manifest, err := ReadManifest(modsDir)
	if err != nil {
		return hcl.Diagnostics{sourceless("Failed to read module manifest", err.Error())}
	}
	return checkCalls(nil, root, manifest, opts, 0)
}

func checkCalls(path []string, mod *config.Module, manifest Manifest, opts []config.Option, depth int) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if depth > 64 {
		return diags
	}
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		call := mod.ModuleCalls[n]
		src, err := ParseSource(call.SourceAddr, call.HasVersion)
		if err != nil || call.SourceAddr == "" {
			continue
		}
		childPath := append(append([]string{}, path...), n)
		rec, ok := manifest[strings.Join(childPath, ".")]
		switch {
		case !ok:
			diags = append(diags, blockDiag("Module not installed", `This module is not yet installed. Run "tofu init" to install all modules required by this configuration.`, call.DeclRange))
			continue
		case rec.Source != src.String():
			diags = append(diags, blockDiag("Module source has changed", fmt.Sprintf(`The source address was changed from %q to %q since this module was installed. Run "tofu init" to install all modules required by this configuration.`, rec.Source, src.String()), call.SourceAddrRange))
			continue
		}
		if call.Version != "" {
			cons, cerr := version.NewConstraint(call.Version)
			v, verr := version.NewVersion(rec.Version)
			if cerr == nil && (rec.Version == "" || (verr == nil && !cons.Check(v))) {
				inst := ""
				if rec.Version != "" {
					inst = " (" + rec.Version + ")"
				}
				diags = append(diags, blockDiag("Module version requirements have changed", "The version requirements have changed since this module was installed and the installed version"+inst+` is no longer acceptable. Run "tofu init" to install all modules required by this configuration.`, call.SourceAddrRange))
				continue
			}
		}
		if !isDir(rec.Dir) {
			diags = append(diags, blockDiag("Module not installed", fmt.Sprintf(`This module's local cache directory %s could not be read. Run "tofu init" to install all modules required by this configuration.`, rec.Dir), call.DeclRange))
			continue
		}
		child, childDiags := config.LoadDir(rec.Dir, opts...)
		diags = append(diags, childDiags...)
		diags = append(diags, checkCalls(childPath, child, manifest, opts, depth+1)...)
	}
	return diags
}
