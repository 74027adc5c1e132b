package backend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// parseBlock parses src, a backend block's body, as the block of type
// typ.
func parseBlock(t *testing.T, typ, src string) *Block {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return &Block{Type: typ, Body: f.Body}
}

func TestConfigure(t *testing.T) {
	files := map[string]string{
		"a.hcl":   "address = \"https://a.example/\"\nretry_max = 7\n",
		"b.json":  `{"address": "https://b.example/", "headers": {"X": "1"}}`,
		"bad.hcl": "nope = 1\n",
	}
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name      string
		body      string
		overrides []string
		want      map[string]cty.Value // attributes checked
		diags     []string             // "Summary: Detail" of each diagnostic
	}{
		{
			name: "block only",
			body: `address = "https://x.example/"` + "\nretry_max = 3\n",
			want: map[string]cty.Value{"address": cty.StringVal("https://x.example/"), "retry_max": cty.NumberIntVal(3), "username": cty.NullVal(cty.String)},
		},
		{
			name:      "pairs are typed by the schema",
			overrides: []string{"retry_max=5", "skip_cert_verification=true", `headers={"A" = "b"}`},
			want: map[string]cty.Value{
				"retry_max": cty.NumberIntVal(5), "skip_cert_verification": cty.True,
				"headers": cty.MapVal(map[string]cty.Value{"A": cty.StringVal("b")}),
			},
		},
		{
			name:      "later values win, in command-line order",
			body:      `address = "https://x.example/"`,
			overrides: []string{"a.hcl", "address=https://pair.example/", "b.json", "retry_max=9"},
			want: map[string]cty.Value{
				"address": cty.StringVal("https://b.example/"), "retry_max": cty.NumberIntVal(9),
				"headers": cty.MapVal(map[string]cty.Value{"X": cty.StringVal("1")}),
			},
		},
		{
			name:      "one empty value clears the overrides",
			body:      `address = "https://x.example/"`,
			overrides: []string{""},
			want:      map[string]cty.Value{"address": cty.StringVal("https://x.example/")},
		},
		{
			name:      "an argument the schema lacks",
			overrides: []string{"nope=1"},
			diags:     []string{`Invalid backend configuration argument: The backend configuration argument "nope" given on the command line is not expected for the selected backend type.`},
		},
		{
			name:      "a value of the wrong type",
			overrides: []string{"retry_max=many"},
			diags:     []string{`Invalid backend configuration value: Invalid backend configuration argument -backend-config="retry_max=many": a number is required`},
		},
		{
			name:      "a file with an argument the schema lacks",
			overrides: []string{"bad.hcl"},
			diags:     []string{`Unsupported argument: An argument named "nope" is not expected here.`},
		},
		{
			name:      "a file that cannot be read",
			overrides: []string{"missing.hcl"},
			diags:     []string{`Failed to read file: The file "missing.hcl" could not be read.`},
		},
		{
			name:  "an argument the block may not have",
			body:  "nope = 1\n",
			diags: []string{`Unsupported argument: An argument named "nope" is not expected here.`},
		},
		{
			name:  "a value of the wrong type in the block",
			body:  "retry_max = \"many\"\n",
			diags: []string{`Incorrect attribute value type: Inappropriate value for attribute "retry_max": a number is required.`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Configure(flavour.OpenTofu, parseBlock(t, "http", tt.body), Options{Overrides: tt.overrides, Dir: dir})
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary+": "+d.Detail)
			}
			if diff := cmp.Diff(tt.diags, got); diff != "" {
				t.Fatalf("diagnostics (-want +got):\n%s", diff)
			}
			if diags.HasErrors() {
				return
			}
			for name, want := range tt.want {
				if got := s.Config.GetAttr(name); !got.RawEquals(want) {
					t.Errorf("%s = %#v, want %#v", name, got, want)
				}
			}
			if !s.Config.Type().Equals(s.Schema.ImpliedType()) {
				t.Errorf("config type %#v, want the schema's", s.Config.Type())
			}
		})
	}
}

// TestHashIgnoresOverrides checks that the hash covers the block as
// written: overrides change the configuration but not the hash, and any
// change to the block changes it.
func TestHashIgnoresOverrides(t *testing.T) {
	configure := func(body string, overrides ...string) *Settings {
		t.Helper()
		s, diags := Configure(flavour.OpenTofu, parseBlock(t, "http", body), Options{Overrides: overrides})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return s
	}
	base := configure(`address = "https://x.example/"`)
	over := configure(`address = "https://x.example/"`, "address=https://y.example/")
	if base.Hash != over.Hash {
		t.Errorf("hash with overrides %d, without %d: want equal", over.Hash, base.Hash)
	}
	if base.Config.RawEquals(over.Config) {
		t.Errorf("overrides did not change the configuration")
	}
	if other := configure(`address = "https://z.example/"`); other.Hash == base.Hash {
		t.Errorf("a different block has the same hash %d", base.Hash)
	}
	if !base.SameConfig(mustSaved(t, base)) || base.SameConfig(mustSaved(t, over)) {
		t.Errorf("SameConfig does not compare the saved configuration")
	}
}

