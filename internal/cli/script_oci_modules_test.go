package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/ocitest"
)

// TestOCIModuleScripts runs the scripts of testdata/oci_module against an
// OCI registry (internal/ocitest) started for each script: $OCI is its
// host (127.0.0.1:PORT), trusted through SSL_CERT_FILE. Commands:
//
//	ocipush REPO TAG DIR [VAR]  push DIR's files as a module package into
//	                            REPO under TAG; VAR is set to its digest
//	ociauth USER PASSWORD       the registry wants these credentials
//	ociblobs N                  the registry served N blob downloads
//	ociexpand FILE...           replace ${NAME} in the files by the
//	                            script's variables ($OCI, digests)
func TestOCIModuleScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "oci_module"),
		Setup:               ociScriptSetup,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"ocipush":   cmdOCIPush,
			"ociauth":   cmdOCIAuth,
			"ociblobs":  cmdOCIBlobs,
			"ociexpand": cmdOCIExpand,
		},
	})
}

// ociServers holds each script's registry by its work directory.
var ociServers sync.Map

func ociScriptSetup(env *testscript.Env) error {
	if err := scriptSetup(env); err != nil {
		return err
	}
	srv, err := ocitest.Start()
	if err != nil {
		return err
	}
	env.Defer(func() { srv.Close() })
	ca, err := srv.WriteCAFile(env.WorkDir)
	if err != nil {
		return err
	}
	env.Setenv("SSL_CERT_FILE", ca)
	env.Setenv("OCI", srv.Host)
	ociServers.Store(env.WorkDir, srv)
	return nil
}

func ociServer(ts *testscript.TestScript) *ocitest.Server {
	v, _ := ociServers.Load(ts.Getenv("WORK"))
	return v.(*ocitest.Server)
}

func cmdOCIPush(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: ocipush REPO TAG DIR [VAR]")
	}
	files := map[string]string{}
	root := ts.MkAbs(args[2])
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	ts.Check(err)
	d, err := ociServer(ts).PushModule(context.Background(), args[0], args[1], files)
	ts.Check(err)
	if len(args) == 4 {
		ts.Setenv(args[3], d)
	}
}

func cmdOCIAuth(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: ociauth USER PASSWORD")
	}
	ociServer(ts).RequireBasicAuth(args[0], args[1])
}

func cmdOCIBlobs(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: ociblobs N")
	}
	got := ociServer(ts).BlobGets()
	if (args[0] == strconv.FormatInt(got, 10)) == neg {
		ts.Fatalf("ociblobs: %d blob downloads, want %s", got, args[0])
	}
}

func cmdOCIExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: ociexpand FILE...")
	}
	for _, f := range args {
		b, err := os.ReadFile(ts.MkAbs(f))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(os.Expand(string(b), ts.Getenv)), 0o644))
	}
}
