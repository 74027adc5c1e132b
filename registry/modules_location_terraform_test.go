package registry

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/tfdeps/tfdeps/moduleaddr"
)

// Terraform reads a module's download location only from the
// X-Terraform-Get header, for 200 and 204 alike; a JSON body's "location"
// (which OpenTofu reads) is an error (observed with terraform 1.15.9).
func TestDecodeTerraformModuleLocation(t *testing.T) {
	base, _ := url.Parse("https://registry.test/v1/modules/acme/net/aws/1.0.0/download")
	offline := moduleaddr.Parser{HTTPClient: &http.Client{Transport: noNetwork{}}}
	src := moduleaddr.Registry{Host: "registry.test", Namespace: "acme", Name: "net", System: "aws"}
	for _, tc := range []struct {
		name    string
		status  int
		header  string
		body    string
		want    string // the indirect address
		wantErr string
	}{
		{"header, 204", 204, "git::https://example.com/x.git?ref=1", "", "git::https://example.com/x.git?ref=1", ""},
		{"header, 200", 200, "https://example.com/x.tar.gz", `{"location":"https://other.test/y.tar.gz"}`, "https://example.com/x.tar.gz", ""},
		{"relative header", 204, "../../x.tar.gz", "", "https://registry.test/v1/modules/acme/net/x.tar.gz", ""},
		{"body only", 200, "", `{"location":"https://example.com/x.tar.gz"}`, "",
			`failed to get download URL for "registry.test/acme/net/aws": 200 OK resp:{"location":"https://example.com/x.tar.gz"}`},
		{"body with registry credentials", 200, "", `{"location":"./x.tar.gz","use_registry_credentials":true}`, "",
			`failed to get download URL for "registry.test/acme/net/aws": 200 OK resp:{"location":"./x.tar.gz","use_registry_credentials":true}`},
		{"not found", 404, "", "", "", `module "registry.test/acme/net/aws" version "1.0.0" not found`},
		{"server error", 500, "x", "oops", "", `error getting download location for "registry.test/acme/net/aws": 500 Internal Server Error resp:oops`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.header != "" {
				h.Set("X-Terraform-Get", tc.header)
			}
			statusText := http.StatusText(tc.status)
			loc, err := decodeTerraformModuleLocation(tc.status, fmt.Sprint(tc.status)+" "+statusText, h, []byte(tc.body), src, "1.0.0", base, offline)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if loc.Indirect == nil || loc.Direct != nil || loc.Indirect.String() != tc.want {
				t.Fatalf("location = %+v, want indirect %s", loc, tc.want)
			}
		})
	}
}
