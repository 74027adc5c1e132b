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
// conformance lock files) and below. Both flavours read each input.
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
	f.Add([]byte(`provider "opentofu.org/builtin/x" {
  version     = "1.0.0"
  constraints = ">= v1, 1.0.0-rev"
}
provider "registry.terraform.io/hashicorp/opentofu-x" {
  version = " v1"
}
`))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) <= maxGeneralSyntaxSize {
			// The plain reader and the HCL parser agree on plain files.
			samePlainAndParsed(t, src)
		}
		for _, fl := range []Flavour{OpenTofu, Terraform} {
			roundTrip(t, src, fl)
		}
	})
}

// roundTrip checks that src, when flavour f reads it without errors,
// writes back canonically (see FuzzRead).
func roundTrip(t *testing.T, src []byte, f Flavour) {
	opts := ReadOptions{Flavour: f}
	locks, _, diags := Read(src, "fuzz.hcl", opts)
	if diags.HasErrors() {
		return
	}
	out := locks.Bytes(f)
	again, _, diags := Read(out, "written.hcl", opts)
	if len(diags) != 0 {
		t.Fatalf("%s: written file has diagnostics: %v\n%s", f, diags, out)
	}
	if !again.Equal(locks) {
		t.Fatalf("%s: re-read locks differ\n%s", f, out)
	}
	for _, p := range locks.Providers() {
		if got, want := again.Provider(p.addr).constraints.String(), p.constraints.String(); got != want {
			t.Fatalf("%s: constraints of %s: got %q, want %q", f, p.addr, got, want)
		}
	}
	if out2 := again.Bytes(f); !bytes.Equal(out, out2) {
		t.Fatalf("%s: writing is not idempotent:\n%s", f, cmp.Diff(string(out), string(out2)))
	}
}
