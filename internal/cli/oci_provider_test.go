package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestOCIProviderScripts runs testdata/oci_provider/oci_provider_*.txtar:
// init with oci_mirror against an in-process OCI registry over TLS, which
// the command "ociregistry" starts and fills.
func TestOCIProviderScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "oci_provider"),
		Setup:               scriptSetup,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"ociregistry": cmdOCIRegistry},
		Condition:           ociScriptCondition,
	})
}

// ociScriptCondition: [tofu] holds when TFDEPS_REFERENCE_TOFU is set; the
// reference binary is then on the script's PATH as "tofu" (after
// "ociregistry reference").
func ociScriptCondition(cond string) (bool, error) {
	if cond == "tofu" {
		return os.Getenv("TFDEPS_REFERENCE_TOFU") != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptUpstream holds each script's fake origin registry, by work
// directory.
var scriptUpstream sync.Map

// cmdOCIUpstream implements the "ociregistry" subcommands about the origin
// registry that "providers mirror -oci" copies from:
//
//	upstream         start a fake origin registry (registrytest) serving
//	                 hashicorp/null 3.1.0 and 3.2.1 and acme/baz; its CA is
//	                 added to SSL_CERT_FILE; "subst" replaces UPSTREAMURL by
//	                 its providers.v1 base URL
//	upstream-tamper  later archive downloads from it get other bytes
//	uploads N        N blob uploads reached the OCI registry so far
//	blobgets N       N blob downloads were served by it so far
//	reference        put $TFDEPS_REFERENCE_TOFU on PATH as "tofu"
func cmdOCIUpstream(ts *testscript.TestScript, s *ocitest.Server, args []string) bool {
	key := ts.Getenv("WORK")
	switch {
	case args[0] == "upstream" && len(args) == 1:
		dir := filepath.Join(key, ".upstream")
		ts.Check(os.MkdirAll(dir, 0o755))
		sa, err := registrytest.StartStandalone(dir, registrytest.Options{Providers: defaultFakeProviders()})
		ts.Check(err)
		ts.Defer(func() { sa.Close() })
		scriptUpstream.Store(key, sa)
		both := append(s.CAPEM(), sa.CAPEM()...)
		path := filepath.Join(key, "both-ca.pem")
		ts.Check(os.WriteFile(path, both, 0o644))
		ts.Setenv("SSL_CERT_FILE", path)
		ts.Setenv("UPSTREAMURL", sa.ProvidersBaseURL())
	case args[0] == "upstream-tamper" && len(args) == 1:
		v, ok := scriptUpstream.Load(key)
		if !ok {
			ts.Fatalf("ociregistry upstream first")
		}
		v.(*registrytest.Standalone).Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper})
	case args[0] == "uploads" && len(args) == 2:
		if got := fmt.Sprint(s.BlobUploads()); got != args[1] {
			ts.Fatalf("%s blob uploads, want %s", got, args[1])
		}
	case args[0] == "blobgets" && len(args) == 2:
		if got := fmt.Sprint(s.BlobGets()); got != args[1] {
			ts.Fatalf("%s blob downloads, want %s", got, args[1])
		}
	case args[0] == "reference" && len(args) == 1:
		bin := filepath.Join(key, ".bin")
		ts.Check(os.MkdirAll(bin, 0o755))
		ts.Check(os.Symlink(os.Getenv("TFDEPS_REFERENCE_TOFU"), filepath.Join(bin, "tofu")))
		ts.Setenv("PATH", bin+string(os.PathListSeparator)+ts.Getenv("PATH"))
	default:
		return false
	}
	return true
}

// scriptOCI holds each script's registry, by work directory.
var scriptOCI sync.Map

// cmdOCIRegistry:
//
//	ociregistry start              start a registry: $OCIHOST, SSL_CERT_FILE
//	ociregistry push REPO TAG      push a provider for this platform and darwin_arm64
//	ociregistry tamper REPO TAG    later downloads of that package's zip get other bytes
//	ociregistry auth USER PASSWORD require basic credentials
//	ociregistry subst FILE...      replace OCIHOST by the registry's host in the files
//
// and the subcommands of cmdOCIUpstream (upstream, upstream-tamper,
// uploads, blobgets, reference).
func cmdOCIRegistry(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: ociregistry start | push REPO TAG | tamper REPO TAG | auth USER PASSWORD | subst FILE...")
	}
	key := ts.Getenv("WORK")
	if args[0] == "start" {
		s, err := ocitest.Start()
		ts.Check(err)
		ts.Defer(func() { s.Close() })
		scriptOCI.Store(key, s)
		ca, err := s.WriteCAFile(ts.Getenv("WORK"))
		ts.Check(err)
		ts.Setenv("SSL_CERT_FILE", ca)
		ts.Setenv("OCIHOST", s.Host)
		return
	}
	v, ok := scriptOCI.Load(key)
	if !ok {
		ts.Fatalf("ociregistry start first")
	}
	s := v.(*ocitest.Server)
	zipFor := func(repo, tag string) []byte {
		return ocitest.ProviderZip(repo[strings.LastIndex(repo, "/")+1:], repo+" "+tag)
	}
	if cmdOCIUpstream(ts, s, args) {
		return
	}
	switch {
	case args[0] == "push" && len(args) == 3:
		pkgs := []ocitest.ProviderPackage{
			{OS: runtime.GOOS, Arch: runtime.GOARCH, Zip: zipFor(args[1], args[2])},
			{OS: "darwin", Arch: "arm64", Zip: ocitest.ProviderZip("x", "mac")},
		}
		_, err := s.PushProvider(context.Background(), args[1], args[2], pkgs, ocitest.ProviderOptions{})
		ts.Check(err)
	case args[0] == "tamper" && len(args) == 3:
		z := zipFor(args[1], args[2])
		bad := append([]byte(nil), z...)
		bad[len(bad)-1] ^= 1
		s.TamperBlob(ocitest.Digest(z), bad)
	case args[0] == "subst" && len(args) > 1:
		for _, f := range args[1:] {
			b, err := os.ReadFile(ts.MkAbs(f))
			ts.Check(err)
			b = []byte(strings.ReplaceAll(string(b), "OCIHOST", s.Host))
			b = []byte(strings.ReplaceAll(string(b), "UPSTREAMURL", ts.Getenv("UPSTREAMURL")))
			ts.Check(os.WriteFile(ts.MkAbs(f), b, 0o644))
		}
	case args[0] == "auth" && len(args) == 3:
		s.RequireBasicAuth(args[1], args[2])
	default:
		ts.Fatalf("usage: ociregistry start | push REPO TAG | tamper REPO TAG | auth USER PASSWORD | subst FILE...")
	}
}
