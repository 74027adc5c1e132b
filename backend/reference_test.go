package backend

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
				got := referenceState(t, f, bin, c)
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
// backend type, and is among those its file "flavours" lists, if any.
func caseFitsFlavour(t *testing.T, c goldenCase, f flavour.Flavour) bool {
	if src, err := os.ReadFile(filepath.Join(c.dir, "flavours")); err == nil && !strings.Contains(string(src), f.String()) {
		return false
	}
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

// referenceState returns the state file the reference binary writes
// for a case, the fake's URL turned back into @ENDPOINT@. How depends on
// the case's file "mode":
//
//   - "init" (the default): bin init on a copy of the case, with the
//     case's fake server (file "fake") and environment (file "env").
//   - "rehash", for backends that init cannot reach offline but can
//     configure: tfdeps' state file is put in place with hash 0, and bin
//     init, finding the saved configuration equal to the block's, writes
//     the file again with its own hash before it fails to reach the
//     backend. A configuration that differs from the binary's makes it
//     stop with "Backend configuration changed" instead.
//   - "accept", for backends that cannot even be configured offline
//     (remote, cloud, pg, settings that need a network to check):
//     tfdeps' state file is put in place with hash 0 and bin state list,
//     finding the hashes differ, compares the saved configuration with
//     the block's: it must not ask for init (they are equal) before it
//     fails to reach the backend. The binary's trace log names the hash
//     it computed for the block, which must be tfdeps'. The file is
//     tfdeps'.
func referenceState(t *testing.T, f flavour.Flavour, bin string, c goldenCase) []byte {
	t.Helper()
	endpoint, env := startFake(t, c)
	dir := copyCase(t, c.dir, endpoint)
	args := substitute(c.args, endpoint)
	mode := "init"
	if src, err := os.ReadFile(filepath.Join(c.dir, "mode")); err == nil {
		mode = strings.TrimSpace(string(src))
	}
	dataDir := filepath.Join(dir, ".terraform")
	var ours []byte
	if mode != "init" {
		ours = stateFor(t, f, dir, args)
		st, err := ParseState(ours)
		if err != nil {
			t.Fatal(err)
		}
		st.Backend.Hash = 0
		if err := WriteState(f, dataDir, st); err != nil {
			t.Fatal(err)
		}
	}
	cmdArgs := []string{"init", "-input=false", "-no-color"}
	if mode == "accept" {
		cmdArgs = []string{"state", "list", "-no-color"}
	} else {
		for _, a := range args {
			cmdArgs = append(cmdArgs, "-backend-config="+a)
		}
	}
	if mode == "accept" {
		env = append(env, "TF_LOG=trace")
	}
	out, err := runReference(t, bin, dir, endpoint, c, env, cmdArgs)
	switch mode {
	case "init":
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", bin, strings.Join(cmdArgs, " "), err, out)
		}
	case "rehash", "accept":
		for _, refusal := range []string{"initialization required", "configuration changed", "Failed to decode current backend config"} {
			if strings.Contains(string(out), refusal) {
				t.Fatalf("%s %s refused tfdeps' state file:\n%s", bin, strings.Join(cmdArgs, " "), out)
			}
		}
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	got, err := os.ReadFile(filepath.Join(dataDir, StateFileName))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if mode == "rehash" && bytes.Contains(got, []byte(`"hash": 0`)) {
		t.Fatalf("%s did not rewrite the state file:\n%s", bin, out)
	}
	if mode == "accept" {
		st, err := ParseState(ours)
		if err != nil {
			t.Fatal(err)
		}
		if h := tracedHash(out); h != strconv.FormatUint(st.Backend.Hash, 10) {
			t.Fatalf("%s computed the hash %q for the block, tfdeps %d:\n%s", bin, h, st.Backend.Hash, out)
		}
		if !bytes.Contains(out, []byte(fmt.Sprintf("using already-initialized %q backend configuration", st.Backend.Type))) {
			t.Fatalf("%s did not find the saved configuration equal to the block's:\n%s", bin, out)
		}
		got = ours
	}
	if endpoint != "" {
		got = bytes.ReplaceAll(got, []byte(endpoint), []byte("@ENDPOINT@"))
	}
	return got
}

// runReference runs bin with args in dir, in an environment of its own.
func runReference(t *testing.T, bin, dir, endpoint string, c goldenCase, env, args []string) ([]byte, error) {
	t.Helper()
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
	return cmd.CombinedOutput()
}

// tracedHashLine is the line of a reference binary's trace log that
// names the hash it computed for the backend or cloud block.
var tracedHashLine = regexp.MustCompile(`built configuration for "[^"]*" backend with hash value (\d+)`)

// tracedHash returns the hash a trace log names ("" when none).
func tracedHash(out []byte) string {
	m := tracedHashLine.FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}
