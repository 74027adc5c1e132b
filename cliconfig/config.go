package cliconfig

import (
	"fmt"
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// Config is the merged CLI configuration.
type Config struct {
	// PluginCacheDir is the plugin cache directory, "" for none.
	PluginCacheDir string
	// PluginCacheMayBreakDependencyLockFile lets the installer use cached
	// packages whose hashes the lock file does not confirm.
	PluginCacheMayBreakDependencyLockFile bool

	// Hosts maps host block labels, as written, to their settings.
	Hosts map[string]*Host
	// Credentials maps credentials block labels, as written, to their
	// attributes (a "token" string is the only one used).
	Credentials map[string]map[string]any
	// CredentialsHelpers maps credentials_helper labels to their settings.
	// tfdeps does not run credentials helpers.
	CredentialsHelpers map[string]*CredentialsHelper

	// ProviderInstallation holds every provider_installation block found, in
	// file order. Only the first is used; see Installation.
	ProviderInstallation []*ProviderInstallation

	// OCIDefaultCredentials holds every oci_default_credentials block
	// (OpenTofu allows one); see OCIDefaults.
	OCIDefaultCredentials []*OCIDefaultCredentials
	// OCICredentials holds every oci_credentials block, in file order.
	OCICredentials []*OCICredentials

	// RegistryProtocols holds the effective registry protocol settings
	// (environment, main file, directory files, defaults).
	RegistryProtocols RegistryProtocols

	registryProtocols *registryProtocolsBlock
}

// Host is a host block: its services map forces service discovery results.
type Host struct {
	Services map[string]any `hcl:"services"`
}

// CredentialsHelper is a credentials_helper block.
type CredentialsHelper struct {
	Args []string `hcl:"args"`
}

// fileBody is the part of a file decoded by the HCL 1 decoder.
type fileBody struct {
	PluginCacheDir                        string                        `hcl:"plugin_cache_dir"`
	PluginCacheMayBreakDependencyLockFile bool                          `hcl:"plugin_cache_may_break_dependency_lock_file"`
	Hosts                                 map[string]*Host              `hcl:"host"`
	Credentials                           map[string]map[string]any     `hcl:"credentials"`
	CredentialsHelpers                    map[string]*CredentialsHelper `hcl:"credentials_helper"`
}

// Installation returns the provider_installation block in effect: the first
// one, or nil when there is none (the implied methods apply).
func (c *Config) Installation() *ProviderInstallation {
	if c == nil || len(c.ProviderInstallation) == 0 {
		return nil
	}
	return c.ProviderInstallation[0]
}

// DevOverrides returns the development overrides in effect, or nil.
func (c *Config) DevOverrides() map[addrs.Provider]string {
	if pi := c.Installation(); pi != nil {
		return pi.DevOverrides
	}
	return nil
}

// merge returns a new configuration: c's plugin cache directory wins when
// set, other's host, credentials and credentials_helper entries replace c's,
// installation blocks are concatenated and registry protocol settings of c
// win per setting.
func (c *Config) merge(other *Config) *Config {
	out := &Config{
		PluginCacheDir:                        c.PluginCacheDir,
		PluginCacheMayBreakDependencyLockFile: c.PluginCacheMayBreakDependencyLockFile || other.PluginCacheMayBreakDependencyLockFile,
		Hosts:                                 mergeMaps(c.Hosts, other.Hosts),
		Credentials:                           mergeMaps(c.Credentials, other.Credentials),
		CredentialsHelpers:                    mergeMaps(c.CredentialsHelpers, other.CredentialsHelpers),
		registryProtocols:                     c.registryProtocols.mergeUnder(other.registryProtocols),
	}
	if out.PluginCacheDir == "" {
		out.PluginCacheDir = other.PluginCacheDir
	}
	out.ProviderInstallation = append(out.ProviderInstallation, c.ProviderInstallation...)
	out.ProviderInstallation = append(out.ProviderInstallation, other.ProviderInstallation...)
	out.OCIDefaultCredentials = append(append(out.OCIDefaultCredentials, c.OCIDefaultCredentials...), other.OCIDefaultCredentials...)
	out.OCICredentials = append(append(out.OCICredentials, c.OCICredentials...), other.OCICredentials...)
	return out
}

func mergeMaps[V any](a, b map[string]V) map[string]V {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make(map[string]V, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// validate reports what decoding cannot see, in a deterministic order.
func (c *Config) validate(o Options) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, h := range sortedKeys(c.Hosts) {
		if _, err := addrs.ParseHostname(h); err != nil {
			diags = append(diags, errorDiag(fmt.Sprintf("The host %q block has an invalid hostname: %s", h, err), ""))
		}
	}
	for _, h := range sortedKeys(c.Credentials) {
		if _, err := addrs.ParseHostname(h); err != nil {
			diags = append(diags, errorDiag(fmt.Sprintf("The credentials %q block has an invalid hostname: %s", h, err), ""))
		}
	}
	if len(c.CredentialsHelpers) > 1 {
		diags = append(diags, errorDiag("No more than one credentials_helper block may be specified", ""))
	}
	if len(c.ProviderInstallation) > 1 {
		diags = append(diags, errorDiag("No more than one provider_installation block may be specified", ""))
	}
	diags = append(diags, c.validateOCICredentials()...)
	if c.PluginCacheDir != "" {
		if _, err := os.Stat(o.rooted(c.PluginCacheDir)); err != nil {
			diags = append(diags, errorDiag(fmt.Sprintf("The specified plugin cache dir %s cannot be opened: %s", c.PluginCacheDir, err), ""))
		}
	}
	return diags
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

func warningDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}
