package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/internal/lockview"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// fakeTerminal is as much of a terminal as the live views need: a screen
// of rows that wrap at cols (a character written past the last column
// goes to the next row, as xterm does), "\r", "\n", "\x1b[K" (clear to
// the end of the row), other escape sequences taking no room, wide runes
// taking two cells.
type fakeTerminal struct {
	cols     int
	rows     [][]string
	row, col int
}

func (t *fakeTerminal) Write(p []byte) (int, error) {
	s := string(p)
	for i := 0; i < len(s); {
		if n := livedisplay.EscapeLen(s[i:]); n > 0 {
			if s[i:i+n] == "\x1b[K" {
				t.grow()
				if t.col < len(t.rows[t.row]) {
					t.rows[t.row] = t.rows[t.row][:t.col]
				}
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r {
		case '\r':
			t.col = 0
			continue
		case '\n':
			t.row, t.col = t.row+1, 0
			continue
		}
		w := livedisplay.RuneCells(r)
		if t.col+w > t.cols {
			t.row, t.col = t.row+1, 0
		}
		t.grow()
		cells := t.rows[t.row]
		for len(cells) < t.col+w {
			cells = append(cells, " ")
		}
		cells[t.col] = string(r)
		if w == 2 {
			cells[t.col+1] = ""
		}
		t.rows[t.row] = cells
		t.col += w
	}
	return len(p), nil
}

func (t *fakeTerminal) grow() {
	for len(t.rows) <= t.row {
		t.rows = append(t.rows, nil)
	}
}

// screen is what the terminal shows, one line per row.
func (t *fakeTerminal) screen() string {
	var b strings.Builder
	for _, r := range t.rows {
		b.WriteString(strings.TrimRight(strings.Join(r, ""), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func fixedWidth(cols int) *livedisplay.Width {
	return livedisplay.NewWidth(func() (int, error) { return cols, nil }, nil)
}

// longProvider has a name far wider than a narrow terminal.
var longProvider = addrs.Provider{Hostname: "registry.opentofu.org", Namespace: "a-very-long-namespace-of-providers", Type: "an-even-longer-provider-type-name"}

// TestLiveViewsOnTerminal: whatever the width, once the views are done the
// terminal shows exactly what the plain lines show: the status line never
// wraps, so clearing it leaves nothing behind. (On an 80-column terminal
// the status line once reached 358 characters.)
func TestLiveViewsOnTerminal(t *testing.T) {
	v1, _ := versions.ParseVersion("1.2.3")
	linux := addrs.Platform{OS: "linux", Arch: "amd64"}
	darwin := addrs.Platform{OS: "darwin", Arch: "arm64"}
	auth := &registry.AuthResult{}
	module := "git::https://example.com/组织/模块-with-a-long-name.git?ref=v1.0.0"
	scenarios := []struct {
		name string
		// run drives a view: live says whether it is the live one; it
		// writes to out.
		run func(m *Meta, out io.Writer, cols int, live bool)
	}{
		{name: "init providers and modules", run: func(m *Meta, out io.Writer, cols int, live bool) {
			env := &initrun.Env{Stdout: m.Stdout, Stderr: m.Stderr, Color: m.Color}
			if live {
				env.LiveDisplay = func() *livedisplay.Display { return livedisplay.New(out, fixedWidth(cols)) }
			}
			v := initrun.NewView(env, initrun.Options{})
			mods := initrun.GetEvents(v, m.Flavour).ModuleFetches
			if live != (mods != nil) {
				t.Fatalf("module fetch events: %v, want them only in the live view", mods != nil)
			}
			if mods == nil {
				mods = &modulesFetchEventsNone
			}
			v.Text("info", "init_modules", "[reset][bold]Initializing modules...", "")
			mods.Started(module)
			v.Text("info", "module_download", "Downloading "+module+" for app...", "")
			mods.Bytes(module, 1e6, 3e6)
			v.Event("init_providers", "", "", "\n[reset][bold]Initializing provider plugins...")
			name := longProvider.ForDisplay()
			v.Progress(name, "1.2.3", 1e6, 9e6)
			v.Progress("hashicorp/aws", "5.0.0", 2e6, 9e6)
			mods.Finished(module, nil)
			v.Text("info", "module_install", "- app in .terraform/modules/app", "")
			v.Event("installed", name, "1.2.3", "- Installed "+name+" v1.2.3 (signed)")
			v.Progress("hashicorp/aws", "5.0.0", 9e6, 9e6)
			v.Event("installed", "hashicorp/aws", "5.0.0", "- Installed hashicorp/aws v5.0.0 (signed)")
			v.Close()
		}},
		{name: "providers lock", run: func(m *Meta, out io.Writer, cols int, live bool) {
			var v lockview.View = lockHuman(m)
			if live {
				v = &lockview.Live{Human: lockHuman(m), Display: livedisplay.New(out, fixedWidth(cols))}
			}
			ev := lockview.Events(v, m.Flavour)
			if live != (ev.DownloadProgress != nil) {
				t.Fatalf("download events: %v, want them only in the live view", ev.DownloadProgress != nil)
			}
			if ev.DownloadProgress != nil {
				ev.DownloadProgress(longProvider, v1, linux, 5e5, 4e6)
				ev.DownloadProgress(longProvider, v1, darwin, 1e6, 4e6)
			}
			ev.Fetching(longProvider, v1, linux)
			if ev.DownloadEnded != nil {
				ev.DownloadEnded(longProvider, v1, linux)
			}
			ev.Retrieved(longProvider, v1, linux, auth)
			if ev.DownloadEnded != nil {
				ev.DownloadEnded(longProvider, v1, darwin)
			}
			ev.Fetching(longProvider, v1, darwin)
			ev.Retrieved(longProvider, v1, darwin, auth)
			v.Obtained([]providerlock.Obtained{{Provider: longProvider, Platform: linux, Kind: providerlock.NewProvider}})
			v.Success(true)
			lockview.Close(v)
		}},
		{name: "providers mirror", run: func(m *Meta, out io.Writer, cols int, live bool) {
			ev := mirrorEvents(m)
			var d *livedisplay.Display
			if live {
				d = livedisplay.New(out, fixedWidth(cols))
				ev = lockview.MirrorLive(d, m.Flavour, ev)
			}
			ev.Mirroring(longProvider)
			ev.Selected(longProvider, v1, false, nil)
			if live {
				ev.DownloadProgress(longProvider, v1, linux, 1e6, 2e6)
				ev.DownloadProgress(longProvider, v1, darwin, 1e6, -1)
				ev.DownloadEnded(longProvider, v1, linux)
				ev.DownloadEnded(longProvider, v1, darwin)
			}
			ev.Downloading(longProvider, linux)
			ev.Authenticated(longProvider, linux, auth)
			ev.Downloading(longProvider, darwin)
			ev.Authenticated(longProvider, darwin, auth)
			if d != nil {
				d.Close()
			}
		}},
	}
	for _, sc := range scenarios {
		for _, cols := range []int{12, 40, 80, 200} {
			t.Run(fmt.Sprintf("%s/%d", sc.name, cols), func(t *testing.T) {
				plain := &fakeTerminal{cols: cols}
				sc.run(&Meta{Env: Env{Stdout: plain, Stderr: io.Discard}, Color: true}, plain, cols, false)
				var raw bytes.Buffer
				live := &fakeTerminal{cols: cols}
				sc.run(&Meta{Env: Env{Stdout: io.MultiWriter(live, &raw), Stderr: io.Discard}, Color: true}, io.MultiWriter(live, &raw), cols, true)
				if diff := cmp.Diff(plain.screen(), live.screen()); diff != "" {
					t.Errorf("width %d: screen after the live view (-plain +live):\n%s", cols, diff)
				}
				if !strings.Contains(raw.String(), ansiClearLine) {
					t.Errorf("width %d: the live view showed no status line", cols)
				}
				// Each status line, the text between the last line break
				// before a clear and that clear, fits.
				for _, seg := range strings.Split(raw.String(), ansiClearLine) {
					status := seg[strings.LastIndexByte(seg, '\n')+1:]
					if n := livedisplay.StringCells(status); n >= cols {
						t.Errorf("width %d: status line %q takes %d cells", cols, status, n)
					}
				}
			})
		}
	}
}

// modulesFetchEventsNone stands for the fetch events the plain view does
// not have.
var modulesFetchEventsNone = moduleinstall.FetchEvents{
	Started:  func(string) {},
	Bytes:    func(string, int64, int64) {},
	Finished: func(string, error) {},
}

// ansiClearLine returns to the start of the line and clears it.
const ansiClearLine = "\r\x1b[K"

// liveInitView is init's live view on out, 80 columns wide.
func liveInitView(out io.Writer) initrun.View {
	env := &initrun.Env{Stdout: out, Stderr: io.Discard,
		LiveDisplay: func() *livedisplay.Display { return livedisplay.New(out, fixedWidth(80)) }}
	return initrun.NewView(env, initrun.Options{})
}

// TestLiveModuleFetchesIgnoreFailures: a failed fetch leaves the status
// line as a finished one does.
func TestLiveModuleFetchesIgnoreFailures(t *testing.T) {
	var out bytes.Buffer
	ev := initrun.GetEvents(liveInitView(&out), flavour.OpenTofu).ModuleFetches
	ev.Started("git::https://example.com/a.git")
	ev.Finished("git::https://example.com/a.git", errors.New("clone failed"))
	want := "  Downloading git::https://example.com/a.git" + ansiClearLine
	if got := out.String(); got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}

// TestLiveLabelsAreSafe: an escape sequence in a module address cannot
// reach the terminal.
func TestLiveLabelsAreSafe(t *testing.T) {
	var out bytes.Buffer
	initrun.GetEvents(liveInitView(&out), flavour.OpenTofu).ModuleFetches.Started("https://example.com/\x1b]0;title\x07x.zip")
	if got, want := out.String(), "  Downloading https://example.com/?]0;title?x.zip"; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}

// TestLiveDisplayChoice: get, providers lock and providers mirror choose
// their live display by init's rule: a terminal, colours on, CI empty, and
// for get and providers lock no -json.
func TestLiveDisplayChoice(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		ci       string
		noColor  bool
		json     bool
		want     bool
	}{
		{name: "terminal", terminal: true, want: true},
		{name: "not a terminal"},
		{name: "CI set", terminal: true, ci: "true"},
		{name: "-no-color", terminal: true, noColor: true},
		{name: "-json", terminal: true, json: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Meta{Env: Env{Stdout: io.Discard, Stderr: io.Discard,
				Getenv:     func(k string) string { return map[string]string{"CI": tc.ci}[k] },
				IsTerminal: func(io.Writer) bool { return tc.terminal }}, Color: !tc.noColor}
			lock := newLockView(m, &jsonFlags{json: tc.json})
			defer lockview.Close(lock)
			if got := lockview.LiveOf(lock) != nil; got != tc.want {
				t.Errorf("providers lock: live = %v, want %v", got, tc.want)
			}
			get := initrun.NewGetView(m.runEnv(), false, tc.json, nil)
			defer get.Close()
			if got := initrun.GetEvents(get, m.Flavour).ModuleFetches != nil; got != tc.want {
				t.Errorf("get: live = %v, want %v", got, tc.want)
			}
			if !tc.json {
				if got := liveDisplayWanted(m, !m.Color); got != tc.want {
					t.Errorf("providers mirror: live = %v, want %v", got, tc.want)
				}
			}
		})
	}
}
