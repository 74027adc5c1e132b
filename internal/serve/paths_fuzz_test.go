package serve

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// FuzzCheckPath: any request path either is refused or gives segments that
// are safe to build storage keys from.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{
		"/registry.opentofu.org/hashicorp/null/index.json",
		"/registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_linux_amd64.zip",
		"/a/../b", "/a%2fb", "/%2e%2e/x", "/a\\b", "/x%00", "//", "/v1/providers/a/b/1.0.0/download/linux/amd64",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.ParseRequestURI(raw)
		if err != nil {
			return
		}
		segs, err := checkPath(&http.Request{URL: u})
		if err != nil {
			return
		}
		for _, s := range segs {
			if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
				t.Fatalf("checkPath(%q) accepted segment %q", raw, s)
			}
		}
		if len(segs) == 4 {
			if p, ok := parseProvider(segs[0], segs[1], segs[2]); ok {
				if v, pl, ok := parseArchiveName(p.Type, segs[3]); ok {
					if err := storage.CheckKey(archiveKey(p, v, pl)); err != nil {
						t.Fatalf("accepted %q but its key is invalid: %v", raw, err)
					}
				}
				if err := storage.CheckKey(versionsKey(p)); err != nil {
					t.Fatalf("accepted %q but its key is invalid: %v", raw, err)
				}
			}
		}
	})
}
