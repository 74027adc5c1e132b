package difftest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tfdeps binary the tests run, built once per test process into a
// directory TestMain removes.
var (
	binDir    string
	buildOnce sync.Once
	builtPath string
	buildErr  error
	buildOut  []byte
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tfdeps-difftest-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildTfdeps returns the path of tfdeps built from this checkout.
func buildTfdeps(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		builtPath = filepath.Join(binDir, "tfdeps")
		buildOut, buildErr = exec.Command("go", "build", "-o", builtPath, "github.com/tfdeps/tfdeps/cmd/tfdeps").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building tfdeps: %v\n%s", buildErr, buildOut)
	}
	return builtPath
}
