package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestBundledExample keeps the README's first command true: tfdeps init
// installs the example's provider offline from its bundled filesystem
// mirror, leaves the committed lock file as it is, and the effective
// configuration shows the override.
func TestBundledExample(t *testing.T) {
	if runtime.GOOS+"_"+runtime.GOARCH != "linux_amd64" && runtime.GOOS+"_"+runtime.GOARCH != "darwin_arm64" {
		t.Skip("the example's lock file was checked on linux_amd64 and darwin_arm64 only")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "basic"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".terraform"))
	// Commands work in the process's working directory, as tofu's do;
	// t.Chdir restores it when the test ends.
	t.Chdir(t.TempDir())
	lockBefore, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}

	out, errOut, code := runExample(t, dir, "init", "-no-color", "-plugin-dir=mirror")
	if code != 0 {
		t.Fatalf("init exited %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"Initializing modules...\n",
		"- naming in modules/naming\n",
		"- Installed hashicorp/random v3.6.0 (unauthenticated)",
		"OpenTofu has been successfully initialized!",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("init output lacks %q:\n%s", want, out)
		}
	}
	lockAfter, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(lockBefore, lockAfter) {
		t.Errorf("init changed the committed lock file:\n%s", lockAfter)
	}

	checkBundledArchive(t, dir, out)

	out, errOut, code = runExample(t, dir, "config", "-explain")
	if code != 0 {
		t.Fatalf("config exited %d: %s", code, errOut)
	}
	if !strings.Contains(out, "# length: from main_override.tf:2, replaces main.tf:11") {
		t.Errorf("config -explain does not show the override:\n%s", out)
	}
}

func runExample(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	home := t.TempDir()
	env := map[string]string{"HOME": home, "TF_CLI_CONFIG_FILE": "", "CI": "true"}
	code := Main(Env{
		Args:   append([]string{"-chdir=" + dir}, args...),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		Environ: func() []string {
			var list []string
			for k, v := range env {
				list = append(list, k+"="+v)
			}
			return list
		},
		Chdir: os.Chdir,
		Getwd: os.Getwd,
	})
	return stdout.String(), stderr.String(), code
}

// checkBundledArchive: the example's module "labels" comes from
// vendor/labels.tar.gz through "${abspath(path.module)}/…", which needs
// path.module and functions in static evaluation of module sources.
func checkBundledArchive(t *testing.T, dir, out string) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "Downloading file://" + filepath.ToSlash(abs) + "/vendor/labels.tar.gz for labels...\n- labels in .terraform/modules/labels\n"
	if !strings.Contains(out, want) {
		t.Errorf("init output lacks %q:\n%s", want, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "labels", "main.tf")); err != nil {
		t.Error(err)
	}
}
