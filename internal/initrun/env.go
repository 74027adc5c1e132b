package initrun

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/workdir"
)

// This file holds what a run reads of its Env: the files of its
// directory, its variables and standard input.

// lockFileName is the dependency lock file's name in the directory.
const lockFileName = ".terraform.lock.hcl"

// normal is a copy of m with the missing effects replaced by none: no
// variables set, empty standard input, output discarded.
func (m *Env) normal() *Env {
	n := *m
	if n.Getenv == nil {
		n.Getenv = func(string) string { return "" }
	}
	if n.Environ == nil {
		n.Environ = func() []string { return nil }
	}
	if n.Getwd == nil {
		n.Getwd = func() (string, error) { return "", nil }
	}
	if n.Stdin == nil {
		n.Stdin = strings.NewReader("")
	}
	if n.Stdout == nil {
		n.Stdout = io.Discard
	}
	if n.Stderr == nil {
		n.Stderr = io.Discard
	}
	return &n
}

// path is name in the run's directory (name itself when absolute).
func (m *Env) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(m.Dir, name)
}

// lookupEnv reads one of the run's environment variables, telling an
// empty value from an unset one.
func (m *Env) lookupEnv(name string) (string, bool) {
	prefix := name + "="
	for _, kv := range m.Environ() {
		if strings.HasPrefix(kv, prefix) {
			return kv[len(prefix):], true
		}
	}
	return "", false
}

// getwd is the run's directory as an absolute path.
func (m *Env) getwd() (string, error) {
	if filepath.IsAbs(m.Dir) {
		return m.Dir, nil
	}
	wd, err := m.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, m.Dir), nil
}

// isEmpty reports whether the directory has no configuration files (as
// workdir.IsEmpty does for the process's working directory).
func (m *Env) isEmpty() bool {
	dir := m.Dir
	if dir == "" {
		dir = "."
	}
	files, diags := config.DiscoverFiles(config.OSFileSystem{}, dir, "", m.Flavour)
	return !diags.HasErrors() && files.Empty()
}

// dataDir is TF_DATA_DIR, default .terraform, in the run's directory.
func (m *Env) dataDir() string {
	if d := m.Getenv("TF_DATA_DIR"); d != "" {
		return m.path(d)
	}
	return m.path(providerinstall.DefaultDataDir)
}

// storePluginDirs maintains TF_DATA_DIR/plugin_path for -plugin-dir.
func storePluginDirs(m *Env, values []string) *hcl.Diagnostic {
	err := workdir.StorePluginDirs(m.dataDir(), values)
	if err == nil {
		return nil
	}
	return errorDiag("Error saving -plugin-path values", err.Error())
}

// DefaultStatePath is the local state file of the selected workspace in
// env.Dir: TF_WORKSPACE, else the one .terraform/environment records,
// else "default".
func DefaultStatePath(env *Env) string {
	m := env.normal()
	ws := m.Getenv("TF_WORKSPACE")
	if ws == "" {
		if b, err := regfile.ReadFile(m.path(filepath.Join(".terraform", "environment"))); err == nil {
			ws = strings.TrimSpace(string(b))
		}
	}
	if ws == "" || ws == "default" {
		return m.path("terraform.tfstate")
	}
	return m.path(filepath.Join("terraform.tfstate.d", ws, "terraform.tfstate"))
}

func defaultStatePath(m *Env) string { return DefaultStatePath(m) }

// errorDiag is an error diagnostic.
func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// newDiagPrinter is the diagnostics printer of m's writers and settings.
func newDiagPrinter(m *Env, files map[string]*hcl.File) *diagrender.Printer {
	return &diagrender.Printer{Stdout: m.Stdout, Stderr: m.Stderr, Files: files, Width: livedisplay.WrapWidth(m.Stderr), Color: m.Color, Terraform: m.Flavour == flavour.Terraform}
}

// variables are the root module's variable values: -var and -var-file
// (opts), then what they gave once collected.
type variables struct {
	opts   []config.VarOption
	files  map[string]*hcl.File
	values *config.InputValues
}

// configOptions collects the values (VariableOptions).
func (v *variables) configOptions(m *Env) ([]config.Option, hcl.Diagnostics) {
	iv, opts, diags := VariableOptions(m, v.opts)
	v.files, v.values = iv.Files, iv
	return opts, diags
}

// VariableOptions collects the root module's variable values in env.Dir
// (the environment's TF_VAR_ values, terraform.tfvars and *.auto.tfvars,
// then opts, -var and -var-file in order) and returns them with the
// loader options that pass them and the selected workspace.
func VariableOptions(env *Env, opts []config.VarOption) (*config.InputValues, []config.Option, hcl.Diagnostics) {
	m := env.normal()
	dir := m.Dir
	if dir == "" {
		dir = "."
	}
	iv, diags := config.CollectInputValues(config.VarSources{Dir: dir, Environ: m.Environ(), Options: opts})
	return iv, []config.Option{config.WithInputValues(iv), config.WithWorkspace(currentWorkspace(m))}, diags
}

// currentWorkspace is the selected workspace: TF_WORKSPACE, else the one
// recorded in TF_DATA_DIR/environment, else "default".
func currentWorkspace(m *Env) string {
	if ws := m.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if b, err := regfile.ReadFile(filepath.Join(m.dataDir(), "environment")); err == nil {
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws
		}
	}
	return "default"
}
