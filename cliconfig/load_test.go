package cliconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeFiles creates files (relative path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cacheMarker is a config file naming where it came from via plugin_cache_dir.
func cacheMarker(name string) string { return "plugin_cache_dir = \"" + name + "\"\n" }

func TestMainFileResolution(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		env   []string // HOME is added
		want  string   // the plugin_cache_dir marker of the file read
		diags []string
	}{
		{name: "no file at all"},
		{name: "tofurc", files: map[string]string{"home/.tofurc": cacheMarker("tofurc")}, want: "tofurc"},
		{name: "legacy terraformrc alone", files: map[string]string{"home/.terraformrc": cacheMarker("terraformrc")}, want: "terraformrc"},
		{
			name:  "tofurc wins over terraformrc",
			files: map[string]string{"home/.terraformrc": cacheMarker("terraformrc"), "home/.tofurc": cacheMarker("tofurc")},
			want:  "tofurc",
		},
		{
			name:  "xdg when neither home file exists",
			files: map[string]string{"xdg/opentofu/tofurc": cacheMarker("xdg")},
			env:   []string{"XDG_CONFIG_HOME=ROOT/xdg"},
			want:  "xdg",
		},
		{
			name:  "home file beats xdg",
			files: map[string]string{"xdg/opentofu/tofurc": cacheMarker("xdg"), "home/.terraformrc": cacheMarker("terraformrc")},
			env:   []string{"XDG_CONFIG_HOME=ROOT/xdg"},
			want:  "terraformrc",
		},
		{
			name:  "TF_CLI_CONFIG_FILE",
			files: map[string]string{"home/.tofurc": cacheMarker("tofurc"), "custom.rc": cacheMarker("custom")},
			env:   []string{"TF_CLI_CONFIG_FILE=ROOT/custom.rc"},
			want:  "custom",
		},
		{
			name:  "TERRAFORM_CONFIG",
			files: map[string]string{"legacy.rc": cacheMarker("legacy")},
			env:   []string{"TERRAFORM_CONFIG=ROOT/legacy.rc"},
			want:  "legacy",
		},
		{
			name:  "TF_CLI_CONFIG_FILE beats TERRAFORM_CONFIG",
			files: map[string]string{"legacy.rc": cacheMarker("legacy"), "custom.rc": cacheMarker("custom")},
			env:   []string{"TERRAFORM_CONFIG=ROOT/legacy.rc", "TF_CLI_CONFIG_FILE=ROOT/custom.rc"},
			want:  "custom",
		},
		{
			name:  "TOFU_CLI_CONFIG_FILE means nothing",
			files: map[string]string{"custom.rc": cacheMarker("custom")},
			env:   []string{"TOFU_CLI_CONFIG_FILE=ROOT/custom.rc"},
		},
		{
			name:  "missing explicit file",
			files: map[string]string{"home/.tofurc": cacheMarker("tofurc")},
			env:   []string{"TF_CLI_CONFIG_FILE=ROOT/nope.rc"},
			diags: []string{`W: Unable to open CLI configuration file | The CLI configuration file at "ROOT/nope.rc" does not exist.`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tt.files)
			os.MkdirAll(filepath.Join(root, "home"), 0o755)
			env := []string{"HOME=" + filepath.Join(root, "home")}
			for _, e := range tt.env {
				env = append(env, strings.ReplaceAll(e, "ROOT", root))
			}
			cfg, diags := Load(Options{Environ: env})
			got := strings.ReplaceAll(strings.Join(diagText(diags), "\n"), root, "ROOT")
			want := strings.Join(tt.diags, "\n")
			if tt.want != "" {
				if want != "" {
					want += "\n"
				}
				want += "E: The specified plugin cache dir " + tt.want + " cannot be opened: stat " + tt.want + ": no such file or directory"
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("wrong diagnostics (-want +got):\n%s", diff)
			}
			if cfg.PluginCacheDir != tt.want {
				t.Errorf("read %q, want %q", cfg.PluginCacheDir, tt.want)
			}
		})
	}
}

