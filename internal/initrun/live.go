package initrun

import (
	"github.com/hashicorp/hcl/v2"
)

// ansiClearLine returns to the start of the line and clears it.
const ansiClearLine = "\r\x1b[K"

// liveView is init's and get's terminal view: OpenTofu's lines (headings
// in bold) with a status line below them showing the downloads in
// progress, provider packages and module packages, their bytes and rate.
// It is used only when liveDisplayWanted says so.
type liveView struct {
	plainView
	*liveDisplay
}

func newLiveView(m *Env) *liveView {
	return &liveView{plainView: plainView{m: m}, liveDisplay: newLiveDisplay(m)}
}

// providerKey names a provider package's download on the status line.
func providerKey(provider, version string) string { return provider + " v" + version }

// Event prints a line of the provider section; it ends the download of
// the provider it names, if any.
func (v *liveView) Event(kind, provider, version, text string) {
	v.printFinished(providerKey(provider, version), func() {
		v.plainView.Event(kind, provider, version, text)
	})
}

func (v *liveView) Text(level, kind, human, machine string) {
	v.print(func() { v.plainView.Text(level, kind, human, machine) })
}

func (v *liveView) Progress(provider, version string, done, total int64) {
	key := providerKey(provider, version)
	v.progress(key, key, done, total)
}

func (v *liveView) Message(kind, text string, toStderr bool) {
	v.print(func() { v.plainView.Message(kind, text, toStderr) })
}

func (v *liveView) Diagnostics(diags hcl.Diagnostics) {
	v.print(func() { v.plainView.Diagnostics(diags) })
}

func (v *liveView) Close() { v.close() }

// liveOf is the live display of an init or get view, if it has one.
func liveOf(v View) *liveDisplay {
	switch v := v.(type) {
	case *liveView:
		return v.liveDisplay
	case *teeView:
		return liveOf(v.View)
	}
	return nil
}
