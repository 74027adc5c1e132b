package lockfile

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzRead checks that reading never panics, that the plain reader and the
// HCL parser agree on files in the plain syntax, and that whatever is accepted
// without errors writes back canonically: the written file reads again
// without diagnostics into equal selections (constraints included) and
// writes the same bytes again. Seeds are in testdata/fuzz/FuzzRead (the
// conformance lock files) and below.
func FuzzRead(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(`provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.31.0"
  constraints = ">= 5.0.0, ~> 5.0"
  hashes = [
    "h1:I12X7hOKs/g4HD+XXPT3ZQrqIQKDeGAMMIrQWrjrdUI=",
    "test:$${x}",
  ]
}
module "m" {}
`))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) <= maxGeneralSyntaxSize {
			// The plain reader and the HCL parser agree on plain files.
			samePlainAndParsed(t, src)
		}
		locks, _, diags := Read(src, "fuzz.hcl", ReadOptions{})
		if diags.HasErrors() {
			return
		}
		out := locks.Bytes(OpenTofu)
		again, _, diags := Read(out, "written.hcl", ReadOptions{})
		if len(diags) != 0 {
			t.Fatalf("written file has diagnostics: %v\n%s", diags, out)
		}
		if !again.Equal(locks) {
			t.Fatalf("re-read locks differ\n%s", out)
		}
		for _, p := range locks.Providers() {
			if got, want := again.Provider(p.addr).constraints.String(), p.constraints.String(); got != want {
				t.Fatalf("constraints of %s: got %q, want %q", p.addr, got, want)
			}
		}
		if out2 := again.Bytes(OpenTofu); !bytes.Equal(out, out2) {
			t.Fatalf("writing is not idempotent:\n%s", cmp.Diff(string(out), string(out2)))
		}
	})
}
