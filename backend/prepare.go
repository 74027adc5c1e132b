package backend

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// Prepare makes the checks of a remote or cloud backend's own settings
// that the products make before they contact it, in their words, each
// pointing at the argument in block or, when it is not written there, at
// the block; lookupEnv reads the environment (TF_CLOUD_HOSTNAME,
// TF_CLOUD_ORGANIZATION, TF_WORKSPACE). The remote backend (both products
// alike) needs a non-empty organization and exactly one of the
// workspaces' name and prefix, and OpenTofu a hostname. The cloud block
// needs an organization (or TF_CLOUD_ORGANIZATION), one way of choosing
// workspaces (name, tags, or for an empty block TF_WORKSPACE), a name
// that TF_WORKSPACE does not contradict, and in OpenTofu a hostname (or
// TF_CLOUD_HOSTNAME). Other types are not checked here.
func Prepare(f flavour.Flavour, block *Block, s *Settings, lookupEnv func(string) (string, bool)) hcl.Diagnostics {
	if s == nil || s.Config.IsNull() || !s.Config.Type().IsObjectType() {
		return nil
	}
	getenv := func(k string) string { v, _ := lookupEnv(k); return v }
	switch s.Type {
	case "remote":
		return prepareRemote(f, block, s.Config)
	case "cloud":
		if f == flavour.Terraform {
			return prepareCloudTerraform(block, s.Config, lookupEnv)
		}
		return prepareCloudOpenTofu(block, s.Config, getenv)
	}
	return nil
}

func prepareRemote(f flavour.Flavour, block *Block, obj cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if org := attrOf(obj, "organization"); org == "" {
		diags = append(diags, prepareError(block, "organization", "Invalid organization value", `The "organization" attribute value must not be empty.`))
	}
	var name, prefix string
	if ws := nested(obj, "workspaces"); ws != cty.NilVal {
		name, prefix = attrOf(ws, "name"), attrOf(ws, "prefix")
	}
	switch {
	case name == "" && prefix == "":
		diags = append(diags, prepareError(block, "workspaces", "Invalid workspaces configuration", `Either workspace "name" or "prefix" is required.`))
	case name != "" && prefix != "":
		diags = append(diags, prepareError(block, "workspaces", "Invalid workspaces configuration", `Only one of workspace "name" or "prefix" is allowed.`))
	}
	if diags.HasErrors() || f == flavour.Terraform || attrOf(obj, "hostname") != "" {
		return diags
	}
	// OpenTofu has no default host; failing to configure, it then also
	// fails to alias the empty hostname.
	return hcl.Diagnostics{
		prepSourceless("Hostname is required for the remote backend", `OpenTofu does not provide a default "hostname" attribute, so it must be set to the hostname of the remote backend.`),
		prepSourceless(`failed to create backend alias to target "". The hostname is not in the correct format`, ""),
	}
}

// prepareCloudOpenTofu is OpenTofu's: the organization and the workspace
// mapping first, then the hostname.
func prepareCloudOpenTofu(block *Block, obj cty.Value, getenv func(string) string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attrOf(obj, "organization") == "" && getenv("TF_CLOUD_ORGANIZATION") == "" {
		diags = append(diags, missingCloudArgument(block))
	}
	var name string
	var tags int
	if ws := nested(obj, "workspaces"); ws != cty.NilVal {
		name = attrOf(ws, "name")
		if t := ws.GetAttr("tags"); !t.IsNull() && t.IsKnown() && t.CanIterateElements() {
			tags = t.LengthInt()
		}
	}
	if v := getenv("TF_WORKSPACE"); v != "" {
		switch {
		case name != "" && name != v:
			diags = append(diags, cloudWorkspacesError(flavour.OpenTofu, block, `The workspace defined using the environment variable "TF_WORKSPACE" is not consistent with the workspace "name" in the configuration.`))
		case name == "" && tags == 0:
			name = v
		}
	}
	switch {
	case name == "" && tags == 0:
		diags = append(diags, cloudWorkspacesError(flavour.OpenTofu, block, `Missing workspace mapping strategy. Either workspace "tags" or "name" is required.`))
	case name != "" && tags > 0:
		diags = append(diags, cloudWorkspacesError(flavour.OpenTofu, block, `Only one of workspace "tags" or "name" is allowed.`))
	}
	if diags.HasErrors() || attrOf(obj, "hostname") != "" || getenv("TF_CLOUD_HOSTNAME") != "" {
		return diags
	}
	return hcl.Diagnostics{
		prepSourceless("Hostname is required for the cloud backend", `OpenTofu does not provide a default "hostname" attribute, so it must be set to the hostname of the cloud backend.`),
		prepSourceless(`failed to create backend alias to target "". The hostname is not in the correct format.`, ""),
	}
}

