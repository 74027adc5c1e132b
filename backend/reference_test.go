package backend

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// TestReferenceState runs the reference binaries' init on every golden
// case (offline, remote backends against in-process fakes) and compares
// the data directory's terraform.tfstate they write with the golden
// file, which TestGoldenState compares with tfdeps'. It needs
// TFDEPS_REFERENCE_TOFU and/or TFDEPS_REFERENCE_TERRAFORM; with
// TFDEPS_UPDATE_GOLDEN=1 it writes the golden files instead.
func TestReferenceState(t *testing.T) {
	bins := map[flavour.Flavour]string{
		flavour.OpenTofu:  os.Getenv("TFDEPS_REFERENCE_TOFU"),
		flavour.Terraform: os.Getenv("TFDEPS_REFERENCE_TERRAFORM"),
	}
	if bins[flavour.OpenTofu] == "" && bins[flavour.Terraform] == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU and TFDEPS_REFERENCE_TERRAFORM are not set")
	}
	update := os.Getenv("TFDEPS_UPDATE_GOLDEN") == "1"
	for _, c := range goldenCases(t) {
		for f, bin := range bins {
			if bin == "" {
				continue
			}
			golden := filepath.Join(c.dir, goldenNames[f])
			want, err := os.ReadFile(golden)
			if os.IsNotExist(err) && !(update && caseFitsFlavour(t, c, f)) {
				continue
			}
			t.Run(c.name+"/"+f.String(), func(t *testing.T) {
				got := referenceState(t, bin, c)
				if update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("%s (-golden +reference):\n%s", golden, diff)
				}
			})
		}
	}
}

// caseFitsFlavour reports whether the flavour builds in the case's
// backend type.
func caseFitsFlavour(t *testing.T, c goldenCase, f flavour.Flavour) bool {
	m, diags := config.LoadDir(copyCase(t, c.dir, goldenEndpoint), config.WithFlavour(f), config.WithoutResourceConfig())
	if diags.HasErrors() {
		return false
	}
	b := BlockOf(m)
	if b == nil {
		return false
	}
	_, ok := Lookup(f, b.Type)
	return ok
}

// referenceState runs bin init on a copy of the case, with the case's
// fake server (file "fake") and environment (file "env"), and returns the
// state file it writes, the fake's URL turned back into @ENDPOINT@.
func referenceState(t *testing.T, bin string, c goldenCase) []byte {
	t.Helper()
	endpoint, env := startFake(t, c)
	dir := copyCase(t, c.dir, endpoint)
	args := []string{"init", "-input=false", "-no-color"}
	for _, a := range substitute(c.args, endpoint) {
		args = append(args, "-backend-config="+a)
	}
	rc := filepath.Join(t.TempDir(), "empty.tfrc")
	if err := os.WriteFile(rc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TF_CLI_CONFIG_FILE=" + rc,
		"CHECKPOINT_DISABLE=1", "AWS_EC2_METADATA_DISABLED=true",
	}, env...)
	if src, err := os.ReadFile(filepath.Join(c.dir, "env")); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
			cmd.Env = append(cmd.Env, strings.ReplaceAll(line, "@ENDPOINT@", endpoint))
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, ".terraform", StateFileName))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if endpoint != "" {
		got = bytes.ReplaceAll(got, []byte(endpoint), []byte("@ENDPOINT@"))
	}
	return got
}
