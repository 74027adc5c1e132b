package backend

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

// FuzzParseState checks that any content either fails to parse or
// parses to a state whose encoding parses back to the same backend.
func FuzzParseState(f *testing.F) {
	f.Add([]byte("{\n    \"version\": 3,\n    \"backend\": {\n        \"type\": \"local\",\n        \"config\": {\"path\": null},\n        \"hash\": 1\n    }\n}\n"))
	f.Add([]byte(`{"version": 3, "terraform_version": "1.15.9"}`))
	f.Add([]byte(`{"version": 4}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		st, err := ParseState(src)
		if err != nil || st == nil {
			return
		}
		for _, fl := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
			out, err := st.Encode(fl)
			if err != nil {
				continue // a config that is not valid JSON cannot be written
			}
			back, err := ParseState(out)
			if err != nil {
				t.Fatalf("%s: written state does not parse: %v\n%s", fl, err, out)
			}
			if (back.Backend == nil) != (st.Backend == nil) || (back.Backend != nil && (back.Backend.Type != st.Backend.Type || back.Backend.Hash != st.Backend.Hash)) {
				t.Fatalf("%s: backend changed through a write:\n%s", fl, out)
			}
		}
	})
}
