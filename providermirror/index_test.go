package providermirror

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteJSONFormat(t *testing.T) {
	tests := []struct {
		name string
		doc  any
		want string
	}{
		{"empty index", indexDoc{Versions: map[string]struct{}{}}, "{\n  \"versions\": {}\n}"},
		{"index", indexDoc{Versions: map[string]struct{}{"1.0.0": {}, "0.9.0": {}}}, "{\n  \"versions\": {\n    \"0.9.0\": {},\n    \"1.0.0\": {}\n  }\n}"},
		{"version", versionDoc{Archives: map[string]archiveDoc{
			"linux_amd64": {Hashes: []string{"h1:a", "zh:b"}, URL: "terraform-provider-x_1.0.0_linux_amd64.zip"},
		}}, "{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [\n        \"h1:a\",\n        \"zh:b\"\n      ],\n      \"url\": \"terraform-provider-x_1.0.0_linux_amd64.zip\"\n    }\n  }\n}"},
		{"html escaping", archiveDoc{Hashes: []string{"x:<&>"}, URL: "u"}, "{\n  \"hashes\": [\n    \"x:\\u003c\\u0026\\u003e\"\n  ],\n  \"url\": \"u\"\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "doc.json")
			if err := writeJSON(path, tt.doc); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("content mismatch (-want +got):\n%s", diff)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
				t.Errorf("mode = %v, want 0644", info.Mode().Perm())
			}
		})
	}
}
