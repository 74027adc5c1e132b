package config

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// diagStrings renders diagnostics as "SUMMARY: DETAIL @ RANGE" lines.
func diagStrings(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Summary + ": " + d.Detail
		if d.Subject != nil {
			s += " @ " + d.Subject.String()
		}
		out = append(out, s)
	}
	return out
}

func mapFS(files map[string]string) FileSystem {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return FS(fsys)
}

func TestCollectInputValues(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		environ   []string
		options   []VarOption
		want      string // the value of var.x, parsed literally
		wantDiags []string
	}{
		{name: "environment", environ: []string{"TF_VAR_x=env", "OTHER=1", "TF_VAR_bad"}, want: "env"},
		{name: "tfvars beats environment", environ: []string{"TF_VAR_x=env"}, files: map[string]string{"terraform.tfvars": `x = "file"`}, want: "file"},
		{name: "json after tfvars", files: map[string]string{"terraform.tfvars": `x = "file"`, "terraform.tfvars.json": `{"x": "json"}`}, want: "json"},
		{name: "auto files in name order", files: map[string]string{"terraform.tfvars.json": `{"x": "json"}`, "b.auto.tfvars": `x = "b"`, "a.auto.tfvars.json": `{"x": "a"}`}, want: "b"},
		{name: "options in order", files: map[string]string{"b.auto.tfvars": `x = "b"`, "f.tfvars": `x = "f"`}, options: []VarOption{{File: true, Value: "f.tfvars"}, {Value: "x=flag"}}, want: "flag"},
		{name: "var file last", options: []VarOption{{Value: "x=flag"}, {File: true, Value: "f.tfvars"}}, files: map[string]string{"f.tfvars": `x = "f"`}, want: "f"},
		{name: "value with equals", options: []VarOption{{Value: "x=a=b"}}, want: "a=b"},
		{name: "json detected", options: []VarOption{{File: true, Value: "vals"}}, files: map[string]string{"vals": ` {"x": "j"}`}, want: "j"},
		{
			name:    "malformed options",
			options: []VarOption{{Value: "x"}, {Value: "x =1"}, {File: true, Value: "missing.tfvars"}},
			wantDiags: []string{
				`Invalid -var option: The given -var option "x" is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`,
				`Invalid -var option: Variable name "x " is invalid due to trailing space. Did you mean -var="x=1"?`,
				`Failed to read variables file: Given variables file missing.tfvars does not exist.`,
			},
		},
		{
			name:  "declaration in tfvars",
			files: map[string]string{"terraform.tfvars": "variable \"x\" {}\n"},
			wantDiags: []string{
				"Variable declaration in .tfvars file: A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable \"x\", place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in terraform.tfvars, use the definition syntax instead:\n    x = <value> @ terraform.tfvars:1,1-9",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv, diags := CollectInputValues(VarSources{FS: mapFS(tt.files), Dir: ".", Environ: tt.environ, Options: tt.options})
			if diff := cmp.Diff(tt.wantDiags, diagStrings(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.want == "" {
				return
			}
			raw, ok := iv.Lookup("x")
			if !ok {
				t.Fatalf("no value for x")
			}
			val, d := raw.Parse(VariableParseLiteral)
			if d.HasErrors() || val.AsString() != tt.want {
				t.Errorf("x = %#v (%v), want %q", val, d, tt.want)
			}
		})
	}
}

// TestStaticModuleSources evaluates module sources and versions with
// values from the given -var options; the texts are OpenTofu 1.12.6's
// (checked with "tofu providers" and "tofu init" on the same files).
func TestStaticModuleSources(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		vars        []string
		wantSources map[string]string
		wantVersion map[string]string
		wantDiags   []string
	}{
		{
			name:        "default and flag",
			src:         "variable \"n\" {\n  default = \"a\"\n}\nmodule \"m\" {\n  source = \"./mods/${var.n}\"\n}\n",
			wantSources: map[string]string{"m": "./mods/a"},
		},
		{
			name:        "flag replaces default",
			src:         "variable \"n\" {\n  default = \"a\"\n}\nmodule \"m\" {\n  source = \"./mods/${var.n}\"\n}\n",
			vars:        []string{"n=b"},
			wantSources: map[string]string{"m": "./mods/b"},
		},
		{
			name:        "collection parsed as HCL, optional default",
			src:         "variable \"l\" {\n  type = list(string)\n}\nvariable \"o\" {\n  type = object({ a = optional(string, \"d\") })\n}\nmodule \"m\" {\n  source = \"./${var.l[1]}/${var.o.a}\"\n}\n",
			vars:        []string{`l=["x", "y"]`, "o={}"},
			wantSources: map[string]string{"m": "./y/d"},
		},
		{
			name:        "locals, functions, path and workspace",
			src:         "locals {\n  base = \"mods\"\n  dir  = \"${local.base}/${upper(\"x\")}\"\n}\nmodule \"m\" {\n  source = \"./${local.dir}/${terraform.workspace}/${path.module}\"\n}\n",
			wantSources: map[string]string{"m": "./mods/X/default"},
		},
		{
			name:        "version from a variable, null version",
			src:         "variable \"v\" {\n  default = \"~> 1.0\"\n}\nvariable \"nul\" {\n  default = null\n}\nmodule \"m\" {\n  source  = \"ns/name/sys\"\n  version = var.v\n}\nmodule \"n\" {\n  source  = \"ns/name/sys\"\n  version = var.nul\n}\n",
			wantSources: map[string]string{"m": "registry.opentofu.org/ns/name/sys", "n": "registry.opentofu.org/ns/name/sys"},
			wantVersion: map[string]string{"m": "~> 1.0", "n": ""},
		},
		{
			name:        "required variable without value",
			src:         "variable \"n\" {\n  type = string\n}\nmodule \"m\" {\n  source = \"./${var.n}\"\n}\n",
			wantSources: map[string]string{"m": ""},
			wantDiags: []string{
				"Failed to request input from user for variable var.n:  @ main.tf:1,1-13",
				"Unable to compute static value: module.m.source depends on var.n which is not available @ main.tf:5,12-24",
			},
		},
		{
			name:        "sensitive",
			src:         "variable \"s\" {\n  default   = \"1.0.0\"\n  sensitive = true\n}\nmodule \"m\" {\n  source  = \"ns/name/sys\"\n  version = var.s\n}\nmodule \"n\" {\n  source = \"./${var.s}\"\n}\n",
			wantSources: map[string]string{"m": "registry.opentofu.org/ns/name/sys", "n": ""},
			wantDiags: []string{
				"Invalid version constraint: Sensitive values, or values derived from sensitive values, cannot be used as version arguments. @ main.tf:7,13-18",
				"Sensitive value not allowed: Sensitive values, or values derived from sensitive values, cannot be used as module.n.source. @ main.tf:10,12-24",
			},
		},
		{
			name:        "wrong type",
			src:         "variable \"n\" {\n  type = number\n}\nmodule \"m\" {\n  source = \"./${var.n}\"\n}\n",
			vars:        []string{"n=abc"},
			wantSources: map[string]string{"m": ""},
			wantDiags:   []string{"Invalid value for input variable: The given value is not suitable for var.n declared at main.tf:1,1-13: a number is required."},
		},
		{
			name:        "dynamic references",
			src:         "locals {\n  r = aws_instance.x.id\n}\nmodule \"a\" {\n  source = local.r\n}\nmodule \"b\" {\n  source = \"./${module.a.x}\"\n}\nmodule \"c\" {\n  source = \"./${each.key}\"\n}\nmodule \"d\" {\n  source = \"./${local.nope}\"\n}\n",
			wantSources: map[string]string{"a": "", "b": "", "c": "", "d": ""},
			wantDiags: []string{
				"Dynamic value in static context: Unable to use aws_instance.x in static context, which is required by local.r @ main.tf:2,7-21",
				"Unable to compute static value: module.a.source depends on local.r which is not available @ main.tf:5,12-19",
				"Module output not supported in static context: Unable to use module.a.x in static context, which is required by module.b.source @ main.tf:8,17-27",
				"Dynamic value in static context: Unable to use each.key in static context, which is required by module.c.source @ main.tf:11,17-25",
				"Undefined local: Undefined local local.nope @ main.tf:14,17-27",
			},
		},
		{
			name:        "provider for_each",
			src:         "locals {\n  list = [\"a\"]\n}\nprovider \"aws\" {\n  alias    = \"a\"\n  for_each = local.list\n}\nprovider \"aws\" {\n  alias    = \"b\"\n  for_each = var.nope\n}\nprovider \"aws\" {\n  alias    = \"c\"\n  for_each = null\n}\nprovider \"aws\" {\n  alias    = \"d\"\n  for_each = toset([\"x\"])\n}\n",
			wantSources: map[string]string{},
			wantDiags: []string{
				"Invalid for_each argument: The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type tuple. @ main.tf:6,14-24",
				"Undefined variable: Undefined variable var.nope @ main.tf:10,14-22",
				"Invalid for_each argument: The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. @ main.tf:14,14-18",
			},
		},
		{
			name:        "more functions, malformed reference",
			src:         "module \"m\" {\n  source = \"./${lower(one([\"A\"]))}-${length(\"ab\")}-${md5(\"\")}\"\n}\nmodule \"n\" {\n  source = \"./${var}\"\n}\n",
			wantSources: map[string]string{"m": "./a-2-d41d8cd98f00b204e9800998ecf8427e", "n": ""},
			wantDiags: []string{
				"Invalid reference: The \"var\" object cannot be accessed directly. Instead, access one of its attributes. @ main.tf:5,17-20",
				"Undefined variable: Undefined variable var. @ :0,0-0",
			},
		},
		{
			name:        "null and circular",
			src:         "variable \"nul\" {\n  default = null\n}\nlocals {\n  a = local.b\n  b = local.a\n}\nmodule \"m\" {\n  source = var.nul\n}\nmodule \"n\" {\n  source = local.a\n}\n",
			wantSources: map[string]string{"m": "", "n": ""},
			wantDiags: []string{
				"Unsuitable value type: Unsuitable value: null value is not allowed @ main.tf:9,12-19",
				"Circular reference: local.a is self referential @ main.tf:5,3-14",
				"Unable to compute static value: local.a depends on local.b which is not available @ main.tf:5,3-14",
				"Unable to compute static value: module.n.source depends on local.a which is not available @ main.tf:12,12-19",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []VarOption
			for _, v := range tt.vars {
				opts = append(opts, VarOption{Value: v})
			}
			iv, d := CollectInputValues(VarSources{FS: mapFS(nil), Options: opts})
			if d.HasErrors() {
				t.Fatal(d)
			}
			mod, diags := LoadDir(".", WithFileSystem(mapFS(map[string]string{"main.tf": tt.src})), WithInputValues(iv))
			if diff := cmp.Diff(tt.wantDiags, diagStrings(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			got := map[string]string{}
			versions := map[string]string{}
			for name, mc := range mod.ModuleCalls {
				got[name] = mc.SourceAddr
				if mc.VersionExpr != nil {
					versions[name] = mc.Version
				}
			}
			if diff := cmp.Diff(tt.wantSources, got); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
			if tt.wantVersion != nil {
				if diff := cmp.Diff(tt.wantVersion, versions); diff != "" {
					t.Errorf("versions (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestStaticEvaluationLimits: hostile chains of locals end with an error
// instead of exhausting the stack, and repeated references are not
// evaluated again (each doubling would otherwise double the work).
func TestStaticEvaluationLimits(t *testing.T) {
	var deep, wide strings.Builder
	deep.WriteString("locals {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&deep, "  l%d = local.l%d\n", i, i+1)
	}
	deep.WriteString("  l5000 = \"x\"\n}\nmodule \"m\" {\n  source = \"./${local.l0}\"\n}\n")
	wide.WriteString("locals {\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&wide, "  w%d = \"${local.w%d}${local.w%d}\"\n", i, i+1, i+1)
	}
	wide.WriteString("  w60 = \"\"\n}\nmodule \"m\" {\n  source = \"./x${local.w0}\"\n}\n")
	tests := []struct {
		name, src   string
		wantSource  string
		wantSummary string
	}{
		{name: "deep", src: deep.String(), wantSummary: "Static evaluation too deep"},
		{name: "wide", src: wide.String(), wantSource: "./x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod, diags := LoadDir(".", WithFileSystem(mapFS(map[string]string{"main.tf": tt.src})))
			if got := mod.ModuleCalls["m"].SourceAddr; got != tt.wantSource {
				t.Errorf("source = %q, want %q", got, tt.wantSource)
			}
			var got string
			if len(diags) > 0 {
				got = diags[0].Summary
			}
			if got != tt.wantSummary {
				t.Errorf("first diagnostic %q, want %q (%d in all)", got, tt.wantSummary, len(diags))
			}
		})
	}
}
