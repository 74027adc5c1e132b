package initrun

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/livedisplay"
)

// TestInitViewChoice: the live display goes where the caller says a
// terminal is (Env.LiveDisplay; the CLI's rule is TestLiveDisplayChoice),
// unless -no-color or -json.
func TestInitViewChoice(t *testing.T) {
	tests := []struct {
		name    string
		live    bool
		noColor bool
		json    bool
		want    string
	}{
		{name: "terminal", live: true, want: "live"},
		{name: "not a terminal, or CI set", want: "plain"},
		{name: "-no-color", live: true, noColor: true, want: "plain"},
		{name: "-json", live: true, json: true, want: "json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := &Env{Stdout: io.Discard, Stderr: io.Discard}
			if tc.live {
				env.LiveDisplay = func() *livedisplay.Display { return livedisplay.OnTerminal(io.Discard) }
			}
			var got string
			switch NewView(env, Options{NoColor: tc.noColor, JSON: tc.json}).(type) {
			case *liveView:
				got = "live"
			case *plainView:
				got = "plain"
			case *JSONView:
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
	v := newLiveView(&Env{Stdout: &out, Stderr: io.Discard, Color: true,
		LiveDisplay: func() *livedisplay.Display { return livedisplay.OnTerminal(&out) }})
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
