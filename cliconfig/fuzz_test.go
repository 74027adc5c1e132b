package cliconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
)

// FuzzLoadCLIConfig feeds arbitrary bytes to the CLI configuration reader,
// as a main file and as a config-directory file. It must never panic, and
// must always return a usable configuration.
func FuzzLoadCLIConfig(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*"))
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, diags := parseConfig(Options{}, "fuzz.tfrc", src)
		if cfg == nil {
			t.Fatalf("nil config (diags %v)", diagText(diags))
		}
		for _, d := range diags {
			if d == nil || d.Summary == "" {
				t.Fatalf("empty diagnostic in %v", diagText(diags))
			}
		}
		merged := (&Config{}).merge(cfg)
		_ = merged.Installation()
		_ = merged.HostServices()
		_ = merged.Tokens()
		_ = merged.CredentialsHelperName()
		_ = merged.validateOCICredentials()
		_ = merged.OCIDefaults()
		if pi := merged.Installation(); pi != nil {
			for _, m := range pi.Methods {
				if m.Kind == MethodOCIMirror {
					_, _, _ = m.OCIRepository(addrs.NewProvider("example.com", "ns", "type"))
				}
			}
		}
	})
}
