package config

import (
	"encoding/json"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
)

// The examples and merging rules of OpenTofu's "Override Files" page
// (language/files/override), each as a table case with inline files, in
// native syntax and, where the page's rule is syntax-independent, JSON.

type want struct {
	path   string
	src    string // with file: expected source text of an expression
	file   string
	value  any // expected plain value
	absent *bool
}

func absent(path string) want  { t := true; return want{path: path, absent: &t} }
func present(path string) want { f := false; return want{path: path, absent: &f} }
func src(path, text, file string) want {
	return want{path: path, src: text, file: file}
}
func val(path string, v any) want { return want{path: path, value: v} }

func loadMap(t *testing.T, files map[string]string) (*Module, hcl.Diagnostics) {
	t.Helper()
	return loadMapOpts(t, files)
}

func loadMapOpts(t *testing.T, files map[string]string, opts ...Option) (*Module, hcl.Diagnostics) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	return LoadDir(".", append([]Option{WithFileSystem(FS(fsys))}, opts...)...)
}

func checkWants(t *testing.T, m *Module, wants []want) {
	t.Helper()
	for name, f := range m.Document().Files {
		sourceFiles[name] = f.Bytes
	}
	for _, w := range wants {
		got, err := evalAssertionPath(m, w.path)
		if err != nil {
			t.Errorf("%s: %v", w.path, err)
			continue
		}
		switch {
		case w.absent != nil:
			if got.exists == *w.absent {
				t.Errorf("%s: exists = %v, want %v", w.path, got.exists, !*w.absent)
			}
		case w.file != "":
			if got.expr == nil {
				t.Errorf("%s: no expression, want %s", w.path, w.src)
				continue
			}
			if s, f := exprSource(got.expr), got.expr.Range().Filename; s != w.src || f != w.file {
				t.Errorf("%s: got %s from %s, want %s from %s", w.path, s, f, w.src, w.file)
			}
		default:
			gotJSON, _ := json.Marshal(got.value)
			wantJSON, _ := json.Marshal(w.value)
			var g, wv any
			_ = json.Unmarshal(gotJSON, &g)
			_ = json.Unmarshal(wantJSON, &wv)
			if !got.hasValue || !reflect.DeepEqual(g, wv) {
				t.Errorf("%s: got %s, want %s", w.path, gotJSON, wantJSON)
			}
		}
	}
}

