package cliconfig

import (
	"strings"

	"github.com/opentofu/svchost"
)

// EnvTokenPrefix starts the names of environment variables holding registry
// tokens, e.g. TF_TOKEN_registry_example_com.
const EnvTokenPrefix = "TF_TOKEN_"

// Credentials finds the bearer token for a host: a TF_TOKEN_* environment
// variable first, then a credentials block (credentials.tfrc.json
// included). Credentials helpers are not supported.
type Credentials struct {
	env        map[svchost.Hostname]string
	configured map[svchost.Hostname]map[string]any
}

// CredentialsSource returns the credentials lookup for c and the environment of o.
func (c *Config) CredentialsSource(o Options) *Credentials {
	creds := &Credentials{env: tokensFromEnv(o.Environ), configured: map[svchost.Hostname]map[string]any{}}
	if c == nil {
		return creds
	}
	// Labels that normalise to the same host: the last in byte order wins,
	// so the result does not depend on map order.
	for _, label := range sortedKeys(c.Credentials) {
		host, err := svchost.ForComparison(label)
		if err != nil {
			continue // reported by validation
		}
		creds.configured[host] = c.Credentials[label]
	}
	return creds
}

// Token returns the bearer token for host (comparison form), if any. A
// credentials block without a string "token" gives no token.
func (c *Credentials) Token(host svchost.Hostname) (string, bool) {
	if c == nil {
		return "", false
	}
	if tok, ok := c.env[host]; ok {
		return tok, true
	}
	block, ok := c.configured[host]
	if !ok {
		return "", false
	}
	tok, ok := block["token"].(string)
	return tok, ok
}

// tokensFromEnv maps TF_TOKEN_* variables to hosts: "__" becomes "-", then
// "_" becomes "."; the result is put into display form and normalised, and
// invalid names are ignored. A later variable for the same host wins.
func tokensFromEnv(environ []string) map[svchost.Hostname]string {
	out := map[svchost.Hostname]string{}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, EnvTokenPrefix) {
			continue
		}
		raw := strings.TrimPrefix(name, EnvTokenPrefix)
		raw = strings.ReplaceAll(raw, "__", "-")
		raw = strings.ReplaceAll(raw, "_", ".")
		host, err := svchost.ForComparison(svchost.ForDisplay(raw))
		if err != nil {
			continue
		}
		out[host] = value
	}
	return out
}

// HostServices returns the services forced by host blocks, keyed by
// hostname in comparison form. Invalid labels are skipped (validation
// reports them); labels that normalise to the same host: the last in byte
// order wins.
func (c *Config) HostServices() map[svchost.Hostname]map[string]any {
	out := map[svchost.Hostname]map[string]any{}
	if c == nil {
		return out
	}
	for _, label := range sortedKeys(c.Hosts) {
		host, err := svchost.ForComparison(label)
		if err != nil || c.Hosts[label] == nil {
			continue
		}
		out[host] = c.Hosts[label].Services
	}
	return out
}
