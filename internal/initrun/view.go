package initrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
)

// View is how "tfdeps init" shows what it does: OpenTofu's plain lines,
// a live terminal display, or one JSON object per line.
type View interface {
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
	// Text is the generic path for any other part of init (module
	// installation, backend): the human views print human (with colour
	// markup) and a newline to stdout; the JSON view logs machine, OpenTofu's
	// JSON text for the same message, at level ("info", "warn", "error"),
	// with kind under "tfdeps". An empty machine text is left out of the
	// JSON output.
	Text(level, kind, human, machine string)
	// Close ends any live display.
	Close()
}

// plainView prints OpenTofu's lines without colour.
type plainView struct {
	m *Env
	// kept holds files whose content as read must be used for source
	// snippets: the lock file, which init may rewrite before its
	// diagnostics are printed.
	kept map[string]*hcl.File
	// printed is set once anything went to stdout; sectionEnded once the
	// blank line ending the provider section was printed (Terraform).
	printed, sectionEnded bool
	// get is set for tfdeps get, whose diagnostics are each followed by
	// an empty line in both flavours (terraform get shows them as its
	// other commands do, not as init).
	get bool
}

// layout adjusts a text to Terraform's layout of init's output, which
// trims every message: the section headers keep the blank line above
// them unless they come first, the other texts lose theirs, and the end
// of the provider section is one blank line of its own (so two before the
// success text when no lock file text follows).
func (v *plainView) layout(kind, text string) string {
	first := !v.printed
	v.printed = true
	if v.m.Flavour != flavour.Terraform {
		return text
	}
	if kind == "from_module_end" {
		// The blank line that ends -from-module's output: what follows
		// is laid out as if it came first.
		v.printed = false
		return text
	}
	switch {
	case markupKinds[kind]:
		if first {
			text = strings.TrimLeft(text, "\n")
		} else if kind == "init_modules" {
			// After the backend's section, its blank line.
			text = "\n" + text
		}
	case kind == "lock_created" || kind == "lock_changed":
		v.sectionEnded = true
		text = "\n" + strings.Trim(text, "\n")
	case kind == "blank":
		if !v.sectionEnded {
			text = "\n"
		}
		v.sectionEnded = true
	default:
		text = strings.Trim(text, "\n")
	}
	return text
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

// markupKinds are the events whose text carries colour markup.
var markupKinds = map[string]bool{"init_providers": true, "init_backend": true, "init_cloud": true, "init_modules": true}

func (v *plainView) Event(kind, provider, version, text string) {
	text = v.layout(kind, text)
	if markupKinds[kind] {
		text = diagrender.Colorize(text, v.m.Color)
	}
	fmt.Fprintln(v.m.Stdout, text)
}

func (v *plainView) Progress(string, string, int64, int64) {}
func (v *plainView) Close()                                {}

// Message prints text (with colour markup) and a newline.
func (v *plainView) Message(kind, text string, toStderr bool) {
	w := v.m.Stdout
	if toStderr {
		w = v.m.Stderr
	} else {
		text = v.layout(kind, text)
	}
	fmt.Fprintln(w, diagrender.Colorize(text, v.m.Color))
}

func (v *plainView) Diagnostics(diags hcl.Diagnostics) {
	p := newDiagPrinter(v.m, diagrender.SnippetFilesIn(v.m.Dir, diags, v.kept))
	// Terraform's init separates diagnostics by one blank line only, and
	// frames them as OpenTofu does when coloured; its get prints them as
	// its providers commands do (each coloured one wrapped in its
	// severity's colour).
	p.ExtraNewline = v.m.Flavour != flavour.Terraform || v.get
	p.Terraform = v.m.Flavour == flavour.Terraform && v.get
	p.Bare = v.m.Flavour == flavour.Terraform
	p.Print(diags)
}

func (v *plainView) Text(level, kind, human, machine string) {
	fmt.Fprintln(v.m.Stdout, diagrender.Colorize(v.layout(kind, human), v.m.Color))
}

// colored reports whether texts built by callers may carry escape codes.
func (v *plainView) colored() bool { return v.m.Color }

// JSONView is OpenTofu's machine-readable UI (version 1.2): one JSON
// object per line on stdout, the first naming the version, each with
// @level, @message, @module and @timestamp. tfdeps' own information about
// an event goes under the additional key "tfdeps".
type JSONView struct {
	mu  sync.Mutex
	m   *Env
	now func() time.Time
	// out receives the lines (nil: stdout; the -json-into file).
	out io.Writer
	// kept: see plainView.
	kept map[string]*hcl.File
	// bare leaves out the "tfdeps" key: get and providers lock print
	// exactly OpenTofu's lines.
	bare bool
}

// jsonUIVersion is the version of OpenTofu's machine-readable UI.
const jsonUIVersion = "1.2"

func newJSONView(m *Env) *JSONView { return newJSONViewTo(m, nil) }

// newJSONViewTo is the JSON view writing to out (nil: stdout).
func newJSONViewTo(m *Env, out io.Writer) *JSONView {
	v := &JSONView{m: m, now: time.Now, out: out}
	v.logVersion()
	return v
}

// logVersion logs the version message that opens the JSON output.
func (v *JSONView) logVersion() {
	m := v.m
	if m.Flavour == flavour.Terraform {
		v.write("info", "Terraform "+m.Version(), map[string]any{"type": "version", "terraform": m.Version(), "ui": terraformJSONUIVersion})
		return
	}
	v.write("info", "OpenTofu "+m.TofuVersion, map[string]any{"type": "version", "tofu": m.TofuVersion, "ui": jsonUIVersion})
}

func (v *JSONView) keepSource(f *hcl.File, name string) {
	if f == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.kept == nil {
		v.kept = map[string]*hcl.File{}
	}
	v.kept[name] = f
}

// write prints one line: the keys sorted, as OpenTofu's logger does.
func (v *JSONView) write(level, message string, extra map[string]any) {
	line := map[string]any{
		"@level":     level,
		"@message":   message,
		"@module":    v.m.Command() + ".ui",
		"@timestamp": v.now().Format("2006-01-02T15:04:05.000000Z07:00"),
	}
	for k, val := range extra {
		line[k] = val
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Terraform's logger escapes <, > and & as \u003c…; OpenTofu's does not.
	enc.SetEscapeHTML(v.m.Flavour == flavour.Terraform)
	if err := enc.Encode(line); err != nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.out
	if out == nil {
		out = v.m.Stdout
	}
	out.Write(buf.Bytes())
}

// JSONMessage writes a progress message for any part of init (the module
// installer uses it too): text is the human line, with or without
// colour markup; the "- " prefix, surrounding newlines and line breaks go
// as OpenTofu's JSON texts have them. kind and attrs describe the event
// for machines under the key "tfdeps".
func (v *JSONView) JSONMessage(level, kind, text string, attrs map[string]string) {
	if v.bare {
		v.write(level, jsonText(text), nil)
		return
	}
	t := map[string]any{"event": kind}
	for k, val := range attrs {
		if val != "" {
			t[k] = val
		}
	}
	if v.m.Flavour == flavour.Terraform {
		msg, extra := terraformJSONText(kind, text)
		extra["tfdeps"] = t
		v.write(level, msg, extra)
		return
	}
	v.write(level, jsonText(text), map[string]any{"tfdeps": t})
}

// jsonText turns a human text into OpenTofu's JSON form of it.
func jsonText(s string) string {
	s = diagrender.Colorize(s, false)
	s = trimNewlines(s)
	s = strings.TrimPrefix(s, "- ")
	s = strings.ReplaceAll(s, "\n\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// jsonLevels are the events OpenTofu logs above "info".
var jsonLevels = map[string]string{
	"installed_unsigned": "warn",
	"config_errors":      "error",
	"interrupted":        "error",
	"upgrade_conflict":   "error",
}

func (v *JSONView) Event(kind, provider, version, text string) {
	if kind == "warning" {
		// tofu prints an authentication warning (the expired-key line)
		// straight to stdout, as it is, between the JSON lines; not into
		// a -json-into file (the human view beside it prints it).
		if v.out != nil {
			return
		}
		v.mu.Lock()
		defer v.mu.Unlock()
		fmt.Fprintln(v.m.Stdout, text)
		return
	}
	level := jsonLevels[kind]
	if level == "" {
		level = "info"
	}
	v.JSONMessage(level, kind, text, map[string]string{"provider": provider, "version": version})
}

func (v *JSONView) Text(level, kind, human, machine string) {
	if machine == "" {
		return
	}
	extra := map[string]any{}
	if !v.bare {
		extra["tfdeps"] = map[string]any{"event": kind}
	}
	if v.m.Flavour == flavour.Terraform {
		// Terraform logs the module installer's lines as "log" lines.
		extra["type"] = "log"
	}
	v.write(level, machine, extra)
}

// Progress is not part of OpenTofu's JSON output.
func (v *JSONView) Progress(provider, version string, done, total int64) {}

func (v *JSONView) Message(kind, text string, toStderr bool) {
	if kind == "blank" || kind == "empty_line" || kind == "from_module_end" {
		return
	}
	level := jsonLevels[kind]
	if level == "" {
		level = "info"
	}
	v.JSONMessage(level, kind, text, nil)
}

func (v *JSONView) Diagnostics(diags hcl.Diagnostics) {
	v.mu.Lock()
	files := diagrender.SnippetFilesIn(v.m.Dir, diags, v.kept)
	v.mu.Unlock()
	// OpenTofu's JSON view neither sorts nor consolidates.
	for _, d := range diags {
		level, prefix := "warn", "Warning: "
		if d.Severity == hcl.DiagError {
			level, prefix = "error", "Error: "
		}
		v.write(level, prefix+d.Summary, map[string]any{"type": "diagnostic", "diagnostic": diagrender.NewDiagnostic(d, files)})
	}
}

func (v *JSONView) Close() {}

func trimNewlines(s string) string {
	for len(s) > 0 && s[0] == '\n' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	return s
}

// Texts of init in flavour f's words, with colour markup (the views add
// the final newline).

func initEmptyTextIn(f flavour.Flavour) string {
	return fmt.Sprintf("[reset][bold]%[1]s initialized in an empty directory![reset]\n\n"+
		"The directory has no %[1]s configuration files. You may begin working\n"+
		"with %[1]s immediately by creating %[1]s configuration files.", f.Product())
}

func initConfigErrorTextIn(f flavour.Flavour) string {
	opening := "OpenTofu encountered problems during initialization"
	if f == flavour.Terraform {
		opening = "Terraform encountered problems during initialisation"
	}
	return fmt.Sprintf("\n[reset]%s, including problems\n"+
		"with the configuration, described below.\n\n"+
		"The %[2]s configuration must be valid before initialization so that\n"+
		"%[2]s can determine which modules and providers need to be installed.", opening, f.Product())
}

func initSuccessTextIn(f flavour.Flavour) string {
	return "[reset][bold][green]" + f.Product() + " has been successfully initialized![reset][green]"
}

func initNextStepsTextIn(f flavour.Flavour) string {
	return fmt.Sprintf("[reset][green]\nYou may now begin working with %[1]s. Try running \"%[2]s plan\" to see\n"+
		"any changes that are required for your infrastructure. All %[1]s commands\n"+
		"should now work.\n\n"+
		"If you ever set or change modules or backend configuration for %[1]s,\n"+
		"rerun this command to reinitialize your working directory. If you forget, other\n"+
		"commands will detect it and remind you to do so if necessary.", f.Product(), f.Command())
}

func lockCreatedTextIn(f flavour.Flavour) string {
	return fmt.Sprintf("\n%[1]s has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\n"+
		"selections it made above. Include this file in your version control repository\n"+
		"so that %[1]s can guarantee to make the same selections by default when\n"+
		"you run \"%[2]s init\" in the future.", f.Product(), f.Command())
}

func lockChangedTextIn(f flavour.Flavour) string {
	return "\n" + f.Product() + " has made some changes to the provider dependency selections recorded\n" +
		"in the .terraform.lock.hcl file. Review those changes and commit them to your\n" +
		"version control system if they represent changes you intended to make."
}

// Texts of init that are the same in both flavours.
const (
	initBackendText     = "\n[reset][bold]Initializing the backend..."
	initProvidersText   = "\n[reset][bold]Initializing provider plugins..."
	initInterruptedText = "Provider installation was canceled by an interrupt signal."
	initUpgradeConflict = "The -upgrade flag conflicts with -lockfile=readonly."
)
