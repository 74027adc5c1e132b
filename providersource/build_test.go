package providersource

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
)

// describe lists a Multi's methods as "DISPLAY include=… exclude=…".
func describe(t *testing.T, src Source) []string {
	t.Helper()
	m, ok := src.(Multi)
	if !ok {
		t.Fatalf("got %T", src)
	}
	var out []string
	for _, sel := range m {
		s := sel.Source.ForDisplay(widget)
		if len(sel.Include) > 0 {
			s += " include=" + patternsString(sel.Include)
		}
		if len(sel.Exclude) > 0 {
			s += " exclude=" + patternsString(sel.Exclude)
		}
		out = append(out, s)
	}
	return out
}

func patternsString(ps Patterns) string {
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += ","
		}
		s += string(p.Hostname) + "/" + p.Namespace + "/" + p.Type
	}
	return s
}

func loadConfig(t *testing.T, src string) *cliconfig.Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tofurc")
	must(t, os.WriteFile(p, []byte(src), 0o644))
	cfg, diags := cliconfig.Load(cliconfig.Options{Environ: []string{"TF_CLI_CONFIG_FILE=" + p}})
	for _, d := range diags {
		if d.Summary != "Unsupported provider installation method" {
			t.Fatalf("unexpected diagnostic %s: %s", d.Summary, d.Detail)
		}
	}
	return cfg
}

func TestBuildExplicit(t *testing.T) {
	cfg := loadConfig(t, `provider_installation {
  filesystem_mirror {
    path    = "/srv/mirror"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "http://insecure.example.com/"
  }
  network_mirror {
    url     = "https://m.example.com/p/"
    exclude = ["bad_ns/aws"]
  }
  network_mirror {
    url     = "https://m.example.com/p/"
    include = ["a/b/c/d"]
  }
  oci_mirror {
    repository_template = "oci.example.com/${hostname}/${namespace}/${type}"
    include             = ["example.com/*/*"]
  }
  network_mirror {
    url                  = "https://m.example.com/ok/"
    trust_all_hashes     = true
    download_retry_count = 4
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
`)
	src, diags := Build(BuildOptions{Config: cfg, Registry: registry.New(registry.Settings{})})
	wantDiags := []string{
		`E: Invalid URL for provider installation source | Cannot use "http://insecure.example.com/" as a URL for a network provider mirror: the mirror must be at an https: URL.`,
		`E: Invalid provider source exclusion patterns | CLI config specifies invalid provider exclusion patterns: invalid registry namespace "aws" in provider matching pattern "bad_ns/aws": must either be the wildcard * or a literal namespace.`,
		`E: Invalid provider source inclusion patterns | CLI config specifies invalid provider inclusion patterns: invalid provider matching pattern "a/b/c/d": must have either two or three slash-separated segments.`,
	}
	var got []string
	for _, d := range diags {
		got = append(got, "E: "+d.Summary+" | "+d.Detail)
	}
	if diff := cmp.Diff(wantDiags, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	want := []string{
		"/srv/mirror include=example.com/*/*",
		"OCI registry provider mirror include=example.com/*/*",
		"provider mirror at https://m.example.com/ok/",
		"registry registry.opentofu.org exclude=example.com/*/*",
	}
	if diff := cmp.Diff(want, describe(t, src)); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
	nm := src.(Multi)[2].Source.(*NetworkMirror)
	if !nm.trust || nm.retries == nil || *nm.retries != 4 {
		t.Errorf("network mirror settings not passed: %+v", nm)
	}
}

func TestBuildPluginDirs(t *testing.T) {
	cfg := loadConfig(t, "provider_installation {\n  direct {}\n}\n")
	src, diags := Build(BuildOptions{Config: cfg, PluginDirs: []string{"/a", "b"}})
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"/a", "b"}, describe(t, src)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBuildImplied(t *testing.T) {
	root := t.TempDir()
	launch := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	makeTree(t, root,
		"work/terraform.d/plugins/registry.opentofu.org/hashicorp/widget/9.0.0/windows_386/",
		"home/.terraform.d/plugins/example.com/acme/foo/terraform-provider-foo_1.0.0_linux_amd64.zip",
		"share/terraform/plugins/",
	)
	opts := cliconfig.Options{
		Environ:   []string{"HOME=" + home, "XDG_DATA_DIRS=" + filepath.Join(root, "share")},
		LaunchDir: launch,
	}
	srv := registrytest.New(t, fakeOptions())
	client := registry.New(fakeRegistrySettings(t, srv))
	src, diags := Build(BuildOptions{CLI: opts, Registry: client})
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	want := []string{
		"terraform.d/plugins",
		filepath.Join(home, ".terraform.d/plugins"),
		filepath.Join(root, "share/terraform/plugins"),
		"registry registry.opentofu.org exclude=example.com/acme/foo,registry.opentofu.org/hashicorp/widget",
	}
	if diff := cmp.Diff(want, describe(t, src)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// widget is only available locally (for another platform): the
	// registry's versions are never asked for.
	ctx := context.Background()
	list, _, err := src.AvailableVersions(ctx, widget)
	if err != nil || len(list) != 1 || list[0].String() != "9.0.0" {
		t.Errorf("got %v %v", list, err)
	}
	if n := srv.Count(registrytest.Versions); n != 0 {
		t.Errorf("registry asked %d times", n)
	}
	if _, err := src.PackageMeta(ctx, widget, list[0], linux); err == nil ||
		err.Error() != "provider registry.opentofu.org/hashicorp/widget 9.0.0 is not available for linux_amd64" {
		t.Errorf("got %v", err)
	}
	_, _, err = src.AvailableVersions(ctx, addrs.NewDefaultProvider("nope"))
	if err == nil || err.Error() != "provider registry registry.opentofu.org does not have a provider named registry.opentofu.org/hashicorp/nope" {
		t.Errorf("got %v", err)
	}
}

func TestRegistrySettings(t *testing.T) {
	cfg := loadConfig(t, `host "example.com" {
  services = { "providers.v1" = "/v1/" }
}
credentials "example.com" { token = "t" }
registry_protocols {
  retry_count = 3
}
`)
	s := RegistrySettings(cfg, registry.Settings{UserAgent: "x"})
	if s.UserAgent != "x" || *s.RetryCount != 3 || s.RequestTimeout.Seconds() != 10 ||
		s.Credentials["example.com"] != "t" || s.HostServices["example.com"]["providers.v1"] != "/v1/" || s.CredentialsHelper != "" {
		t.Errorf("got %+v", s)
	}
}
