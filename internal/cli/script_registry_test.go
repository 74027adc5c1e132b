package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providerinstall"
)

// TestRegistryScripts runs the scripts of testdata/registry against a fake
// registry and network mirror (internal/registrytest) started for each
// script. A script may describe the fake in a file "fake.json" (see
// fakeConfig); the fake's CA is trusted through SSL_CERT_FILE and a CLI
// configuration file ($CLICONFIG, also TF_CLI_CONFIG_FILE) points the
// registry hostnames at it. Commands: fakereq, fakefault, fakemirror.
func TestRegistryScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "registry"),
		Setup:               registryScriptSetup,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakereq":      cmdFakeReq,
			"fakefault":    cmdFakeFault,
			"fakemirror":   cmdFakeMirror,
			"fakewait":     cmdFakeWait,
			"fakearchives": cmdFakeArchives,
			"cmpmanifest":  cmdCmpManifest,
			"cmpjsonl":     cmdCmpJSONLines,
		},
	})
}

// fakeConfig is the content of a script's fake.json.
type fakeConfig struct {
	Providers     []registrytest.Provider `json:"providers"`
	Hostnames     []string                `json:"hostnames"`
	NoPackagesMap bool                    `json:"no_packages_map"`
	NoSigningKeys bool                    `json:"no_signing_keys"`
	// TerraformStyle serves download responses as the Terraform registry
	// does (registrytest.Options.TerraformStyle).
	TerraformStyle bool                  `json:"terraform_style"`
	Warnings       []string              `json:"warnings"`
	Modules        []registrytest.Module `json:"modules"`
}

// defaultFakeProviders are served when a script has no fake.json.
func defaultFakeProviders() []registrytest.Provider {
	return []registrytest.Provider{
		{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.1.0"}, {Version: "3.2.1"}}},
		{Namespace: "hashicorp", Type: "random", Versions: []registrytest.Version{{Version: "3.5.1"}, {Version: "3.6.0"}}},
		{Namespace: "acme", Type: "baz", Versions: []registrytest.Version{{Version: "1.0.0"}, {Version: "1.1.0"}, {Version: "2.0.0"}}},
	}
}

func registryScriptSetup(env *testscript.Env) error {
	if err := scriptSetup(env); err != nil {
		return err
	}
	var cfg fakeConfig
	if src, err := os.ReadFile(filepath.Join(env.WorkDir, "fake.json")); err == nil {
		if err := json.Unmarshal(src, &cfg); err != nil {
			return fmt.Errorf("fake.json: %w", err)
		}
	}
	if cfg.Providers == nil {
		cfg.Providers = defaultFakeProviders()
	}
	opts := registrytest.Options{Providers: cfg.Providers, NoPackagesMap: cfg.NoPackagesMap, NoSigningKeys: cfg.NoSigningKeys, TerraformStyle: cfg.TerraformStyle, Warnings: cfg.Warnings, Modules: cfg.Modules}
	if err := registrytest.Setup(opts, cfg.Hostnames...)(env); err != nil {
		return err
	}
	sa := env.Values[registrytest.ScriptValueKey].(*registrytest.Standalone)
	env.Setenv("CLICONFIG", sa.CLIConfigFile)
	env.Setenv("KEYID", sa.KeyID())
	env.Setenv("KEYID_HASHICORP", sa.KeyIDOf(registrytest.HashiCorpTestKey))
	env.Setenv("KEYID_PARTNER", sa.KeyIDOf(registrytest.PartnerKey))
	env.Setenv("PLATFORM", "linux_amd64")
	return nil
}

func fakeServer(ts *testscript.TestScript) *registrytest.Standalone {
	return ts.Value(registrytest.ScriptValueKey).(*registrytest.Standalone)
}

// fakeEndpoints names the endpoints for fakereq and fakefault.
var fakeEndpoints = map[string]registrytest.Endpoint{
	"discovery":      registrytest.Discovery,
	"versions":       registrytest.Versions,
	"meta":           registrytest.PackageMeta,
	"archive":        registrytest.Archive,
	"sums":           registrytest.SHA256SUMS,
	"signature":      registrytest.Signature,
	"mirror-index":   registrytest.MirrorIndex,
	"mirror-version": registrytest.MirrorVersion,
	"mirror-archive": registrytest.MirrorArchive,
	"mod-versions":   registrytest.ModuleVersions,
	"mod-download":   registrytest.ModuleDownload,
	"mod-archive":    registrytest.ModuleArchive,
	"mod-page":       registrytest.ModulePage,
}

// cmdFakeReq: "fakereq reset" forgets the requests seen so far;
// "fakereq ENDPOINT N" checks that N requests reached ENDPOINT ("total"
// for all); "fakereq" prints the request paths.
func cmdFakeReq(ts *testscript.TestScript, neg bool, args []string) {
	s := fakeServer(ts)
	switch {
	case len(args) == 0:
		for _, r := range s.Requests() {
			ts.Logf("%s %s", r.Method, r.Path)
		}
	case len(args) == 1 && args[0] == "reset":
		s.ResetRequests()
	case len(args) == 2:
		want, err := strconv.Atoi(args[1])
		ts.Check(err)
		got := len(s.Requests())
		if args[0] != "total" {
			e, ok := fakeEndpoints[args[0]]
			if !ok {
				ts.Fatalf("fakereq: unknown endpoint %q", args[0])
			}
			got = s.Count(e)
		}
		if (got == want) == neg {
			for _, r := range s.Requests() {
				ts.Logf("%s %s", r.Method, r.Path)
			}
			ts.Fatalf("fakereq: %d requests to %s, want %d", got, args[0], want)
		}
	default:
		ts.Fatalf("usage: fakereq [reset | ENDPOINT N]")
	}
}

// fakeFaults names the fault kinds for fakefault.
var fakeFaults = map[string]registrytest.FaultKind{
	"status": registrytest.Status, "drop": registrytest.Drop, "truncate": registrytest.Truncate,
	"tamper": registrytest.Tamper, "badsig": registrytest.BadSignature, "hang": registrytest.Hang,
}

// cmdFakeFault: "fakefault ENDPOINT KIND [TIMES]" injects a fault;
// "fakefault clear" removes them all.
func cmdFakeFault(ts *testscript.TestScript, neg bool, args []string) {
	s := fakeServer(ts)
	if len(args) == 1 && args[0] == "clear" {
		s.ClearFaults()
		return
	}
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: fakefault ENDPOINT KIND [TIMES] | fakefault clear")
	}
	e, ok := fakeEndpoints[args[0]]
	kind, ok2 := fakeFaults[args[1]]
	if !ok || !ok2 {
		ts.Fatalf("fakefault: unknown endpoint or fault %q %q", args[0], args[1])
	}
	f := registrytest.Fault{Kind: kind}
	if len(args) == 3 {
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		f.Times = n
	}
	s.Inject(e, f)
}

