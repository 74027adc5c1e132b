package backend

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// A golden case is a directory of testdata/cases: a root module whose
// backend or cloud block is under test, an optional file "args" with one
// -backend-config value a line, the files those values name, and, for
// each flavour whose binary initialised it, the data directory's
// terraform.tfstate that binary wrote ("opentofu.tfstate",
// "terraform.tfstate"). "@ENDPOINT@" in any of them stands for the URL
// of the fake server the reference run started for the case.
const casesDir = "testdata/cases"

// goldenEndpoint replaces @ENDPOINT@ when no reference binary runs: the
// package never contacts it, so any URL does.
const goldenEndpoint = "http://127.0.0.1:9/fake"

var goldenNames = map[flavour.Flavour]string{flavour.OpenTofu: "opentofu.tfstate", flavour.Terraform: "terraform.tfstate"}

type goldenCase struct {
	name string
	dir  string
	args []string
}

func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := goldenCase{name: e.Name(), dir: filepath.Join(casesDir, e.Name())}
		if src, err := os.ReadFile(filepath.Join(c.dir, "args")); err == nil {
			for _, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
				c.args = append(c.args, line)
			}
		}
		out = append(out, c)
	}
	return out
}

// TestGoldenState checks, for every case and flavour with a golden file,
// that tfdeps writes the data directory's terraform.tfstate byte for byte
// as the reference binary did.
func TestGoldenState(t *testing.T) {
	for _, c := range goldenCases(t) {
		for f, golden := range goldenNames {
			want, err := os.ReadFile(filepath.Join(c.dir, golden))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Run(c.name+"/"+f.String(), func(t *testing.T) {
				dir := copyCase(t, c.dir, goldenEndpoint)
				got := stateFor(t, f, dir, substitute(c.args, goldenEndpoint))
				want = bytes.ReplaceAll(want, []byte("@ENDPOINT@"), []byte(goldenEndpoint))
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("terraform.tfstate (-reference +tfdeps):\n%s", diff)
				}
			})
		}
	}
}

// stateFor loads the root module in dir and returns the state file
// Configure and Encode make of its backend block and args.
func stateFor(t *testing.T, f flavour.Flavour, dir string, args []string) []byte {
	t.Helper()
	m, diags := config.LoadDir(dir, config.WithFlavour(f), config.WithoutResourceConfig())
	if diags.HasErrors() {
		t.Fatalf("loading %s: %s", dir, diags.Error())
	}
	b := BlockOf(m)
	if b == nil {
		t.Fatalf("%s has no backend or cloud block", dir)
	}
	s, diags := Configure(f, b, Options{Overrides: args, Dir: dir})
	if diags.HasErrors() {
		t.Fatalf("Configure: %s", diags.Error())
	}
	saved, err := s.Saved()
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&State{Backend: saved}).Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// copyCase copies a case's files into a temporary directory, @ENDPOINT@
// replaced by endpoint.
func copyCase(t *testing.T, from, endpoint string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".tfstate") || e.Name() == "args" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		src = bytes.ReplaceAll(src, []byte("@ENDPOINT@"), []byte(endpoint))
		if err := os.WriteFile(filepath.Join(dir, e.Name()), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func substitute(args []string, endpoint string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "@ENDPOINT@", endpoint)
	}
	return out
}
