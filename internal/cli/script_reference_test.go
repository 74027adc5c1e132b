package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestReferenceScripts runs the scripts of testdata/reference, which run
// tfdeps and the reference OpenTofu binary ($TFDEPS_REFERENCE_TOFU, as
// "exec tofu") on the same inputs against the same fake registry (see
// TestRegistryScripts) and compare what they print and install. Skipped
// when TFDEPS_REFERENCE_TOFU is unset.
func TestReferenceScripts(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set")
	}
	runReferenceScripts(t, "reference", "tofu", tofu, nil, map[string]func(*testscript.TestScript, bool, []string){
		"cmptree":      cmdCmpTree,
		"fakearchives": cmdFakeArchives,
		"fakereq":      cmdFakeReq,
		"fakefault":    cmdFakeFault,
		"fakemirror":   cmdFakeMirror,
		"cmpjsonl":     cmdCmpJSONLines,
		"httpstate":    cmdHTTPState,
		"cloudfake":    cmdCloudFake,
	})
}

// runReferenceScripts runs the scripts of testdata/DIR against the fake
// registry with the reference binary at path on PATH as name, env set.
func runReferenceScripts(t *testing.T, dir, name, path string, env map[string]string, cmds map[string]func(*testscript.TestScript, bool, []string)) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", dir),
		Setup: func(e *testscript.Env) error {
			if err := registryScriptSetup(e); err != nil {
				return err
			}
			bin := filepath.Join(e.WorkDir, ".bin")
			if err := os.MkdirAll(bin, 0o777); err != nil {
				return err
			}
			if err := os.Symlink(path, filepath.Join(bin, name)); err != nil {
				return err
			}
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			for k, v := range env {
				e.Setenv(k, v)
			}
			return nil
		},
		RequireExplicitExec: true,
		Cmds:                cmds,
	})
}

// cmdCmpTree: "cmptree A B" compares two directory trees: names, kinds,
// permission bits, symlink targets and file contents (.git directories
// by presence only).
func cmdCmpTree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmptree A B")
	}
	a, b := describeTree(ts, ts.MkAbs(args[0])), describeTree(ts, ts.MkAbs(args[1]))
	if diff := cmp.Diff(a, b); (diff == "") == neg {
		ts.Fatalf("trees %s and %s (-a +b):\n%s", args[0], args[1], diff)
	}
}

func describeTree(ts *testscript.TestScript, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && d.Name() == ".git":
			out = append(out, "git "+rel)
			return filepath.SkipDir
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out = append(out, "link "+rel+" -> "+target)
		case d.IsDir():
			out = append(out, info.Mode().String()+" "+rel+"/")
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, info.Mode().String()+" "+rel+" "+strings.ReplaceAll(string(b), "\n", `\n`))
		}
		return nil
	})
	ts.Check(err)
	sort.Strings(out)
	return out
}

// TestTerraformReferenceScripts runs the scripts of
// testdata/reference_terraform, which run "tfdeps -compat=terraform" and
// the reference Terraform binary ($TFDEPS_REFERENCE_TERRAFORM, as "exec
// terraform") on the same directory against the same fake registry
// (serving registry.terraform.io). Skipped when TFDEPS_REFERENCE_TERRAFORM
// is unset.
func TestTerraformReferenceScripts(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	runReferenceScripts(t, "reference_terraform", "terraform", terraform, map[string]string{"CHECKPOINT_DISABLE": "1"},
		map[string]func(*testscript.TestScript, bool, []string){"fakereq": cmdFakeReq, "cmptree": cmdCmpTree, "httpstate": cmdHTTPState})
}
