package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// diagText renders diagnostics compactly for comparison.
func diagText(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "E"
		if d.Severity == hcl.DiagWarning {
			sev = "W"
		}
		s := sev + ": " + d.Summary
		if d.Detail != "" {
			s += " | " + d.Detail
		}
		out = append(out, s)
	}
	return out
}

func intp(n int) *int { return &n }

func TestProviderInstallation(t *testing.T) {
	const methodSummary = "E: Invalid provider_installation method block | "
	tests := []struct {
		name    string
		src     string
		want    []*ProviderInstallation
		wantErr []string
	}{
		{
			name: "all methods",
			src: `provider_installation {
  dev_overrides {
    "example.com/acme/foo" = "/home/dev/go/bin/../bin/"
    "hashicorp/aws"        = "relative/dir"
  }
  filesystem_mirror {
    path    = "/usr/share/tofu/providers"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url                  = "https://mirror.example.com/providers/"
    include              = ["registry.opentofu.org/*/*"]
    exclude              = ["registry.opentofu.org/acme/*"]
    download_retry_count = 5
    trust_all_hashes     = true
  }
  direct {
    exclude              = ["example.com/*/*"]
    download_retry_count = 0
  }
}
`,
			want: []*ProviderInstallation{{
				Methods: []*InstallationMethod{
					{Kind: MethodFilesystemMirror, Location: "/usr/share/tofu/providers", Include: []string{"example.com/*/*"}},
					{Kind: MethodNetworkMirror, Location: "https://mirror.example.com/providers/",
						Include: []string{"registry.opentofu.org/*/*"}, Exclude: []string{"registry.opentofu.org/acme/*"},
						DownloadRetryCount: intp(5), TrustAllHashes: true},
					{Kind: MethodDirect, Exclude: []string{"example.com/*/*"}, DownloadRetryCount: intp(0)},
				},
				DevOverrides: map[addrs.Provider]string{
					addrs.NewProvider("example.com", "acme", "foo"): "/home/dev/go/bin",
					addrs.NewDefaultProvider("aws"):                 "relative/dir",
				},
			}},
		},
		{
			name: "json syntax",
			src: `{"provider_installation": {"dev_overrides": {"a/b": "/x"},
			  "filesystem_mirror": [{"path": "/m"}], "direct": [{"include": ["a/b"]}]}}`,
			want: []*ProviderInstallation{{
				Methods: []*InstallationMethod{
					{Kind: MethodFilesystemMirror, Location: "/m"},
					{Kind: MethodDirect, Include: []string{"a/b"}},
				},
				DevOverrides: map[addrs.Provider]string{addrs.NewProvider("registry.opentofu.org", "a", "b"): "/x"},
			}},
		},
		{
			// HCL 1 flattens objects of objects into labelled items, so a
			// method written as an object (not a list) is not a block.
			name:    "json method objects are flattened",
			src:     `{"provider_installation": {"direct": {"include": ["a/b"]}}}`,
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + "The items inside the provider_installation block at - must all be blocks."},
		},
		{
			name:    "equals sign",
			src:     "provider_installation = {\n  direct {}\n}\n",
			wantErr: []string{"E: Invalid provider_installation block | The provider_installation block at 1:1 must not be introduced with an equals sign."},
		},
		{
			name:    "json not an object",
			src:     `{"provider_installation": "x"}`,
			wantErr: []string{"E: Invalid provider_installation block | The provider_installation block at - must not be introduced with an equals sign."},
		},
		{
			name: "labels are reported but the block is used",
			src:  "provider_installation \"x\" {\n  direct \"y\" {}\n}\n",
			want: []*ProviderInstallation{{Methods: []*InstallationMethod{{Kind: MethodDirect}}}},
			wantErr: []string{
				"E: Invalid provider_installation block | The provider_installation block at 1:1 must not have any labels.",
				methodSummary + "The blocks inside the provider_installation block at 1:1 may not have any labels.",
			},
		},
		{
			name:    "attribute inside",
			src:     "provider_installation {\n  direct = {}\n  x = 1\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + "The items inside the provider_installation block at 1:1 must all be blocks.", methodSummary + "The items inside the provider_installation block at 1:1 must all be blocks."},
		},
		{
			name:    "decode error",
			src:     "provider_installation {\n  direct {\n    include = 5\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + "Invalid direct block at 1:1: At 3:15: unknown slice type: *ast.LiteralType."},
		},
		{
			name:    "path required",
			src:     "provider_installation {\n  filesystem_mirror {\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + `Invalid filesystem_mirror block at 1:1: "path" argument is required.`},
		},
		{
			name:    "url required",
			src:     "\nprovider_installation {\n  network_mirror {\n    include = []\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + `Invalid network_mirror block at 2:1: "url" argument is required.`},
		},
		{
			name: "dev_overrides not first",
			src:  "provider_installation {\n  direct {}\n  dev_overrides {\n    \"a/b\" = \"/x\"\n  }\n}\n",
			want: []*ProviderInstallation{{Methods: []*InstallationMethod{{Kind: MethodDirect}}}},
			wantErr: []string{methodSummary + "The dev_overrides block at at 3:3 must appear before all other installation methods, " +
				"because development overrides always have the highest priority."},
		},
		{
			name: "dev_overrides bad address",
			src:  "provider_installation {\n  dev_overrides {\n    \"a/b/c/d\" = \"/x\"\n    \"foo/terraform-aws\" = \"/y\"\n  }\n}\n",
			want: []*ProviderInstallation{{}},
			wantErr: []string{
				"E: Invalid provider installation dev overrides | The entry \"a/b/c/d\" in 1:1 is not a valid provider source string.\n\n" +
					"Invalid provider source string: The \"source\" attribute must be in the format \"[hostname/][namespace/]name\"",
				"E: Invalid provider installation dev overrides | The entry \"foo/terraform-aws\" in 1:1 is not a valid provider source string.\n\n" +
					"Invalid provider type: Provider source \"registry.opentofu.org/foo/terraform-aws\" has a type with the prefix \"terraform-\", " +
					"which isn't allowed because it would be redundant to name a Terraform provider with that prefix. " +
					"If you are the author of this provider, rename it to not include the prefix.",
			},
		},
		{
			name:    "dev_overrides not strings",
			src:     "provider_installation {\n  dev_overrides {\n    \"a/b\" = [\"x\"]\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + "Invalid dev_overrides block at 1:1: At 3:13: root.a/b: unknown type for string *ast.ListType."},
		},
		{
			name:    "unknown method",
			src:     "provider_installation {\n  direct {}\n  magic {}\n}\n",
			want:    []*ProviderInstallation{{Methods: []*InstallationMethod{{Kind: MethodDirect}}}},
			wantErr: []string{methodSummary + `Unknown provider installation method "magic" at 3:3.`},
		},
		{
			name: "oci_mirror",
			src:  "provider_installation {\n  oci_mirror {\n    repository_template = \"example.net/${namespace}/${type}\"\n    include = [\"example.com/*/*\"]\n  }\n}\n",
			want: []*ProviderInstallation{{Methods: []*InstallationMethod{{Kind: MethodOCIMirror, Location: "example.net/${namespace}/${type}", Include: []string{"example.com/*/*"}}}}},
		},
		{
			name:    "oci_mirror template without hostname",
			src:     "provider_installation {\n  oci_mirror {\n    repository_template = \"example.net/${namespace}/${type}\"\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{`E: Invalid oci_mirror repository template | Invalid oci_mirror block at 2:14: template must refer to the "hostname" symbol unless the "include" argument selects exactly one registry hostname.`},
		},
		{
			name:    "oci_mirror template with unknown symbol and no repository",
			src:     "provider_installation {\n  oci_mirror {\n    repository_template = \"${foo}\"\n    include = [\"example.com/a/b\"]\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{`E: Invalid oci_mirror repository template | Invalid oci_mirror block at 2:14: the symbol "foo" is not available for an OCI mirror repository address template. Only "hostname", "namespace", and "type" are available.`},
		},
		{
			name:    "oci_mirror template without repository name",
			src:     "provider_installation {\n  oci_mirror {\n    repository_template = \"${hostname}/${namespace}/${type}:v1\"\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{`E: Invalid oci_mirror repository template | Invalid oci_mirror block at 2:14: template must generate a valid OCI repository address, including a registry hostname followed by a slash and then a repository name.`},
		},
		{
			name:    "oci_mirror without template",
			src:     "provider_installation {\n  oci_mirror {\n  }\n}\n",
			want:    []*ProviderInstallation{{}},
			wantErr: []string{methodSummary + `Invalid oci_mirror block at 2:14: "repository_template" argument is required.`},
		},
		{
			name: "two blocks in one file",
			src:  "provider_installation {\n  direct {}\n}\nprovider_installation {\n}\n",
			want: []*ProviderInstallation{{Methods: []*InstallationMethod{{Kind: MethodDirect}}}, {}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := parseConfig(Options{}, "/home/u/.tofurc", []byte(tt.src))
			if diff := cmp.Diff(tt.wantErr, diagText(diags)); diff != "" {
				t.Errorf("wrong diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, cfg.ProviderInstallation, cmpopts.IgnoreUnexported(InstallationMethod{})); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}
