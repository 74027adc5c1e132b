package initrun

import (
	"github.com/hashicorp/hcl/v2"
)

// teeView shows init or get twice: in its own view (the embedded one,
// text or live) and as JSON lines in the file of OpenTofu's -json-into.
type teeView struct {
	View
	json *JSONView
}

func (v *teeView) Event(kind, provider, version, text string) {
	v.View.Event(kind, provider, version, text)
	v.json.Event(kind, provider, version, text)
}

func (v *teeView) Progress(provider, version string, done, total int64) {
	v.View.Progress(provider, version, done, total)
}

func (v *teeView) Message(kind, text string, toStderr bool) {
	v.View.Message(kind, text, toStderr)
	v.json.Message(kind, text, toStderr)
}

func (v *teeView) Diagnostics(diags hcl.Diagnostics) {
	v.View.Diagnostics(diags)
	v.json.Diagnostics(diags)
}

func (v *teeView) Text(level, kind, human, machine string) {
	v.View.Text(level, kind, human, machine)
	v.json.Text(level, kind, human, machine)
}

func (v *teeView) Close() {
	v.View.Close()
	v.json.Close()
}

// keepSource keeps f for the snippets of both views.
func (v *teeView) keepSource(f *hcl.File, name string) {
	if k, ok := v.View.(interface{ keepSource(*hcl.File, string) }); ok {
		k.keepSource(f, name)
	}
	v.json.keepSource(f, name)
}

// colored is the embedded view's.
func (v *teeView) colored() bool {
	if c, ok := v.View.(interface{ colored() bool }); ok {
		return c.colored()
	}
	return false
}
