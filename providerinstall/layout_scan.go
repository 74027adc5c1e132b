package providerinstall

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Packages lists the unpacked packages of every platform in the tree,
// sorted by provider, version and platform. It scans with the rules
// OpenTofu applies to its provider directories (mirrors-and-cli-config.md
// §1.2, unpacked layout): HOST/NAMESPACE/TYPE/VERSION must be real
// directories (not symlinks) whose names normalise to a provider address
// and an exact version; OS_ARCH may be a symlink to a directory. Anything
// else, including packed archives, lock sidecars and staging directories,
// is skipped silently. A missing base directory holds no packages.
func (d Dir) Packages() ([]*Installed, error) {
	base := d.base
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	hosts, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot search %s: %w", d.base, err)
	}
	var out []*Installed
	for _, h := range realDirs(hosts) {
		found, err := d.scanHost(base, h)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	slices.SortStableFunc(out, compareInstalled)
	return out, nil
}

func (d Dir) scanHost(base, hostName string) ([]*Installed, error) {
	host, hostErr := addrs.ParseHostname(hostName)
	if hostErr != nil {
		return nil, nil
	}
	var out []*Installed
	hostDir := filepath.Join(base, hostName)
	namespaces, err := readDirs(hostDir)
	if err != nil {
		return nil, err
	}
	for _, nsName := range namespaces {
		types, err := readDirs(filepath.Join(hostDir, nsName))
		if err != nil {
			return nil, err
		}
		for _, typeName := range types {
			p, ok := providerFromDirs(host, nsName, typeName)
			if !ok {
				continue
			}
			found, err := scanType(filepath.Join(hostDir, nsName, typeName), p)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
	}
	return out, nil
}

// providerFromDirs builds the provider address named by three directory
// names, or reports false when they do not name one.
func providerFromDirs(host svchost.Hostname, nsName, typeName string) (addrs.Provider, bool) {
	ns := nsName
	if ns != addrs.LegacyProviderNamespace {
		var err error
		if ns, err = addrs.ParseProviderPart(nsName); err != nil {
			return addrs.Provider{}, false
		}
	} else if host != addrs.DefaultProviderRegistryHost {
		return addrs.Provider{}, false
	}
	typ, err := addrs.ParseProviderPart(typeName)
	if err != nil {
		return addrs.Provider{}, false
	}
	return addrs.NewProvider(host, ns, typ), true
}

// scanType lists the packages below a TYPE directory.
func scanType(typeDir string, p addrs.Provider) ([]*Installed, error) {
	versionNames, err := readDirs(typeDir)
	if err != nil {
		return nil, err
	}
	var out []*Installed
	for _, vName := range versionNames {
		v, err := versions.ParseVersion(vName)
		if err != nil {
			continue
		}
		vDir := filepath.Join(typeDir, vName)
		entries, err := os.ReadDir(vDir)
		if err != nil {
			return nil, fmt.Errorf("cannot search %s: %w", vDir, err)
		}
		for _, e := range entries {
			pl, err := addrs.ParsePlatform(e.Name())
			if err != nil {
				continue
			}
			pkgDir := filepath.Join(vDir, e.Name())
			if info, err := os.Stat(pkgDir); err != nil || !info.IsDir() {
				continue
			}
			out = append(out, inDir(p, v, pl, pkgDir, nil))
		}
	}
	return out, nil
}

// readDirs returns the names of the real (not symlinked) directories in
// dir.
func readDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot search %s: %w", dir, err)
	}
	return realDirs(entries), nil
}

func realDirs(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

func compareInstalled(a, b *Installed) int {
	if c := a.Provider.Compare(b.Provider); c != 0 {
		return c
	}
	if c := a.Version.Compare(b.Version); c != 0 {
		return c
	}
	switch {
	case a.Platform.LessThan(b.Platform):
		return -1
	case b.Platform.LessThan(a.Platform):
		return 1
	}
	return 0
}
