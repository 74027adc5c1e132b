package lockfile

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// tfBlock is a provider block of a lock file with the given label and
// body lines.
func tfBlock(label string, lines ...string) string {
	s := "provider \"" + label + "\" {\n"
	for _, l := range lines {
		s += "  " + l + "\n"
	}
	return s + "}\n"
}

const tfNull = "registry.terraform.io/hashicorp/null"

// terraformCases are lock files read in the Terraform flavour, each with
// the diagnostics terraform v1.15.9 reports for it, as "terraform init
// -json" prints them (in the order its reader gives them; the human view
// sorts them as the CLI does), written as diagString writes them.
// TestReadTerraformReference checks tfdeps' against the binary's.
var terraformCases = []struct {
	name string
	src  string
	want []string
}{
	{"valid", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "~> 3.1"`, `hashes = ["h1:abc="]`), nil},
	{"empty address", tfBlock("", `version = "1.0.0"`), []string{
		`1:10-1:12 error: Invalid provider source address: The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`,
	}},
	{"short address", tfBlock("hashicorp/null", `version = "1.0.0"`), []string{
		`1:10-1:26 error: Non-normalized provider source address: The provider source address for this provider lock must be written as "registry.terraform.io/hashicorp/null", the fully-qualified and normalized form.`,
	}},
	{"legacy provider on OpenTofu's registry", tfBlock("registry.opentofu.org/-/null", `version = "1.0.0"`), []string{
		`1:10-1:40 error: Invalid provider source address: The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`,
	}},
	{"legacy provider on Terraform's registry", tfBlock("registry.terraform.io/-/null", `version = "1.0.0"`), []string{
		`1:10-1:40 error: Invalid provider source address: Provider source address registry.terraform.io/-/null is a special provider that is not eligible for dependency locking.`,
	}},
	{"legacy provider without host", tfBlock("-/null", `version = "1.0.0"`), []string{
		`1:10-1:18 error: Invalid provider source address: Provider source address registry.terraform.io/-/null is a special provider that is not eligible for dependency locking.`,
	}},
	{"built-in provider", tfBlock("terraform.io/builtin/terraform", `version = "1.0.0"`), []string{
		`1:10-1:42 error: Invalid provider source address: Cannot lock a version for built-in provider terraform.io/builtin/terraform. Built-in providers are bundled inside Terraform itself, so you can't select a version for them independently of the Terraform release you are currently running.`,
	}},
	{"OpenTofu's built-in host is not built in", tfBlock("opentofu.org/builtin/foo", `version = "1.0.0"`), nil},
	{"opentofu- type prefix", tfBlock("registry.terraform.io/hashicorp/opentofu-foo", `version = "1.0.0"`), nil},
	{"non-normalized opentofu- type", tfBlock("registry.terraform.io/hashicorp/OpenTofu-Foo", `version = "1.0.0"`), []string{
		`1:10-1:56 error: Non-normalized provider source address: The provider source address for this provider lock must be written as "registry.terraform.io/hashicorp/opentofu-foo", the fully-qualified and normalized form.`,
	}},
	{"terraform- type prefix", tfBlock("registry.terraform.io/hashicorp/terraform-foo", `version = "1.0.0"`), []string{
		`1:10-1:57 error: Invalid provider source address: The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`,
	}},
	{"duplicate provider", tfBlock(tfNull, `version = "3.2.2"`) + tfBlock(tfNull, `version = "3.2.1"`), []string{
		`4:1-4:9 error: Duplicate provider lock: This lockfile already declared a lock for provider registry.terraform.io/hashicorp/null at .terraform.lock.hcl:1,1-48.`,
	}},
	{"module block", "module \"a\" {\n}\nmodule \"b\" {\n}\n", []string{
		`1:1-1:7 warning: Dependency locks for modules are not yet supported: Terraform v1.15.9 only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of Terraform that also supports dependency locks for modules.`,
	}},
	{"v prefix in version", tfBlock(tfNull, `version = "v1.0.0"`), []string{
		`2:13-2:21 error: Invalid provider version number: The selected version number for provider registry.terraform.io/hashicorp/null is invalid: a "v" prefix should not be used.`,
		`2:13-2:21 error: Invalid provider version number: The selected version number for provider registry.terraform.io/hashicorp/null must be written in normalized form: "0.0.0".`,
	}},
	{"space and v in version", tfBlock(tfNull, `version = " v1.0.0"`), []string{
		`2:13-2:22 error: Invalid provider version number: The selected version number for provider registry.terraform.io/hashicorp/null is invalid: extraneous spaces at start of specification.`,
		`2:13-2:22 error: Invalid provider version number: The selected version number for provider registry.terraform.io/hashicorp/null must be written in normalized form: "0.0.0".`,
	}},
	{"short version", tfBlock(tfNull, `version = "1.0"`), []string{
		`2:13-2:18 error: Invalid provider version number: The selected version number for provider registry.terraform.io/hashicorp/null must be written in normalized form: "1.0.0".`,
	}},
	{"null version", tfBlock(tfNull, `version = null`), []string{
		`2:13-2:17 error: Missing required argument: A provider lock block must contain a "version" argument.`,
	}},
	{"variable in version", tfBlock(tfNull, `version = var.v`), []string{
		`2:13-2:16 error: Variables not allowed: Variables may not be used here.`,
		`2:13-2:18 error: Unsuitable value type: Unsuitable value: value must be known`,
	}},
	{"function call in version", tfBlock(tfNull, `version = upper("1.0.0")`), []string{
		`2:13-2:27 error: Function calls not allowed: Functions may not be called here.`,
		`2:13-2:19 error: Unsuitable value type: Unsuitable value: value must be known`,
	}},
	{"v prefix in constraints", tfBlock(tfNull, `version = "3.2.2"`, `constraints = ">= v1.0.0"`), []string{
		`3:17-3:28 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: a "v" prefix should not be used.`,
		`3:17-3:28 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"v right after the operator", tfBlock(tfNull, `version = "3.2.2"`, `constraints = ">=v1"`), []string{
		`3:17-3:23 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: invalid specification ">=": only one space is expected after the operator ">=".`,
		`3:17-3:23 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"two spaces then v", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "~>  v1"`), []string{
		`3:17-3:25 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: invalid specification "~>  ": only one space is expected after the operator "~>".`,
		`3:17-3:25 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"v after an unknown operator", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "=> v1"`), []string{
		`3:17-3:24 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: invalid specification "=> ": invalid constraint operator "=>"; did you mean ">="?.`,
		`3:17-3:24 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"v after a constraint", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "1.0.0 v2"`), []string{
		`3:17-3:27 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: a "v" prefix should not be used.`,
		`3:17-3:27 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"error before the v", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "=< 1, v2"`), []string{
		`3:17-3:27 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null are invalid: invalid specification "=< 1": invalid constraint operator "=<"; did you mean "<="?.`,
		`3:17-3:27 error: Invalid provider version constraints: The recorded version constraints for provider registry.terraform.io/hashicorp/null must be written in normalized form: "".`,
	}},
	{"v in a prerelease", tfBlock(tfNull, `version = "3.2.2"`, `constraints = "1.0.0-rev"`), nil},
	{"null constraints", tfBlock(tfNull, `version = "3.2.2"`, `constraints = null`), []string{
		`3:17-3:21 error: Unsuitable value type: Unsuitable value: null value is not allowed`,
	}},
	{"invalid hashes", tfBlock(tfNull, `version = "3.2.2"`, `hashes = ["nocolon", null, 5, upper("h1:x")]`), []string{
		`3:12-3:47 error: Invalid provider hash string: Cannot interpret "nocolon" as a provider hash: hash string must start with a scheme keyword followed by a colon.`,
		`3:24-3:28 error: Unsuitable value type: Unsuitable value: null value is not allowed`,
		`3:12-3:47 error: Invalid provider hash string: Cannot interpret "5" as a provider hash: hash string must start with a scheme keyword followed by a colon.`,
		`3:33-3:46 error: Function calls not allowed: Functions may not be called here.`,
		`3:33-3:39 error: Unsuitable value type: Unsuitable value: value must be known`,
	}},
	{"empty hashes", tfBlock(tfNull, `version = "3.2.2"`, `hashes = []`), []string{
		`3:12-3:14 error: Invalid provider hash set: The "hashes" argument must either be omitted or contain at least one hash value.`,
	}},
	{"closing brace in a list", tfBlock(tfNull, `version = "3.2.2"`, `hashes = [`, `  "h1:abc=",`), []string{
		`5:1-5:2 error: Invalid expression: Expected the start of an expression, but found an invalid expression token.`,
		`5:1-5:2 error: Unsuitable value type: Unsuitable value: value must be known`,
	}},
	{"unclosed list", "provider \"" + tfNull + "\" {\n  version = \"3.2.2\"\n  hashes = [\n    \"h1:abc=\",\n\n" +
		tfBlock("registry.terraform.io/hashicorp/aws", `version = "5.0.0"`), []string{
		`6:10-6:11 error: Missing item separator: Expected a comma to mark the beginning of the next item.`,
		`6:1-6:9 error: Variables not allowed: Variables may not be used here.`,
		`6:1-6:9 error: Unsuitable value type: Unsuitable value: value must be known`,
	}},
}

// diagString writes a diagnostic as "L:C-L:C severity: summary: detail".
func diagString(severity, summary, detail string, rng *hcl.Range) string {
	s := ""
	if rng != nil {
		s = fmt.Sprintf("%d:%d-%d:%d ", rng.Start.Line, rng.Start.Column, rng.End.Line, rng.End.Column)
	}
	return s + severity + ": " + summary + ": " + detail
}

// diagStrings writes diags with diagString, in their order. With
// widenEmpty, an empty subject range is shown one column wide, as
// terraform's JSON view shows it.
func diagStrings(diags hcl.Diagnostics, widenEmpty bool) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		rng := d.Subject
		if widenEmpty && rng != nil && rng.Empty() {
			wide := *rng
			wide.End.Column++
			wide.End.Byte++
			rng = &wide
		}
		out = append(out, diagString(sev, d.Summary, d.Detail, rng))
	}
	return out
}

// TestReadTerraform: Terraform's texts for each kind of invalid lock file,
// from both readers where the file is in the plain syntax.
func TestReadTerraform(t *testing.T) {
	for _, tt := range terraformCases {
		t.Run(tt.name, func(t *testing.T) {
			_, _, diags := Read([]byte(tt.src), ".terraform.lock.hcl", ReadOptions{Flavour: Terraform})
			if diff := cmp.Diff(tt.want, diagStrings(diags, false)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			samePlainAndParsed(t, []byte(tt.src))
		})
	}
}

// TestReadTerraformReference compares the diagnostics of the Terraform
// flavour with those of "terraform init -json" (TFDEPS_REFERENCE_TERRAFORM)
// for terraformCases and the conformance lock files.
func TestReadTerraformReference(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set: not compared with Terraform")
	}
	for _, tt := range terraformCases {
		t.Run(tt.name, func(t *testing.T) {
			_, _, diags := Read([]byte(tt.src), ".terraform.lock.hcl", ReadOptions{Flavour: Terraform})
			if diff := cmp.Diff(diagStrings(diags, true), terraformDiagnostics(t, terraform, tt.src)); diff != "" {
				t.Errorf("(-tfdeps +terraform):\n%s", diff)
			}
		})
	}
	t.Run("conformance", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(conformance.Dir(t, "lockfiles", "read"), "*.hcl"))
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, _, diags := Read(src, ".terraform.lock.hcl", ReadOptions{Flavour: Terraform})
			if diff := cmp.Diff(terraformDiagnostics(t, terraform, string(src)), diagStrings(diags, true)); diff != "" {
				t.Errorf("%s (-terraform +tfdeps):\n%s", filepath.Base(path), diff)
			}
		}
	})
}

// terraformDiagnostics runs "terraform init -json" in a directory holding
// the lock file src and a configuration without providers (nothing to
// install), and returns the diagnostics it prints.
func terraformDiagnostics(t *testing.T, terraform, src string) []string {
	t.Helper()
	dir, home := t.TempDir(), t.TempDir()
	for name, content := range map[string]string{"main.tf": "terraform {\n}\n", ".terraform.lock.hcl": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cliConfig := filepath.Join(home, "none.tfrc")
	if err := os.WriteFile(cliConfig, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(terraform, "init", "-json", "-backend=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	out, _ := cmd.Output()
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic *struct {
				Severity string     `json:"severity"`
				Summary  string     `json:"summary"`
				Detail   string     `json:"detail"`
				Range    *hcl.Range `json:"range"`
			} `json:"diagnostic"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Type != "diagnostic" {
			continue
		}
		d := msg.Diagnostic
		got = append(got, diagString(d.Severity, d.Summary, d.Detail, d.Range))
	}
	return got
}
