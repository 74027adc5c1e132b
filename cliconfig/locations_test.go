package cliconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
)

func TestImpliedPluginDirs(t *testing.T) {
	all := []string{
		"launch/terraform.d/plugins",
		"home/.terraform.d/plugins",
		"xdgdata/opentofu/plugins",
		"xdgdata/terraform/plugins",
		"home/.local/share/terraform/plugins",
		"usr/local/share/terraform/plugins",
		"usr/share/terraform/plugins",
		"d1/terraform/plugins",
		"d2/terraform/plugins",
	}
	root := t.TempDir()
	for _, d := range all {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file where a directory is expected is not a candidate.
	writeFiles(t, root, map[string]string{"d3/terraform/plugins": "not a dir"})
	r := func(p string) string { return filepath.Join(root, p) }
	tests := []struct {
		name string
		env  []string
		want []LocalDir
	}{
		{
			name: "defaults",
			env:  []string{"HOME=/home"},
			want: []LocalDir{
				{Name: "terraform.d/plugins", Path: r("launch/terraform.d/plugins")},
				same(r("home/.terraform.d/plugins")),
				same(r("home/.local/share/terraform/plugins")),
				same(r("usr/local/share/terraform/plugins")),
				same(r("usr/share/terraform/plugins")),
			},
		},
		{
			name: "xdg",
			env:  []string{"HOME=/home", "XDG_DATA_HOME=/xdgdata", "XDG_DATA_DIRS=/d2:relative:/d1:/d3"},
			want: []LocalDir{
				{Name: "terraform.d/plugins", Path: r("launch/terraform.d/plugins")},
				same(r("home/.terraform.d/plugins")),
				same(r("xdgdata/opentofu/plugins")),
				same(r("xdgdata/terraform/plugins")),
				same(r("d2/terraform/plugins")),
				same(r("d1/terraform/plugins")),
			},
		},
		{
			name: "relative XDG_DATA_HOME",
			env:  []string{"XDG_DATA_HOME=xdgdata", "XDG_DATA_DIRS=/nowhere"},
			want: []LocalDir{
				{Name: "terraform.d/plugins", Path: r("launch/terraform.d/plugins")},
				same(r("home/.terraform.d/plugins")),
				same(r("home/.local/share/terraform/plugins")),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Environ: tt.env, HomeDir: "/home", Root: root, LaunchDir: r("launch")}
			if diff := cmp.Diff(tt.want, o.ImpliedPluginDirs()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPluginPath(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), ".terraform")
	if got, err := ReadPluginPath(dataDir); err != nil || got != nil {
		t.Fatalf("initial read: %v %v", got, err)
	}
	if err := NewPluginDirFlag(nil).Store(dataDir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dataDir); !os.IsNotExist(err) {
		t.Fatalf("no flag must not create the data dir: %v", err)
	}
	flag := NewPluginDirFlag([]string{"/a", "b<c"})
	if err := flag.Store(dataDir); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, "plugin_path"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("[\n  \"/a\",\n  \"b\\u003cc\"\n]", string(raw)); diff != "" {
		t.Errorf("wrong file (-want +got):\n%s", diff)
	}
	got, err := ReadPluginPath(dataDir)
	if diff := cmp.Diff([]string{"/a", "b<c"}, got); diff != "" || err != nil {
		t.Errorf("read back %v (-want +got):\n%s", err, diff)
	}
	clear := NewPluginDirFlag([]string{""})
	if !clear.Given() || len(clear.Dirs) != 1 {
		t.Errorf("-plugin-dir= must still replace the methods: %+v", clear)
	}
	if err := clear.Store(dataDir); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadPluginPath(dataDir); err != nil || got != nil {
		t.Errorf("after clearing: %v %v", got, err)
	}
}

func TestTerraformLocations(t *testing.T) {
	home := t.TempDir()
	for _, name := range []string{".tofurc", ".terraformrc"} {
		if err := os.WriteFile(filepath.Join(home, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	xdg := t.TempDir()
	tofu := Options{Environ: []string{"HOME=" + home, "XDG_CONFIG_HOME=" + xdg, "XDG_DATA_HOME=" + xdg}}
	tf := tofu
	tf.Flavour = flavour.Terraform
	if got, want := tofu.defaultConfigFile(), filepath.Join(home, ".tofurc"); got != want {
		t.Errorf("opentofu config file = %q, want %q", got, want)
	}
	if got, want := tf.defaultConfigFile(), filepath.Join(home, ".terraformrc"); got != want {
		t.Errorf("terraform config file = %q, want %q", got, want)
	}
	if got, want := tf.ConfigDir(), filepath.Join(home, ".terraform.d"); got != want {
		t.Errorf("terraform config dir = %q, want %q", got, want)
	}
	for _, d := range tf.impliedPluginCandidates() {
		if strings.Contains(d.Path, "opentofu") {
			t.Errorf("terraform plugin candidate %q", d.Path)
		}
	}
}

func TestTerraformIgnoresTrustAllHashes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cli.tfrc")
	src := "provider_installation {\n  network_mirror {\n    url = \"https://mirror.example.com/\"\n    trust_all_hashes = true\n  }\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		f    flavour.Flavour
		want bool
	}{{flavour.OpenTofu, true}, {flavour.Terraform, false}} {
		cfg, diags := Load(Options{Environ: []string{"TF_CLI_CONFIG_FILE=" + file}, Flavour: tt.f})
		if diags.HasErrors() {
			t.Fatalf("%v: %v", tt.f, diags)
		}
		if len(cfg.ProviderInstallation) != 1 || len(cfg.ProviderInstallation[0].Methods) != 1 {
			t.Fatalf("%v: provider_installation = %+v", tt.f, cfg.ProviderInstallation)
		}
		if got := cfg.ProviderInstallation[0].Methods[0].TrustAllHashes; got != tt.want {
			t.Errorf("%v: TrustAllHashes = %v, want %v", tt.f, got, tt.want)
		}
	}
}
