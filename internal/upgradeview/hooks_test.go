package upgradeview

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPreCommitHooks checks the repository's .pre-commit-hooks.yaml: the
// two hooks exist, run tfdeps commands that take -recursive, once per
// commit (pass_filenames: false), and fire for configuration and lock
// files but not for other files.
func TestPreCommitHooks(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hooks := map[string]map[string]string{}
	var cur map[string]string
	for _, line := range strings.Split(string(src), "\n") {
		if id, ok := strings.CutPrefix(line, "- id: "); ok {
			cur = map[string]string{}
			hooks[id] = cur
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ": "); ok && cur != nil && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "    ") {
			cur[k] = v
		}
	}
	want := map[string]string{"tfdeps-lock-verify": "tfdeps lock verify -recursive", "tfdeps-providers-lock": "tfdeps providers lock -recursive"}
	for id, entry := range want {
		h, ok := hooks[id]
		if !ok {
			t.Errorf("no hook %s", id)
			continue
		}
		if h["entry"] != entry || h["pass_filenames"] != "false" || h["language"] != "golang" {
			t.Errorf("hook %s = %v, want entry %q, pass_filenames false, language golang", id, h, entry)
		}
		files, err := regexp.Compile(h["files"])
		if err != nil {
			t.Fatalf("hook %s: files: %v", id, err)
		}
		for name, match := range map[string]bool{
			"live/prod/main.tf": true, "versions.tofu": true, "x.tf.json": true, "live/.terraform.lock.hcl": true,
			"README.md": false, "main.tfvars": false, "main.tf.bak": false,
		} {
			if files.MatchString(name) != match {
				t.Errorf("hook %s: files matches %s = %v, want %v", id, name, !match, match)
			}
		}
	}
}
