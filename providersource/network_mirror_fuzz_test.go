package providersource

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/versions"
)

func addSeeds(f *testing.F, pattern string) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "seeds", pattern))
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
}

// FuzzDecodeMirrorIndex: any bytes give versions or an error, never a
// panic; every version returned parses back to itself and the list is
// sorted.
func FuzzDecodeMirrorIndex(f *testing.F) {
	addSeeds(f, "index*.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		list, err := DecodeMirrorIndex(bytes.NewReader(src))
		if err != nil {
			if list != nil {
				t.Fatalf("versions with an error: %v", list)
			}
			return
		}
		for i, v := range list {
			back, perr := versions.ParseVersion(v.String())
			if perr != nil || back != v {
				t.Fatalf("version %v does not round-trip: %v", v, perr)
			}
			if i > 0 && v.LessThan(list[i-1]) {
				t.Fatalf("not sorted: %v", list)
			}
		}
	})
}

// FuzzDecodeMirrorVersion: any bytes give archives or an error; turning
// them into package metadata never panics.
func FuzzDecodeMirrorVersion(f *testing.F) {
	addSeeds(f, "version*.json")
	m := &NetworkMirror{base: mustURL("https://mirror.example.com/p/")}
	final := mustURL("https://mirror.example.com/p/registry.opentofu.org/hashicorp/widget/1.0.0.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		archives, err := DecodeMirrorVersion(bytes.NewReader(src))
		if err != nil {
			return
		}
		for _, trust := range []bool{false, true} {
			m.trust = trust
			meta, err := m.packageFromArchives(t.Context(), widget, versions.Version{Major: 1}, linux, archives, final)
			if err == nil && meta.Location == nil {
				t.Fatalf("package without location")
			}
		}
	})
}
