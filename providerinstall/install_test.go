package providerinstall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/versions"
)

var (
	provFoo = instProvider("example.com/acme/foo")
	provBar = instProvider("hashicorp/bar")
)

type installEnv struct {
	src *fakeSource
	in  *Installer
}

func newInstallEnv(t *testing.T) *installEnv {
	t.Helper()
	src := newFakeSource(t)
	src.add(t, provFoo, "1.0.0")
	src.add(t, provFoo, "1.1.0")
	src.add(t, provFoo, "2.0.0")
	src.add(t, provBar, "0.3.0")
	work := t.TempDir()
	return &installEnv{src: src, in: &Installer{Source: src, Target: NewDir(filepath.Join(work, ".terraform", "providers")), Platform: testPlatform}}
}

func (e *installEnv) install(t *testing.T, reqs Requirements, old *lockfile.Locks, mode Mode) ([]string, *Result, error) {
	t.Helper()
	var rec recorder
	res, err := e.in.Install(context.Background(), reqs, old, mode, rec.events())
	return rec.lines, res, err
}

func TestInstallFirstAndSecondRun(t *testing.T) {
	e := newInstallEnv(t)
	reqs := Requirements{provFoo: versions.MustParseConstraints("~> 1.0"), provBar: nil}
	lines, res, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`finding example.com/acme/foo "~> 1.0"`,
		`finding hashicorp/bar ""`,
		"installing example.com/acme/foo 1.1.0 cache=false",
		"installed example.com/acme/foo 1.1.0 (unauthenticated)",
		"installing hashicorp/bar 0.3.0 cache=false",
		"installed hashicorp/bar 0.3.0 (unauthenticated)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("first run events (-want +got):\n%s", diff)
	}
	wantLock := "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\n" +
		"provider \"example.com/acme/foo\" {\n  version     = \"1.1.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n    \"" + string(h1Of(t, e.src, provFoo, "1.1.0")) + "\",\n  ]\n}\n\n" +
		"provider \"registry.opentofu.org/hashicorp/bar\" {\n  version = \"0.3.0\"\n  hashes = [\n    \"" + string(h1Of(t, e.src, provBar, "0.3.0")) + "\",\n  ]\n}\n"
	if diff := cmp.Diff(wantLock, lockText(res.Locks)); diff != "" {
		t.Errorf("lock file (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]addrs.Provider{provFoo, provBar}, res.Incomplete); diff != "" {
		t.Errorf("incomplete (-want +got):\n%s", diff)
	}

	before := e.src.count()
	lines, res2, err := e.install(t, reqs, res.Locks, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"reusing example.com/acme/foo",
		"reusing hashicorp/bar",
		"using-installed example.com/acme/foo 1.1.0",
		"using-installed hashicorp/bar 0.3.0",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("second run events (-want +got):\n%s", diff)
	}
	if !res2.Locks.Equal(res.Locks) {
		t.Errorf("second run changed the locks:\n%s", lockText(res2.Locks))
	}
	// One versions query per provider, only for the registry's warnings.
	if got := e.src.count() - before; got != 2 {
		t.Errorf("second run made %d source queries, want 2 (for warnings)", got)
	}
}

func TestInstallLockedVersion(t *testing.T) {
	tests := []struct {
		name        string
		constraints string
		mode        Mode
		wantLines   []string
		wantVersion string
		wantErr     string
	}{
		{
			name: "locked version kept", constraints: ">= 1.0.0", mode: NewProvidersOnly,
			wantLines:   []string{"reusing example.com/acme/foo", "installing example.com/acme/foo 1.0.0 cache=false", "installed example.com/acme/foo 1.0.0 (unauthenticated)"},
			wantVersion: "1.0.0",
		},
		{
			name: "upgrade picks newest", constraints: ">= 1.0.0", mode: Upgrade,
			wantLines:   []string{`finding example.com/acme/foo ">= 1.0.0"`, "installing example.com/acme/foo 2.0.0 cache=false", "installed example.com/acme/foo 2.0.0 (unauthenticated)"},
			wantVersion: "2.0.0",
		},
		{
			name: "locked version no longer allowed", constraints: "1.1.0", mode: NewProvidersOnly,
			wantLines: []string{
				"reusing example.com/acme/foo",
				"query-error example.com/acme/foo: locked provider example.com/acme/foo 1.0.0 does not match configured version constraint 1.1.0; must use tofu init -upgrade to allow selection of new versions",
			},
			wantErr: "some providers could not be installed:\n- example.com/acme/foo: locked provider example.com/acme/foo 1.0.0 does not match configured version constraint 1.1.0; must use tofu init -upgrade to allow selection of new versions",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newInstallEnv(t)
			old := lockfile.New()
			old.SetProvider(provFoo, instVersion("1.0.0"), nil, nil)
			lines, res, err := e.install(t, Requirements{provFoo: versions.MustParseConstraints(tt.constraints)}, old, tt.mode)
			if diff := cmp.Diff(tt.wantLines, lines); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Locks.Provider(provFoo).Version().String(); got != tt.wantVersion {
				t.Errorf("locked version = %s, want %s", got, tt.wantVersion)
			}
		})
	}
}

