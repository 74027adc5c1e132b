package cli

import (
	"fmt"
	"io"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/versions"
)

// DefaultTerraformVersion is the Terraform version tfdeps emulates in the
// Terraform flavour unless told otherwise.
const DefaultTerraformVersion = flavour.DefaultTerraformVersion

// flavourChoice is what the global options and the environment say about
// the flavour, before the working directory is looked at.
type flavourChoice struct {
	compat       string // -compat, "" when not given
	tofuVer      string
	terraformVer string
}

// resolveFlavour sets m.Flavour and the emulated versions from the choice:
// -compat, then TFDEPS_COMPAT, then the header of .terraform.lock.hcl in the
// working directory, then OpenTofu. It returns a usage error message, or "".
func (m *Meta) resolveFlavour(c flavourChoice) string {
	for _, v := range []struct{ name, value string }{{"-tofu-version", c.tofuVer}, {"-terraform-version", c.terraformVer}} {
		if err := checkEmulatedVersion(v.value); err != nil {
			return fmt.Sprintf("invalid value %q for %s: %s", v.value, v.name, err)
		}
	}
	m.TofuVersion, m.TerraformVersion = c.tofuVer, c.terraformVer
	compat := c.compat
	if compat == "" {
		compat = m.Getenv("TFDEPS_COMPAT")
	}
	if compat != "" {
		f, err := flavour.Parse(compat)
		if err != nil {
			return err.Error()
		}
		m.Flavour = f
		return ""
	}
	if lockNamesTerraform(lockFileName) {
		m.Flavour = flavour.Terraform
		fmt.Fprintf(m.Stderr, "tfdeps: %s was written by \"terraform init\": emulating Terraform v%s (-compat=opentofu to override)\n", lockFileName, m.TerraformVersion)
	}
	return ""
}

// checkEmulatedVersion accepts a release version such as 1.15.9 or
// 1.12.0-beta1.
func checkEmulatedVersion(s string) error {
	if _, err := versions.ParseVersion(s); err != nil {
		return fmt.Errorf("must be a version such as 1.2.3")
	}
	return nil
}

// lockNamesTerraform reports whether the lock file at path starts with the
// header "terraform init" writes.
func lockNamesTerraform(path string) bool {
	f, err := regfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	header := lockfile.HeaderLine(flavour.Terraform)
	buf := make([]byte, len(header))
	n, _ := io.ReadFull(f, buf)
	return string(buf[:n]) == header
}

// Version returns the emulated version of the chosen flavour.
func (m *Meta) Version() string {
	if m.Flavour == flavour.Terraform {
		return m.TerraformVersion
	}
	return m.TofuVersion
}

// Product is "OpenTofu" or "Terraform"; Command "tofu" or "terraform".
func (m *Meta) Product() string { return m.Flavour.Product() }
func (m *Meta) Command() string { return m.Flavour.Command() }

// configOptions are the loader options every command passes: the flavour
// and its emulated version.
func (m *Meta) configOptions(extra ...config.Option) []config.Option {
	return append([]config.Option{config.WithTofuVersion(m.Version()), config.WithFlavour(m.Flavour)}, extra...)
}

// lockReadOptions reads the lock file as the chosen flavour does.
func (m *Meta) lockReadOptions() lockfile.ReadOptions {
	return lockfile.ReadOptions{Flavour: m.Flavour, TofuVersion: m.Version()}
}