func TestConfigDirectory(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	writeFiles(t, root, map[string]string{
		"home/.tofurc": `host "main.example.com" { services = { "providers.v1" = "/main/" } }
host "both.example.com" { services = { "providers.v1" = "/main/" } }
registry_protocols { retry_count = 7 }
`,
		"home/.terraform.d/b.tfrc": `host "both.example.com" { services = { "providers.v1" = "/b/" } }
credentials "both.example.com" { token = "from-b" }
plugin_cache_may_break_dependency_lock_file = true
registry_protocols {
  retry_count             = 3
  request_timeout_seconds = 20
}
`,
		"home/.terraform.d/a.tfrc":                `credentials "both.example.com" { token = "from-a" }`,
		"home/.terraform.d/credentials.tfrc.json": `{"credentials": {"json.example.com": {"token": "from-json"}}}`,
		"home/.terraform.d/ignored.hcl":           `credentials "ignored.example.com" { token = "x" }`,
	})
	cfg, diags := Load(Options{Environ: []string{"HOME=" + home}})
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diagText(diags))
	}
	gotHosts := map[string]any{}
	for k, v := range cfg.Hosts {
		gotHosts[k] = v.Services["providers.v1"]
	}
	wantHosts := map[string]any{"main.example.com": "/main/", "both.example.com": "/b/"}
	if diff := cmp.Diff(wantHosts, gotHosts); diff != "" {
		t.Errorf("wrong hosts (-want +got):\n%s", diff)
	}
	wantCreds := map[string]map[string]any{
		"both.example.com": {"token": "from-b"},
		"json.example.com": {"token": "from-json"},
	}
	if diff := cmp.Diff(wantCreds, cfg.Credentials); diff != "" {
		t.Errorf("wrong credentials (-want +got):\n%s", diff)
	}
	if !cfg.PluginCacheMayBreakDependencyLockFile {
		t.Errorf("plugin_cache_may_break_dependency_lock_file not merged")
	}
	wantRP := RegistryProtocols{RetryCount: 7, RequestTimeout: 20 * time.Second}
	if diff := cmp.Diff(wantRP, cfg.RegistryProtocols); diff != "" {
		t.Errorf("wrong registry protocols (-want +got):\n%s", diff)
	}

	t.Run("override variable skips the directory", func(t *testing.T) {
		cfg, _ := Load(Options{Environ: []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + filepath.Join(home, ".tofurc")}})
		if len(cfg.Credentials) != 0 {
			t.Errorf("config directory was read: %v", cfg.Credentials)
		}
	})
	t.Run("xdg config directory", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"xdg/opentofu/x.tfrc": `credentials "x.example.com" { token = "t" }`})
		cfg, _ := Load(Options{Environ: []string{"HOME=" + filepath.Join(root, "home"), "XDG_CONFIG_HOME=" + filepath.Join(root, "xdg")}})
		if _, ok := cfg.Credentials["x.example.com"]; !ok {
			t.Errorf("xdg config directory not read: %v", cfg.Credentials)
		}
	})
}

func TestReadAndParseErrors(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"home/.terraform.d/1-bad.tfrc":       "plugin_cache_dir = [1]\n",
		"home/.terraform.d/2-syntax.tfrc":    "host {\n",
		"home/.terraform.d/3-hosts.tfrc":     "host \"xn--caf-dma.fr\" {}\ncredentials \"a..b\" { token = \"x\" }\n",
		"home/.terraform.d/4-helpers.tfrc":   "credentials_helper \"a\" {}\ncredentials_helper \"b\" {}\n",
		"home/.terraform.d/5-install.tfrc":   "provider_installation {\n}\n",
		"home/.terraform.d/6-install.tfrc":   "provider_installation {\n}\noci_credentials \"x\" {}\n",
		"home/.terraform.d/7-dir.tfrc/x":     "",
		"home/.terraform.d/8-rp.tfrc.json":   `{"registry_protocols": {"retry_count": 2}}`,
		"home/.terraform.d/9-rp-bad.tfrc":    "registry_protocols = 5\n",
		"home/.terraform.d/not-config.tfrcx": "garbage {",
	})
	dir := filepath.Join(root, "home", ".terraform.d")
	_, diags := Load(Options{Environ: []string{"HOME=" + filepath.Join(root, "home")}})
	want := []string{
		"E: Error parsing DIR/1-bad.tfrc: At 1:20: root.plugin_cache_dir: unknown type for string *ast.ListType",
		"E: Error parsing DIR/2-syntax.tfrc: At 2:2: object expected closing RBRACE got: EOF",
		`W: Credentials helpers are not supported | The credentials_helper "a" block in DIR/4-helpers.tfrc cannot be used: tfdeps does not run credentials helpers. Give tokens in credentials blocks or TF_TOKEN_ environment variables instead.`,
		`W: Credentials helpers are not supported | The credentials_helper "b" block in DIR/4-helpers.tfrc cannot be used: tfdeps does not run credentials helpers. Give tokens in credentials blocks or TF_TOKEN_ environment variables instead.`,
		"E: Invalid oci_credentials block | The oci_credentials block at 3:21 must set either username+password, access_token+refresh_token, or docker_credentials_helper.",
		"E: Error reading DIR/7-dir.tfrc: read DIR/7-dir.tfrc: is a directory",
		"E: Invalid registry_protocols block | The registry_protocols item at 1:1 must have an open brace after the block type.",
		`E: The host "xn--caf-dma.fr" block has an invalid hostname: hostname label "xn--caf-dma" specified in punycode format; service hostnames must be given in unicode`,
		`E: The credentials "a..b" block has an invalid hostname: hostname contains empty label (two consecutive periods)`,
		"E: No more than one credentials_helper block may be specified",
		"E: No more than one provider_installation block may be specified",
	}
	got := strings.Split(strings.ReplaceAll(strings.Join(diagText(diags), "\n"), dir, "DIR"), "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong diagnostics (-want +got):\n%s", diff)
	}
}

