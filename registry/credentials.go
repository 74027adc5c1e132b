package registry

import (
	"fmt"
	"strings"

	"github.com/opentofu/svchost"
)

// Credentials finds the bearer token for a hostname: TF_TOKEN_… variables
// first, then the CLI configuration's credentials blocks.
type Credentials struct {
	env    map[svchost.Hostname]string
	config map[svchost.Hostname]string
	helper string
}

// NewCredentials builds the lookup from the process environment (KEY=VALUE
// entries), the CLI configuration's tokens (hostname as written → token) and
// the name of a configured credentials helper ("" when none).
func NewCredentials(environ []string, configTokens map[string]string, helper string) *Credentials {
	c := &Credentials{
		env:    map[svchost.Hostname]string{},
		config: map[svchost.Hostname]string{},
		helper: helper,
	}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if host, ok := TokenVariableHost(name); ok && value != "" {
			c.env[host] = value // later entries win
		}
	}
	for label, token := range configTokens {
		if host, err := svchost.ForComparison(label); err == nil {
			c.config[host] = token
		}
	}
	return c
}

// TokenVariableHost maps a TF_TOKEN_… variable name to its hostname:
// "__" becomes "-", every other "_" becomes ".", and the result is taken to
// display form and normalised, so both IDN and punycode spellings work.
func TokenVariableHost(name string) (svchost.Hostname, bool) {
	rest, ok := strings.CutPrefix(name, "TF_TOKEN_")
	if !ok || rest == "" {
		return "", false
	}
	rest = strings.ReplaceAll(rest, "__", "-")
	rest = strings.ReplaceAll(rest, "_", ".")
	host, err := svchost.ForComparison(svchost.ForDisplay(rest))
	if err != nil {
		return "", false
	}
	return host, true
}

// Token returns the token for host, "" when there is none. The error is
// returned only when no token is known and a credentials helper (which
// tfdeps does not run) is configured.
func (c *Credentials) Token(host svchost.Hostname) (string, error) {
	if c == nil {
		return "", nil
	}
	if t, ok := c.env[host]; ok {
		return t, nil
	}
	if t, ok := c.config[host]; ok {
		return t, nil
	}
	if c.helper != "" {
		return "", fmt.Errorf("credentials helper %q is not supported by tfdeps", c.helper)
	}
	return "", nil
}
