package providerinstall

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// wrongH1 stands for a registry's false claim in its "packages" map.
const wrongH1 = hashes.Hash("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")

// knownH1Env is a fake registry serving acme/foo 1.0.0 for linux_amd64
// (the test platform) and darwin_arm64 under two hostnames: one where
// OpenTofu does not enforce signing, one where it does.
type knownH1Env struct {
	srv           *registrytest.Server
	linux, darwin registrytest.PackageInfo
	sumsZH        []hashes.Hash // the zh: of every SHA256SUMS line
}

func newKnownH1Env(t *testing.T) *knownH1Env {
	t.Helper()
	srv := registrytest.New(t, registrytest.Options{Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "foo",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64", "darwin_arm64"}, Size: 3 << 20, Deflate: true}},
	}}})
	e := &knownH1Env{srv: srv}
	var err error
	if e.linux, err = srv.Package("acme", "foo", "1.0.0", "linux_amd64"); err != nil {
		t.Fatal(err)
	}
	if e.darwin, err = srv.Package("acme", "foo", "1.0.0", "darwin_arm64"); err != nil {
		t.Fatal(err)
	}
	e.sumsZH = []hashes.Hash{hashes.Hash(e.linux.ZH()), hashes.Hash(e.darwin.ZH())}
	return e
}

