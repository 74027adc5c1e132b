package fleetview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
)

func summary() *fleet.Summary {
	return &fleet.Summary{
		Results: []fleet.RootResult{
			{Root: ".", Index: 0, Status: fleet.Succeeded, Providers: 2, Modules: 3, Duration: 1250 * time.Millisecond},
			{Root: "envs/prod", Index: 1, Status: fleet.Failed, Providers: 1, Err: errors.New("Error: Failed to query available provider packages\n\nmore detail"), Duration: 300 * time.Millisecond},
			{Root: "envs/staging", Index: 2, Status: fleet.NotRun},
		},
		Packages: 4, Bytes: 12_500_000, Elapsed: 2 * time.Second,
	}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	if err := Table(&b, summary()); err != nil {
		t.Fatal(err)
	}
	want := `ROOT          RESULT   PROVIDERS  MODULES  SECONDS
.             ok       2          3        1.2
envs/prod     failed   1          0        0.3
envs/staging  not run  -          -        -

1 root module failed:
  envs/prod: Error: Failed to query available provider packages

1 root module not run (interrupted):
  envs/staging

1 of 3 root modules succeeded in 2.0s.
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}

func TestJSON(t *testing.T) {
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	s := summary()
	for _, r := range s.Results {
		if err := JSONRoot(&b, r, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := JSONSummary(&b, s, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		`{"@level":"info","@message":"Root module .: ok","@module":"tofu.ui","@timestamp":"2026-11-28T10:00:00.000000Z","type":"root_result","root":{"path":".","result":"ok","providers":2,"modules":3,"seconds":1.25}}`,
		`{"@level":"error","@message":"Root module envs/prod failed: Error: Failed to query available provider packages","@module":"tofu.ui","@timestamp":"2026-11-28T10:00:00.000000Z","type":"root_result","root":{"path":"envs/prod","result":"failed","providers":1,"modules":0,"seconds":0.3,"error":"Error: Failed to query available provider packages"}}`,
		`{"@level":"warn","@message":"Root module envs/staging: not run","@module":"tofu.ui","@timestamp":"2026-11-28T10:00:00.000000Z","type":"root_result","root":{"path":"envs/staging","result":"not run","providers":0,"modules":0,"seconds":0}}`,
		`{"@level":"error","@message":"1 of 3 root modules succeeded","@module":"tofu.ui","@timestamp":"2026-11-28T10:00:00.000000Z","type":"fleet_summary","summary":{"roots":3,"succeeded":1,"failed":[{"path":"envs/prod","error":"Error: Failed to query available provider packages"}],"not_run":["envs/staging"],"packages":4,"bytes":12500000,"seconds":2}}`,
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
	}
}

// TestReleaseThroughRun: a run's roots come out each after its header, in
// root order, stdout and stderr apart; roots not run print nothing.
func TestReleaseThroughRun(t *testing.T) {
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fleet.Run(ctx, []string{"a", "b", "c"}, func(ctx context.Context, task *fleet.Task) fleet.Outcome {
		fmt.Fprintf(task.Stdout, "Initializing the backend...\n")
		fmt.Fprintf(task.Stderr, "Error: %s\n", task.Root)
		if task.Root == "b" {
			cancel()
		}
		return fleet.Outcome{}
	}, fleet.Options{Parallelism: 1, Release: func(r fleet.RootResult) {
		Release(&stdout, &stderr, Init, r, false)
	}})
	wantOut := "Initializing root module a...\nInitializing the backend...\nInitializing root module b...\nInitializing the backend...\n"
	if diff := cmp.Diff(wantOut, stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("Error: a\nError: b\n", stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}

func TestHeaderColor(t *testing.T) {
	var b bytes.Buffer
	Header(&b, Get, "envs/dev", true)
	if got, want := b.String(), "\x1b[1mDownloading modules for root module envs/dev...\x1b[0m\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLive: the status line follows the events and stays below the
// lines printed.
func TestLive(t *testing.T) {
	var term bytes.Buffer
	status := livedisplay.NewStatus(&term, livedisplay.NewWidth(func() (int, error) { return 80, nil }, nil))
	l := NewLive(status, 2)
	l.Event(fleet.RootStarted{Root: "a"})
	l.Event(fleet.Progress{Packages: 1, Bytes: 2_000_000})
	l.Print(func() { term.WriteString("Initializing root module a...\n") })
	l.Event(fleet.RootFinished{Done: 1, Total: 2})
	status.Close()
	want := "  Root modules: 0/2 done, 0 packages, 0.0 MB" +
		"\r\x1b[K  Root modules: 0/2 done, 1 package, 2.0 MB" +
		"\r\x1b[KInitializing root module a...\n  Root modules: 0/2 done, 1 package, 2.0 MB" +
		"\r\x1b[K  Root modules: 1/2 done, 1 package, 2.0 MB" +
		"\r\x1b[K"
	if diff := cmp.Diff(want, term.String()); diff != "" {
		t.Errorf("terminal (-want +got):\n%s", diff)
	}
}

// TestFirstError: the first error a root printed, from its diagnostics'
// text (framed or not, coloured or not, stderr before stdout) or from
// its -json lines, else the command's failure.
func TestFirstError(t *testing.T) {
	tests := []struct {
		name           string
		c              Command
		stderr, stdout string
		json           bool
		want           string
	}{
		{"plain", Get, "\nError: Module not found\n\n  on main.tf line 7:\n", "", false, "Module not found"},
		{"framed and coloured", Init, "╷\n│ \x1b[31m\x1b[1mError: \x1b[0m\x1b[1mFailed to query\x1b[0m\n╵\n", "", false, "Failed to query"},
		{"stderr first", LockVerify, "Error: second\n", "Error: first\n", false, "second"},
		{"stdout when stderr has none", Get, "Warning: w\n", "Error: only\n", false, "only"},
		{"json", Get, "", `{"@level":"info","@message":"x"}` + "\n" + `{"@level":"error","@message":"Error: Module not found"}` + "\n", true, "Module not found"},
		{"json ignores text", Init, "Error: text\n", "", true, "init failed"},
		{"nothing", LockVerify, "", "", false, "lock verify failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := FirstError(tt.c, []byte(tt.stderr), []byte(tt.stdout), tt.json)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
