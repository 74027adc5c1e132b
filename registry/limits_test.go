package registry

import (
	"net/url"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

func TestDecodersRefuseDeepResponses(t *testing.T) {
	deep := `{"versions": [{"version": "1.0.0", "protocols": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}]}`
	const want = "response is not valid: line 1, column 146: nesting deeper than 100 levels"
	base, _ := url.Parse("https://registry.example.com/v1/providers/a/b/1.0.0/download/linux/amd64")
	tests := []struct {
		name   string
		decode func([]byte) error
	}{
		{"versions", func(b []byte) error { _, err := DecodeVersions(b); return err }},
		{"package", func(b []byte) error {
			_, err := DecodePackage(flavour.OpenTofu, b, base, addrs.Platform{OS: "linux", Arch: "amd64"})
			return err
		}},
		{"discovery", func(b []byte) error { _, err := DecodeDiscovery(b); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode([]byte(deep))
			if err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Errorf("error = %v, want one ending in %q", err, want)
			}
		})
	}
}
