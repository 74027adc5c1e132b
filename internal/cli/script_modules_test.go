package cli

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// cmdFakeArchives: "fakearchives N" checks that N module archives were
// downloaded (GET requests; go-getter also sends a HEAD first) from the
// fake since it started or since the last "fakereq reset".
func cmdFakeArchives(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: fakearchives N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	for _, r := range fakeServer(ts).Requests() {
		if r.Endpoint == registrytest.ModuleArchive && r.Method == http.MethodGet {
			got++
		}
	}
	if (got == want) == neg {
		ts.Fatalf("fakearchives: %d archive downloads, want %d", got, want)
	}
}

// cmdCmpManifest: "cmpmanifest FILE WANT" compares a modules.json, which
// has no final newline, with a txtar file WANT (which always has one).
func cmdCmpManifest(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpmanifest FILE WANT")
	}
	got, want := ts.ReadFile(args[0]), strings.TrimSuffix(ts.ReadFile(args[1]), "\n")
	if (got == want) == neg {
		ts.Fatalf("%s:\n%s\nwant:\n%s", args[0], got, want)
	}
}
