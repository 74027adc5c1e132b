package cliconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	hcl1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// ProblemsHeader is the text the CLI prints (to stderr) before the
// diagnostics of Load.
const ProblemsHeader = "There are some problems with the CLI configuration:"

// ProblemsFooter is the text the CLI prints (to stderr) after the
// diagnostics of Load when there are errors; it names the flavour's product.
func ProblemsFooter(f flavour.Flavour) string {
	return "As a result of the above problems, " + f.Product() + " may not behave as intended.\n\n"
}

// Environment variables for the plugin cache.
const (
	EnvPluginCacheDir                        = "TF_PLUGIN_CACHE_DIR"
	EnvPluginCacheMayBreakDependencyLockFile = "TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"
)

// Load reads the CLI configuration as OpenTofu does: the main file, then
// (unless TF_CLI_CONFIG_FILE or TERRAFORM_CONFIG is set) the *.tfrc and
// *.tfrc.json files of the configuration directory in name order, then the
// environment. It always returns a usable configuration together with every
// problem found; diagnostics have no subject.
func Load(o Options) (*Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	cfg := &Config{}

	mainFile, mainDiags := o.mainConfigFile()
	diags = append(diags, mainDiags...)
	if mainFile != "" && pathExists(mainFile) {
		fileCfg, fileDiags := LoadFile(o, mainFile)
		diags = append(diags, fileDiags...)
		cfg = cfg.merge(fileCfg)
	}

	if o.configFileOverride() == "" {
		if dir := o.ConfigDir(); dir != "" && isDir(dir) {
			dirCfg, dirDiags := loadDir(o, dir)
			diags = append(diags, dirDiags...)
			cfg = cfg.merge(dirCfg)
		}
	}

	cfg = envConfig(o).merge(cfg)
	if o.Flavour == flavour.Terraform {
		ignoreOpenTofuSettings(cfg)
	}
	diags = append(diags, cfg.validate(o)...)
	cfg.RegistryProtocols = cfg.registryProtocols.effective()
	return cfg, diags
}

// mainConfigFile returns the main file to read, or "" with a warning when an
// explicitly named file cannot be opened (or the default one exists but
// cannot be opened).
func (o Options) mainConfigFile() (string, hcl.Diagnostics) {
	path, mustExist := o.configFileOverride(), true
	if path == "" {
		path, mustExist = o.defaultConfigFile(), false
	}
	f, err := regfile.Open(path)
	if err == nil {
		f.Close()
		return path, nil
	}
	if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
		// A pipe or device is not opened (it could block): LoadFile
		// reports it.
		return path, nil
	}
	if mustExist || !errors.Is(err, fs.ErrNotExist) {
		return "", hcl.Diagnostics{warningDiag("Unable to open CLI configuration file",
			fmt.Sprintf("The CLI configuration file at %q does not exist.", path))}
	}
	return "", nil
}

// loadDir reads every *.tfrc and *.tfrc.json file of dir in name order.
func loadDir(o Options, dir string) (*Config, hcl.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &Config{}, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error reading %s: %s", dir, err), "")}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var diags hcl.Diagnostics
	cfg := &Config{}
	for _, e := range entries {
		name := e.Name()
		hclMatch, _ := filepath.Match("*.tfrc", name)
		jsonMatch, _ := filepath.Match("*.tfrc.json", name)
		if !hclMatch && !jsonMatch {
			continue
		}
		fileCfg, fileDiags := LoadFile(o, filepath.Join(dir, name))
		diags = append(diags, fileDiags...)
		cfg = cfg.merge(fileCfg)
	}
	return cfg, diags
}

// LoadFile reads one CLI configuration file (HCL 1 native or JSON syntax).
// Environment variables in plugin_cache_dir are expanded.
func LoadFile(o Options, path string) (*Config, hcl.Diagnostics) {
	src, err := readLimited(path)
	if err != nil {
		return &Config{}, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error reading %s: %s", path, err), "")}
	}
	return parseConfig(o, path, src)
}

