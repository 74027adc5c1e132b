package moduleaddr

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReferenceNormalisation runs the reference OpenTofu's `init` on module
// calls with remote sources that cannot be fetched here and compares the
// package address of each "Downloading ADDR for KEY..." line with
// Remote.Package. It needs TFDEPS_REFERENCE_TOFU.
func TestReferenceNormalisation(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set")
	}
	sources := []string{
		"github.com/hashicorp/example//sub/dir?ref=v1.2.0", "git@github.com:hashicorp/example.git",
		"git::https://example.com/vpc.git?ref=v1.2.0&depth=1", "https://example.com/x.tar.gz//sub",
		"bucket.s3-eu-west-1.amazonaws.com/path/vpc.zip", "www.googleapis.com/storage/v1/modules/m.zip",
		"/abs/path//sub", "oci://example.com/repo//sub?digest=sha256:abc", "foo::https://example.com/x",
		"github.com/a/b/c/d//e?ref=x", "git::ssh://git@example.com/a.git//x/../y", "hg::http://example.com/r//s",
		"https://example.com/a?archive=zip", "github.com/org/repo.git?ref=v1&depth=1",
		"s3::https://s3.amazonaws.com/b/k.zip", "git@gitlab.com:a/b.git//c?ref=1", "bucket.s3.amazonaws.com/x/y.zip//z",
	}
	dir := t.TempDir()
	var cfg strings.Builder
	want := map[string]string{}
	for i, s := range sources {
		key := fmt.Sprintf("m%02d", i)
		fmt.Fprintf(&cfg, "module %q {\n  source = %q\n}\n", key, s)
		src, err := offlineParser.Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		want[key] = src.(Remote).Package
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(dir, "empty.tfrc")
	if err := os.WriteFile(rc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tofu, "init", "-backend=false", "-no-color")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TF_CLI_CONFIG_FILE=" + rc, "AWS_EC2_METADATA_DISABLED=true"}
	out, _ := cmd.Output() // every download fails: only the progress lines matter
	got := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^Downloading (.*) for (m\d\d)\.\.\.$`).FindAllStringSubmatch(string(out), -1) {
		got[m[2]] = m[1]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("package addresses (-tfdeps +OpenTofu):\n%s", diff)
	}
}
