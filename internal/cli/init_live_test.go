package cli

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestInitViewChoice(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		ci       string
		noColor  bool
		json     bool
		want     string
	}{
		{name: "terminal", terminal: true, want: "live"},
		{name: "not a terminal", want: "plain"},
		{name: "CI set", terminal: true, ci: "true", want: "plain"},
		{name: "-no-color", terminal: true, noColor: true, want: "plain"},
		{name: "-json", terminal: true, json: true, want: "json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Meta{Env: Env{Stdout: io.Discard, Stderr: io.Discard,
				Getenv:     func(k string) string { return map[string]string{"CI": tc.ci}[k] },
				IsTerminal: func(io.Writer) bool { return tc.terminal }}}
			r := &initRun{m: m}
			r.opts.noColor, r.opts.json = tc.noColor, tc.json
			var got string
			switch r.newView().(type) {
			case *liveView:
				got = "live"
			case *plainView:
				got = "plain"
			case *jsonView:
				got = "json"
			}
			if got != tc.want {
				t.Errorf("view = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestLiveView: downloads in progress show on one status line (bytes and
// rate) that each printed line clears first; a finished download leaves
// it; headings are bold.
func TestLiveView(t *testing.T) {
	var out bytes.Buffer
	v := newLiveView(&Meta{Env: Env{Stdout: &out, Stderr: io.Discard}, Color: true})
	now := time.Unix(0, 0)
	v.now = func() time.Time { return now }

	v.Event("init_providers", "", "", initProvidersText)
	v.Progress("hashicorp/aws", "5.0.0", 0, 4e6)
	now = now.Add(time.Second)
	v.Progress("hashicorp/aws", "5.0.0", 2e6, 4e6)
	v.Event("installed", "hashicorp/aws", "5.0.0", "- Installed hashicorp/aws v5.0.0 (signed)")
	v.Close()

	want := "\n\x1b[0m\x1b[1mInitializing provider plugins...\x1b[0m\n" +
		"  Downloading hashicorp/aws v5.0.0 0.0/4.0 MB" +
		ansiClearLine + "  Downloading hashicorp/aws v5.0.0 2.0/4.0 MB (2.0 MB/s)" +
		ansiClearLine + "- Installed hashicorp/aws v5.0.0 (signed)\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("terminal output (-want +got):\n%s", diff)
	}
}
