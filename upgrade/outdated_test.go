package upgrade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// fakeRoot starts a fake registry serving n providers acme/pI and n
// modules acme/mI/aws, each at 1.0.0, 1.1.0 and 2.0.0, and writes a root
// module requiring each "~> 1.0", locked and installed at 1.0.0. It
// returns the directory, the server and a function making a fresh
// Versions (nothing remembered) against it.
func fakeRoot(t testing.TB, n int) (string, *registrytest.Server, func() *Versions) {
	t.Helper()
	opts := registrytest.Options{}
	for i := range n {
		var vs []registrytest.Version
		var mvs []registrytest.ModuleVersion
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			vs = append(vs, registrytest.Version{Version: v})
			mvs = append(mvs, registrytest.ModuleVersion{Version: v, Files: map[string]string{"main.tf": ""}})
		}
		opts.Providers = append(opts.Providers, registrytest.Provider{Namespace: "acme", Type: fmt.Sprintf("p%d", i), Versions: vs})
		opts.Modules = append(opts.Modules, registrytest.Module{Namespace: "acme", Name: fmt.Sprintf("m%d", i), System: "aws", Versions: mvs})
	}
	srv := registrytest.New(t, opts)
	client := registry.New(registry.Settings{
		Transport: srv.Transport(), Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
		HostServices: map[string]map[string]any{"registry.opentofu.org": {"providers.v1": srv.ProvidersBaseURL(), "modules.v1": srv.ModulesBaseURL()}},
	})
	dir := t.TempDir()
	var tf, records strings.Builder
	tf.WriteString("terraform {\n  required_providers {\n")
	locks := lockfile.New()
	for i := range n {
		fmt.Fprintf(&tf, "    p%d = { source = \"acme/p%d\", version = \"~> 1.0\" } # provider %d\n", i, i, i)
		p := addrs.NewDefaultProvider(fmt.Sprintf("p%d", i))
		p.Namespace = "acme"
		locks.SetProvider(p, versions.Version{Major: 1}, versions.MustParseConstraints("~> 1.0"), nil)
	}
	tf.WriteString("  }\n}\n")
	records.WriteString(`{"Key":"","Source":"","Dir":"."}`)
	for i := range n {
		fmt.Fprintf(&tf, "\nmodule \"m%d\" {\n  source  = \"acme/m%d/aws\"\n  version = \"~> 1.0\"\n}\n", i, i)
		fmt.Fprintf(&records, `,{"Key":"m%d","Source":"registry.opentofu.org/acme/m%d/aws","Version":"1.0.0","Dir":".terraform/modules/m%d"}`, i, i, i)
		write(t, filepath.Join(dir, ".terraform", "modules", fmt.Sprintf("m%d", i), "main.tf"), "")
	}
	write(t, filepath.Join(dir, "main.tf"), tf.String())
	write(t, filepath.Join(dir, ".terraform", "modules", "modules.json"), `{"Modules":[`+records.String()+`]}`)
	if diags := lockfile.WriteFileIn(dir, lockFileName, locks, flavour.OpenTofu); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return dir, srv, func() *Versions { return NewVersions(providersource.NewRegistry(client, nil, nil), client) }
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOutdatedAndPlan(t *testing.T) {
	dir, srv, newVersions := fakeRoot(t, 3)
	vs := newVersions()
	rep, diags := Outdated(context.Background(), Options{Dir: dir, Versions: vs})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got, want := srv.Count(registrytest.Versions)+srv.Count(registrytest.ModuleVersions), 6; got != want {
		t.Errorf("%d versions requests, want %d (one per provider and module)", got, want)
	}
	var got []string
	for _, p := range rep.Providers {
		got = append(got, fmt.Sprintf("%s %s %s %s %s %v", p.Provider, p.Constraints, p.Locked, p.NewestAllowed, p.Newest, p.RequiredBy))
	}
	for _, m := range rep.Modules {
		got = append(got, fmt.Sprintf("%s %s %s %s %s %s", m.Path, m.Source, m.Constraints, m.Installed, m.NewestAllowed, m.Newest))
	}
	want := []string{
		"registry.opentofu.org/acme/p0 ~> 1.0 1.0.0 1.1.0 2.0.0 []", "registry.opentofu.org/acme/p1 ~> 1.0 1.0.0 1.1.0 2.0.0 []",
		"registry.opentofu.org/acme/p2 ~> 1.0 1.0.0 1.1.0 2.0.0 []",
		"module.m0 registry.opentofu.org/acme/m0/aws ~> 1.0 1.0.0 1.1.0 2.0.0", "module.m1 registry.opentofu.org/acme/m1/aws ~> 1.0 1.0.0 1.1.0 2.0.0",
		"module.m2 registry.opentofu.org/acme/m2/aws ~> 1.0 1.0.0 1.1.0 2.0.0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if !rep.Outdated() {
		t.Error("Outdated() = false, want true")
	}

	// A second root sharing the Versions asks nothing more.
	if _, diags := Outdated(context.Background(), Options{Dir: dir, Versions: vs}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := len(srv.Requests()); got != 6 {
		t.Errorf("%d requests after a second root, want still 6", got)
	}

	pl, err := rep.Plan(PlanOptions{Constraints: BumpConstraints, Targets: []string{"acme/p1", "module.m2"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, c := range pl.Changes {
		lines = append(lines, fmt.Sprintf("%s%s %s→%s %v", c.Provider, c.Module, c.From, c.To, c.Edits))
	}
	wantLines := []string{
		"registry.opentofu.org/acme/p1 1.0.0→2.0.0 [{main.tf 4 ~> 1.0 ~> 2.0}]",
		"module.m2 1.0.0→2.0.0 [{main.tf 21 ~> 1.0 ~> 2.0}]",
	}
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.tf")); strings.Contains(string(b), "2.0") {
		t.Error("Plan wrote main.tf")
	}

	keep, err := rep.Plan(PlanOptions{Providers: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(keep.Changes) != 3 || keep.Changes[0].To != "1.1.0" || len(keep.Changes[0].Edits) != 0 {
		t.Errorf("keep plan = %+v, want three providers to 1.1.0 without edits", keep.Changes)
	}
}

func TestOutdatedRegistryFails(t *testing.T) {
	dir, srv, newVersions := fakeRoot(t, 2)
	srv.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Status})
	rep, diags := Outdated(context.Background(), Options{Dir: dir, Versions: newVersions()})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Failed to query available provider packages") {
		t.Fatalf("diagnostics = %v, want the query failures", diags)
	}
	if rep == nil || rep.Providers[0].Err == nil || rep.Modules[0].Newest != "2.0.0" {
		t.Fatalf("report = %+v, want the providers failed and the modules answered", rep)
	}
	if _, err := rep.Plan(PlanOptions{}); err == nil {
		t.Error("Plan of a report with failures succeeded")
	}
}

// BenchmarkOutdated is "outdated" of a root module with 20 providers and
// 20 registry modules against the local fake registry, each iteration
// asking anew (a fresh Versions): requests/op must stay 40.
func BenchmarkOutdated(b *testing.B) {
	dir, srv, newVersions := fakeRoot(b, 20)
	srv.ResetRequests()
	b.ResetTimer()
	for b.Loop() {
		if _, diags := Outdated(context.Background(), Options{Dir: dir, Versions: newVersions()}); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
	b.ReportMetric(float64(len(srv.Requests()))/float64(b.N), "requests/op")
}
