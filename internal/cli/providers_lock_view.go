package cli

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/internal/lockview"
)

// newLockView is the view of providers lock the output flags select:
// -json-into adds the JSON lines in the file to the human lines, which are
// live on a terminal (liveDisplayWanted).
func newLockView(m *Meta, jf *jsonFlags) lockview.View {
	var v lockview.View = lockHuman(m)
	switch {
	case jf.json:
		v = &lockview.JSON{V: newBareJSONView(m)}
	case liveDisplayWanted(m, !m.Color):
		v = &lockview.Live{Human: lockHuman(m), Display: livedisplay.OnTerminal(m.Stdout)}
	}
	if jf.into.file != nil {
		v = lockview.Views{v, &lockview.JSON{V: jf.intoView(m), Into: true}}
	}
	return v
}

// lockHuman is providers lock's plain view on m's stdout.
func lockHuman(m *Meta) *lockview.Human {
	return &lockview.Human{Out: m.Stdout, Flavour: m.Flavour, Color: m.Color, PrintDiagnostics: func(diags hcl.Diagnostics, files map[string]*hcl.File) {
		p := newDiagPrinter(m, diagrender.SnippetFiles(diags, files))
		p.ExtraNewline = true
		p.Print(diags)
	}}
}
