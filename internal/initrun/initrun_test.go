package initrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/flavour"
)

// TestRunDirectoriesConcurrently: runs of different directories go on at
// once in one process, each reading its own directory and writing only to
// its own buffers, as tofu init run there alone would print. (Empty
// directories: the run stops before workdir's steps, which use the
// process's working directory until workdir takes one.)
func TestRunDirectoriesConcurrently(t *testing.T) {
	cache := t.TempDir()
	tests := []struct {
		name    string
		flavour flavour.Flavour
		want    string
	}{
		{name: "opentofu", flavour: flavour.OpenTofu,
			want: "OpenTofu initialized in an empty directory!\n\n" +
				"The directory has no OpenTofu configuration files. You may begin working\n" +
				"with OpenTofu immediately by creating OpenTofu configuration files.\n"},
		{name: "terraform", flavour: flavour.Terraform,
			want: "Terraform initialized in an empty directory!\n\n" +
				"The directory has no Terraform configuration files. You may begin working\n" +
				"with Terraform immediately by creating Terraform configuration files.\n"},
		{name: "opentofu plugin dir", flavour: flavour.OpenTofu,
			want: "OpenTofu initialized in an empty directory!\n\n" +
				"The directory has no OpenTofu configuration files. You may begin working\n" +
				"with OpenTofu immediately by creating OpenTofu configuration files.\n"},
	}
	var wg sync.WaitGroup
	stdout := make([]bytes.Buffer, len(tests))
	stderr := make([]bytes.Buffer, len(tests))
	codes := make([]int, len(tests))
	dirs := make([]string, len(tests))
	for i, tc := range tests {
		dirs[i] = t.TempDir()
		env := &Env{
			Dir: dirs[i], Stdout: &stdout[i], Stderr: &stderr[i],
			Getenv:  func(k string) string { return map[string]string{"XDG_CACHE_HOME": cache, "HOME": cache}[k] },
			Flavour: tc.flavour, TofuVersion: "1.12.6", TerraformVersion: "1.15.9",
			CLIConfig: &cliconfig.Config{},
		}
		opts := Options{Backend: true, Get: true, Input: false, NoColor: true}
		if tc.name == "opentofu plugin dir" {
			opts.PluginDirs = []string{filepath.Join(dirs[i], "plugins")}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = Run(context.Background(), env, opts)
		}()
	}
	wg.Wait()
	for i, tc := range tests {
		if codes[i] != 0 {
			t.Errorf("%s: exit code %d, stderr:\n%s", tc.name, codes[i], stderr[i].String())
		}
		if diff := cmp.Diff(tc.want, stdout[i].String()); diff != "" {
			t.Errorf("%s: stdout (-want +got):\n%s", tc.name, diff)
		}
		if stderr[i].Len() != 0 {
			t.Errorf("%s: stderr: %q", tc.name, stderr[i].String())
		}
	}
	// The -plugin-dir record went into that run's directory.
	if _, err := os.Stat(filepath.Join(dirs[2], ".terraform", "plugin_path")); err != nil {
		t.Errorf("plugin_path in the run's directory: %v", err)
	}
	if _, err := os.Stat(".terraform"); err == nil {
		t.Errorf("a run wrote .terraform in the process's working directory")
	}
}

// TestEnvIsEmpty: the emptiness check reads the run's directory, not the
// process's.
func TestEnvIsEmpty(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "main.tf"), []byte("terraform {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want bool
	}{{t.TempDir(), true}, {full, false}} {
		if got := (&Env{Dir: tc.dir, Flavour: flavour.OpenTofu}).isEmpty(); got != tc.want {
			t.Errorf("isEmpty(%s) = %v, want %v", tc.dir, got, tc.want)
		}
	}
}
