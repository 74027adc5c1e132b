package cliconfig

import (
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/flavour"
)

// Environment variables naming the main CLI configuration file. Either one
// also suppresses the configuration directory.
const (
	EnvCLIConfigFile       = "TF_CLI_CONFIG_FILE"
	EnvLegacyCLIConfigFile = "TERRAFORM_CONFIG"
)

// configFileOverride returns the main file named by the environment, if any.
func (o Options) configFileOverride() string {
	if p := o.getenv(EnvCLIConfigFile); p != "" {
		return o.rooted(p)
	}
	return o.rooted(o.getenv(EnvLegacyCLIConfigFile))
}

// defaultConfigFile returns the main file used without an override:
// $XDG_CONFIG_HOME/opentofu/tofurc when neither ~/.terraformrc nor ~/.tofurc
// exists and XDG_CONFIG_HOME is set; else ~/.terraformrc when only that one
// exists; else ~/.tofurc. It returns "" when there is no home directory.
func (o Options) defaultConfigFile() string {
	home := o.home()
	if home == "" {
		return ""
	}
	newFile := filepath.Join(home, ".tofurc")
	legacyFile := filepath.Join(home, ".terraformrc")
	if o.Flavour == flavour.Terraform {
		return legacyFile
	}
	if xdg := o.getenv("XDG_CONFIG_HOME"); xdg != "" && !pathExists(legacyFile) && !pathExists(newFile) {
		return filepath.Join(o.rooted(xdg), "opentofu", "tofurc")
	}
	if pathExists(legacyFile) && !pathExists(newFile) {
		return legacyFile
	}
	return newFile
}

// ConfigDir returns the CLI configuration directory: ~/.terraform.d, or
// $XDG_CONFIG_HOME/opentofu when that does not exist and XDG_CONFIG_HOME is
// set. It returns "" when there is no home directory.
func (o Options) ConfigDir() string {
	home := o.home()
	if home == "" {
		return ""
	}
	dir := filepath.Join(home, ".terraform.d")
	if xdg := o.getenv("XDG_CONFIG_HOME"); !pathExists(dir) && xdg != "" && o.Flavour != flavour.Terraform {
		dir = filepath.Join(o.rooted(xdg), "opentofu")
	}
	return dir
}

// LocalDir is a candidate filesystem mirror of the implied installation
// methods.
type LocalDir struct {
	// Name is the directory as OpenTofu names it in messages, e.g.
	// "terraform.d/plugins" for the launch directory's mirror.
	Name string
	// Path is where the directory is read.
	Path string
}

// ImpliedPluginDirs returns, in OpenTofu's order, the local plugin
// directories that exist and are directories (symlinks followed): the
// launch directory's terraform.d/plugins, ~/.terraform.d/plugins,
// $XDG_DATA_HOME/opentofu/plugins, DATA_HOME/terraform/plugins and
// ENTRY/terraform/plugins for each $XDG_DATA_DIRS entry.
func (o Options) ImpliedPluginDirs() []LocalDir {
	var out []LocalDir
	for _, d := range o.impliedPluginCandidates() {
		if isDir(d.Path) {
			out = append(out, d)
		}
	}
	return out
}

func (o Options) impliedPluginCandidates() []LocalDir {
	vendor := filepath.Join("terraform.d", "plugins")
	dirs := []LocalDir{{Name: vendor, Path: vendor}}
	if o.LaunchDir != "" {
		dirs[0].Path = filepath.Join(o.LaunchDir, vendor)
	}
	home := o.home()
	if home != "" {
		dirs = append(dirs, same(filepath.Join(home, ".terraform.d", "plugins")))
		if xdg := o.getenv("XDG_DATA_HOME"); xdg != "" && o.Flavour != flavour.Terraform {
			dirs = append(dirs, same(filepath.Join(o.rooted(xdg), "opentofu", "plugins")))
		}
	}
	if dataHome := o.xdgDataHome(home); dataHome != "" {
		dirs = append(dirs, same(filepath.Join(dataHome, "terraform", "plugins")))
	}
	for _, d := range o.xdgDataDirs() {
		dirs = append(dirs, same(filepath.Join(d, "terraform", "plugins")))
	}
	return dirs
}

func same(p string) LocalDir { return LocalDir{Name: p, Path: p} }

// xdgDataHome is $XDG_DATA_HOME when it is absolute, else ~/.local/share.
func (o Options) xdgDataHome(home string) string {
	if xdg := o.getenv("XDG_DATA_HOME"); filepath.IsAbs(xdg) {
		return o.rooted(xdg)
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share")
}

// xdgDataDirs is the absolute entries of $XDG_DATA_DIRS, by default
// /usr/local/share/ and /usr/share/.
func (o Options) xdgDataDirs() []string {
	raw := o.getenv("XDG_DATA_DIRS")
	if raw == "" {
		raw = "/usr/local/share/:/usr/share/"
	}
	var out []string
	for _, d := range strings.Split(raw, ":") {
		if filepath.IsAbs(d) {
			out = append(out, o.rooted(d))
		}
	}
	return out
}
