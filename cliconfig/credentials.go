package cliconfig

// Tokens returns the bearer tokens of the credentials blocks (including
// credentials.tfrc.json), keyed by block label as written. A block whose
// "token" is not a string gives no token. The registry client normalises the
// labels and combines them with TF_TOKEN_* variables.
func (c *Config) Tokens() map[string]string {
	out := map[string]string{}
	if c == nil {
		return out
	}
	for label, attrs := range c.Credentials {
		if tok, ok := attrs["token"].(string); ok {
			out[label] = tok
		}
	}
	return out
}

// CredentialsHelperName returns the label of the configured
// credentials_helper block ("" when none; the first in byte order when
// several). tfdeps does not run credentials helpers.
func (c *Config) CredentialsHelperName() string {
	if c == nil || len(c.CredentialsHelpers) == 0 {
		return ""
	}
	return sortedKeys(c.CredentialsHelpers)[0]
}

// HostServices returns the services maps of the host blocks, keyed by label
// as written. Blocks without services are left out.
func (c *Config) HostServices() map[string]map[string]any {
	out := map[string]map[string]any{}
	if c == nil {
		return out
	}
	for label, h := range c.Hosts {
		if h != nil && h.Services != nil {
			out[label] = h.Services
		}
	}
	return out
}
