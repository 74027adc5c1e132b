//go:build unix

package cliconfig

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadSpecialFiles: a FIFO as the main CLI configuration file or among
// the configuration directory's *.tfrc files is an error naming it, found
// without waiting for a writer; the other files are still read.
func TestLoadSpecialFiles(t *testing.T) {
	const detail = "it is a named pipe (FIFO), not a regular file. tfdeps reads only regular files (or symbolic links to them), so that it never waits on a pipe or device."
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	writeFiles(t, dir, map[string]string{"home/.terraform.d/b.tfrc": cacheMarker(home)})
	for _, name := range []string{"home/.tofurc", "home/.terraform.d/a.tfrc", "custom.rc"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		env   []string
		want  []string
		cache string
	}{
		{
			name:  "home file and directory",
			env:   []string{"HOME=" + home},
			want:  []string{"Error reading " + filepath.Join(home, ".tofurc") + ": " + detail, "Error reading " + filepath.Join(home, ".terraform.d", "a.tfrc") + ": " + detail},
			cache: home,
		},
		{
			name: "TF_CLI_CONFIG_FILE",
			env:  []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + filepath.Join(dir, "custom.rc")},
			want: []string{"Error reading " + filepath.Join(dir, "custom.rc") + ": " + detail},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(Options{Environ: tt.env})
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if cfg.PluginCacheDir != tt.cache {
				t.Errorf("PluginCacheDir = %q, want %q", cfg.PluginCacheDir, tt.cache)
			}
		})
	}
}
