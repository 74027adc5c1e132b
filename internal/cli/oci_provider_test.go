package cli

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/ocitest"
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
	})
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
			ts.Check(os.WriteFile(ts.MkAbs(f), []byte(strings.ReplaceAll(string(b), "OCIHOST", s.Host)), 0o644))
		}
	case args[0] == "auth" && len(args) == 3:
		s.RequireBasicAuth(args[1], args[2])
	default:
		ts.Fatalf("usage: ociregistry start | push REPO TAG | tamper REPO TAG | auth USER PASSWORD | subst FILE...")
	}
}
