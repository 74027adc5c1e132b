package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// initView is how "tfdeps init" shows what it does: OpenTofu's plain lines,
// a live terminal display, or one JSON object per line.
type initView interface {
	// Event shows one progress line of the provider section; kind names
	// the event for machines, provider and version may be empty.
	Event(kind, provider, version, text string)
	// Progress shows download progress (ignored by the plain view).
	Progress(provider, version string, done, total int64)
	// Message shows a block of text (lock file messages, final texts);
	// toStderr sends it to stderr.
	Message(kind, text string, toStderr bool)
	// Diagnostics shows diagnostics, each followed by an extra newline in
	// the human views.
	Diagnostics(diags hcl.Diagnostics)
	// Close ends any live display.
	Close()
}

// plainView prints OpenTofu's lines without colour.
type plainView struct {
	m *Meta
	// kept holds files whose content as read must be used for source
	// snippets: the lock file, which init may rewrite before its
	// diagnostics are printed.
	kept map[string]*hcl.File
}

// keepSource makes snippets of f's diagnostics show f as it was read.
func (v *plainView) keepSource(f *hcl.File, name string) {
	if f == nil {
		return
	}
	if v.kept == nil {
		v.kept = map[string]*hcl.File{}
	}
	v.kept[name] = f
}

func (v *plainView) Event(kind, provider, version, text string) { fmt.Fprintln(v.m.Stdout, text) }
func (v *plainView) Progress(string, string, int64, int64)      {}
func (v *plainView) Close()                                     {}

func (v *plainView) Message(kind, text string, toStderr bool) {
	w := v.m.Stdout
	if toStderr {
		w = v.m.Stderr
	}
	io.WriteString(w, text)
}

func (v *plainView) Diagnostics(diags hcl.Diagnostics) {
	p := newDiagPrinter(v.m, snippetFiles(diags, v.kept))
	p.extraNewline = true
	p.Print(diags)
}

// jsonView writes one JSON object per line to stdout.
type jsonView struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newJSONView(m *Meta) *jsonView {
	enc := json.NewEncoder(m.Stdout)
	enc.SetEscapeHTML(false)
	return &jsonView{enc: enc}
}

// jsonEvent is one line of "tfdeps init -json".
type jsonEvent struct {
	Type     string `json:"type"`
	Provider string `json:"provider,omitempty"`
	Version  string `json:"version,omitempty"`
	Message  string `json:"message,omitempty"`
	// Download progress.
	Bytes int64 `json:"bytes,omitempty"`
	Total int64 `json:"total,omitempty"`
	// Diagnostics.
	Severity string     `json:"severity,omitempty"`
	Summary  string     `json:"summary,omitempty"`
	Detail   string     `json:"detail,omitempty"`
	Range    *jsonRange `json:"range,omitempty"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

func (v *jsonView) write(e jsonEvent) {
	v.mu.Lock()
	defer v.mu.Unlock()
	_ = v.enc.Encode(e)
}

func (v *jsonView) Event(kind, provider, version, text string) {
	v.write(jsonEvent{Type: kind, Provider: provider, Version: version, Message: trimNewlines(text)})
}

func (v *jsonView) Progress(provider, version string, done, total int64) {
	v.write(jsonEvent{Type: "download_progress", Provider: provider, Version: version, Bytes: done, Total: total})
}

func (v *jsonView) Message(kind, text string, toStderr bool) {
	if kind == "blank" {
		return
	}
	v.write(jsonEvent{Type: kind, Message: trimNewlines(text)})
}

func (v *jsonView) Diagnostics(diags hcl.Diagnostics) {
	for _, d := range sortDiagnostics(diags) {
		e := jsonEvent{Type: "diagnostic", Severity: "warning", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagError {
			e.Severity = "error"
		}
		if d.Subject != nil {
			s := d.Subject
			e.Range = &jsonRange{
				Filename: s.Filename,
				Start:    jsonPos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:      jsonPos{s.End.Line, s.End.Column, s.End.Byte},
			}
		}
		v.write(e)
	}
}

func (v *jsonView) Close() {}

func trimNewlines(s string) string {
	for len(s) > 0 && s[0] == '\n' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	return s
}
