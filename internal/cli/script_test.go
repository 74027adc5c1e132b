package cli

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
)

var updateScripts = flag.Bool("update-scripts", false, "rewrite the expected output in testdata/script/*.txtar from the actual output")

// TestMain lets the test binary act as the tfdeps command inside scripts.
// Its Terraform flavour trusts the fake registry's stand-ins for
// HashiCorp's release and partner keys (registrytest.TerraformTrustedKeys)
// instead of the real ones, so that scripts can show the "signed by
// HashiCorp" and partner results.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tfdeps": func() { os.Exit(mainWith(SystemEnv(), testTerraformKeys())) },
	})
}

// testTerraformKeys are the test keys the scripts' tfdeps trusts as
// HashiCorp's.
func testTerraformKeys() *registry.TerraformKeys {
	hashiCorp, partners, err := registrytest.TerraformTrustedKeys()
	if err != nil {
		panic("test keys: " + err.Error())
	}
	return &registry.TerraformKeys{HashiCorp: hashiCorp, Partners: partners}
}

// TestScripts runs every end-to-end script in testdata/script: each is a
// txtar archive of files, tfdeps invocations and their expected output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Setup:               scriptSetup,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"cmpmanifest": cmdCmpManifest, "jsonvalue": cmdJSONValue, "httpstate": cmdHTTPState, "cloudfake": cmdCloudFake, "denyserver": cmdDenyServer, "hangserver": cmdHangServer},
	})
}

// scriptSetup makes a script hermetic: testscript starts every script with
// an almost empty environment, and this puts HOME (and with it every CLI
// configuration and cache directory tfdeps could look for) inside the
// script's work directory. Extend it, don't replace it, when a script needs
// more (a fake registry, a CLI configuration file).
func scriptSetup(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o777); err != nil {
		return err
	}
	env.Setenv("HOME", home)
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	// OpenTofu (and tfdeps) colour their output unless told not to; the
	// scripts pin the plain text (TF_CLI_ARGS= in a script for colour).
	env.Setenv("TF_CLI_ARGS", "-no-color")
	return nil
}
