package cli

import (
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
)

// jsonTimestamp is the "@timestamp" of a line of OpenTofu's machine-
// readable UI, microseconds in UTC.
var jsonTimestamp = regexp.MustCompile(`"@timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"`)

// normalizeJSONLines replaces each well-formed timestamp with "T" (a
// malformed one stays and shows in the diff) and, when sorted, sorts the
// lines: the order of tofu's lines for concurrent fetches varies between
// runs.
func normalizeJSONLines(text string, sorted bool) []string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = jsonTimestamp.ReplaceAllString(l, `"@timestamp":"T"`)
	}
	if sorted {
		sort.Strings(lines)
	}
	return lines
}

// cmdCmpJSONLines: "cmpjsonl [-sorted] GOT WANT" compares two outputs of
// a -json command line by line, each timestamp matched by its pattern
// (write "T" for it in WANT; WANT's $VARIABLES are expanded, as cmpenv
// does); with -sorted, as sets of lines. GOT may be stdout or stderr.
func cmdCmpJSONLines(ts *testscript.TestScript, neg bool, args []string) {
	sorted := len(args) > 0 && args[0] == "-sorted"
	if sorted {
		args = args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: cmpjsonl [-sorted] GOT WANT")
	}
	read := func(name string) string {
		if name == "stdout" || name == "stderr" {
			return ts.ReadFile(name)
		}
		b, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		return string(b)
	}
	got := normalizeJSONLines(read(args[0]), sorted)
	want := normalizeJSONLines(os.Expand(read(args[1]), ts.Getenv), sorted)
	if diff := cmp.Diff(want, got); (diff == "") == neg {
		ts.Fatalf("%s and %s (-want +got):\n%s", args[0], args[1], diff)
	}
}