func TestOverrideFilesDocumentation(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		errors []string
		wants  []want
	}{
		{
			name: "aws_instance web example",
			files: map[string]string{
				"example.tf": `resource "aws_instance" "web" {
  instance_type = "t2.micro"
  ami           = "ami-408c7f28"
}
`,
				"override.tf": `resource "aws_instance" "web" {
  ami = "foo"
}
`,
			},
			wants: []want{
				src("resource.aws_instance.web.attr.ami", `"foo"`, "override.tf"),
				src("resource.aws_instance.web.attr.instance_type", `"t2.micro"`, "example.tf"),
				val("resource.aws_instance.web.decl_file", "example.tf"),
			},
		},
		{
			name: "aws_instance web example, JSON override",
			files: map[string]string{
				"example.tf": `resource "aws_instance" "web" {
  instance_type = "t2.micro"
  ami           = "ami-408c7f28"
}
`,
				"override.tf.json": `{"resource": {"aws_instance": {"web": {"ami": "foo"}}}}`,
			},
			wants: []want{
				src("resource.aws_instance.web.attr.ami", `"foo"`, "override.tf.json"),
				src("resource.aws_instance.web.attr.instance_type", `"t2.micro"`, "example.tf"),
			},
		},
		{
			name: "aws_instance web example, native override into JSON",
			files: map[string]string{
				"example.tf.json": `{"resource": {"aws_instance": {"web": {"instance_type": "t2.micro", "ami": "ami-408c7f28"}}}}`,
				"override.tf":     "resource \"aws_instance\" \"web\" {\n  ami = \"foo\"\n}\n",
			},
			wants: []want{
				src("resource.aws_instance.web.attr.ami", `"foo"`, "override.tf"),
				src("resource.aws_instance.web.attr.instance_type", `"t2.micro"`, "example.tf.json"),
			},
		},
		{
			name: "attribute values are replaced, not merged",
			files: map[string]string{
				"main.tf":          "resource \"x\" \"r\" {\n  tags = { a = 1, b = 2 }\n}\n",
				"main_override.tf": "resource \"x\" \"r\" {\n  tags = { c = 3 }\n}\n",
			},
			wants: []want{src("resource.x.r.attr.tags", `{ c = 3 }`, "main_override.tf")},
		},
		{
			name: "nested blocks replace all blocks of their type",
			files: map[string]string{
				"main.tf": `resource "x" "r" {
  ebs { n = 1 }
  ebs { n = 2 }
  tag { k = "base" }
}
`,
				"main_override.tf": `resource "x" "r" {
  ebs { n = 3 }
}
`,
			},
			wants: []want{
				val("resource.x.r.blocks", []string{"tag", "ebs"}),
				src("resource.x.r.block.ebs.0.attr.n", "3", "main_override.tf"),
				absent("resource.x.r.block.ebs.1"),
				src("resource.x.r.block.tag.0.attr.k", `"base"`, "main.tf"),
			},
		},
		{
			name: "dynamic blocks count as their type",
			files: map[string]string{
				"main.tf": `resource "x" "r" {
  dynamic "ebs" {
    for_each = [1]
    content { n = ebs.value }
  }
}
`,
				"main_override.tf": "resource \"x\" \"r\" {\n  ebs { n = 9 }\n}\n",
			},
			wants: []want{
				val("resource.x.r.blocks", []string{"ebs"}),
				absent("resource.x.r.block.dynamic.0"),
			},
		},
		{
			name: "several overrides apply in file name order then position",
			files: map[string]string{
				"main.tf":          "variable \"v\" { default = \"base\" }\n",
				"b_override.tf":    "variable \"v\" { default = \"b\" }\n",
				"a_override.tf":    "variable \"v\" { default = \"a1\" }\nvariable \"v\" { default = \"a2\" }\n",
				"override.tf":      "variable \"v\" { description = \"last\" }\n",
				"_override.tf":     "variable \"v\" { default = \"first\" }\n",
				"z.tf":             "locals { z = 1 }\n",
				"override.tf.json": `{"variable": {"v": {"sensitive": true}}}`,
			},
			wants: []want{
				val("variable.v.default", "b"),
				val("variable.v.description", "last"),
				val("variable.v.sensitive", true),
				val("variable.v.decl_file", "main.tf"),
			},
		},
		{
			name: "lifecycle merged argument by argument",
			files: map[string]string{
				"main.tf": `resource "x" "r" {
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags]
  }
}
`,
				"main_override.tf": `resource "x" "r" {
  lifecycle {
    prevent_destroy       = true
    create_before_destroy = false
  }
}
`,
			},
			wants: []want{
				val("resource.x.r.lifecycle.create_before_destroy", false),
				val("resource.x.r.lifecycle.ignore_changes", []string{"tags"}),
				src("resource.x.r.lifecycle.prevent_destroy", "true", "main_override.tf"),
			},
		},
		{
			name: "connection block replaced wholesale",
			files: map[string]string{
				"main.tf":          "resource \"x\" \"r\" {\n  connection {\n    host = \"a\"\n    user = \"u\"\n  }\n}\n",
				"main_override.tf": "resource \"x\" \"r\" {\n  connection {\n    host = \"b\"\n  }\n}\n",
			},
			wants: []want{
				src("resource.x.r.connection.attr.host", `"b"`, "main_override.tf"),
				absent("resource.x.r.connection.attr.user"),
			},
		},
		{
			name: "provisioners replaced as a list",
			files: map[string]string{
				"main.tf": `resource "x" "r" {
  provisioner "local-exec" { command = "1" }
  provisioner "remote-exec" { inline = ["2"] }
}
`,
				"main_override.tf": "resource \"x\" \"r\" {\n  provisioner \"file\" { source = \"3\" }\n}\n",
			},
			wants: []want{val("resource.x.r.provisioners", []string{"file"})},
		},
		{
			name: "depends_on may not be overridden",
			files: map[string]string{
				"main.tf":          "resource \"x\" \"a\" {}\nresource \"x\" \"r\" {}\n",
				"main_override.tf": "resource \"x\" \"r\" {\n  depends_on = [x.a]\n}\n",
			},
			errors: []string{"Unsupported override"},
			wants:  []want{val("resource.x.r.depends_on", []string{})},
		},
		{
			name: "variable default re-checked against the base type",
			files: map[string]string{
				"main.tf":          "variable \"v\" {\n  type    = number\n  default = 1\n}\n",
				"main_override.tf": "variable \"v\" {\n  default = \"2\"\n}\n",
			},
			wants: []want{val("variable.v.default", 2), val("variable.v.type", "number")},
		},
		{
			name: "variable type override invalidates default",
			files: map[string]string{
				"main.tf":          "variable \"v\" {\n  type    = list(string)\n  default = [\"a\"]\n}\n",
				"main_override.tf": "variable \"v\" {\n  type = string\n}\n",
			},
			errors: []string{"Invalid default value for variable"},
			wants:  []want{val("variable.v.type", "string"), val("variable.v.default", []string{"a"})},
		},
		{
			name: "locals replaced individually whichever block holds them",
			files: map[string]string{
				"main.tf":          "locals {\n  a = 1\n}\nlocals {\n  b = 2\n}\n",
				"main_override.tf": "locals {\n  b = 3\n  a = 4\n}\n",
			},
			wants: []want{
				src("local.a", "4", "main_override.tf"),
				src("local.b", "3", "main_override.tf"),
				val("local.a.decl_file", "main_override.tf"),
			},
		},
		{
			name: "output value replaced, depends_on refused",
			files: map[string]string{
				"main.tf":          "output \"o\" {\n  value       = 1\n  description = \"d\"\n}\n",
				"main_override.tf": "output \"o\" {\n  value = 2\n}\n",
			},
			wants: []want{src("output.o.value", "2", "main_override.tf"), val("output.o.description", "d")},
		},
		{
			name: "required_providers entries replaced whole",
			files: map[string]string{
				"main.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 4.0" }
    random = { source = "hashicorp/random" }
  }
}
`,
				"main_override.tf": "terraform {\n  required_providers {\n    aws = { version = \"< 6.0\" }\n  }\n}\n",
			},
			wants: []want{
				val("terraform.required_providers.aws.version", "< 6.0"),
				val("terraform.required_providers.aws.source", ""),
				val("terraform.required_providers.random.fqn", "registry.opentofu.org/hashicorp/random"),
				val("terraform.required_providers.aws.decl_file", "main_override.tf"),
			},
		},
		{
			name: "backend replaced wholesale, type may change",
			files: map[string]string{
				"main.tf":          "terraform {\n  backend \"local\" {\n    path = \"a\"\n  }\n}\n",
				"main_override.tf": "terraform {\n  backend \"s3\" {\n    bucket = \"b\"\n  }\n}\n",
			},
			wants: []want{
				val("terraform.backend.type", "s3"),
				absent("terraform.backend.attr.path"),
				src("terraform.backend.attr.bucket", `"b"`, "main_override.tf"),
			},
		},
		{
			name: "cloud override clears backend",
			files: map[string]string{
				"main.tf":          "terraform {\n  backend \"local\" {}\n}\n",
				"main_override.tf": "terraform {\n  cloud {\n    organization = \"o\"\n  }\n}\n",
			},
			wants: []want{absent("terraform.backend"), present("terraform.cloud")},
		},
		{
			name: "JSON override of a lifecycle",
			files: map[string]string{
				"main.tf":               "resource \"x\" \"r\" {\n  lifecycle {\n    ignore_changes = [a]\n  }\n}\n",
				"main_override.tf.json": `{"resource": {"x": {"r": {"lifecycle": {"create_before_destroy": true}}}}}`,
			},
			wants: []want{
				val("resource.x.r.lifecycle.create_before_destroy", true),
				val("resource.x.r.lifecycle.ignore_changes", []string{"a"}),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := loadMap(t, tt.files)
			var got []string
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					got = append(got, d.Summary)
				}
			}
			if !reflect.DeepEqual(got, tt.errors) {
				t.Errorf("errors: got %q, want %q", got, tt.errors)
			}
			checkWants(t, m, tt.wants)
		})
	}
}
