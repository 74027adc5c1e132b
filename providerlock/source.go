package providerlock

import (
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// SourceOptions name where "providers lock" takes packages from: exactly
// one place, whatever the CLI configuration's provider_installation says.
type SourceOptions struct {
	// FSMirror is a filesystem mirror directory ("": none).
	FSMirror string
	// NetMirror is a network mirror's base URL ("": none).
	NetMirror string
	// Getenv reads the environment of the registry source (nil: nothing set).
	Getenv func(string) string
	// OCIMirror takes packages from the oci_mirror methods of Config
	// instead (providersource.OCIMirrors), which OpenTofu's providers
	// lock ignores.
	OCIMirror bool
	// Config is the CLI configuration, read with OCIMirror.
	Config *cliconfig.Config
}

// NewSource is the one source o names: the filesystem mirror, else the
// network mirror, else the origin registries, queried through client. A
// network mirror URL that is not https is an error. With OCIMirror, the
// configuration's oci_mirror methods, and no other mirror may be named.
func NewSource(o SourceOptions, client *registry.Client) (providersource.Source, *hcl.Diagnostic) {
	switch {
	case o.OCIMirror && (o.FSMirror != "" || o.NetMirror != ""):
		return nil, errorDiag("Invalid installation method options", "The -oci-mirror option cannot be combined with -fs-mirror or -net-mirror.")
	case o.OCIMirror:
		src, diags := providersource.OCIMirrors(providersource.BuildOptions{Config: o.Config, Registry: client, Getenv: o.Getenv})
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				return nil, d
			}
		}
		return src, nil
	case o.FSMirror != "":
		return providersource.NewFilesystemMirror(o.FSMirror), nil
	case o.NetMirror != "":
		u, err := url.Parse(o.NetMirror)
		if err != nil || u.Scheme != "https" {
			return nil, errorDiag("Invalid network mirror URL", "The -net-mirror option requires a valid https: URL as the mirror base URL.")
		}
		return providersource.NewNetworkMirror(u, providersource.NetworkMirrorOptions{Settings: client.Settings(), Credentials: client.Credentials()}), nil
	}
	return providersource.NewRegistry(client, o.Getenv, nil), nil
}

// TrustsMirror reports whether the CLI configuration's
// provider_installation has a network_mirror block for the mirror at raw
// with trust_all_hashes = true: the user's statement that the mirror's
// hashes are true. (OpenTofu's providers lock ignores the block; tfdeps
// takes it as the permission to skip the downloads that would check the
// hashes: Locker.TrustMirrorHashes.)
func TrustsMirror(cfg *cliconfig.Config, raw string) bool {
	want, ok := mirrorKey(raw)
	if !ok {
		return false
	}
	inst := cfg.Installation()
	if inst == nil {
		return false
	}
	for _, method := range inst.Methods {
		if method.Kind != cliconfig.MethodNetworkMirror || !method.TrustAllHashes {
			continue
		}
		if got, ok := mirrorKey(method.Location); ok && got == want {
			return true
		}
	}
	return false
}

// mirrorKey is a network mirror base URL in a form in which two spellings of
// the same mirror are equal: https only, host in lower case without the
// default port, path with its trailing slash.
func mirrorKey(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return "", false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Host), ":443")
	p := u.EscapedPath()
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return host + p + "?" + u.RawQuery, true
}
