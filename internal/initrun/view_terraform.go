package initrun

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
)

// Terraform's machine-readable init output differs from OpenTofu's: every
// line names the "terraform.ui" module; section headers, the lock file
// texts and the final texts are "init_output" lines with a message code;
// per-provider progress lines are "log" lines worded for machines; texts
// keep their line breaks.

// terraformJSONOutputs are the init messages Terraform logs as
// "init_output", by tfdeps' event kind: message code and JSON text ("" to
// derive it from the human text).
var terraformJSONOutputs = map[string]string{
	"init_backend":    "initializing_backend_message",
	"init_cloud":      "initializing_terraform_cloud_message",
	"init_providers":  "initializing_provider_plugin_message",
	"lock_created":    "lock_info",
	"lock_changed":    "dependencies_lock_changes_info",
	"init_success":    "output_init_success_message",
	"init_next_steps": "output_init_success_cli_message",
	"init_empty":      "output_init_empty_message",
	// -from-module's first line.
	"copying_configuration": "copying_configuration_message",

	"init_success_cloud":    "output_init_success_cloud_message",
	"init_next_steps_cloud": "output_init_success_cli_cloud_message",
	"backend_configured":    "backend_configured_success",
	"backend_unconfiguring": "backend_migrate_local",
	"backend_unset":         "backend_configured_unset",
	"backend_type_changed":  "backend_migrate_type_change",
	"backend_reconfigured":  "backend_reconfigure",
	"backend_cloud_changed": "backend_cloud_change_in_place",
}

// terraformProgress rewrites the human progress lines into Terraform's
// JSON texts.
var terraformProgress = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`^- Finding (\S+) versions matching (".*")\.\.\.$`), "Finding matching versions for provider: $1, version_constraint: $2"},
	{regexp.MustCompile(`^- Finding latest version of (\S+)\.\.\.$`), "$1: Finding latest version..."},
	{regexp.MustCompile(`^- Reusing previous version of (\S+) from the dependency lock file$`), "$1: Reusing previous version from the dependency lock file"},
	{regexp.MustCompile(`^- Using previously-installed (\S+) v(\S+)$`), "$1 v$2: Using previously-installed provider version"},
	{regexp.MustCompile(`^- Using (\S+) v(\S+) from the shared cache directory$`), "$1 v$2: Using from the shared cache directory"},
	{regexp.MustCompile(`^- Installing (\S+) v(\S+)\.\.\.$`), "Installing provider version: $1 v$2..."},
	// Terraform joins the key ID to the result without a separator.
	{regexp.MustCompile(`^- Installed (\S+) v(\S+) \((.*), key ID (\S+)\)$`), "Installed provider version: $1 v$2 (${3}key_id: $4)"},
	{regexp.MustCompile(`^- Installed (\S+) v(\S+) \((.*)\)$`), "Installed provider version: $1 v$2 ($3)"},
	{regexp.MustCompile(`^- (\S+) is built in to Terraform$`), "$1 is built in to Terraform"},
}

// terraformJSONText returns the JSON text and extra keys of an init
// message in Terraform's machine-readable output.
func terraformJSONText(kind, human string) (string, map[string]any) {
	text := strings.TrimSpace(diagrender.Colorize(human, false))
	if kind == "init_modules" {
		code := "initializing_modules_message"
		if strings.HasPrefix(text, "Upgrading") {
			code = "upgrading_modules_message"
		}
		return text, map[string]any{"type": "init_output", "message_code": code}
	}
	if code, ok := terraformJSONOutputs[kind]; ok {
		return text, map[string]any{"type": "init_output", "message_code": code}
	}
	for _, p := range terraformProgress {
		if p.re.MatchString(text) {
			return p.re.ReplaceAllString(text, p.repl), map[string]any{"type": "log"}
		}
	}
	return text, map[string]any{"type": "log"}
}

// terraformJSONUIVersion is the version of Terraform v1.15's
// machine-readable UI.
const terraformJSONUIVersion = "1.3"

// withConfigErrorText prepares diags for display after a configuration
// error: OpenTofu prints its "encountered problems" text first, on its
// own; Terraform reports the text as one more error diagnostic, without
// detail (first once sorted, last in the JSON output).
func (r *initRun) withConfigErrorText(diags hcl.Diagnostics) hcl.Diagnostics {
	if r.m.Flavour != flavour.Terraform {
		r.view.Message("config_errors", initConfigErrorTextIn(r.m.Flavour), true)
		return diags
	}
	text := strings.TrimSpace(diagrender.Colorize(initConfigErrorTextIn(r.m.Flavour), false))
	return append(diags, errorDiag(text, ""))
}
