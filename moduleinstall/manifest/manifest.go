package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"

	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// FileName is the manifest's name inside the modules directory.
const FileName = "modules.json"

// Record is one installed (or reused) module call.
type Record struct {
	// Key is the module path joined with "." ("" for the root).
	Key string
	// Source is the call's canonical source address (moduleaddr String()).
	Source string
	// Version is the registry version in go-version's canonical form; ""
	// for local and remote modules.
	Version string
	// Dir is the module's directory with OS separators: relative to the
	// working directory, or absolute when a symlink led there.
	Dir string
}

// Manifest maps keys to records.
type Manifest map[string]Record

// fileRecord is a record as the file holds it; the field order and tags
// make encoding/json write OpenTofu's bytes.
type fileRecord struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

type file struct {
	Modules []fileRecord `json:"Modules"`
}

// Read reads the manifest at path. A missing file is an empty manifest;
// other read errors are returned as they are. See Parse.
func Read(path string) (Manifest, error) {
	src, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(src)
}

// Parse reads manifest bytes as OpenTofu does: zero bytes are an empty
// manifest; unknown JSON fields are ignored; each Source that parses as a
// module source is re-normalised (kept as it is otherwise); each Version
// is parsed and kept in canonical form. Errors:
// "error unmarshalling snapshot: %s", "invalid version %q for %s: %s",
// "snapshot file contains two records for path %s".
func Parse(src []byte) (Manifest, error) { return ParseWith(src, moduleaddr.Parser{}) }

// ParseWith is Parse with the given source parser (its HTTP client is used
// only for a bitbucket.org shorthand written into the file by hand).
func ParseWith(src []byte, p moduleaddr.Parser) (Manifest, error) {
	m := Manifest{}
	if len(src) == 0 {
		return m, nil
	}
	var f file
	if err := json.Unmarshal(src, &f); err != nil {
		return nil, fmt.Errorf("error unmarshalling snapshot: %w", withTofuTypeNames(err))
	}
	for _, fr := range f.Modules {
		rec := Record{Key: fr.Key, Source: fr.Source, Dir: filepath.FromSlash(fr.Dir)}
		if fr.Version != "" {
			v, err := version.NewVersion(fr.Version)
			if err != nil {
				return nil, fmt.Errorf("invalid version %q for %s: %w", fr.Version, fr.Key, err)
			}
			rec.Version = v.String()
		}
		if rec.Source != "" {
			if addr, err := p.Parse(rec.Source); err == nil {
				rec.Source = addr.String()
			}
		}
		if _, dup := m[rec.Key]; dup {
			return nil, fmt.Errorf("snapshot file contains two records for path %s", rec.Key)
		}
		m[rec.Key] = rec
	}
	return m, nil
}

// tofuTypeNames maps the Go type names of this package's file structs to
// those of OpenTofu's (package modsdir), which encoding/json puts in its
// type errors.
var tofuTypeNames = strings.NewReplacer(
	"manifest.fileRecord", "modsdir.Record",
	"manifest.file", "modsdir.manifestSnapshotFile",
)

var tofuStructNames = map[string]string{"file": "manifestSnapshotFile", "fileRecord": "Record"}

// withTofuTypeNames returns a JSON type error (a value of the wrong kind)
// worded with OpenTofu's type names, so the message is tofu's byte for
// byte; other errors as they are.
func withTofuTypeNames(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	typ := tofuTypeNames.Replace(te.Type.String())
	if te.Struct == "" && te.Field == "" {
		return errors.New("json: cannot unmarshal " + te.Value + " into Go value of type " + typ)
	}
	st := te.Struct
	if n, ok := tofuStructNames[st]; ok {
		st = n
	}
	return errors.New("json: cannot unmarshal " + te.Value + " into Go struct field " + st + "." + te.Field + " of type " + typ)
}

// Marshal returns the file's bytes: {"Modules":[...]} on one line, no
// trailing newline, records sorted by key, Version only when set, Dir with
// "/" separators, strings escaped as encoding/json does (<, >, & as
// \u003c, \u003e, \u0026). An empty manifest is {"Modules":null}, as
// OpenTofu writes it.
func (m Manifest) Marshal() ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var f file
	for _, k := range keys {
		rec := m[k]
		f.Modules = append(f.Modules, fileRecord{Key: rec.Key, Source: rec.Source, Version: rec.Version, Dir: filepath.ToSlash(rec.Dir)})
	}
	return json.Marshal(f)
}

// Write writes the manifest to path atomically: a new file in the same
// directory (mode 0666 minus the umask, as OpenTofu creates it), renamed
// over path. On error the temporary file is removed.
func (m Manifest) Write(path string) error {
	src, err := m.Marshal()
	if err != nil {
		return err
	}
	return writeAtomic(path, src)
}

// Clone returns a copy that can be changed without changing m.
func (m Manifest) Clone() Manifest {
	out := make(Manifest, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
