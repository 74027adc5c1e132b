package serve

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

const (
	falseH1 = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	falseZH = "zh:0000000000000000000000000000000000000000000000000000000000000000"
)

// doctorPackagesMap makes the upstream's package metadata for linux_amd64
// (the one the server asks for) carry a changed "packages" map.
func doctorPackagesMap(t *testing.T, f *fixture, change func(map[string][]string)) {
	t.Helper()
	overrideMeta(t, f, "/v1/providers/hashicorp/null/3.2.1/download/linux/amd64", func(doc map[string]any) {
		pkgs := doc["packages"].(map[string]any)
		listed := map[string][]string{}
		for pl, e := range pkgs {
			for _, h := range e.(map[string]any)["hashes"].([]any) {
				listed[pl] = append(listed[pl], h.(string))
			}
		}
		change(listed)
		for pl, hs := range listed {
			pkgs[pl].(map[string]any)["hashes"] = hs
		}
	})
}

// versionHashes returns each platform's hashes in the served VERSION.json.
func (f *fixture) versionHashes() map[string][]string {
	f.t.Helper()
	code, body := f.get(nullVersion)
	if code != http.StatusOK {
		f.t.Fatalf("VERSION.json: %d %s", code, body)
	}
	var doc mirrorVersionDoc
	decodeJSON(f.t, body, &doc)
	out := map[string][]string{}
	for pl, a := range doc.Archives {
		out[pl] = a.Hashes
	}
	return out
}

// VERSION.json lists only hashes the server has checked, and for every
// platform the h1: and zh: a faithful mirror lists: an upstream "packages"
// map entry with two h1: hashes (one of them false) or a zh: the signed
// SHA256SUMS does not list is not taken; that platform's archive is
// fetched, authenticated and hashed before the answer. The platform whose
// entry checks out (linux_amd64) is not downloaded.
func TestVersionListsOnlyCheckedHashes(t *testing.T) {
	f := newFixture(t, nil)
	doctorPackagesMap(t, f, func(m map[string][]string) {
		m["darwin_arm64"] = append(m["darwin_arm64"], falseH1)
		m["windows_amd64"] = append(m["windows_amd64"], falseZH)
	})
	want := map[string][]string{}
	for _, pl := range registrytest.DefaultPlatforms() {
		i, err := f.upstream.Package("hashicorp", "null", "3.2.1", pl)
		if err != nil {
			t.Fatal(err)
		}
		want[pl] = []string{i.H1, i.ZH()}
	}
	if diff := cmp.Diff(want, f.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes on a cold store (-want +got):\n%s", diff)
	}
	var fetched []string
	for _, p := range f.upstream.Paths() {
		if strings.HasSuffix(p, ".zip") {
			fetched = append(fetched, p[strings.LastIndex(p, "/")+1:])
		}
	}
	slices.Sort(fetched)
	if n := f.upstream.Count(registrytest.Archive); n != 2 {
		t.Errorf("%d archive downloads from upstream, want 2", n)
	}
	if diff := cmp.Diff([]string{"terraform-provider-null_3.2.1_darwin_arm64.zip", "terraform-provider-null_3.2.1_windows_amd64.zip"}, fetched); diff != "" {
		t.Errorf("archives fetched from upstream (-want +got):\n%s", diff)
	}

	// Warm, and through a second server on the same store: the same, with
	// nothing more from upstream.
	f.upstream.ResetRequests()
	if diff := cmp.Diff(want, f.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes on a warm store (-want +got):\n%s", diff)
	}
	other := newFixtureOn(t, f.upstream, f.store, nil)
	if diff := cmp.Diff(want, other.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes from a restarted server (-want +got):\n%s", diff)
	}
	if n := len(f.upstream.Requests()); n != 0 {
		t.Errorf("warm requests reached upstream: %v", f.upstream.Paths())
	}
}

// With read tokens, VERSION.json's archive URLs carry a signature (and
// nothing else: whether a client trusts the listed hashes is the client's
// decision); the archive answers to the URL without a token.
func TestSignedArchiveURLWithReadTokens(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.ReadTokens = []string{"r"} })
	code, body := f.get(nullVersion, "Authorization", "Bearer r")
	if code != http.StatusOK {
		t.Fatalf("VERSION.json: %d %s", code, body)
	}
	var doc mirrorVersionDoc
	decodeJSON(t, body, &doc)
	u := doc.Archives["linux_amd64"].URL
	if !strings.HasPrefix(u, "terraform-provider-null_3.2.1_linux_amd64.zip?") || !strings.Contains(u, "sig=") || strings.Contains(u, "tfdeps-hashes") {
		t.Errorf("archive URL %q: want the archive name with a signature and no other marker", u)
	}
	if code, body := f.get("/registry.opentofu.org/hashicorp/null/" + u); code != http.StatusOK {
		t.Errorf("archive through the listed URL: %d %s", code, body)
	}
	if code, _ := f.get(nullArchive); code != http.StatusUnauthorized {
		t.Errorf("archive without signature or token: %d, want 401", code)
	}
}

// Against an upstream without a "packages" map, VERSION.json lists every
// platform's h1: and zh: from the start, fetching each archive once; an
// archive whose record a crash kept from being written is fetched again.
func TestVersionHashesWithoutPackagesMap(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders(), NoPackagesMap: true})
	st, err := storage.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, up, st, nil)
	if code, body := f.get(nullArchive); code != http.StatusOK {
		t.Fatalf("archive: %d %s", code, body)
	}
	var record string
	for _, k := range f.keys() {
		if strings.HasSuffix(k, "/3.2.1/linux_amd64.json") {
			record = k
		}
	}
	if record == "" {
		t.Fatalf("no record stored: %v", f.keys())
	}
	if err := st.Delete(context.Background(), record); err != nil {
		t.Fatal(err)
	}
	restarted := newFixtureOn(t, up, st, nil)
	want := map[string][]string{}
	for _, pl := range registrytest.DefaultPlatforms() {
		i, err := up.Package("hashicorp", "null", "3.2.1", pl)
		if err != nil {
			t.Fatal(err)
		}
		want[pl] = []string{i.H1, i.ZH()}
	}
	if diff := cmp.Diff(want, restarted.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes (-want +got):\n%s", diff)
	}
	if n := up.Count(registrytest.Archive); n != 4 {
		t.Errorf("%d archive downloads, want 4 (linux_amd64 twice: its record was lost)", n)
	}
	f.upstream.ResetRequests()
	if diff := cmp.Diff(want, f.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes from the first server (-want +got):\n%s", diff)
	}
	if n := up.Count(registrytest.Archive); n != 0 {
		t.Errorf("%d more archive downloads, want none", n)
	}
}