// parseConfig decodes the bytes of a file named path.
func parseConfig(o Options, path string, src []byte) (*Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	cfg := &Config{}
	if err := checkNesting(src); err != nil {
		return cfg, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error parsing %s: %s", path, err), "")}
	}
	file, err := parseHCL1(src)
	if err != nil {
		return cfg, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error parsing %s: %s", path, err), "")}
	}
	var body fileBody
	if err := decodeHCL1(&body, file); err != nil {
		return cfg, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error parsing %s: %s", path, err), "")}
	}
	root, ok := file.Node.(*ast.ObjectList)
	if !ok {
		return cfg, hcl.Diagnostics{errorDiag(fmt.Sprintf("Error parsing %s: invalid HCL: file root is not an object list", path), "")}
	}
	cfg.PluginCacheDir = body.PluginCacheDir
	cfg.PluginCacheMayBreakDependencyLockFile = body.PluginCacheMayBreakDependencyLockFile
	cfg.Hosts, cfg.Credentials, cfg.CredentialsHelpers = body.Hosts, body.Credentials, body.CredentialsHelpers

	terraform := o.Flavour == flavour.Terraform
	pi, piDiags := decodeProviderInstallation(root, terraform)
	diags = append(diags, piDiags...)
	cfg.ProviderInstallation = pi
	if !terraform {
		// Terraform has no OCI settings; it ignores these blocks.
		dc, dcDiags := decodeOCIDefaultCredentials(root, path)
		diags = append(diags, dcDiags...)
		cfg.OCIDefaultCredentials = dc
		oc, ocDiags := decodeOCICredentials(root)
		diags = append(diags, ocDiags...)
		cfg.OCICredentials = oc
	}

	rp, rpDiags := decodeRegistryProtocols(root)
	diags = append(diags, rpDiags...)
	cfg.registryProtocols = rp

	diags = append(diags, unsupportedSettings(path, body)...)
	if cfg.PluginCacheDir != "" {
		cfg.PluginCacheDir = o.expandEnv(cfg.PluginCacheDir)
	}
	return cfg, diags
}

// envConfig is the configuration implied by the environment.
func envConfig(o Options) *Config {
	cfg := &Config{PluginCacheDir: o.getenv(EnvPluginCacheDir), registryProtocols: registryProtocolsFromEnv(o)}
	if v := o.getenv(EnvPluginCacheMayBreakDependencyLockFile); v != "" && v != "0" {
		cfg.PluginCacheMayBreakDependencyLockFile = true
	}
	return cfg
}

// unsupportedSettings reports settings OpenTofu honours but tfdeps does not,
// so that they are never silently ignored.
func unsupportedSettings(path string, body fileBody) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(body.CredentialsHelpers) {
		diags = append(diags, warningDiag("Credentials helpers are not supported",
			fmt.Sprintf("The credentials_helper %q block in %s cannot be used: tfdeps does not run credentials helpers. Give tokens in credentials blocks or TF_TOKEN_ environment variables instead.", name, path)))
	}
	return diags
}

// parseHCL1 parses HCL 1 native or JSON syntax (chosen by content). The
// library panics on some malformed input (e.g. a truncated JSON escape);
// tfdeps reports those as parse errors instead of crashing.
func parseHCL1(src []byte) (file *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			file, err = nil, fmt.Errorf("invalid syntax: %v", r)
		}
	}()
	return hcl1.ParseBytes(src)
}

// decodeHCL1 is hcl.DecodeObject, with a library panic turned into an error.
func decodeHCL1(out any, node ast.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid value: %v", r)
		}
	}()
	return hcl1.DecodeObject(out, node)
}

// ignoreOpenTofuSettings drops what only OpenTofu reads: Terraform decodes
// a network_mirror block without trust_all_hashes (an unknown argument it
// ignores), so the mirror's hashes are never trusted unverified.
func ignoreOpenTofuSettings(cfg *Config) {
	for _, pi := range cfg.ProviderInstallation {
		for _, m := range pi.Methods {
			m.TrustAllHashes = false
		}
	}
}
