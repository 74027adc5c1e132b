package modules

// This file is an adapter until internal/modules/manifest (helper
// "modaddr") lands: the modules.json records the installer needs.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	version "github.com/hashicorp/go-version"
)

// Record is one entry of modules.json.
type Record struct {
	Key     string
	Source  string
	Version string `json:",omitempty"`
	Dir     string
}

// Manifest maps keys ("" for the root, "a.b") to records.
type Manifest map[string]Record

// ManifestFile is the manifest's name inside MODDIR.
const ManifestFile = "modules.json"

// ReadManifest reads MODDIR/modules.json; a missing or empty file is an
// empty manifest (modules.md §6).
func ReadManifest(modsDir string) (Manifest, error) {
	src, err := os.ReadFile(filepath.Join(modsDir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(src) == 0) {
		return Manifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct{ Modules []Record }
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("error unmarshalling snapshot: %w", err)
	}
	m := Manifest{}
	for _, r := range doc.Modules {
		if r.Version != "" {
			if _, err := version.NewVersion(r.Version); err != nil {
				return nil, fmt.Errorf("invalid version %q for %s: %s", r.Version, r.Key, err)
			}
		}
		if r.Source != "" {
			if s, err := ParseSource(r.Source, false); err == nil {
				r.Source = s.String()
			}
		}
		if _, dup := m[r.Key]; dup {
			return nil, fmt.Errorf("snapshot file contains two records for path %s", r.Key)
		}
		m[r.Key] = r
	}
	return m, nil
}

// Encode is the exact bytes OpenTofu writes: one line, records sorted by
// key, no trailing newline.
func (m Manifest) Encode() []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	doc := struct{ Modules []Record }{Modules: []Record{}}
	for _, k := range keys {
		r := m[k]
		r.Key = k
		r.Dir = filepath.ToSlash(r.Dir)
		doc.Modules = append(doc.Modules, r)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	_ = enc.Encode(doc) // strings and slices only: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Write replaces MODDIR/modules.json atomically (mode 0666 minus umask).
func (m Manifest) Write(modsDir string) error {
	if err := os.MkdirAll(modsDir, 0o777); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(modsDir, ManifestFile), m.Encode())
}

// writeFileAtomic writes a sibling temporary file created with 0666 (so
// the umask applies) and renames it over name.
func writeFileAtomic(name string, data []byte) error {
	var f *os.File
	var err error
	for i := 0; i < 100; i++ {
		tmp := fmt.Sprintf("%s.tmp%d-%d", name, os.Getpid(), i)
		f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
