package registry

import (
	"net/url"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// The seed corpora live in testdata/fuzz/<FuzzName>/; run each fuzzer with
// go test -run '^$' -fuzz '^FuzzName$' -fuzztime 60s ./registry.

func FuzzDecodeVersions(f *testing.F) {
	f.Add([]byte(`{"versions":[{"version":"1.0.0","protocols":["5.0"],"platforms":[{"os":"linux","arch":"amd64"}]}],"warnings":["w"]}`))
	f.Add([]byte(`{"versions":[{"version":"1.0.0"},{"version":"1.0.0"},{"version":"0.1.0-beta+x"}]}`))
	f.Add([]byte(`{"versions":[{"version":"v1"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := DecodeVersions(body)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for i, v := range got.Versions {
			if seen[v.String()] {
				t.Fatalf("duplicate version %s", v)
			}
			seen[v.String()] = true
			if i > 0 && v.LessThan(got.Versions[i-1]) {
				t.Fatalf("versions not sorted: %v", got.Versions)
			}
		}
	})
}

func FuzzDecodePackage(f *testing.F) {
	f.Add([]byte(`{"protocols":["5.0"],"os":"linux","arch":"amd64","filename":"f.zip","download_url":"f.zip","shasums_url":"s","shasums_signature_url":"s.sig","shasum":"84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882","signing_keys":{"gpg_public_keys":[{"key_id":"A","ascii_armor":"x"}]},"packages":{"linux_amd64":{"hashes":["zh:84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882","h1:x"],"package_size":10}}}`))
	f.Add([]byte(`{"protocols":["4.0"],"os":"linux","arch":"amd64"}`))
	f.Add([]byte(`{"os":"linux","arch":"amd64","download_url":"ftp://x"}`))
	base, _ := url.Parse("https://registry.example.com/v1/providers/a/b/1.0.0/download/linux/amd64")
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, fl := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
			checkDecodedPackage(t, fl, body, base)
		}
	})
}

func checkDecodedPackage(t *testing.T, fl flavour.Flavour, body []byte, base *url.URL) {
	meta, err := DecodePackage(fl, body, base, addrs.Platform{OS: "linux", Arch: "amd64"})
	if err != nil {
		if meta != nil {
			t.Fatal("metadata returned with an error")
		}
		return
	}
	for _, u := range []*url.URL{meta.DownloadURL, meta.sumsURL, meta.sigURL} {
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted URL %s", u)
		}
	}
	if meta.Platform != (addrs.Platform{OS: "linux", Arch: "amd64"}) {
		t.Fatalf("platform changed to %v", meta.Platform)
	}
}

func FuzzDecodeDiscovery(f *testing.F) {
	f.Add([]byte(`{"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}`))
	f.Add([]byte(`{"providers.v1":"https://u:p@x/"}`))
	f.Add([]byte(`{"providers.v2":"/v2/"}`))
	f.Add([]byte(`{"providers.v1":7}`))
	base, _ := url.Parse("https://registry.example.com/.well-known/terraform.json")
	f.Fuzz(func(t *testing.T, body []byte) {
		services, err := DecodeDiscovery(body)
		if err != nil {
			return
		}
		u, err := (&Services{Host: "registry.example.com", base: base, services: services}).ProvidersV1()
		if err != nil {
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Fragment != "" {
			t.Fatalf("accepted service URL %s", u)
		}
	})
}
