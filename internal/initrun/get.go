package initrun

import (
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/workdir"
)

// What "get" shares with init: its views and the rendering of the module
// installer's events. The get command runs workdir's steps itself.

// NewGetView is get's view: OpenTofu's JSON lines exactly with json,
// else the human lines (live when env has a live display and neither
// noColor nor the global -no-color is set), with the JSON lines into into
// as well when it is not nil (-json-into).
func NewGetView(env *Env, noColor, json bool, into io.Writer) View {
	m := env.normal()
	if json {
		return NewJSONView(m, nil, true)
	}
	human := getHumanView(m, noColor, false)
	if into != nil {
		return &teeView{View: human, json: NewJSONView(m, into, true)}
	}
	return human
}

// GetEvents are the events of get's module installation, rendered on v
// in flavour f's words, the fetches reported to the Env.Progress of v's
// Env.
func GetEvents(v View, f flavour.Flavour) workdir.Events {
	return workdir.Events{Modules: moduleEvents{view: v, flavour: f}, ModuleFetches: newProgress(envOf(v).Progress).moduleFetches(liveModuleFetches(v))}
}

// envOf is the Env v renders for (an empty one for a view without).
func envOf(v View) *Env {
	switch v := v.(type) {
	case *plainView:
		return v.m
	case *liveView:
		return v.m
	case *JSONView:
		return v.m
	case *teeView:
		return envOf(v.View)
	}
	return &Env{}
}

// IsHumanView reports whether v shows only the lines for people (no JSON).
func IsHumanView(v View) bool { return isHumanView(v) }

// NewJSONView is the JSON view writing to out (nil: env.Stdout); its first
// line names the version. bare leaves out tfdeps' own "tfdeps" key, for
// the commands whose lines are exactly OpenTofu's (get, providers lock).
func NewJSONView(env *Env, out io.Writer, bare bool) *JSONView {
	v := newJSONViewTo(env.normal(), out)
	v.bare = bare
	return v
}

// Log writes one message line at level ("info", "warn", "error").
func (v *JSONView) Log(level, message string) { v.write(level, message, nil) }

// Println writes line as it is to the view's stdout, between the JSON
// lines.
func (v *JSONView) Println(line string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintln(v.m.Stdout, line)
}

// KeepFiles makes the view's snippets use files (name to parsed file).
func (v *JSONView) KeepFiles(files map[string]*hcl.File) {
	for name, f := range files {
		v.keepSource(f, name)
	}
}
