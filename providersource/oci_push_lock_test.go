package providersource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/cliconfig"
)

// TestOCIMirrorsAndPushTarget: OCIMirrors keeps the oci_mirror methods
// alone (with their patterns); NewOCIPushTarget checks its template.
func TestOCIMirrorsAndPushTarget(t *testing.T) {
	load := func(text string) *cliconfig.Config {
		path := filepath.Join(t.TempDir(), "rc.tfrc")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, diags := cliconfig.LoadFile(cliconfig.Options{}, path)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return cfg
	}
	cfg := load(`provider_installation {
  filesystem_mirror {
    path = "/nowhere"
  }
  oci_mirror {
    repository_template = "example.com/${namespace}/${type}"
    include             = ["registry.opentofu.org/acme/*"]
  }
  direct {}
}
`)
	src, diags := OCIMirrors(BuildOptions{Config: cfg})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ok := src.(Multi)
	if !ok || len(m) != 1 {
		t.Fatalf("source %#v", src)
	}
	if _, ok := m[0].Source.(*OCIMirror); !ok || len(m[0].Include) != 1 {
		t.Errorf("selector %#v", m[0])
	}
	for _, text := range []string{"", "provider_installation {\n  direct {}\n}\n"} {
		if _, diags := OCIMirrors(BuildOptions{Config: load(text)}); !diags.HasErrors() || !strings.Contains(diags.Error(), "No OCI mirror configured") {
			t.Errorf("%q: %v", text, diags)
		}
	}

	if m, diags := NewOCIPushTarget("-oci", "", BuildOptions{}); m != nil || diags != nil {
		t.Errorf("empty template: %v, %v", m, diags)
	}
	if m, diags := NewOCIPushTarget("-oci", "example.com/${type}", BuildOptions{}); m != nil || !diags.HasErrors() {
		t.Errorf("template without hostname and namespace: %v, %v", m, diags)
	}
	if m, diags := NewOCIPushTarget("-oci", "example.com/${hostname}/${namespace}/${type}", BuildOptions{}); m == nil || diags.HasErrors() {
		t.Errorf("valid template: %v, %v", m, diags)
	}
}
