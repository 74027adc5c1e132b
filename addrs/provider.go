package addrs

import (
	"github.com/opentofu/svchost"
	"golang.org/x/net/idna"
)

// DefaultProviderRegistryHost is the host of a provider source address that
// names no host. ForDisplay omits exactly this host.
const DefaultProviderRegistryHost = svchost.Hostname("registry.opentofu.org")

// BuiltInProviderHost is the host of the built-in providers
// ("terraform.io/builtin/terraform").
const BuiltInProviderHost = svchost.Hostname("terraform.io")

// OpenTofuBuiltInProviderHost is also accepted as the host of a built-in
// provider.
const OpenTofuBuiltInProviderHost = svchost.Hostname("opentofu.org")

// BuiltInProviderNamespace is the namespace of the built-in providers.
const BuiltInProviderNamespace = "builtin"

// DefaultProviderNamespace is the namespace given to a source address that
// names only a type, and to providers implied from a local name.
const DefaultProviderNamespace = "hashicorp"

// LegacyProviderNamespace marks a pre-0.13 provider address. Such addresses
// are valid only on DefaultProviderRegistryHost and can never be installed
// or locked.
const LegacyProviderNamespace = "-"

// Provider is a fully-qualified provider address. All three parts are
// normalised, so two addresses name the same provider iff they are ==.
// The zero value means "no provider".
type Provider struct {
	// Type is the provider type, e.g. "aws", normalised (lower case,
	// Unicode form).
	Type string
	// Namespace is the normalised namespace, e.g. "hashicorp", or
	// LegacyProviderNamespace.
	Namespace string
	// Hostname is the registry host in comparison form (lower-case
	// punycode, port kept unless it is 443).
	Hostname svchost.Hostname
}

// NewProvider returns the address with the given parts. The namespace and
// type must already be normalised (see ParseProviderPart); NewProvider does
// not check them.
func NewProvider(host svchost.Hostname, namespace, typ string) Provider {
	return Provider{Type: typ, Namespace: namespace, Hostname: host}
}

// NewDefaultProvider returns registry.opentofu.org/hashicorp/TYPE. The type
// must already be normalised.
func NewDefaultProvider(typ string) Provider {
	return Provider{Type: typ, Namespace: DefaultProviderNamespace, Hostname: DefaultProviderRegistryHost}
}

// NewBuiltInProvider returns terraform.io/builtin/TYPE.
func NewBuiltInProvider(typ string) Provider {
	return Provider{Type: typ, Namespace: BuiltInProviderNamespace, Hostname: BuiltInProviderHost}
}

// NewLegacyProvider returns registry.opentofu.org/-/TYPE.
func NewLegacyProvider(typ string) Provider {
	return Provider{Type: typ, Namespace: LegacyProviderNamespace, Hostname: DefaultProviderRegistryHost}
}

// ImpliedProviderForUnqualifiedType returns the provider OpenTofu implies
// for a local name that no required_providers entry declares: the built-in
// provider for "terraform", registry.opentofu.org/hashicorp/NAME otherwise.
// The name must already be normalised.
func ImpliedProviderForUnqualifiedType(typ string) Provider {
	if typ == "terraform" {
		return NewBuiltInProvider(typ)
	}
	return NewDefaultProvider(typ)
}

// IsZero reports whether p is the zero value.
func (p Provider) IsZero() bool { return p == Provider{} }

// IsBuiltIn reports whether p is a provider built into OpenTofu, which is
// never installed or locked.
func (p Provider) IsBuiltIn() bool {
	return (p.Hostname == BuiltInProviderHost || p.Hostname == OpenTofuBuiltInProviderHost) &&
		p.Namespace == BuiltInProviderNamespace
}

// IsLegacy reports whether p is a legacy (namespace "-") address.
func (p Provider) IsLegacy() bool {
	return p.Hostname == DefaultProviderRegistryHost && p.Namespace == LegacyProviderNamespace
}

// IsDefault reports whether p lives in the default namespace on the default
// registry host, i.e. whether a bare local name would imply it.
func (p Provider) IsDefault() bool {
	return p.Hostname == DefaultProviderRegistryHost && p.Namespace == DefaultProviderNamespace
}

// String returns HOST/NAMESPACE/TYPE with the host in Unicode display form.
// It returns "" for the zero value.
func (p Provider) String() string {
	if p.IsZero() {
		return ""
	}
	return HostnameForDisplay(p.Hostname) + "/" + p.Namespace + "/" + p.Type
}

// ForDisplay is like String but omits the host when it is
// DefaultProviderRegistryHost.
func (p Provider) ForDisplay() string {
	if p.IsZero() {
		return ""
	}
	if p.Hostname == DefaultProviderRegistryHost {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// LessThan orders addresses by hostname comparison form, then namespace,
// then type, byte-wise. Lock files and sorted lists use this order.
func (p Provider) LessThan(other Provider) bool {
	switch {
	case p.Hostname != other.Hostname:
		return p.Hostname < other.Hostname
	case p.Namespace != other.Namespace:
		return p.Namespace < other.Namespace
	default:
		return p.Type < other.Type
	}
}

// Compare returns -1, 0 or +1 in the order of LessThan, for slices.SortFunc.
func (p Provider) Compare(other Provider) int {
	switch {
	case p == other:
		return 0
	case p.LessThan(other):
		return -1
	default:
		return 1
	}
}

// HostnameForDisplay returns the Unicode display form of a hostname in
// comparison form, port included. Unlike svchost's method it never panics:
// a value that does not convert is returned unchanged.
func HostnameForDisplay(h svchost.Hostname) string {
	host, port := splitPort(string(h))
	u, err := idna.Lookup.ToUnicode(host)
	if err != nil {
		return string(h)
	}
	return u + port
}

// ParseHostname normalises a user-given hostname (with optional port) to
// comparison form, with svchost's error texts.
func ParseHostname(s string) (svchost.Hostname, error) {
	return svchost.ForComparison(s)
}

func splitPort(s string) (host, port string) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i:]
		}
	}
	return s, ""
}
