package cliconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestLoadFileLimits(t *testing.T) {
	const n = 80000
	tests := []struct {
		name    string
		content string
		size    int64 // a sparse file of this size instead of content
		want    string
	}{
		{name: "deep HCL lists", content: "plugin_cache_dir = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
			want: "Error parsing PATH: line 1, column 1020: nesting deeper than 1000 levels"},
		{name: "deep HCL objects", content: "host \"x\" " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n",
			want: "Error parsing PATH: line 1, column 3010: nesting deeper than 1000 levels"},
		{name: "deep JSON", content: "\n {\"a\": " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}",
			want: "Error parsing PATH: line 2, column 1007: nesting deeper than 1000 levels"},
		{name: "too large", size: MaxFileSize + 1,
			want: "Error reading PATH: file is larger than 4 MiB, the most tfdeps reads"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.tfrc")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.size > 0 {
				if err := os.Truncate(path, tt.size); err != nil {
					t.Fatal(err)
				}
			}
			_, diags := LoadFile(Options{}, path)
			want := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: strings.ReplaceAll(tt.want, "PATH", path)}}
			if diff := cmp.Diff(want, diags); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
