package cliconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

func TestOCICredentialsBlocks(t *testing.T) {
	tests := []struct {
		name, path, src string
		wantCreds       []*OCICredentials
		wantDefault     []*OCIDefaultCredentials
		wantErr         []string
	}{
		{
			name:      "basic in JSON",
			path:      "/c/x.tfrc.json",
			src:       `{"oci_credentials": {"example.com": {"username": "foo", "password": "bar"}}}`,
			wantCreds: []*OCICredentials{{RepositoryPrefix: "example.com", Username: "foo", Password: "bar"}},
		},
		{
			name: "oauth and helper",
			src:  "oci_credentials \"example.com/a/b\" {\n  access_token = \"a\"\n  refresh_token = \"r\"\n}\noci_credentials \"other.example.com:5000\" {\n  docker_credentials_helper = \"osxkeychain\"\n}\n",
			wantCreds: []*OCICredentials{
				{RepositoryPrefix: "example.com/a/b", AccessToken: "a", RefreshToken: "r"},
				{RepositoryPrefix: "other.example.com:5000", DockerCredentialHelper: "osxkeychain"},
			},
		},
		{
			name:    "mixed styles",
			src:     "oci_credentials \"example.com\" {\n  username     = \"foo\"\n  access_token = \"bar\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:31 must set only one group out of username+password, access_token+refresh_token, or docker_credentials_helper."},
		},
		{
			name:    "no password",
			src:     "oci_credentials \"example.com\" {\n  username = \"foo\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:31 must set both username and password together when using static credentials."},
		},
		{
			name:    "no refresh token",
			src:     "oci_credentials \"example.com\" {\n  access_token = \"foo\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:31 must set both access_token and refresh_token together when using OAuth-style credentials."},
		},
		{
			name:    "helper with a repository path",
			src:     "oci_credentials \"example.com/foo\" {\n  docker_credentials_helper = \"osxkeychain\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:35 cannot set docker_credentials_helper with a repository path: credential helpers only support credentials for whole domains."},
		},
		{
			name:    "no label",
			src:     "oci_credentials {\n  username = \"a\"\n  password = \"b\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:1 must have one label, giving an OCI repository address prefix."},
		},
		{
			name:    "label with a tag",
			src:     "oci_credentials \"example.com/a:v1\" {\n  username = \"a\"\n  password = \"b\"\n}\n",
			wantErr: []string{"E: Invalid oci_credentials block | The oci_credentials block at 1:36 has an invalid block label: invalid reference: artifact tag or digest not allowed."},
		},
		{
			name:        "defaults",
			path:        "/etc/tofu/main.tfrc",
			src:         "oci_default_credentials {\n  docker_style_config_files = [\"/foo/bar/auth.json\", \"rel.json\"]\n  docker_credentials_helper = \"osxkeychain\"\n}\n",
			wantDefault: []*OCIDefaultCredentials{{DiscoverAmbientCredentials: true, DockerStyleConfigFiles: []string{"/foo/bar/auth.json", "/etc/tofu/rel.json"}, DefaultDockerCredentialHelper: "osxkeychain"}},
		},
		{
			name:        "inconsistent defaults",
			src:         "oci_default_credentials {\n  discover_ambient_credentials = false\n  docker_style_config_files = []\n  docker_credentials_helper = \"a/b\"\n}\n",
			wantDefault: []*OCIDefaultCredentials{{DockerStyleConfigFiles: []string{}, DefaultDockerCredentialHelper: "a/b"}},
			wantErr: []string{
				`E: Invalid oci_default_credentials block | The oci_default_credentials block at 1:25 specifies the invalid Docker credential helper name "a/b". Must be a non-empty string that could be used as part of an executable filename.`,
				"E: Invalid oci_default_credentials block | The oci_default_credentials block at 1:25 disables discovery of ambient credentials, but also sets docker_style_config_files which is relevant only when ambient credentials discovery is enabled.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "/home/u/.tofurc"
			}
			cfg, diags := parseConfig(Options{}, path, []byte(tt.src))
			if diff := cmp.Diff(tt.wantErr, diagText(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCreds, cfg.OCICredentials); diff != "" {
				t.Errorf("oci_credentials (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDefault, cfg.OCIDefaultCredentials); diff != "" {
				t.Errorf("oci_default_credentials (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOCIMergedValidationAndTerraform(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.tfrc")
	src := "oci_default_credentials {}\noci_default_credentials {}\n" +
		"oci_credentials \"a.example.com\" {\n  username = \"u\"\n  password = \"p\"\n}\n" +
		"oci_credentials \"a.example.com\" {\n  username = \"u\"\n  password = \"q\"\n}\n" +
		"provider_installation {\n  oci_mirror {\n    repository_template = \"m.example.com/${namespace}/${type}\"\n    include = [\"example.com/*/*\"]\n  }\n}\n"
	if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + main, "HOME=" + dir}
	cfg, diags := Load(Options{Environ: env})
	want := []string{
		"E: No more than one oci_default_credentials block may be specified",
		`E: Duplicate oci_credentials block for "a.example.com"`,
	}
	if diff := cmp.Diff(want, diagText(diags)); diff != "" {
		t.Errorf("OpenTofu (-want +got):\n%s", diff)
	}
	domain, repo, err := cfg.Installation().Methods[0].OCIRepository(addrs.NewProvider("example.com", "acme", "thing"))
	if err != nil || domain != "m.example.com" || repo != "acme/thing" {
		t.Errorf("repository: %s %s %v", domain, repo, err)
	}
	// Terraform ignores the OCI blocks and knows no oci_mirror method.
	cfg, diags = Load(Options{Environ: env, Flavour: flavour.Terraform})
	want = []string{`E: Invalid provider_installation method block | Unknown provider installation method "oci_mirror" at 12:3.`}
	if diff := cmp.Diff(want, diagText(diags)); diff != "" {
		t.Errorf("Terraform (-want +got):\n%s", diff)
	}
	if len(cfg.OCICredentials)+len(cfg.OCIDefaultCredentials) != 0 {
		t.Errorf("Terraform kept OCI blocks")
	}
}
