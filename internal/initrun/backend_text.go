package initrun

import (
	"fmt"

	"github.com/tfdeps/tfdeps/flavour"
)

// Texts of init's backend section in flavour f's words, with colour
// markup (the views add the final newline); the format ones take the
// backend type. The JSON forms are what OpenTofu's machine-readable output
// logs (Terraform logs the human texts).

func backendConfiguredTextIn(f flavour.Flavour) string {
	return "[reset][green]\nSuccessfully configured the backend %q! " + f.Product() + " will automatically\n" +
		"use this backend unless the backend configuration changes."
}

func backendUnconfiguringTextIn(f flavour.Flavour) string {
	return f.Product() + " has detected you're unconfiguring your previously set %q backend."
}

func backendUnsetTextIn(f flavour.Flavour) string {
	return "[reset][green]\n\nSuccessfully unset the backend %q. " + f.Product() + " will now operate locally."
}

// OpenTofu's machine-readable forms.
const (
	backendConfiguredJSON    = "Successfully configured the backend %q! OpenTofu will automatically use this backend unless the backend configuration changes"
	backendUnconfiguringJSON = "OpenTofu has detected you're unconfiguring your previously set %q backend"
	backendUnsetJSON         = "Successfully unset the backend %q. OpenTofu will now operate locally"
	backendTypeChangedJSON   = "OpenTofu detected that the backend type changed from %q to %q."
)

// typeChangedText is the notice before a backend of another type is
// recorded with -migrate-state (OpenTofu opens it with an empty line,
// Terraform does not).
func typeChangedText(f flavour.Flavour, from, to string) string {
	if f == flavour.Terraform {
		return fmt.Sprintf("[reset]Terraform detected that the backend type changed from %q to %q.", from, to)
	}
	return fmt.Sprintf("[reset]\nOpenTofu detected that the backend type changed from %q to %q.", from, to)
}

// reconfiguredText is the notice before a backend's new settings are
// recorded with -migrate-state.
func reconfiguredText(f flavour.Flavour) string {
	return "[reset][bold]Backend configuration changed![reset]\n\n" +
		f.Product() + " has detected that the configuration specified for the backend\n" +
		"has changed. " + f.Product() + " will now check for existing state in the backends."
}

// reconfiguredJSON is OpenTofu's machine-readable form of
// reconfiguredText (Terraform logs the human text).
func reconfiguredJSON(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return reconfiguredText(f)
	}
	return "Backend configuration changed! OpenTofu has detected that the configuration specified for the backend has changed. OpenTofu will now check for existing state in the backends"
}

// cloudChangedText is the line init prints before it records a cloud
// block's new settings.
func cloudChangedText(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return "HCP Terraform configuration has changed."
	}
	return "Cloud backend configuration has changed."
}

func cloudChangedJSON(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return "HCP Terraform configuration has changed."
	}
	return "Cloud backend configuration has changed"
}

// cloudInEffect reports a cloud block as the backend in effect after the
// backend section: init's final texts are then the cloud's.
func (r *initRun) cloudInEffect() bool {
	return r.backend != nil && r.backend.active != nil && r.backend.active.Type == "cloud"
}

// cloudSuccess prints init's final texts for a cloud block.
func (r *initRun) cloudSuccess() {
	success, next := initSuccessCloudText, initNextStepsCloudText
	if r.m.Flavour == flavour.Terraform {
		success, next = initSuccessCloudTextTerraform, initNextStepsCloudTextTerraform
	}
	r.view.Message("init_success_cloud", success, false)
	if r.m.Getenv("TF_IN_AUTOMATION") == "" {
		r.view.Message("init_next_steps_cloud", next, false)
	}
}

// Init's final texts with a cloud block.
const (
	initSuccessCloudText   = "[reset][bold][green]Cloud backend has been successfully initialized![reset][green]"
	initNextStepsCloudText = "[reset][green]\nYou may now begin working with cloud backend. Try running \"tofu plan\" to\n" +
		"see any changes that are required for your infrastructure.\n\n" +
		"If you ever set or change modules or OpenTofu Settings, run \"tofu init\"\n" +
		"again to reinitialize your working directory."
	initSuccessCloudTextTerraform   = "[reset][bold][green]HCP Terraform has been successfully initialized![reset][green]"
	initNextStepsCloudTextTerraform = "[reset][green]\nYou may now begin working with HCP Terraform. Try running \"terraform plan\" to\n" +
		"see any changes that are required for your infrastructure.\n\n" +
		"If you ever set or change modules or Terraform Settings, run \"terraform init\"\n" +
		"again to reinitialize your working directory."
)
