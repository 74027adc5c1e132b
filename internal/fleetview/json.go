package fleetview

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/tfdeps/tfdeps/fleet"
)

// The -json view of a run: one object per line for each root's result,
// in root order, then one summary object. They have the fields every
// tofu -json line has ("@level", "@message", "@module", "@timestamp",
// "type") and their own under "root" or "summary"; their types
// ("root_result", "fleet_summary") are tfdeps' own.

type jsonLine struct {
	Level     string       `json:"@level"`
	Message   string       `json:"@message"`
	Module    string       `json:"@module"`
	Timestamp string       `json:"@timestamp"`
	Type      string       `json:"type"`
	Root      *jsonRoot    `json:"root,omitempty"`
	Summary   *jsonSummary `json:"summary,omitempty"`
}

type jsonRoot struct {
	Path      string  `json:"path"`
	Result    string  `json:"result"`
	Providers int     `json:"providers"`
	Modules   int     `json:"modules"`
	Seconds   float64 `json:"seconds"`
	Error     string  `json:"error,omitempty"`
}

type jsonSummary struct {
	Roots     int        `json:"roots"`
	Succeeded int        `json:"succeeded"`
	Failed    []jsonFail `json:"failed"`
	NotRun    []string   `json:"not_run"`
	Packages  int        `json:"packages"`
	Bytes     int64      `json:"bytes"`
	Seconds   float64    `json:"seconds"`
}

type jsonFail struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// JSONModule is the "@module" of the lines.
const JSONModule = "tofu.ui"

// timestampFormat is the "@timestamp" layout of tofu's -json lines.
const timestampFormat = "2006-01-02T15:04:05.000000Z07:00"

// JSONRoot writes a root's result as one line.
func JSONRoot(w io.Writer, r fleet.RootResult, now time.Time) error {
	jr := &jsonRoot{Path: r.Root, Result: r.Status.String(), Providers: r.Providers, Modules: r.Modules, Seconds: seconds(r.Duration)}
	level, msg := "info", fmt.Sprintf("Root module %s: %s", r.Root, r.Status)
	switch r.Status {
	case fleet.Failed:
		jr.Error = firstLine(r.Err)
		level, msg = "error", fmt.Sprintf("Root module %s failed: %s", r.Root, jr.Error)
	case fleet.NotRun:
		level = "warn"
	}
	return writeLine(w, jsonLine{Level: level, Message: msg, Module: JSONModule, Timestamp: now.Format(timestampFormat), Type: "root_result", Root: jr})
}

// JSONSummary writes the summary line.
func JSONSummary(w io.Writer, s *fleet.Summary, now time.Time) error {
	js := &jsonSummary{Roots: len(s.Results), Failed: []jsonFail{}, NotRun: []string{}, Packages: s.Packages, Bytes: s.Bytes, Seconds: seconds(s.Elapsed)}
	for _, r := range s.Failed() {
		js.Failed = append(js.Failed, jsonFail{Path: r.Root, Error: firstLine(r.Err)})
	}
	for _, r := range s.NotRun() {
		js.NotRun = append(js.NotRun, r.Root)
	}
	js.Succeeded = js.Roots - len(js.Failed) - len(js.NotRun)
	level := "info"
	if len(js.Failed) > 0 || len(js.NotRun) > 0 {
		level = "error"
	}
	msg := fmt.Sprintf("%d of %s succeeded", js.Succeeded, plural(js.Roots, "root module"))
	return writeLine(w, jsonLine{Level: level, Message: msg, Module: JSONModule, Timestamp: now.Format(timestampFormat), Type: "fleet_summary", Summary: js})
}

func writeLine(w io.Writer, l jsonLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// seconds rounds to milliseconds.
func seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