// cmdFakeMirror: "fakemirror packed|unpacked DIR HOST NS TYPE VERSION"
// writes the fake's package for linux_amd64 into a filesystem mirror at
// DIR, then forgets the requests it made.
func cmdFakeMirror(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 6 || (args[0] != "packed" && args[0] != "unpacked") {
		ts.Fatalf("usage: fakemirror packed|unpacked DIR HOST NS TYPE VERSION")
	}
	s := fakeServer(ts)
	dir, host, ns, typ, version := ts.MkAbs(args[1]), args[2], args[3], args[4], args[5]
	const platform = "linux_amd64"
	name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, platform)
	typeDir := filepath.Join(dir, host, ns, typ)
	ts.Check(os.MkdirAll(typeDir, 0o755))
	zipPath := filepath.Join(typeDir, name)
	ts.Check(fetchFile(s, fmt.Sprintf("%s/files/%s/%s/%s/%s", s.URL(), ns, typ, version, name), zipPath))
	if args[0] == "unpacked" {
		_, err := providerinstall.ExtractFile(context.Background(), zipPath, filepath.Join(typeDir, version, platform), providerinstall.ExtractOptions{})
		ts.Check(err)
		ts.Check(os.Remove(zipPath))
	}
	s.ResetRequests()
}

func fetchFile(s *registrytest.Standalone, url, path string) error {
	resp, err := s.Client().Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return errors.New("fetching " + url + ": " + resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, resp.Body)
	return errors.Join(err, f.Close())
}

// cmdFakeWait: "fakewait ENDPOINT N" waits (up to a minute) until N
// requests reached ENDPOINT, e.g. until a download has started.
func cmdFakeWait(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: fakewait ENDPOINT N")
	}
	e, ok := fakeEndpoints[args[0]]
	want, err := strconv.Atoi(args[1])
	if !ok || err != nil {
		ts.Fatalf("fakewait: bad arguments %q", args)
	}
	s := fakeServer(ts)
	for deadline := time.Now().Add(time.Minute); s.Count(e) < want; {
		if time.Now().After(deadline) {
			ts.Fatalf("fakewait: %d requests to %s after a minute, want %d", s.Count(e), args[0], want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