func mustSaved(t *testing.T, s *Settings) *SavedBackend {
	t.Helper()
	saved, err := s.Saved()
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

func TestUnsupportedBackendType(t *testing.T) {
	tests := []struct {
		f      flavour.Flavour
		block  *Block
		detail string
	}{
		{flavour.OpenTofu, &Block{Type: "nope"}, `There is no backend type named "nope".`},
		{flavour.OpenTofu, &Block{Type: "etcd"}, `The "etcd" backend is not supported in OpenTofu v1.3 or later.`},
		{flavour.Terraform, &Block{Type: "swift"}, `The "swift" backend is not supported in Terraform v1.3 or later.`},
		{flavour.OpenTofu, &Block{Type: "cloud"}, `There is no explicit backend type named "cloud". To configure cloud backend, declare a 'cloud' block instead.`},
		{flavour.Terraform, &Block{Type: "cloud"}, `There is no explicit backend type named "cloud". To configure HCP Terraform, declare a 'cloud' block instead.`},
	}
	for _, tt := range tests {
		t.Run(tt.f.String()+"/"+tt.block.Type, func(t *testing.T) {
			tt.block.Body = hcl.EmptyBody()
			_, diags := Configure(tt.f, tt.block, Options{})
			if len(diags) != 1 || diags[0].Summary != "Unsupported backend type" || diags[0].Detail != tt.detail {
				t.Errorf("diagnostics %v, want Unsupported backend type: %s", diags, tt.detail)
			}
		})
	}
}

// TestStateRoundTrip checks that writing what was read gives the same
// bytes, for both flavours' layouts.
func TestStateRoundTrip(t *testing.T) {
	tests := map[flavour.Flavour]string{
		flavour.OpenTofu:  "{\n    \"version\": 3,\n    \"backend\": {\n        \"type\": \"local\",\n        \"config\": {\n            \"path\": null,\n            \"workspace_dir\": null\n        },\n        \"hash\": 1234\n    }\n}\n",
		flavour.Terraform: "{\n  \"version\": 3,\n  \"terraform_version\": \"1.15.9\",\n  \"backend\": {\n    \"type\": \"local\",\n    \"config\": {\n      \"path\": null,\n      \"workspace_dir\": null\n    },\n    \"hash\": 1234\n  }\n}",
	}
	for f, src := range tests {
		t.Run(f.String(), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, StateFileName), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := ReadState(dir)
			if err != nil {
				t.Fatal(err)
			}
			if st.Backend == nil || st.Backend.Type != "local" || st.Backend.Hash != 1234 {
				t.Fatalf("read %+v", st)
			}
			out := t.TempDir()
			if err := WriteState(f, out, st); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(out, StateFileName))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(src, string(got)); diff != "" {
				t.Errorf("(-read +written):\n%s", diff)
			}
		})
	}
}

func TestReadStateAbsentOrBad(t *testing.T) {
	dir := t.TempDir()
	if st, err := ReadState(dir); st != nil || err != nil {
		t.Errorf("absent file: %v, %v; want nil, nil", st, err)
	}
	for name, src := range map[string]string{"bad json": "{", "version 4": `{"version": 4}`} {
		if err := os.WriteFile(filepath.Join(dir, StateFileName), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadState(dir)
		if err == nil || !strings.Contains(err.Error(), StateFileName) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
		var verr *VersionError
		if got, want := errors.As(err, &verr), name == "version 4"; got != want || (got && verr.Version != 4) {
			t.Errorf("%s: error %v: VersionError %v, want %v", name, err, got, want)
		}
	}
}

// TestEvalContext checks that a block whose values come from variables
// saves and hashes the values: OpenTofu writes, for path = var.p with p
// "state/x.tfstate", the same file as for the literal (the golden file of
// the local-path case).
func TestEvalContext(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(casesDir, "local-path", "opentofu.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"p": cty.StringVal("state/x.tfstate")}),
	}}
	s, diags := Configure(flavour.OpenTofu, parseBlock(t, "local", "path = var.p\n"), Options{EvalContext: ctx})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got, err := (&State{Backend: mustSaved(t, s)}).Encode(flavour.OpenTofu)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("(-reference +tfdeps):\n%s", diff)
	}
}
