package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestTerraformBackendCheckReference runs the scripts of
// testdata/reference_terraform_backend: "tfdeps -compat=terraform init
// -backend-check" and the reference Terraform binary
// ($TFDEPS_REFERENCE_TERRAFORM, as "exec terraform") contact the same
// in-memory storage services (cloudfake) and are compared. Skipped when
// TFDEPS_REFERENCE_TERRAFORM is unset.
func TestTerraformBackendCheckReference(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	runReferenceScripts(t, "reference_terraform_backend", "terraform", terraform, map[string]string{"CHECKPOINT_DISABLE": "1"},
		map[string]func(*testscript.TestScript, bool, []string){"cloudfake": cmdCloudFake, "httpstate": cmdHTTPState})
}
