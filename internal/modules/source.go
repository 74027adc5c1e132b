package modules

import (
	"fmt"
	"path"
	"strings"

	getter "github.com/hashicorp/go-getter"
	tfaddr "github.com/opentofu/registry-address/v2"
)

// SourceKind says how a module source is installed.
type SourceKind int

const (
	// KindInvalid is a source that did not parse; the walk skips it.
	KindInvalid SourceKind = iota
	KindLocal
	KindRegistry
	KindRemote
)

// Source is a classified module source address (modules.md §2).
type Source struct {
	Kind SourceKind
	// Local is the cleaned local path (KindLocal).
	Local string
	// Registry is the registry address (KindRegistry), its subdirectory included.
	Registry tfaddr.Module
	// Package is the normalised go-getter package address (KindRemote).
	Package string
	// Subdir is the subdirectory inside the package (registry and remote).
	Subdir string
}

// String is the canonical form modules.json records.
func (s Source) String() string {
	switch s.Kind {
	case KindLocal:
		return s.Local
	case KindRegistry:
		return s.Registry.String()
	case KindRemote:
		return joinSubdir(s.Package, s.Subdir)
	}
	return ""
}

// joinSubdir inserts //SUBDIR before a query.
func joinSubdir(pkg, sub string) string {
	if sub == "" {
		return pkg
	}
	if i := strings.Index(pkg, "?"); i >= 0 {
		return pkg[:i] + "//" + sub + pkg[i:]
	}
	return pkg + "//" + sub
}

// ParseSource classifies a source string as OpenTofu does: with a version
// argument only the registry form; otherwise local, registry, remote.
func ParseSource(raw string, hasVersion bool) (Source, error) {
	if hasVersion {
		if isLocal(raw) {
			return Source{}, fmt.Errorf("can't use local directory %q as a module registry address", raw)
		}
		m, err := tfaddr.ParseModuleSource(raw)
		if err != nil {
			return Source{}, err
		}
		return Source{Kind: KindRegistry, Registry: m, Subdir: m.Subdir}, nil
	}
	if isLocal(raw) {
		return Source{Kind: KindLocal, Local: cleanLocal(raw)}, nil
	}
	if m, err := tfaddr.ParseModuleSource(raw); err == nil {
		return Source{Kind: KindRegistry, Registry: m, Subdir: m.Subdir}, nil
	}
	pkg, sub, err := ParseRemote(raw)
	if err != nil {
		return Source{}, err
	}
	return Source{Kind: KindRemote, Package: pkg, Subdir: sub}, nil
}

func isLocal(raw string) bool {
	for _, p := range []string{"./", "../", `.\`, `..\`} {
		if strings.HasPrefix(raw, p) {
			return true
		}
	}
	return false
}

func cleanLocal(raw string) string {
	clean := path.Clean(strings.ReplaceAll(raw, `\`, "/"))
	if !strings.HasPrefix(clean, "../") && clean != ".." {
		clean = "./" + clean
	}
	return clean
}

// splitSubdir splits PACKAGE//SUBDIR, cleaning the subdirectory.
func splitSubdir(raw string) (string, string) {
	pkg, sub := getter.SourceDirSubdir(raw)
	if sub != "" {
		sub = path.Clean(sub)
	}
	return pkg, sub
}

// ParseRemote normalises a go-getter address into its package and
// subdirectory (modules.md §2.4).
func ParseRemote(raw string) (pkg, sub string, err error) {
	raw, sub = splitSubdir(raw)
	if strings.HasPrefix(sub, "../") {
		return "", "", fmt.Errorf("subdirectory path %q leads outside of the module package", sub)
	}
	norm, err := getter.Detect(raw, "", detectors())
	if err != nil {
		return "", "", err
	}
	norm, more := splitSubdir(norm)
	if more != "" {
		if sub != "" {
			sub = path.Join(more, sub)
		} else {
			sub = path.Clean(more)
		}
		if strings.HasPrefix(sub, "../") {
			return "", "", fmt.Errorf("detected subdirectory path %q of %q leads outside of the module package", sub, norm)
		}
	}
	return norm, sub, nil
}
