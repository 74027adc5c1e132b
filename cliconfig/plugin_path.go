package cliconfig

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// PluginPathFile is the file in the data directory (TF_DATA_DIR, default
// .terraform) that records init's -plugin-dir list for other commands.
const PluginPathFile = "plugin_path"

// PluginDirFlag describes what init's repeatable -plugin-dir option asks for.
type PluginDirFlag struct {
	// Dirs replaces every installation method (explicit or implied) for
	// this run with filesystem mirrors at these directories, in order, with
	// no include/exclude and no direct installation. Empty when the flag was
	// not given. A single empty value ("-plugin-dir=") is kept as given,
	// as OpenTofu does.
	Dirs []string
}

// NewPluginDirFlag interprets the -plugin-dir values of one init run.
func NewPluginDirFlag(values []string) PluginDirFlag {
	if len(values) == 0 {
		return PluginDirFlag{}
	}
	return PluginDirFlag{Dirs: append([]string(nil), values...)}
}

// Given reports whether the flag was used.
func (f PluginDirFlag) Given() bool { return len(f.Dirs) > 0 }

// clears reports whether the flag was exactly one empty value, which deletes
// the stored list.
func (f PluginDirFlag) clears() bool { return len(f.Dirs) == 1 && f.Dirs[0] == "" }

// Store updates dataDir/plugin_path as init does: nothing when the flag was
// not given, removal for "-plugin-dir=", otherwise the list as a JSON array
// indented by two spaces (no trailing newline), creating dataDir if needed.
func (f PluginDirFlag) Store(dataDir string) error {
	if !f.Given() {
		return nil
	}
	return WritePluginPath(dataDir, f.storedDirs())
}

func (f PluginDirFlag) storedDirs() []string {
	if f.clears() {
		return nil
	}
	return f.Dirs
}

// WritePluginPath records dirs in dataDir/plugin_path; an empty list removes
// the file.
func WritePluginPath(dataDir string, dirs []string) error {
	path := filepath.Join(dataDir, PluginPathFile)
	if len(dirs) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	src, err := json.MarshalIndent(dirs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}

// ReadPluginPath returns the list recorded in dataDir/plugin_path, or nil
// when there is none.
func ReadPluginPath(dataDir string) ([]string, error) {
	src, err := regfile.ReadFile(filepath.Join(dataDir, PluginPathFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var dirs []string
	if err := json.Unmarshal(src, &dirs); err != nil {
		return nil, err
	}
	return dirs, nil
}
