package registrytest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// DefaultHostnames returns the registry hostnames a standalone server
// answers for when the caller names none.
func DefaultHostnames() []string { return []string{"registry.opentofu.org", "registry.example.com"} }

// Standalone is a server prepared for a child process: the CA certificate
// and a CLI configuration file are written to disk, and Env lists the
// environment that makes a tfdeps process use them.
type Standalone struct {
	*Server
	CAFile        string
	CLIConfigFile string
	// Env holds KEY=VALUE pairs: SSL_CERT_FILE, TF_CLI_CONFIG_FILE,
	// FAKE_REGISTRY_HOST (127.0.0.1:PORT), FAKE_REGISTRY_URL (providers.v1
	// base) and FAKE_MIRROR_URL (network mirror base).
	Env []string
}

// StartStandalone starts a server and writes registrytest-ca.pem and
// registrytest.tfrc into dir. The CLI configuration has one host block per
// hostname forcing its providers.v1 service to the fake, so providers such as
// registry.opentofu.org/hashicorp/null are served by it.
func StartStandalone(dir string, opts Options, hostnames ...string) (*Standalone, error) {
	s, err := Start(opts)
	if err != nil {
		return nil, err
	}
	sa, err := prepareStandalone(s, dir, hostnames)
	if err != nil {
		s.Close()
		return nil, err
	}
	return sa, nil
}

func prepareStandalone(s *Server, dir string, hostnames []string) (*Standalone, error) {
	caFile, err := s.WriteCAFile(dir)
	if err != nil {
		return nil, err
	}
	cfgFile := filepath.Join(dir, "registrytest.tfrc")
	if err := os.WriteFile(cfgFile, []byte(s.ModulesCLIConfig(hostnames...)), 0o644); err != nil {
		return nil, err
	}
	return &Standalone{
		Server:        s,
		CAFile:        caFile,
		CLIConfigFile: cfgFile,
		Env: []string{
			"SSL_CERT_FILE=" + caFile,
			"TF_CLI_CONFIG_FILE=" + cfgFile,
			"FAKE_REGISTRY_HOST=" + s.Host(),
			"FAKE_REGISTRY_URL=" + s.ProvidersBaseURL(),
			"FAKE_MIRROR_URL=" + s.MirrorBaseURL(),
			"FAKE_MODULES_URL=" + s.ModulesBaseURL(),
		},
	}, nil
}

// CLIConfig returns CLI configuration text (HCL) with a host block per
// hostname pointing its providers.v1 service at this server.
func (s *Server) CLIConfig(hostnames ...string) string {
	if len(hostnames) == 0 {
		hostnames = DefaultHostnames()
	}
	var b strings.Builder
	for _, h := range hostnames {
		fmt.Fprintf(&b, "host %q {\n  services = {\n    \"providers.v1\" = %q\n  }\n}\n\n", h, s.ProvidersBaseURL())
	}
	return b.String()
}

// ScriptValueKey is the testscript value under which Setup stores the
// *Standalone (see testscript.TestScript.Value).
const ScriptValueKey = "registrytest"

// Setup returns a testscript Setup function that starts a fake for each
// script, writes its files into the script's work directory, sets the
// variables of Standalone.Env and stops the fake when the script ends.
func Setup(opts Options, hostnames ...string) func(*testscript.Env) error {
	return func(env *testscript.Env) error {
		sa, err := StartStandalone(env.WorkDir, opts, hostnames...)
		if err != nil {
			return err
		}
		env.Defer(sa.Close)
		for _, kv := range sa.Env {
			k, v, _ := strings.Cut(kv, "=")
			env.Setenv(k, v)
		}
		env.Values[ScriptValueKey] = sa
		return nil
	}
}

// HostServices returns host-block data pointing each hostname's
// providers.v1 service at this server, in the shape of
// registry.Settings.HostServices (DefaultHostnames() when none given).
func (s *Server) HostServices(hostnames ...string) map[string]map[string]any {
	if len(hostnames) == 0 {
		hostnames = DefaultHostnames()
	}
	out := make(map[string]map[string]any, len(hostnames))
	for _, h := range hostnames {
		out[h] = map[string]any{"providers.v1": s.ProvidersBaseURL()}
	}
	return out
}
