package providerlock

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/cliconfig"
)

// TestTrustsMirror: only a network_mirror block with trust_all_hashes for
// the same mirror (spelled in any equivalent way) lets the lock take the
// mirror's hashes without downloading.
func TestTrustsMirror(t *testing.T) {
	load := func(t *testing.T, text string) *cliconfig.Config {
		t.Helper()
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
	trusted := `provider_installation {
  network_mirror {
    url              = "https://Mirror.Example.com:443/providers"
    trust_all_hashes = true
  }
}
`
	untrusted := `provider_installation {
  network_mirror {
    url = "https://mirror.example.com/providers/"
  }
}
`
	tests := []struct {
		name, config, mirror string
		want                 bool
	}{
		{"same mirror, other spelling", trusted, "https://mirror.example.com/providers/", true},
		{"same mirror, same spelling", trusted, "https://Mirror.Example.com:443/providers", true},
		{"other path", trusted, "https://mirror.example.com/other/", false},
		{"other host", trusted, "https://evil.example.com/providers/", false},
		{"not https", trusted, "http://mirror.example.com/providers/", false},
		{"with user info", trusted, "https://u@mirror.example.com/providers/", false},
		{"no trust_all_hashes", untrusted, "https://mirror.example.com/providers/", false},
		{"no provider_installation", "", "https://mirror.example.com/providers/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrustsMirror(load(t, tt.config), tt.mirror); got != tt.want {
				t.Errorf("TrustsMirror(%q) = %v, want %v", tt.mirror, got, tt.want)
			}
		})
	}
}
