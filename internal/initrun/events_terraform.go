package initrun

import (
	"fmt"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// terraformInstalledTexts returns Terraform's line for a fresh install: the
// human text (its key ID coloured when color is set) and the JSON view's
// message.
func terraformInstalledTexts(p addrs.Provider, v versions.Version, auth *registry.AuthResult, color bool) (human, machine string) {
	humanAuth, jsonAuth := TerraformAuthTexts(auth, color)
	human = fmt.Sprintf("- Installed %s v%s (%s)", p.ForDisplayIn(flavour.Terraform), v, humanAuth)
	machine = fmt.Sprintf("Installed provider version: %s v%s (%s)", p.ForDisplayIn(flavour.Terraform), v, jsonAuth)
	return human, machine
}

// TerraformAuthTexts returns how Terraform words an authentication result
// inside its parentheses (init, providers lock): the summary, followed
// for partner and self-signed packages by the key ID. The human form
// colours the key ID on its own (so its final reset comes before the
// closing parenthesis); the JSON form joins "key_id: ID" to the summary
// without a separator, as Terraform 1.15 does.
func TerraformAuthTexts(auth *registry.AuthResult, color bool) (human, machine string) {
	human, machine = auth.TerraformSummary(), auth.TerraformSummary()
	if auth.ThirdPartySigned() && auth.SignerKeyID != "" {
		human += diagrender.Colorize(fmt.Sprintf(", key ID [reset][bold]%s[reset]", auth.SignerKeyID), color)
		machine += "key_id: " + auth.SignerKeyID
	}
	return human, machine
}

// terraformInstalled shows a fresh install in the Terraform flavour, and
// remembers whether the signing notice is due. The view words the line
// for machines (terraformJSONText), as it does Terraform's other progress
// lines.
func (e *initEvents) terraformInstalled(p addrs.Provider, v versions.Version, auth *registry.AuthResult) {
	color := false
	if c, ok := e.view.(interface{ colored() bool }); ok {
		color = c.colored()
	}
	human, _ := terraformInstalledTexts(p, v, auth, color)
	e.view.Event("installed", p.ForDisplayIn(e.flavour), v.String(), human)
	if auth.ThirdPartySigned() {
		e.mu.Lock()
		e.terraformThirdParty = true
		e.mu.Unlock()
	}
}

// signingNoticeEvent prints the note after the provider lines: OpenTofu's
// for any signed install, Terraform's (the view words it) only after a
// partner's or a self-signed one.
func (e *initEvents) signingNoticeEvent() {
	e.mu.Lock()
	thirdParty := e.terraformThirdParty
	e.mu.Unlock()
	if e.flavour != flavour.Terraform || thirdParty {
		e.view.Event("signing_notice", "", "", signingNoticeIn(e.flavour))
	}
}
