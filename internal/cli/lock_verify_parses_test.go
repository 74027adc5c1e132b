package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/config"
)

// writeLockVerifyFleet writes under dir roots root modules (envs/rNNN),
// each requiring hashicorp/null, with its lock file and its modules.json,
// calling modulesPerRoot of the shared local modules (modules/mNN, two
// files each), modules of them in all.
func writeLockVerifyFleet(t testing.TB, dir string, roots, modules, modulesPerRoot int) {
	write := func(name, content string) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for m := range modules {
		write(fmt.Sprintf("modules/m%02d/main.tf", m), fmt.Sprintf("terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n  }\n}\n\nresource \"null_resource\" \"r\" {\n  triggers = { name = var.name }\n}\n\noutput \"id\" {\n  value = \"m%02d-${var.name}\"\n}\n", m))
		write(fmt.Sprintf("modules/m%02d/variables.tf", m), "variable \"name\" {\n  type = string\n}\n")
	}
	for r := range roots {
		var main, manifest strings.Builder
		fmt.Fprintf(&main, "# root %03d\nterraform {\n  required_providers {\n    null = {\n      source  = \"hashicorp/null\"\n      version = \"~> 3.1\"\n    }\n  }\n}\n", r)
		manifest.WriteString(`{"Modules":[{"Key":"","Source":"","Dir":"."}`)
		for i := range modulesPerRoot {
			m := (r + i) % modules
			fmt.Fprintf(&main, "\nmodule \"m%02d\" {\n  source = \"../../modules/m%02d\"\n  name   = \"r%03d\"\n}\n", m, m, r)
			fmt.Fprintf(&manifest, `,{"Key":"m%02d","Source":"../../modules/m%02d","Dir":"../../modules/m%02d"}`, m, m, m)
		}
		manifest.WriteString("]}\n")
		root := fmt.Sprintf("envs/r%03d/", r)
		write(root+"main.tf", main.String())
		write(root+".terraform/modules/modules.json", manifest.String())
		write(root+".terraform.lock.hcl", "provider \"registry.opentofu.org/hashicorp/null\" {\n  version     = \"3.2.1\"\n  constraints = \"~> 3.1\"\n}\n")
	}
}

// runLockVerifyRecursive runs "lock verify -recursive" in dir (the
// process's working directory meanwhile) and returns its exit code, its
// output and the parse cache it used.
func runLockVerifyRecursive(t testing.TB, dir string) (int, string, *config.ParseCache) {
	var parses *config.ParseCache
	saved := lockVerifyParses
	lockVerifyParses = func() *config.ParseCache { parses = saved(); return parses }
	defer func() { lockVerifyParses = saved }()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out bytes.Buffer
	m := &Meta{Env: Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" },
		Environ: func() []string { return nil }, Getwd: os.Getwd, IsTerminal: func(io.Writer) bool { return false }}}
	code := runLockVerify(m, []string{"-recursive", "-parallelism=4"})
	return code, out.String(), parses
}

// TestLockVerifyRecursiveParsesOnce: 100 roots sharing 20 local modules,
// verified in one run: each distinct file (the roots' own, each module's
// two) is parsed once, however many roots call it.
func TestLockVerifyRecursiveParsesOnce(t *testing.T) {
	dir := t.TempDir()
	const roots, modules, perRoot = 100, 20, 5
	writeLockVerifyFleet(t, dir, roots, modules, perRoot)
	code, out, parses := runLockVerifyRecursive(t, dir)
	if code != 0 || !strings.Contains(out, "100 of 100 root modules succeeded") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Count(out, "is consistent with the configuration.") != roots {
		t.Errorf("not every root verified:\n%s", out)
	}
	if got, want := parses.Parses(), roots+2*modules; got != want {
		t.Errorf("%d files parsed, want %d (each distinct file once)", got, want)
	}
}

// BenchmarkLockVerifyRecursive: lock verify -recursive over 100 roots
// sharing 20 local modules (5 calls each).
func BenchmarkLockVerifyRecursive(b *testing.B) {
	dir := b.TempDir()
	writeLockVerifyFleet(b, dir, 100, 20, 5)
	parses := 0
	for b.Loop() {
		code, out, p := runLockVerifyRecursive(b, dir)
		if code != 0 {
			b.Fatalf("exit %d:\n%s", code, out)
		}
		parses = p.Parses()
	}
	b.ReportMetric(float64(parses), "parses/op")
}
