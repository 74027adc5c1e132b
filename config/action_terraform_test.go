package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestTerraformV115Language checks the parts of Terraform v1.15's
// language that OpenTofu lacks or reads differently (action blocks and
// triggers, actions in depends_on, output type constraints, const
// variables that are sensitive or ephemeral), with the texts and ranges of
// Terraform v1.15.9's configuration loader. In the OpenTofu flavour the
// same files are errors of their own (checked elsewhere).
func TestTerraformV115Language(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []expectedDiag
	}{
		{
			name: "actions and triggers",
			files: map[string]string{"main.tf": `action "provider_reboot" "powercycle" {
  config {
    method = "x"
  }
}
resource "aws_security_group" "firewall" {
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.provider_reboot.powercycle]
    }
  }
}
`},
		},
		{
			name: "actions in JSON",
			files: map[string]string{"main.tf.json": `{
  "action": {"test_action": {"a": {}}},
  "resource": {"test_object": {"b": {
    "lifecycle": {"action_trigger": {"events": ["before_create"], "actions": ["action.test_action.a"]}}
  }}}
}
`},
		},
		{
			name: "action in depends_on",
			files: map[string]string{"main.tf": `action "aws_action" "example" {
}
resource "aws_instance" "web" {
  depends_on = [action.aws_action.example]
}
output "o" {
  value      = 1
  depends_on = [action.aws_action.example]
}
`},
			want: []expectedDiag{
				{"error", "Invalid depends_on Action Reference", "The depends_on attribute cannot reference action blocks directly. You must reference a resource or data source instead.", "main.tf:4,17-4,42"},
				{"error", "Invalid depends_on Action Reference", "The depends_on attribute cannot reference action blocks directly. You must reference a resource or data source instead.", "main.tf:8,17-8,42"},
			},
		},
		{
			name: "invalid actions and triggers",
			files: map[string]string{"main.tf": `action "a" "x" {
  count    = 1
  for_each = {}
}
action "a" "x" {}
action "b" "y" {
  config {}
  config {}
}
resource "r" "z" {
  lifecycle {
    action_trigger {
      events  = [after_create, after_create, on_whim]
      actions = [action.a.x, r.q, module.m.a]
    }
    action_trigger {
      events  = []
      actions = []
    }
  }
}
resource "r" "w" {
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [var.v, module.m.a]
    }
  }
}
resource "r" "v" {
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = ["${action.a.x}${action.a.y}"]
    }
  }
}
`},
			// Terraform stops checking a trigger's actions at the first
			// element with an error.
			want: []expectedDiag{
				{"error", `Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used.`, "main.tf:3,3-3,11"},
				{"error", "Duplicate config block", `An action must contain only one nested "config" block.`, "main.tf:8,3-8,9"},
				{"error", `Duplicate "after_create" event`, "The event is already defined in this action_trigger block.", "main.tf:13,32-13,44"},
				{"error", `Invalid "event" value on_whim`, `The "event" argument supports the following values: before_create, after_create, before_update, after_update.`, "main.tf:13,46-13,53"},
				{"error", "Invalid action argument inside action_triggers", "action_triggers.actions must only refer to actions in the current module.", "main.tf:14,30-14,33"},
				{"error", "No actions specified", "At least one action must be specified for an action_trigger.", "main.tf:14,30-14,33"},
				{"error", "No actions specified", "At least one action must be specified for an action_trigger.", "main.tf:16,5-16,19"},
				{"error", "No events specified", "At least one event must be specified for an action_trigger.", "main.tf:16,5-16,19"},
				{"error", "No actions specified", "At least one action must be specified for an action_trigger.", "main.tf:26,18-26,23"},
				{"error", "Invalid action expression", "Multiple action references in actions expression.", "main.tf:34,18-34,46"},
				{"error", `Duplicate action "a" configuration`, "An action named \"x\" was already declared at main.tf:1,1-15. Resource names must be unique per type in each module.", "main.tf:5,1-5,15"},
			},
		},
		{
			name: "action overrides",
			files: map[string]string{
				"main.tf":          "action \"a\" \"x\" {}\n",
				"main_override.tf": "action \"a\" \"x\" {\n  provider = b\n}\naction \"a\" \"y\" {}\n",
			},
			want: []expectedDiag{
				{"error", "Missing resource to override", "There is no action named \"y\". An override file can only override a resource block defined in a primary configuration file.", "main_override.tf:4,1-4,15"},
			},
		},
		{
			name: "JSON references that are not strings",
			files: map[string]string{"main.tf.json": `{
  "resource": {"test_object": {"b": {
    "lifecycle": {"replace_triggered_by": [{"test_object.a.test_string": "nope"}]}
  }}},
  "import": {"to": ["test_object.b"], "id": "x"}
}
`},
			want: []expectedDiag{
				{"error", "Invalid reference expression", "A single reference string is required.", "main.tf.json:3,44-3,81"},
				{"error", "Invalid reference expression", "A single reference string is required.", "main.tf.json:5,20-5,37"},
			},
		},
		{
			name:  "invalid ephemeral resource type",
			files: map[string]string{"main.tf": "ephemeral \"a b\" \"c\" {}\n"},
			want: []expectedDiag{
				{"error", "Invalid ephemeral resource type", badIdentifierDetail, "main.tf:1,11-1,16"},
			},
		},
		{
			name: "output type constraints",
			files: map[string]string{"main.tf": `output "string" {
  type  = string
  value = "Hello"
}
output "object" {
  type = object({
    name = optional(string, "Bart"),
  })
  value = {}
}
output "bad" {
  type  = strang
  value = 1
}
`},
			want: []expectedDiag{
				{"error", "Invalid type specification", "The keyword \"strang\" is not a valid type specification.", "main.tf:12,11-12,17"},
			},
		},
		{
			name: "const variables that are sensitive or ephemeral",
			files: map[string]string{"main.tf": `variable "s" {
  default   = "hello"
  const     = true
  sensitive = true
}
variable "e" {
  default   = "hello"
  const     = true
  ephemeral = true
}
variable "ok" {
  default   = "hello"
  const     = false
  sensitive = true
}
`},
			want: []expectedDiag{
				{"error", "Const variable cannot be sensitive", `A variable that is marked as "const" cannot also be marked as "sensitive".`, "main.tf:1,1-1,13"},
				{"error", "Const variable cannot be ephemeral", `A variable that is marked as "const" cannot also be marked as "ephemeral".`, "main.tf:6,1-6,13"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMapOpts(t, tt.files, WithFlavour(flavour.Terraform))
			got := diagsForCompare(diags)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			for i := range got {
				got[i].Detail = strings.ReplaceAll(got[i].Detail, "OpenTofu", "Terraform")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