func TestPluginCacheDir(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"cache/.keep":              "",
		"home/.tofurc":             "plugin_cache_dir = \"$CACHE_ROOT/cache\"\n",
		"home/.terraform.d/a.tfrc": "plugin_cache_dir = \"/from/dir\"\n",
	})
	home := filepath.Join(root, "home")
	tests := []struct {
		name      string
		env       []string
		want      string
		wantBreak bool
		wantDiags []string
	}{
		{name: "main file expanded", env: []string{"CACHE_ROOT=" + root}, want: filepath.Join(root, "cache")},
		{
			name:      "environment wins and is not expanded",
			env:       []string{"TF_PLUGIN_CACHE_DIR=$HOME/x"},
			want:      "$HOME/x",
			wantDiags: []string{"E: The specified plugin cache dir $HOME/x cannot be opened: stat $HOME/x: no such file or directory"},
		},
		{name: "may break from environment", env: []string{"CACHE_ROOT=" + root, "TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE=yes"}, want: filepath.Join(root, "cache"), wantBreak: true},
		{name: "may break zero is off", env: []string{"CACHE_ROOT=" + root, "TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE=0"}, want: filepath.Join(root, "cache")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(Options{Environ: append([]string{"HOME=" + home}, tt.env...)})
			if diff := cmp.Diff(tt.wantDiags, diagText(diags)); diff != "" {
				t.Errorf("wrong diagnostics (-want +got):\n%s", diff)
			}
			if cfg.PluginCacheDir != tt.want || cfg.PluginCacheMayBreakDependencyLockFile != tt.wantBreak {
				t.Errorf("got %q %v, want %q %v", cfg.PluginCacheDir, cfg.PluginCacheMayBreakDependencyLockFile, tt.want, tt.wantBreak)
			}
		})
	}
}

func TestRegistryProtocolsPrecedence(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"home/.tofurc":             "registry_protocols {\n  request_timeout_seconds = 30\n}\n",
		"home/.terraform.d/a.tfrc": "registry_protocols {\n  retry_count = 4\n  request_timeout_seconds = 40\n}\n",
	})
	home := filepath.Join(root, "home")
	tests := []struct {
		name string
		env  []string
		want RegistryProtocols
	}{
		{name: "files", want: RegistryProtocols{RetryCount: 4, RequestTimeout: 30 * time.Second}},
		{name: "environment", env: []string{"TF_REGISTRY_DISCOVERY_RETRY=9", "TF_REGISTRY_CLIENT_TIMEOUT=5"}, want: RegistryProtocols{RetryCount: 9, RequestTimeout: 5 * time.Second}},
		{name: "invalid environment ignored", env: []string{"TF_REGISTRY_DISCOVERY_RETRY=0", "TF_REGISTRY_CLIENT_TIMEOUT=x"}, want: RegistryProtocols{RetryCount: 4, RequestTimeout: 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _ := Load(Options{Environ: append([]string{"HOME=" + home}, tt.env...)})
			if diff := cmp.Diff(tt.want, cfg.RegistryProtocols); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("defaults", func(t *testing.T) {
		cfg, _ := Load(Options{})
		want := RegistryProtocols{RetryCount: 1, RequestTimeout: 10 * time.Second}
		if diff := cmp.Diff(want, cfg.RegistryProtocols); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestLibraryPanicIsAParseError(t *testing.T) {
	_, diags := parseConfig(Options{}, "x.tfrc", []byte("{\"0\\0"))
	want := []string{"E: Error parsing x.tfrc: invalid syntax: bytes.Buffer: UnreadRune: previous operation was not a successful ReadRune"}
	if diff := cmp.Diff(want, diagText(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
