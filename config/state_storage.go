package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// The diagnostics about a module's state storage (its backend and cloud
// blocks) in each flavour's words: Terraform names the blocks in quotes
// and calls the cloud block's service "HCP Terraform or Terraform
// Enterprise" where OpenTofu says "cloud backend".

// duplicateBackend is the error for a second backend block of a module's
// primary files, the first at prev.
func duplicateBackend(f flavour.Flavour, prev, subject hcl.Range) *hcl.Diagnostic {
	if f == flavour.Terraform {
		return errorDiag("Duplicate 'backend' configuration block", fmt.Sprintf("A module may have only one 'backend' configuration block. The backend was previously configured at %s.", prev), subject.Ptr())
	}
	return errorDiag("Duplicate backend configuration", fmt.Sprintf("A module may have only one backend configuration. The backend was previously configured at %s.", prev), subject.Ptr())
}

// duplicateOverrideBackend is the error for a second backend block in one
// override file (the same words in both flavours).
func duplicateOverrideBackend(prev, subject hcl.Range) *hcl.Diagnostic {
	return errorDiag("Duplicate backend configuration", fmt.Sprintf("Each override file may have only one backend configuration. A backend was previously configured at %s.", prev), subject.Ptr())
}

// duplicateCloud is the error for a second cloud block, in the primary
// files or in one override file, the first at prev.
func duplicateCloud(f flavour.Flavour, prev, subject hcl.Range) *hcl.Diagnostic {
	if f == flavour.Terraform {
		return errorDiag("Duplicate HCP Terraform configurations", fmt.Sprintf("A module may have only one 'cloud' block configuring HCP Terraform or Terraform Enterprise. The 'cloud' block was previously configured at %s.", prev), subject.Ptr())
	}
	return errorDiag("Duplicate cloud configurations", fmt.Sprintf("A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at %s.", prev), subject.Ptr())
}

// backendAndCloud is the error for a module whose primary files have both
// a cloud block (at cloud) and a backend block (at backend, the subject).
func backendAndCloud(f flavour.Flavour, cloud, backend hcl.Range) *hcl.Diagnostic {
	if f == flavour.Terraform {
		return errorDiag("Conflicting 'cloud' and 'backend' configuration blocks are present", fmt.Sprintf("A module may declare either one 'cloud' block OR one 'backend' block for configuring state storage. The 'cloud' block is configured at %s; a 'backend' is configured at %s. Remove the 'backend' block to configure HCP Terraform or Terraform Enterprise.", cloud, backend), backend.Ptr())
	}
	return errorDiag("Both a backend and a cloud configuration are present", fmt.Sprintf("A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at %s; a backend is configured at %s. Remove the backend block to configure a cloud backend.", cloud, backend), backend.Ptr())
}
