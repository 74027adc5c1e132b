package initrun

import (
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/moduleinstall"
)

// liveModuleFetches shows the module packages being fetched on the
// status line of view's live display; nil (no events) when view has
// none, so nothing changes for the other views.
func liveModuleFetches(view View) *moduleinstall.FetchEvents {
	d := liveOf(view)
	if d == nil {
		return nil
	}
	key := func(pkg string) string { return "module " + pkg }
	return &moduleinstall.FetchEvents{
		Started:  func(pkg string) { d.started(key(pkg), livedisplay.PlainLabel(pkg)) },
		Bytes:    func(pkg string, done, total int64) { d.progress(key(pkg), livedisplay.PlainLabel(pkg), done, total) },
		Finished: func(pkg string, _ error) { d.finished(key(pkg)) },
	}
}

// getHumanView is get's view for people: the live display when m has
// one and colour is on (and no -json), else the plain lines.
func getHumanView(m *Env, noColor, json bool) View {
	if !json && m.LiveDisplay != nil && !noColor && m.Color {
		v := newLiveView(m)
		v.get = true
		return v
	}
	return &plainView{m: m, get: true}
}

// isHumanView reports whether v shows only the lines for people (no JSON).
func isHumanView(v View) bool {
	switch v.(type) {
	case *plainView, *liveView:
		return true
	}
	return false
}
