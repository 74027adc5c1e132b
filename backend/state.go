package backend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// StateFileName is the name, in the data directory (.terraform or
// TF_DATA_DIR), of the file where init records the backend it
// configured.
const StateFileName = "terraform.tfstate"

// stateVersion is the only format version of that file both products
// read and write.
const stateVersion = 3

// maxStateFileSize bounds the file read into memory.
const maxStateFileSize = 64 << 20

// State is the content of the data directory's terraform.tfstate. It is
// not a state of resources: only the backend it names matters.
type State struct {
	// TerraformVersion is the Terraform version that last wrote the file
	// (Terraform writes it, OpenTofu does not).
	TerraformVersion string
	// Backend is the saved backend; nil when the file names none.
	Backend *SavedBackend
	// StateStore is Terraform's state_store section, kept as read.
	StateStore json.RawMessage
}

// SavedBackend is the backend configuration init saved: its type, its
// configuration (the block merged with -backend-config, as JSON of the
// schema's implied type) and the hash of the block as written.
type SavedBackend struct {
	Type   string
	Config json.RawMessage
	Hash   uint64
}

// Value decodes the saved configuration as a value of the schema's
// implied type.
func (b *SavedBackend) Value(s *Schema) (cty.Value, error) {
	return ctyjson.Unmarshal(b.Config, s.ImpliedType())
}

// StateError is a state file that cannot be read.
type StateError struct {
	Path string
	Err  error
}

func (e *StateError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *StateError) Unwrap() error { return e.Err }

// VersionError is a state file of a format version other than 3. Each
// product words it its own way: OpenTofu says it does not support the
// version, Terraform names its version that wrote the file.
type VersionError struct {
	Version          int
	TerraformVersion string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("unsupported backend state version %d", e.Version)
}

// fileJSON is the file's layout, in the order both products write it.
type fileJSON struct {
	Version          int             `json:"version"`
	TerraformVersion string          `json:"terraform_version,omitempty"`
	Backend          *backendJSON    `json:"backend,omitempty"`
	StateStore       json.RawMessage `json:"state_store,omitempty"`
}

type backendJSON struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
	Hash   uint64          `json:"hash"`
}

// ReadState reads dataDir's terraform.tfstate. A file that is absent or
// empty is no state: nil and no error.
func ReadState(dataDir string) (*State, error) {
	path := filepath.Join(dataDir, StateFileName)
	src, err := regfile.ReadFileMax(path, maxStateFileSize)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &StateError{Path: path, Err: err}
	}
	st, err := ParseState(src)
	if err != nil {
		return nil, &StateError{Path: path, Err: err}
	}
	return st, nil
}

// ParseState reads the content of a terraform.tfstate of the data
// directory; empty content is no state (nil).
func ParseState(src []byte) (*State, error) {
	if len(src) == 0 {
		return nil, nil
	}
	var version struct {
		Version          int    `json:"version"`
		TerraformVersion string `json:"terraform_version"`
	}
	if err := json.Unmarshal(src, &version); err != nil {
		return nil, fmt.Errorf("decoding CLI state file version failed: %w", err)
	}
	if version.Version != stateVersion {
		return nil, &VersionError{Version: version.Version, TerraformVersion: version.TerraformVersion}
	}
	var f fileJSON
	if err := json.Unmarshal(src, &f); err != nil {
		return nil, fmt.Errorf("decoding CLI state file failed: %w", err)
	}
	st := &State{TerraformVersion: f.TerraformVersion, StateStore: f.StateStore}
	if f.Backend != nil {
		st.Backend = &SavedBackend{Type: f.Backend.Type, Config: f.Backend.Config, Hash: f.Backend.Hash}
	}
	return st, nil
}

// Encode renders the state file as the flavour writes it: OpenTofu
// with four-space indentation and a final newline, only the version and
// the backend; Terraform with two-space indentation, no final newline,
// and its version (the emulated one: st.TerraformVersion, or the
// default when empty).
func (st *State) Encode(f flavour.Flavour) ([]byte, error) {
	out := fileJSON{Version: stateVersion}
	if st.Backend != nil {
		cfg := st.Backend.Config
		if cfg == nil {
			cfg = json.RawMessage("null")
		}
		out.Backend = &backendJSON{Type: st.Backend.Type, Config: cfg, Hash: st.Backend.Hash}
	}
	if f != flavour.Terraform {
		data, err := json.MarshalIndent(out, "", "    ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	}
	out.TerraformVersion = st.TerraformVersion
	if out.TerraformVersion == "" {
		out.TerraformVersion = flavour.DefaultTerraformVersion
	}
	out.StateStore = st.StateStore
	return json.MarshalIndent(out, "", "  ")
}

// WriteState writes dataDir's terraform.tfstate atomically (a temporary
// file renamed into place), creating dataDir when needed.
func WriteState(f flavour.Flavour, dataDir string, st *State) error {
	data, err := st.Encode(f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dataDir, StateFileName)
	tmp, err := os.CreateTemp(dataDir, "."+StateFileName+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, bytes.NewReader(data)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// StateHasContent reports whether a state file (JSON) holds any resource
// or output, what makes a state non-empty for the tools (a migration
// would copy something). Content that is
// not a state counts as non-empty: the tools would stop on it.
func StateHasContent(b []byte) bool {
	var st struct {
		Resources []json.RawMessage            `json:"resources"`
		Outputs   map[string]json.RawMessage   `json:"outputs"`
		Modules   []map[string]json.RawMessage `json:"modules"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return true
	}
	if len(st.Resources) > 0 || len(st.Outputs) > 0 {
		return true
	}
	for _, m := range st.Modules {
		for _, k := range []string{"resources", "outputs"} {
			if v, ok := m[k]; ok && len(v) > 2 {
				return true
			}
		}
	}
	return false
}
