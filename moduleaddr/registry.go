package moduleaddr

import (
	"fmt"
	"strings"

	tfaddr "github.com/opentofu/registry-address/v2"
	svchost "github.com/opentofu/svchost"
)

// DefaultRegistryHost is the host of a registry address written with three
// parts.
const DefaultRegistryHost = svchost.Hostname(tfaddr.DefaultModuleRegistryHost)

// Registry is a module registry address (§2.3). Case is kept as written.
// Registry values are comparable with ==; Subdir "" means the package root.
type Registry struct {
	Host      svchost.Hostname
	Namespace string
	Name      string
	System    string
	// Subdir is the cleaned subdirectory inside the package ("" for none).
	Subdir string
}

func parseRegistry(raw string) (Registry, error) {
	if IsLocal(raw) {
		return Registry{}, fmt.Errorf("can't use local directory %q as a module registry address", raw)
	}
	src, err := tfaddr.ParseModuleSource(raw)
	if err != nil {
		return Registry{}, err
	}
	if !displayable(src.Package.Host) {
		// OpenTofu crashes later on such a host; tfdeps refuses it here.
		return Registry{}, fmt.Errorf("invalid module registry hostname %q", strings.SplitN(raw, "/", 2)[0])
	}
	return Registry{
		Host:      src.Package.Host,
		Namespace: src.Package.Namespace,
		Name:      src.Package.Name,
		System:    src.Package.TargetSystem,
		Subdir:    src.Subdir,
	}, nil
}

func (Registry) moduleSource() {}

// Package returns the address without its subdirectory: the unit the
// registry versions and downloads.
func (r Registry) Package() Registry {
	r.Subdir = ""
	return r
}

func (r Registry) pkg() tfaddr.ModulePackage {
	return tfaddr.ModulePackage{Host: r.Host, Namespace: r.Namespace, Name: r.Name, TargetSystem: r.System}
}

// String is HOST/NAMESPACE/NAME/SYSTEM[//SUBDIR], the host always present in
// its Unicode display form (port kept).
func (r Registry) String() string {
	s := r.pkg().String()
	if r.Subdir != "" {
		s += "//" + r.Subdir
	}
	return s
}

// ForDisplay is String without the host when it is registry.opentofu.org.
func (r Registry) ForDisplay() string {
	s := r.pkg().ForDisplay()
	if r.Subdir != "" {
		s += "//" + r.Subdir
	}
	return s
}

// ProtocolPath is NAMESPACE/NAME/SYSTEM as the module registry protocol
// puts it in URLs (case as written).
func (r Registry) ProtocolPath() string {
	return r.pkg().ForRegistryProtocol()
}

// displayable reports whether h has a display form (svchost panics on
// hosts whose punycode does not decode).
func displayable(h svchost.Hostname) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_ = h.ForDisplay()
	return true
}
