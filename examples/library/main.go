// Command library initialises the working directory with package workdir,
// as "tfdeps init -plugin-dir=DIR" does there: the same modules, the same
// .terraform directory, the same .terraform.lock.hcl. It shows how a
// program uses tfdeps as a library; it prints only the diagnostics.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/workdir"
)

type dirList []string

func (d *dirList) String() string     { return strings.Join(*d, ",") }
func (d *dirList) Set(v string) error { *d = append(*d, v); return nil }

func main() {
	var pluginDirs dirList
	flag.Var(&pluginDirs, "plugin-dir", "install providers only from this directory (may be repeated)")
	flag.Parse()
	os.Exit(run(context.Background(), pluginDirs))
}

func run(ctx context.Context, pluginDirs []string) int {
	opts := workdir.Options{PluginDirs: pluginDirs, TestsDir: "tests"}
	res, diags, err := workdir.Init(ctx, opts, workdir.Events{})
	w := hcl.NewDiagnosticTextWriter(os.Stderr, nil, 78, false)
	_ = w.WriteDiagnostics(diags)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "init failed:", err)
		return 1
	case res.Empty:
		fmt.Println("The working directory has no configuration files.")
	default:
		fmt.Println("The working directory has been initialised.")
	}
	return 0
}