// prepareCloudTerraform is Terraform's: a name with tags first (alone),
// then the organization and the workspace mapping, after which it also
// fails to alias the hostname it did not get to set.
func prepareCloudTerraform(block *Block, obj cty.Value, lookupEnv func(string) (string, bool)) hcl.Diagnostics {
	ws := nested(obj, "workspaces")
	var name string
	var tags int
	if ws != cty.NilVal {
		if n := ws.GetAttr("name"); !n.IsNull() {
			if t := ws.GetAttr("tags"); !t.IsNull() {
				return hcl.Diagnostics{cloudWorkspacesError(flavour.Terraform, block, `Only one of workspace "tags" or "name" is allowed.`)}
			}
		}
		name = attrOf(ws, "name")
		tags = terraformTagCount(ws.GetAttr("tags"))
	}
	var diags hcl.Diagnostics
	org := attrOf(obj, "organization")
	if org == "" {
		org, _ = lookupEnv("TF_CLOUD_ORGANIZATION")
	}
	if org == "" {
		diags = append(diags, missingCloudArgument(block))
	}
	switch {
	case name != "" && tags == 0:
		if v, ok := lookupEnv("TF_WORKSPACE"); ok && v != name {
			diags = append(diags, cloudWorkspacesError(flavour.Terraform, block, `Specified workspace "name" conflicts with TF_WORKSPACE environment variable.`))
		}
	case name == "" && tags == 0:
		name, _ = lookupEnv("TF_WORKSPACE")
	}
	if name == "" && tags == 0 {
		diags = append(diags, cloudWorkspacesError(flavour.Terraform, block, `Missing workspace mapping strategy. Either workspace "tags" or "name" is required.`))
	}
	if !diags.HasErrors() {
		return nil
	}
	return append(diags, prepSourceless(`failed to create backend alias to target "". The hostname is not in the correct format.`, ""))
}

// terraformTagCount is the number of tags Terraform takes from a tags
// value: a map's or object's entries, or a list's or set's non-empty
// strings.
func terraformTagCount(v cty.Value) int {
	if v.IsNull() || !v.IsKnown() {
		return 0
	}
	t := v.Type()
	switch {
	case t.IsObjectType() || t.IsMapType():
		return v.LengthInt()
	case v.CanIterateElements():
		n := 0
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); e.Type() == cty.String && e.IsKnown() && !e.IsNull() && e.AsString() != "" {
				n++
			}
		}
		return n
	}
	return 0
}

func missingCloudArgument(block *Block) *hcl.Diagnostic {
	return prepareError(block, "organization", "Invalid or missing required argument",
		`"organization" must be set in the cloud configuration or as an environment variable: TF_CLOUD_ORGANIZATION.`)
}

// cloudWorkspacesError is an "Invalid workspaces configuration" error:
// problem, then the product's explanation of the workspaces block.
func cloudWorkspacesError(f flavour.Flavour, block *Block, problem string) *hcl.Diagnostic {
	return prepareError(block, "workspaces", "Invalid workspaces configuration", problem+"\n\n"+cloudWorkspacesHelp(f))
}

// cloudWorkspacesHelp explains the workspaces block (OpenTofu's keeps its
// colour markup in the detail, as printed; Terraform's is rendered,
// which without colour drops it).
func cloudWorkspacesHelp(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return fmt.Sprintf("The 'workspaces' block configures how Terraform CLI maps its workspaces for this single\n"+
			"configuration to workspaces within an HCP Terraform or Terraform Enterprise organization. Two strategies are available:\n\n"+
			"%s - %s\n\n%s - %s", "tags",
			"A set of tags used to select remote HCP Terraform or Terraform Enterprise workspaces to be used for this single\n"+
				"configuration. New workspaces will automatically be tagged with these tag values. Generally, this\n"+
				"is the primary and recommended strategy to use.  This option conflicts with \"name\".",
			"name",
			"The name of a single HCP Terraform or Terraform Enterprise workspace to be used with this configuration.\n"+
				"When configured, only the specified workspace can be used. This option conflicts with \"tags\"\n"+
				"and with the TF_WORKSPACE environment variable.")
	}
	return "The 'workspaces' block configures how OpenTofu CLI maps its workspaces for this single\n" +
		"configuration to workspaces within a cloud backend organization. Two strategies are available:\n\n" +
		"[bold]tags[reset] - A set of tags used to select remote cloud backend workspaces to be used for this single\n" +
		"configuration. New workspaces will automatically be tagged with these tag values. Generally, this\n" +
		"is the primary and recommended strategy to use. This option conflicts with \"name\".\n\n" +
		"[bold]name[reset] - The name of a single cloud backend workspace to be used with this configuration.\n" +
		"When configured, only the specified workspace can be used. This option conflicts with \"tags\"."
}

// nested is an object's nested single block, or cty.NilVal when null.
func nested(obj cty.Value, name string) cty.Value {
	if !obj.Type().HasAttribute(name) {
		return cty.NilVal
	}
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return cty.NilVal
	}
	return v
}

// attrOf is an object's known string attribute, or "".
func attrOf(obj cty.Value, name string) string {
	if !obj.Type().HasAttribute(name) {
		return ""
	}
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

func prepSourceless(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// prepareError is an error about the argument name of block: its value's
// range when the block sets it as an argument, else the block's body.
func prepareError(block *Block, name, summary, detail string) *hcl.Diagnostic {
	d := prepSourceless(summary, detail)
	if block == nil || block.Body == nil {
		return d
	}
	rng := block.Body.MissingItemRange()
	if content, _, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}}); content != nil {
		if a, ok := content.Attributes[name]; ok {
			rng = a.Expr.Range()
		}
	}
	d.Subject = &rng
	return d
}
