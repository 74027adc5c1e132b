package backend

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestSchemaData checks that the embedded data of each flavour parses
// and names the backend types the product builds in, and that every
// schema makes a decoder whose type is the schema's implied type.
func TestSchemaData(t *testing.T) {
	want := map[flavour.Flavour][]string{
		flavour.OpenTofu:  {"azurerm", "cloud", "consul", "cos", "gcs", "http", "inmem", "kubernetes", "local", "oss", "pg", "remote", "s3"},
		flavour.Terraform: {"azurerm", "cloud", "consul", "cos", "gcs", "http", "inmem", "kubernetes", "local", "oci", "oss", "pg", "remote", "s3"},
	}
	for _, f := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		types := Types(f)
		if w, ok := want[f]; ok {
			if diff := cmp.Diff(w, types); diff != "" {
				t.Errorf("%s types (-want +got):\n%s", f, diff)
			}
		}
		for _, typ := range types {
			s, ok := Lookup(f, typ)
			if !ok {
				t.Fatalf("%s: Lookup(%q) failed though Types lists it", f, typ)
			}
			implied := s.ImpliedType()
			if got := hcldec.ImpliedType(s.decoderSpec()).WithoutOptionalAttributesDeep(); !got.Equals(implied) {
				t.Errorf("%s %s: decoder type %#v, implied type %#v", f, typ, got, implied)
			}
		}
	}
	if _, ok := Lookup(flavour.OpenTofu, "etcd"); ok {
		t.Errorf("Lookup found the removed etcd backend")
	}
}
