package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
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

// VERSION.json lists only hashes the server has checked: an upstream
// "packages" map entry with two h1: hashes (one of them false) or a zh:
// the signed SHA256SUMS does not list gives the platform its signed zh:
// alone, until the archive is stored and its hashes are computed.
func TestVersionListsOnlyCheckedHashes(t *testing.T) {
	f := newFixture(t, nil)
	doctorPackagesMap(t, f, func(m map[string][]string) {
		m["darwin_arm64"] = append(m["darwin_arm64"], falseH1)
		m["windows_amd64"] = append(m["windows_amd64"], falseZH)
	})
	info := map[string]registrytest.PackageInfo{}
	for _, pl := range registrytest.DefaultPlatforms() {
		i, err := f.upstream.Package("hashicorp", "null", "3.2.1", pl)
		if err != nil {
			t.Fatal(err)
		}
		info[pl] = i
	}
	want := map[string][]string{
		"darwin_arm64":  {info["darwin_arm64"].ZH()},
		"linux_amd64":   {info["linux_amd64"].H1, info["linux_amd64"].ZH()},
		"windows_amd64": {info["windows_amd64"].ZH()},
	}
	if diff := cmp.Diff(want, f.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes before any download (-want +got):\n%s", diff)
	}

	// Once the archive is here, its computed hashes are listed.
	darwin := "/registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_darwin_arm64.zip"
	if code, body := f.get(darwin); code != http.StatusOK {
		t.Fatalf("archive: %d %s", code, body)
	}
	want["darwin_arm64"] = []string{info["darwin_arm64"].H1, info["darwin_arm64"].ZH()}
	if diff := cmp.Diff(want, f.versionHashes()); diff != "" {
		t.Errorf("VERSION.json hashes after the darwin_arm64 download (-want +got):\n%s", diff)
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
