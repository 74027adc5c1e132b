package config

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckJSON: an argument named like a nested block type of a partially
// decoded body (and a block named like one of its arguments) loads from
// native syntax but has no JSON form; CheckJSON names each one at its
// location, and every configuration it accepts renders to JSON that loads.
func TestCheckJSON(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "line:column summary"
	}{
		{
			name: "lifecycle argument in a resource (FuzzRenderRoundTrip)",
			src:  "resource \"a\" \"b\" {\n  lifecycle = 0\n}\n",
			want: []string{"2:3 Argument cannot be written in JSON syntax"},
		},
		{
			name: "locals and connection arguments in a resource",
			src:  "resource \"a\" \"b\" {\n  locals = 1\n  connection = {}\n}\n",
			want: []string{"2:3 Argument cannot be written in JSON syntax", "3:3 Argument cannot be written in JSON syntax"},
		},
		{
			name: "lifecycle argument in a data block inside a check",
			src:  "check \"c\" {\n  data \"a\" \"b\" {\n    lifecycle = 0\n  }\n  assert {\n    condition = data.a.b.ok\n    error_message = \"x.\"\n  }\n}\n",
			want: []string{"3:5 Argument cannot be written in JSON syntax"},
		},
		{
			name: "provider argument in a module call",
			src:  "module \"m\" {\n  source = \"./m\"\n  provider = 1\n}\n",
			want: []string{"3:3 Argument cannot be written in JSON syntax"},
		},
		{
			name: "lifecycle argument in a provider block",
			src:  "provider \"p\" {\n  lifecycle = 0\n}\n",
			want: []string{"2:3 Argument cannot be written in JSON syntax"},
		},
		{
			name: "connection argument in a provisioner",
			src:  "resource \"a\" \"b\" {\n  provisioner \"local-exec\" {\n    connection = 1\n  }\n}\n",
			want: []string{"3:5 Argument cannot be written in JSON syntax"},
		},
		{
			name: "count block in a resource",
			src:  "resource \"a\" \"b\" {\n  count {\n  }\n}\n",
			want: []string{"2:3 Block cannot be written in JSON syntax"},
		},
		{
			name: "ordinary arguments and blocks",
			src:  "resource \"a\" \"b\" {\n  count = 1\n  tags = { lifecycle = 0 }\n  lifecycle {\n    create_before_destroy = true\n  }\n  setting {\n    lifecycle = 0\n  }\n}\nlocals {\n  lifecycle = 0\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod, diags := loadOneFile("main.tf", []byte(tt.src))
			if diags.HasErrors() {
				t.Fatalf("loading: %s", diags.Error())
			}
			doc := mod.Document()
			var got []string
			for _, d := range doc.CheckJSON() {
				got = append(got, fmt.Sprintf("%d:%d %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckJSON (-want +got):\n%s", diff)
			}
			if len(tt.want) > 0 {
				return
			}
			out := doc.RenderJSON()
			if _, diags := loadOneFile("main.tf.json", out); diags.HasErrors() {
				t.Errorf("rendered JSON does not load: %s\n%s", diags.Error(), out)
			}
		})
	}
}
