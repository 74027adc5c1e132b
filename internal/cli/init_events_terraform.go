package cli

import (
	"fmt"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// terraformSigningNotice is what Terraform prints after the provider lines
// when a partner's or a self-signed provider was installed (in both views
// without the blank line its message starts with: Terraform trims it).
const terraformSigningNotice = "Partner and community providers are signed by their developers.\n" +
	"If you'd like to know more about provider signing, you can read about it here:\n" +
	"https://developer.hashicorp.com/terraform/cli/plugins/signing"

// terraformInstalledTexts returns Terraform's line for a fresh install: the
// human text (its key ID coloured when color is set) and the JSON view's
// message.
func terraformInstalledTexts(p addrs.Provider, v versions.Version, auth *registry.AuthResult, color bool) (human, machine string) {
	humanAuth, jsonAuth := terraformAuthTexts(auth, color)
	human = fmt.Sprintf("- Installed %s v%s (%s)", p.ForDisplayIn(flavour.Terraform), v, humanAuth)
	machine = fmt.Sprintf("Installed provider version: %s v%s (%s)", p.ForDisplayIn(flavour.Terraform), v, jsonAuth)
	return human, machine
}

// terraformAuthTexts returns how Terraform words an authentication result
// inside its parentheses (init, providers lock): the summary, followed
// for partner and self-signed packages by the key ID. The human form
// colours the key ID on its own (so its final reset comes before the
// closing parenthesis); the JSON form joins "key_id: ID" to the summary
// without a separator, as Terraform 1.15 does.
func terraformAuthTexts(auth *registry.AuthResult, color bool) (human, machine string) {
	human, machine = auth.TerraformSummary(), auth.TerraformSummary()
	if auth.ThirdPartySigned() && auth.SignerKeyID != "" {
		human += colorize(fmt.Sprintf(", key ID [reset][bold]%s[reset]", auth.SignerKeyID), color)
		machine += "key_id: " + auth.SignerKeyID
	}
	return human, machine
}

// terraformInstalled shows a fresh install in the Terraform flavour, and
// remembers whether the signing notice is due.
func (e *initEvents) terraformInstalled(p addrs.Provider, v versions.Version, auth *registry.AuthResult) {
	color := false
	if c, ok := e.view.(interface{ colored() bool }); ok {
		color = c.colored()
	}
	human, machine := terraformInstalledTexts(p, v, auth, color)
	e.view.Text("info", "installed", human, machine)
	e.terraformThirdParty = e.terraformThirdParty || auth.ThirdPartySigned()
}

// signingNoticeEvent prints the note after the provider lines: OpenTofu's
// for any signed install, Terraform's only after a partner's or a
// self-signed one.
func (e *initEvents) signingNoticeEvent() {
	if e.flavour != flavour.Terraform {
		e.view.Event("signing_notice", "", "", signingNotice)
		return
	}
	if e.terraformThirdParty {
		e.view.Text("info", "signing_notice", terraformSigningNotice, terraformSigningNotice)
	}
}
