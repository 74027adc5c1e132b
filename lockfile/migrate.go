package lockfile

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// MigrateTerraformRegistry adds, for each registry.terraform.io/hashicorp/TYPE
// selection without a registry.opentofu.org/hashicorp/TYPE counterpart, a
// counterpart with the same version and constraints and no hashes (the
// OpenTofu project's packages are not byte-for-byte identical). The old
// selections stay. When anything was added it returns OpenTofu's warning
// listing each rewrite, sorted by old address. Only OpenTofu's "init",
// "providers lock" and "providers mirror" apply this, right after reading.
func (l *Locks) MigrateTerraformRegistry() hcl.Diagnostics {
	var lines []string
	for _, p := range l.Providers() {
		old := p.addr
		if old.Hostname != TerraformRegistryHost || old.Namespace != addrs.DefaultProviderNamespace {
			continue
		}
		target := addrs.NewDefaultProvider(old.Type)
		if l.Provider(target) != nil {
			continue
		}
		l.setRead(&ProviderLock{addr: target, version: p.version, constraints: p.Constraints()})
		lines = append(lines, "  - "+old.String()+" => "+target.String()+"\n")
	}
	if len(lines) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Dependency lock file entries automatically updated",
		Detail: "OpenTofu automatically rewrote some entries in your dependency lock file:\n" +
			strings.Join(lines, "") +
			"\nThe version selections were preserved, but the hashes were not because the OpenTofu project's provider releases are not byte-for-byte identical.",
	}}
}
