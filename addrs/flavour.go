package addrs

import (
	"strings"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/flavour"
)

// The flavour changes one thing in this package: the registry host of a
// provider source address that names none (registry.opentofu.org for
// OpenTofu, registry.terraform.io for Terraform), and with it which host
// ForDisplayIn omits and which providers IsDefaultIn reports. The functions
// without a flavour are OpenTofu's.

// ParseProviderSourceIn is ParseProviderSource with flavour f's default
// host for a source of one or two parts.
func ParseProviderSourceIn(f flavour.Flavour, s string) (Provider, error) {
	p, err := ParseProviderSource(s)
	if err != nil || f == flavour.OpenTofu || strings.Count(s, "/") >= 2 {
		return p, err
	}
	p.Hostname = f.DefaultHost()
	return p, nil
}

// NewDefaultProviderIn returns DEFAULT_HOST/hashicorp/TYPE for flavour f.
func NewDefaultProviderIn(f flavour.Flavour, typ string) Provider {
	return Provider{Type: typ, Namespace: DefaultProviderNamespace, Hostname: f.DefaultHost()}
}

// ImpliedProviderIn is ImpliedProviderForUnqualifiedType for flavour f:
// terraform.io/builtin/terraform for "terraform" in both flavours.
func ImpliedProviderIn(f flavour.Flavour, typ string) Provider {
	if typ == "terraform" {
		return NewBuiltInProvider(typ)
	}
	return NewDefaultProviderIn(f, typ)
}

// ForDisplayIn is ForDisplay for flavour f: the host is omitted when it is
// f's default host.
func (p Provider) ForDisplayIn(f flavour.Flavour) string {
	if p.IsZero() {
		return ""
	}
	if p.Hostname == f.DefaultHost() {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// IsDefaultIn is IsDefault for flavour f.
func (p Provider) IsDefaultIn(f flavour.Flavour) bool {
	return p.Hostname == f.DefaultHost() && p.Namespace == DefaultProviderNamespace
}

// IsLegacyIn is IsLegacy for flavour f.
func (p Provider) IsLegacyIn(f flavour.Flavour) bool {
	return p.Hostname == f.DefaultHost() && p.Namespace == LegacyProviderNamespace
}

// DefaultHostIn is f's default provider registry host.
func DefaultHostIn(f flavour.Flavour) svchost.Hostname { return f.DefaultHost() }
