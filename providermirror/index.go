package providermirror

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
)

// archiveKey names an archive placed in this run.
type archiveKey struct {
	provider addrs.Provider
	version  string
	platform addrs.Platform
}

type indexDoc struct {
	Versions map[string]struct{} `json:"versions"`
}

type versionDoc struct {
	Archives map[string]archiveDoc `json:"archives"`
}

type archiveDoc struct {
	Hashes []string `json:"hashes"`
	URL    string   `json:"url"`
}

// writeIndexes scans the whole target directory as a filesystem mirror and
// writes index.json and VERSION.json for every provider found there, from
// its packed archives only.
func (b *Builder) writeIndexes(fresh map[archiveKey][]hashes.Hash) []Problem {
	all, err := providersource.SearchLocalDirectory(b.Target)
	if err != nil {
		return []Problem{{"Failed to update indexes", fmt.Sprintf("Could not scan the output directory to get package metadata for the JSON indexes: %s.", err)}}
	}
	providers := make([]addrs.Provider, 0, len(all))
	for p := range all {
		providers = append(providers, p)
	}
	slices.SortFunc(providers, addrs.Provider.Compare)
	var problems []Problem
	for _, p := range providers {
		problems = append(problems, b.writeProviderIndexes(p, all[p], fresh)...)
	}
	return problems
}

func (b *Builder) writeProviderIndexes(p addrs.Provider, pkgs []providersource.PackageMeta, fresh map[archiveKey][]hashes.Hash) []Problem {
	index := indexDoc{Versions: map[string]struct{}{}}
	docs := map[string]versionDoc{}
	for _, m := range pkgs {
		path, ok := m.Location.(providersource.LocalArchive)
		if !ok {
			continue
		}
		v := m.Version.String()
		index.Versions[v] = struct{}{}
		if _, ok := docs[v]; !ok {
			docs[v] = versionDoc{Archives: map[string]archiveDoc{}}
		}
		hs, err := archiveHashes(string(path), fresh[archiveKey{p, v, m.TargetPlatform}])
		if err != nil {
			return []Problem{{"Failed to update indexes", fmt.Sprintf("Failed to determine a hash value for %s v%s on %s: %s.", p, v, m.TargetPlatform, err)}}
		}
		docs[v].Archives[m.TargetPlatform.String()] = archiveDoc{Hashes: hashes.Strings(hs), URL: filepath.Base(string(path))}
	}
	dir := b.typeDir(p)
	if err := writeJSON(filepath.Join(dir, "index.json"), index); err != nil {
		return []Problem{{"Failed to update indexes", fmt.Sprintf("Failed to write an updated JSON index for %s: %s.", p, err)}}
	}
	var problems []Problem
	for v, doc := range docs {
		if err := writeJSON(filepath.Join(dir, v+".json"), doc); err != nil {
			problems = append(problems, Problem{"Failed to update indexes", fmt.Sprintf("Failed to write an updated JSON index for %s v%s: %s.", p, v, err)})
		}
	}
	return problems
}

// archiveHashes are the hashes listed for an archive: those its
// authentication gave in this run plus, a tfdeps addition, its zh: and
// zip h1: (OpenTofu lists only the h1: when the run gave nothing).
func archiveHashes(path string, fromRun []hashes.Hash) ([]hashes.Hash, error) {
	zh, err := hashes.ZipHashFile(path)
	if err != nil {
		return nil, err
	}
	h1, err := hashes.HashZipFile(path)
	if err != nil {
		return nil, err
	}
	return hashes.SortedUnique(append(slices.Clone(fromRun), zh, h1)), nil
}

// writeJSON writes v indented with two spaces, no trailing newline,
// atomically, mode 0644.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tfdeps-index-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close(), os.Chmod(tmp.Name(), 0o644), os.Rename(tmp.Name(), path)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