func TestInstallRefusesTamperedPackage(t *testing.T) {
	e := newInstallEnv(t)
	old := lockfile.New()
	old.SetProvider(provFoo, instVersion("1.1.0"), nil, []hashes.Hash{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "zh:0000"})
	lines, _, err := e.install(t, Requirements{provFoo: nil}, old, NewProvidersOnly)
	want := "fetch-error example.com/acme/foo 1.1.0: the current package for example.com/acme/foo 1.1.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification"
	if len(lines) == 0 || lines[len(lines)-1] != want {
		t.Errorf("events = %q, want last %q", lines, want)
	}
	var ce *ChecksumMismatchError
	if !errors.As(err, &ce) {
		t.Errorf("error = %v, want a ChecksumMismatchError", err)
	}
	if _, err := os.Stat(e.in.Target.PackageDir(provFoo, instVersion("1.1.0"), testPlatform)); !os.IsNotExist(err) {
		t.Errorf("package directory exists after a refused install (stat error %v)", err)
	}
}

func TestInstallPrunesAndBuiltIns(t *testing.T) {
	e := newInstallEnv(t)
	old := lockfile.New()
	old.SetProvider(instProvider("acme/gone"), instVersion("1.0.0"), nil, []hashes.Hash{"h1:x"})
	reqs := Requirements{
		addrs.NewBuiltInProvider("terraform"): nil,
		addrs.NewBuiltInProvider("nope"):      nil,
		provBar:                               nil,
	}
	lines, res, err := e.install(t, reqs, old, NewProvidersOnly)
	want := []string{
		"builtin-error terraform.io/builtin/nope: this OpenTofu release has no built-in provider named \"nope\"",
		"builtin terraform.io/builtin/terraform",
		`finding hashicorp/bar ""`,
		"installing hashicorp/bar 0.3.0 cache=false",
		"installed hashicorp/bar 0.3.0 (unauthenticated)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if err == nil {
		t.Errorf("no error for an unknown built-in provider")
	}
	if diff := cmp.Diff([]addrs.Provider{provBar}, res.Locks.Addresses()); diff != "" {
		t.Errorf("locked providers (-want +got):\n%s", diff)
	}
}

func TestInstallPluginCache(t *testing.T) {
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	reqs := Requirements{provBar: nil}
	lines, res, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`finding hashicorp/bar ""`, "installing hashicorp/bar 0.3.0 cache=true", "installed hashicorp/bar 0.3.0 (unauthenticated)", "linked hashicorp/bar 0.3.0"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("first run (-want +got):\n%s", diff)
	}
	target := e.in.Target.PackageDir(provBar, instVersion("0.3.0"), testPlatform)
	if dest, err := os.Readlink(target); err != nil || dest != cache.PackageDir(provBar, instVersion("0.3.0"), testPlatform) {
		t.Errorf("target %s links to %q (%v), want the cache directory", target, dest, err)
	}

	// A new working directory: the cache is used; one versions query is
	// made, only for the registry's warnings (as OpenTofu asks).
	e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
	before := e.src.count()
	lines, _, err = e.install(t, reqs, res.Locks, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"reusing hashicorp/bar", "detected-in-cache hashicorp/bar 0.3.0", "linked hashicorp/bar 0.3.0"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("second run (-want +got):\n%s", diff)
	}
	if n := e.src.count() - before; n != 1 {
		t.Errorf("second run made %d source queries, want 1 (for warnings)", n)
	}
}
