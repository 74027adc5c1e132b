package cliconfig

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/flavour"
)

// Options carries every effect the loader depends on. The zero value reads no
// environment, has no home directory and uses the real file system.
type Options struct {
	// Environ is the process environment as "NAME=VALUE" entries, in process
	// order (os.Environ()). It is the only source of environment variables,
	// so that TF_TOKEN_* variables can be enumerated.
	Environ []string

	// HomeDir is the home directory from the user database, used only when
	// HOME is unset or empty (as OpenTofu does). Empty means unknown.
	HomeDir string

	// Root, when not empty, is prepended to every absolute path the loader
	// derives or opens, so tests can fake system directories such as
	// /usr/share. Paths in results and messages include the prefix.
	Root string

	// LaunchDir is the directory of the implied "terraform.d/plugins"
	// mirror: the working directory after -chdir for OpenTofu 1.12.6, the
	// directory the process was started in for Terraform. Empty means the
	// process working directory.
	LaunchDir string

	// Flavour selects whose locations are read: Terraform reads only
	// ~/.terraformrc and ~/.terraform.d (no ~/.tofurc, no XDG fallback, no
	// $XDG_DATA_HOME/opentofu/plugins).
	Flavour flavour.Flavour
}

// OptionsFromOS returns Options for the running process.
func OptionsFromOS() Options {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	return Options{Environ: os.Environ(), HomeDir: home, LaunchDir: wd}
}

// getenv returns the value of the first entry for name; Go's os.Getenv also
// keeps the first of duplicated entries.
func (o Options) getenv(name string) string {
	for _, kv := range o.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// home returns HOME from the environment, else the user-database home.
func (o Options) home() string {
	if h := o.getenv("HOME"); h != "" {
		return o.rooted(h)
	}
	if o.HomeDir == "" {
		return ""
	}
	return o.rooted(o.HomeDir)
}

// rooted maps an absolute path into Root.
func (o Options) rooted(p string) string {
	if o.Root == "" || !filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(o.Root, p)
}

// expandEnv expands $VAR and ${VAR} in s like os.ExpandEnv, from Environ.
func (o Options) expandEnv(s string) string {
	return os.Expand(s, o.getenv)
}

// pathExists reports whether p can be stat'ed.
func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// isDir reports whether p exists and is a directory (symlinks followed).
func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
