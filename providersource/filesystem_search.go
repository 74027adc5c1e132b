package providersource

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// SearchLocalDirectory walks baseDir once and returns the packages it holds,
// by provider, in walk (lexical) order, following OpenTofu's rules:
//
//   - symlinks in baseDir itself are resolved (if that fails, baseDir is
//     walked as given); nothing below it is followed by the walk;
//   - a walk error fails the whole search: "cannot search PATH: ERROR";
//   - from depth 3 on, the first three components must be a hostname (in
//     Unicode form), a namespace ("-" only on registry.opentofu.org) and a
//     type; namespace and type are case-folded;
//   - depth 5 (VERSION/OS_ARCH), a directory after following symlinks, is an
//     unpacked package; depth 4, a non-directory named (case-insensitively)
//     terraform-provider-TYPE_VERSION_OS_ARCH[_...].zip, is a packed one;
//   - anything else is skipped without a message.
func SearchLocalDirectory(baseDir string) (map[addrs.Provider][]PackageMeta, error) {
	root := baseDir
	if resolved, err := filepath.EvalSymlinks(baseDir); err == nil {
		root = resolved
	}
	found := map[addrs.Provider][]PackageMeta{}
	err := filepath.Walk(root, func(fullPath string, info fs.FileInfo, err error) error {
		if err != nil {
			return fmt.Errorf("cannot search %s: %w", fullPath, err)
		}
		if meta, ok := packageAt(root, fullPath); ok {
			found[meta.Provider] = append(found[meta.Provider], meta)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// packageAt interprets one walked path; ok is false when it is no package.
func packageAt(root, fullPath string) (PackageMeta, bool) {
	rel, err := filepath.Rel(root, fullPath)
	if err != nil {
		return PackageMeta{}, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) < 3 {
		return PackageMeta{}, false
	}
	provider, ok := providerFromDirs(parts[0], parts[1], parts[2])
	if !ok {
		return PackageMeta{}, false
	}
	info, err := os.Stat(fullPath)
	if err != nil {
		return PackageMeta{}, false
	}
	switch len(parts) {
	case 5:
		if !info.IsDir() {
			return PackageMeta{}, false
		}
		return unpackedPackage(provider, parts[3], parts[4], fullPath)
	case 4:
		if info.IsDir() {
			return PackageMeta{}, false
		}
		return packedPackage(provider, filepath.Base(fullPath), fullPath)
	}
	return PackageMeta{}, false
}

// providerFromDirs validates and normalises the HOST/NS/TYPE components.
func providerFromDirs(hostDir, nsDir, typeDir string) (addrs.Provider, bool) {
	namespace := nsDir
	if nsDir != addrs.LegacyProviderNamespace {
		ns, err := addrs.ParseProviderPart(nsDir)
		if err != nil {
			return addrs.Provider{}, false
		}
		namespace = ns
	}
	typ, err := addrs.ParseProviderPart(typeDir)
	if err != nil {
		return addrs.Provider{}, false
	}
	host, err := addrs.ParseHostname(hostDir)
	if err != nil {
		return addrs.Provider{}, false
	}
	if namespace == addrs.LegacyProviderNamespace {
		if host != addrs.DefaultProviderRegistryHost {
			return addrs.Provider{}, false
		}
		return addrs.NewLegacyProvider(typ), true
	}
	return addrs.NewProvider(host, namespace, typ), true
}

func unpackedPackage(provider addrs.Provider, versionDir, platformDir, fullPath string) (PackageMeta, bool) {
	version, err := versions.ParseVersion(versionDir)
	if err != nil {
		return PackageMeta{}, false
	}
	platform, err := addrs.ParsePlatform(platformDir)
	if err != nil {
		return PackageMeta{}, false
	}
	return PackageMeta{
		Provider:       provider,
		Version:        version,
		TargetPlatform: platform,
		Filename:       fmt.Sprintf("terraform-provider-%s_%s_%s.zip", provider.Type, version, platform),
		Location:       LocalDir(fullPath),
	}, true
}

func packedPackage(provider addrs.Provider, filename, fullPath string) (PackageMeta, bool) {
	norm := strings.ToLower(filename)
	prefix := "terraform-provider-" + provider.Type + "_"
	const suffix = ".zip"
	if !strings.HasPrefix(norm, prefix) || !strings.HasSuffix(norm, suffix) || len(norm) < len(prefix)+len(suffix) {
		return PackageMeta{}, false
	}
	info := strings.Split(norm[len(prefix):len(norm)-len(suffix)], "_")
	if len(info) < 3 {
		return PackageMeta{}, false
	}
	version, err := versions.ParseVersion(info[0])
	if err != nil {
		return PackageMeta{}, false
	}
	platform, err := addrs.ParsePlatform(info[1] + "_" + info[2])
	if err != nil {
		return PackageMeta{}, false
	}
	return PackageMeta{
		Provider:       provider,
		Version:        version,
		TargetPlatform: platform,
		Filename:       norm,
		Location:       LocalArchive(fullPath),
	}, true
}
