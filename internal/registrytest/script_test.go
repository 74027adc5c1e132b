package registrytest

import (
	"io"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestScriptSetup(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: Setup(testOptions()),
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// fakeget PATH: GET a path from the fake and print the body.
			"fakeget": func(ts *testscript.TestScript, neg bool, args []string) {
				sa := ts.Value(ScriptValueKey).(*Standalone)
				resp, err := sa.Client().Get(sa.URL() + args[0])
				ts.Check(err)
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				ts.Check(err)
				ts.Stdout().Write(body)
			},
		},
	})
}
