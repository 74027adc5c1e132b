package lockfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMigrateTerraformRegistry(t *testing.T) {
	src := `
provider "registry.terraform.io/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.0"
  hashes = ["h1:old="]
}
provider "registry.terraform.io/hashicorp/aws" {
  version = "5.0.0"
}
provider "registry.terraform.io/hashicorp/tls" {
  version = "4.0.0"
}
provider "registry.opentofu.org/hashicorp/tls" {
  version = "4.0.5"
}
provider "registry.terraform.io/acme/thing" {
  version = "1.0.0"
}
`
	locks, _, diags := Read([]byte(src), "x.hcl", ReadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	diags = locks.MigrateTerraformRegistry()
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
	}
	wantDetail := "OpenTofu automatically rewrote some entries in your dependency lock file:\n" +
		"  - registry.terraform.io/hashicorp/aws => registry.opentofu.org/hashicorp/aws\n" +
		"  - registry.terraform.io/hashicorp/null => registry.opentofu.org/hashicorp/null\n" +
		"\nThe version selections were preserved, but the hashes were not because the OpenTofu project's provider releases are not byte-for-byte identical."
	if d := diags[0]; d.Summary != "Dependency lock file entries automatically updated" || d.Detail != wantDetail || d.Subject != nil {
		t.Errorf("diagnostic = %q / %q, want detail %q", d.Summary, d.Detail, wantDetail)
	}
	want := `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/aws" {
  version = "5.0.0"
}

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.0"
}

provider "registry.opentofu.org/hashicorp/tls" {
  version = "4.0.5"
}

provider "registry.terraform.io/acme/thing" {
  version = "1.0.0"
}

provider "registry.terraform.io/hashicorp/aws" {
  version = "5.0.0"
}

provider "registry.terraform.io/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.0"
  hashes = [
    "h1:old=",
  ]
}

provider "registry.terraform.io/hashicorp/tls" {
  version = "4.0.0"
}
`
	if diff := cmp.Diff(want, string(locks.Bytes(OpenTofu))); diff != "" {
		t.Errorf("migrated file mismatch (-want +got):\n%s", diff)
	}
	if again := locks.MigrateTerraformRegistry(); len(again) != 0 {
		t.Errorf("second migration gave %v, want nothing", again)
	}
}
