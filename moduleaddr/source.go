package moduleaddr

import (
	"net/http"
	"strings"

	svchost "github.com/opentofu/svchost"
)

// Source is a module source address: [Local], [Registry] or [Remote].
type Source interface {
	// String is the canonical form: what modules.json stores as Source and
	// what reuse decisions compare.
	String() string
	// ForDisplay is the form for people (registry addresses drop the
	// default host).
	ForDisplay() string
	moduleSource()
}

var (
	_ Source = Local("")
	_ Source = Registry{}
	_ Source = Remote{}
)

// Parser parses source addresses. Its zero value is ready to use and asks
// BitBucket's API through http.DefaultClient when it meets a bitbucket.org
// shorthand, as OpenTofu does.
type Parser struct {
	// HTTPClient is used by the BitBucket detector; nil means
	// http.DefaultClient.
	HTTPClient *http.Client
	// DefaultHost is the registry host of a registry address that names
	// none; empty means DefaultRegistryHost (OpenTofu's). Terraform's is
	// registry.terraform.io.
	DefaultHost svchost.Hostname
}

// Parse classifies raw as OpenTofu does for a module call without
// `version` (modules.md §2): local, else registry (its errors discarded),
// else remote. Errors are those of the remote step.
func Parse(raw string) (Source, error) { return Parser{}.Parse(raw) }

// ParseRegistry parses raw as a registry address, for a module call with
// `version` (§2.3). A local path gives "can't use local directory %q as a
// module registry address".
func ParseRegistry(raw string) (Registry, error) { return Parser{}.ParseRegistry(raw) }

// Parse is [Parse] with this parser's HTTP client.
func (p Parser) Parse(raw string) (Source, error) {
	if IsLocal(raw) {
		return ParseLocal(raw), nil
	}
	if reg, err := p.ParseRegistry(raw); err == nil {
		return reg, nil
	}
	rem, err := p.ParseRemote(raw)
	if err != nil {
		return nil, err
	}
	return rem, nil
}

// ParseRegistry is [ParseRegistry]; the parser's client is not needed.
func (p Parser) ParseRegistry(raw string) (Registry, error) {
	reg, err := parseRegistry(raw)
	if err == nil && p.DefaultHost != "" && !namesHost(raw) {
		reg.Host = p.DefaultHost
	}
	return reg, err
}

// namesHost reports whether a registry address names its host: four parts
// before any "//" subdirectory.
func namesHost(raw string) bool {
	pkg, _, _ := strings.Cut(raw, "//")
	return strings.Count(pkg, "/") >= 3
}

// localPrefixes start a local path.
var localPrefixes = [...]string{"./", "../", `.\`, `..\`}

// IsLocal reports whether raw is a local path: it starts with "./", "../",
// ".\" or "..\".
func IsLocal(raw string) bool {
	for _, p := range localPrefixes {
		if strings.HasPrefix(raw, p) {
			return true
		}
	}
	return false
}