// claimWrongH1 makes the registry's "packages" map give wrongH1 as the
// linux_amd64 package's h1: (its zh: and size stay right).
func (e *knownH1Env) claimWrongH1(t *testing.T) {
	t.Helper()
	path := "/v1/providers/acme/foo/1.0.0/download/linux/amd64"
	resp, err := e.srv.Client().Get(e.srv.URL() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	entry := doc["packages"].(map[string]any)["linux_amd64"].(map[string]any)
	entry["hashes"] = []string{e.linux.ZH(), string(wrongH1)}
	e.srv.Override(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
}

// installer returns an installer for a fresh working directory.
func (e *knownH1Env) installer(t *testing.T, enforce bool) *Installer {
	client := registry.New(registry.Settings{
		Transport:    e.srv.Transport(),
		Getenv:       func(string) string { return "" },
		Environ:      func() []string { return nil },
		HostServices: e.srv.HostServices("registry.opentofu.org", "registry.example.com"),
	})
	getenv := func(k string) string {
		if enforce && k == "OPENTOFU_ENFORCE_GPG_VALIDATION" {
			return "true"
		}
		return ""
	}
	return &Installer{
		Source:     providersource.NewRegistry(client, getenv, nil),
		Target:     NewDir(filepath.Join(t.TempDir(), ".terraform", "providers")),
		Platform:   testPlatform,
		Downloader: client,
		EnforceGPG: enforce,
		MemoDir:    t.TempDir(),
	}
}

func lockWith(p addrs.Provider, hs ...hashes.Hash) *lockfile.Locks {
	l := lockfile.New()
	l.SetProvider(p, instVersion("1.0.0"), nil, hashes.SortedUnique(hs))
	return l
}

func recordedFor(res *Result, p addrs.Provider) []hashes.Hash {
	if res == nil || res.Locks.Provider(p) == nil {
		return nil
	}
	return res.Locks.Provider(p).Hashes()
}

// TestInstallKnownH1 shows where the h1: of the installed directory is
// taken from the registry's "packages" map instead of being computed, and
// that everything OpenTofu catches is still caught. The registry answers
// with a wrong linux_amd64 h1: in "packages" in most cases, which tells a
// computed value (the true one) from a taken one. What OpenTofu v1.12.6
// records was observed against the same fake: with the wrong claim on
// registry.opentofu.org it records the claim and the computed h1: (and
// never reports anything); with signing enforced it records only the
// computed one.
func TestInstallKnownH1(t *testing.T) {
	e := newKnownH1Env(t)
	tofuHost := instProvider("registry.opentofu.org/acme/foo")
	otherHost := instProvider("registry.example.com/acme/foo")
	trueH1 := hashes.Hash(e.linux.H1)
	darwinH1 := hashes.Hash(e.darwin.H1)
	tests := []struct {
		name    string
		p       addrs.Provider
		enforce bool
		honest  bool
		old     []hashes.Hash // lock entry for 1.0.0, nil: none
		// tamper flips a byte of the archive served.
		tamper bool
		want   []hashes.Hash
		// wantErr is part of the error text, "" for success.
		wantErr string
	}{
		{
			name: "honest registry, not enforced: the packages h1: is the directory's, as OpenTofu records",
			p:    tofuHost, honest: true,
			want: append([]hashes.Hash{trueH1, darwinH1}, e.sumsZH...),
		},
		{
			name: "wrong claim, not enforced: recorded uncomputed (OpenTofu adds the computed h1:)",
			p:    tofuHost,
			want: append([]hashes.Hash{wrongH1, darwinH1}, e.sumsZH...),
		},
		{
			name: "wrong claim, other host: computed, claim not recorded, as OpenTofu",
			p:    otherHost,
			want: append([]hashes.Hash{trueH1}, e.sumsZH...),
		},
		{
			name: "wrong claim, enforcement on: computed, claim not recorded, as OpenTofu",
			p:    tofuHost, enforce: true,
			want: append([]hashes.Hash{trueH1}, e.sumsZH...),
		},
		{
			name: "tampered archive: refused by its checksum, as OpenTofu",
			p:    tofuHost, tamper: true,
			wantErr: "archive has incorrect checksum",
		},
		{
			name:    "lock with another zh: and the claimed h1:: refused, as OpenTofu",
			p:       tofuHost,
			old:     []hashes.Hash{"zh:0000000000000000000000000000000000000000000000000000000000000000", wrongH1},
			wantErr: "package for registry.opentofu.org/acme/foo 1.0.0 doesn't match any of the checksums previously recorded",
		},
		{
			name:    "lock of h1: only, the wrong claim: computed and refused, as OpenTofu",
			p:       otherHost,
			old:     []hashes.Hash{wrongH1},
			wantErr: "doesn't match any of the checksums previously recorded",
		},
		{
			name: "lock of h1: only, the true one: computed and accepted",
			p:    otherHost,
			old:  []hashes.Hash{trueH1},
			want: append([]hashes.Hash{trueH1}, e.sumsZH...),
		},
		{
			name: "lock with the zh: and the claim, other host: the claim is a prior hash, taken",
			p:    otherHost,
			old:  append([]hashes.Hash{wrongH1}, e.sumsZH...),
			want: append([]hashes.Hash{wrongH1}, e.sumsZH...),
		},
		{
			name: "lock with the zh: but not the claim, other host: computed",
			p:    otherHost,
			old:  e.sumsZH,
			want: append([]hashes.Hash{trueH1}, e.sumsZH...),
		},
	}
	for _, inMemory := range []bool{true, false} {
		archiveMemoryOff = !inMemory
		t.Cleanup(func() { archiveMemoryOff = false })
		for _, tt := range tests {
			t.Run(fmt.Sprintf("in memory %v/%s", inMemory, tt.name), func(t *testing.T) {
				before := archivesInMemory.Load()
				defer func() {
					if got := archivesInMemory.Load() - before; (got > 0) != inMemory {
						t.Errorf("%d archives received into memory, want them in memory: %v", got, inMemory)
					}
				}()
				e.srv.ClearFaults()
				e.srv.Override("/v1/providers/acme/foo/1.0.0/download/linux/amd64", nil)
				if !tt.honest {
					e.claimWrongH1(t)
				}
				if tt.tamper {
					e.srv.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper})
				}
				in := e.installer(t, tt.enforce)
				var old *lockfile.Locks
				if tt.old != nil {
					old = lockWith(tt.p, tt.old...)
				}
				res, err := in.Install(context.Background(), Requirements{tt.p: nil}, old, NewProvidersOnly, nil)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(hashes.SortedUnique(tt.want), recordedFor(res, tt.p)); diff != "" {
					t.Errorf("recorded hashes (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestInstallKnownH1TamperedAfterwards: a package installed without
// hashing (its h1: taken from the registry) is still checked on the next
// run: a changed file is noticed, the package downloaded again and
// compared with the directory, and the modified directory refused, with
// OpenTofu's error (observed with v1.12.6 after appending to the
// executable).
func TestInstallKnownH1TamperedAfterwards(t *testing.T) {
	requireMemo(t)
	e := newKnownH1Env(t)
	p := instProvider("registry.opentofu.org/acme/foo")
	in := e.installer(t, false)
	var rec recorder
	first, err := in.Install(context.Background(), Requirements{p: nil}, nil, NewProvidersOnly, rec.events())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(recordedFor(first, p), hashes.Hash(e.linux.H1)) {
		t.Fatalf("first install recorded %v, want the package's h1: %s", recordedFor(first, p), e.linux.H1)
	}

	// Unchanged: the second run uses the installed package.
	rec = recorder{}
	if _, err := in.Install(context.Background(), Requirements{p: nil}, first.Locks, NewProvidersOnly, rec.events()); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rec.lines, "using-installed acme/foo 1.0.0") {
		t.Errorf("second run: events %q, want the installed package used", rec.lines)
	}

	// Changed: installed again.
	exe := filepath.Join(in.Target.PackageDir(p, instVersion("1.0.0"), testPlatform), "terraform-provider-foo_v1.0.0")
	info, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	content[len(content)/2] ^= 1
	if err := os.WriteFile(exe, content, info.Mode()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	rec = recorder{}
	_, err = in.Install(context.Background(), Requirements{p: nil}, first.Locks, NewProvidersOnly, rec.events())
	if err == nil || !strings.Contains(err.Error(), "does not match the content of the downloaded package; does it contain local modifications?") {
		t.Errorf("after tampering: %v, events %q; want the modified package refused", err, rec.lines)
	}
}

// TestExtractUnhashedOnlyForPlainArchives: files are written without
// hashing only when the archive's zip-form h1: equals the directory's (an
// archive of regular files with clean, distinct names). For any other
// archive a registry's h1: may be the zip form, so the directory is hashed
// all the same and its h1: returned.
func TestExtractUnhashedOnlyForPlainArchives(t *testing.T) {
	exe := zipEntry{name: "terraform-provider-foo_v1.0.0", content: "binary", mode: 0o755}
	tests := []struct {
		name    string
		entries []zipEntry
		hashed  bool
	}{
		{"regular files", []zipEntry{exe, {name: "README.md", content: "doc"}}, false},
		{"a directory entry", []zipEntry{{name: "docs/", mode: fs.ModeDir | 0o755}, exe, {name: "docs/a.md", content: "a"}}, true},
		{"an unclean name", []zipEntry{exe, {name: "./README.md", content: "doc"}}, true},
		{"a name twice", []zipEntry{exe, {name: "README.md", content: "1"}, {name: "README.md", content: "2"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zipPath := filepath.Join(t.TempDir(), "p.zip")
			if err := os.WriteFile(zipPath, buildZip(t, tt.entries...), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "pkg")
			got, err := extractFileUnhashed(context.Background(), zipPath, dir, ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !tt.hashed {
				if got != "" {
					t.Errorf("h1 = %q, want none (not hashed)", got)
				}
				return
			}
			want, err := hashes.HashDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("h1 = %q, want the directory's %q", got, want)
			}
		})
	}
}
