package nesting

import (
	"errors"
	"strings"
	"testing"
)

// heredoc returns a native file with one heredoc of n lines of w bytes
// (newline included).
func heredoc(n, w int) string {
	line := strings.Repeat("x", w-1) + "\n"
	return "a = <<EOT\n" + strings.Repeat(line, n) + "EOT\n"
}

// TestJoinedEstimate: the estimate grows with the square of a run of
// literal parts (n lines of w bytes: about n²w/2) and restarts after an
// interpolation, which ends a run.
func TestJoinedEstimate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		syntax   Syntax
		min, max int64
	}{
		{"heredoc 1000 x 80", heredoc(1000, 80), HCL, 1000 * 1000 * 80 / 2 * 9 / 10, 1000 * 1000 * 80 / 2 * 11 / 10},
		{"heredoc 2000 x 80", heredoc(2000, 80), HCL, 2000 * 2000 * 80 / 2 * 9 / 10, 2000 * 2000 * 80 / 2 * 11 / 10},
		{"escapes", `a = "` + strings.Repeat("$${x", 1000) + `"` + "\n", HCL, 1000 * 1000 * 4 * 9 / 10, 1000 * 1000 * 4 * 11 / 10}, // 2,000 parts (escape, text), 4 KB
		{"interpolations end runs", "a = <<EOT\n" + strings.Repeat("xxxxxxx ${a}\n", 2000) + "EOT\n", HCL, 0, 2000 * 2 * (16 + partCost)},
		{"one string", `a = "` + strings.Repeat("x", 100000) + `"` + "\n", HCL, 0, 0},
		{"json string of lines", `{"locals": {"a": "` + strings.Repeat(`xxxxxxx\n`, 1000) + `"}}`, HCLJSON, 1000 * 1000 * 8 / 2 * 9 / 10, 1000 * 1000 * 8 / 2 * 12 / 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Joined([]byte(tc.src), tc.syntax)
			if got < tc.min || got > tc.max {
				t.Errorf("Joined = %d, want %d..%d", got, tc.min, tc.max)
			}
		})
	}
}

// TestCheckLimitsJoined: past Limits.Joined the scan stops with a
// *TooManyPartsError at the part beyond the limit, inside the heredoc.
func TestCheckLimitsJoined(t *testing.T) {
	src := []byte(heredoc(2000, 80))
	total := Joined(src, HCL)
	if err := CheckLimits(src, HCL, Limits{Depth: MaxDepth, Joined: total}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	err := CheckLimits(src, HCL, Limits{Depth: MaxDepth, Joined: total / 4})
	var tm *TooManyPartsError
	if !errors.As(err, &tm) {
		t.Fatalf("past the limit: got %v, want a *TooManyPartsError", err)
	}
	// About half the lines fit in a quarter of the quadratic cost.
	if tm.Pos.Line < 900 || tm.Pos.Line > 1100 || tm.Pos.Column != 1 {
		t.Errorf("refused at %d:%d, want about line 1000, column 1", tm.Pos.Line, tm.Pos.Column)
	}
	d := tm.Diagnostic("main.tf")
	if d.Summary != "Configuration file too complex" || d.Subject.Filename != "main.tf" || d.Subject.Start != tm.Pos {
		t.Errorf("diagnostic = %+v", d)
	}
}
