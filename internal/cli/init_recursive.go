package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/fleetview"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/providersource"
)

// init -recursive initialises every root module at or below the working
// directory (found as providers lock -recursive finds them) in one
// process: each root as init alone there would, its output buffered and
// printed in root order under a header line, the roots run in parallel
// (-parallelism), sharing the work they have in common (package fleet):
// provider version lists and package metadata asked once, each provider
// package downloaded once, each module package fetched once, each file
// parsed once. A failing root does not stop the others; the run ends with
// a table of the roots and exits 1 when any failed.
//
// Paths given on the command line (-plugin-dir, -var-file, -state,
// -backend-config files) are taken relative to the directory tfdeps runs
// in, not to each root.

// runInitRecursive is init -recursive.
func runInitRecursive(ctx context.Context, m *Meta, o *initOptions) int {
	if o.fromModule != "" {
		return recursiveUsageError(m, "The -recursive option cannot be used with -from-module.")
	}
	if o.jsonInto.file != nil {
		return recursiveUsageError(m, "The -recursive option cannot be used with -json-into.")
	}
	roots, err := fleet.Roots(".")
	if err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to find root modules", err.Error())})
		return 1
	}
	base := initEnv(m)
	if err := absolutePaths(m, o); err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to find root modules", err.Error())})
		return 1
	}
	src, _ := providersource.Build(providersource.BuildOptions{
		Config: base.CLIConfig, CLI: base.CLIOptions, Registry: base.Registry, Getenv: m.Getenv, PluginDirs: o.pluginDirs,
	})
	shared, err := fleet.NewShared(fleet.SharedOptions{
		Providers:      src,
		Downloader:     base.Registry,
		ModuleCacheDir: base.Workdir.ModuleCacheDir,
		DownloadBytes:  fleetDownloadBytes,
	})
	if err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to prepare the shared work", err.Error())})
		return 1
	}
	defer shared.Close()
	base.Providers = shared.Providers
	base.Workdir.Downloader = shared.Downloader
	base.Workdir.Packages = shared.Packages
	base.Workdir.ModuleCacheDir = shared.Modules.Dir()
	base.Workdir.Variables = append(base.Workdir.Variables, config.WithParseCache(shared.Parses))
	base.LiveDisplay = nil
	opts := o.runOptions()
	opts.Input = false // nobody can answer a prompt for one of many roots

	color := !o.noColor && m.Color
	var live *fleetview.Live
	if !o.json && liveDisplayWanted(m, o.noColor) {
		live = fleetview.NewLive(livedisplay.StatusOnTerminal(m.Stdout), len(roots))
	}
	now := time.Now
	release := func(r fleet.RootResult) {
		show := func() {
			if o.json {
				_ = fleetview.JSONRoot(m.Stdout, r, now())
				return
			}
			_ = fleetview.Release(m.Stdout, m.Stderr, fleetview.Init, r, color)
		}
		if live != nil {
			live.Print(show)
			return
		}
		show()
	}
	var events func(fleet.Event)
	if live != nil {
		events = live.Event
	}
	sum := fleet.Run(ctx, roots, func(ctx context.Context, t *fleet.Task) fleet.Outcome {
		env := *base
		env.Dir = t.Root
		env.Stdin = strings.NewReader("")
		var stdout, stderr bytes.Buffer // kept to find the first error
		env.Stdout, env.Stderr = io.MultiWriter(t.Stdout, &stdout), io.MultiWriter(t.Stderr, &stderr)
		code := initrun.Run(ctx, &env, opts)
		out := fleet.Outcome{Providers: lockedProviders(t.Root), Modules: installedModules(t.Root, m.Getenv("TF_DATA_DIR"))}
		if code != 0 {
			out.Err = firstError(stderr.Bytes(), stdout.Bytes(), o.json)
		}
		return out
	}, fleet.Options{Parallelism: o.parallelism, Release: release, Events: events})
	if live != nil {
		live.Print(func() {})
	}
	if o.json {
		_ = fleetview.JSONSummary(m.Stdout, sum, now())
	} else {
		_, _ = io.WriteString(m.Stdout, "\n")
		_ = fleetview.Table(m.Stdout, sum)
	}
	if !sum.OK() {
		return 1
	}
	return 0
}

// fleetDownloadBytes bounds the provider archives one run keeps to share
// between its roots; past it, each root downloads its own.
const fleetDownloadBytes = 4 << 30

// recursiveUsageError reports a flag that -recursive does not combine with.
func recursiveUsageError(m *Meta, detail string) int {
	newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Invalid combination of options", detail)})
	return 1
}

// absolutePaths makes the paths given on the command line absolute from
// the working directory, so that every root finds the same files.
func absolutePaths(m *Meta, o *initOptions) error {
	wd, err := m.Getwd()
	if err != nil {
		return err
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}
	for i, d := range o.pluginDirs {
		o.pluginDirs[i] = abs(d)
	}
	for i, v := range o.vars.opts {
		if v.File {
			o.vars.opts[i].Value = abs(v.Value)
		}
	}
	o.statePath = abs(o.statePath)
	for i, c := range o.configs {
		if !strings.Contains(c, "=") {
			o.configs[i] = abs(c)
		}
	}
	return nil
}

// lockedProviders counts the providers root's lock file records.
func lockedProviders(root string) int {
	locks, _, diags := lockfile.ReadFile(filepath.Join(root, lockFileName), lockfile.ReadOptions{})
	if diags.HasErrors() || locks == nil {
		return 0
	}
	return len(locks.Addresses())
}

// installedModules counts the module calls root's modules.json records.
func installedModules(root, dataDir string) int {
	if dataDir == "" {
		dataDir = ".terraform"
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(root, dataDir)
	}
	mf, err := manifest.Read(filepath.Join(dataDir, "modules", manifest.FileName))
	if err != nil {
		return 0
	}
	n := 0
	for key := range mf {
		if key != "" {
			n++
		}
	}
	return n
}

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// firstError is the first error a failed root printed: the summary of its
// first "Error:" diagnostic, or with -json the message of its first
// error line.
func firstError(stderr, stdout []byte, asJSON bool) error {
	for _, out := range [][]byte{stderr, stdout} {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := ansiEscape.ReplaceAllString(sc.Text(), "")
			if asJSON {
				if msg, ok := jsonErrorMessage(line); ok {
					return errors.New(msg)
				}
				continue
			}
			line = strings.TrimLeft(line, "│╷ ")
			if rest, ok := strings.CutPrefix(line, "Error: "); ok {
				return errors.New(rest)
			}
		}
	}
	return errors.New("init failed")
}

// jsonErrorMessage is the message of a -json line of level error.
func jsonErrorMessage(line string) (string, bool) {
	var l struct {
		Level   string `json:"@level"`
		Message string `json:"@message"`
	}
	if json.Unmarshal([]byte(line), &l) != nil || l.Level != "error" {
		return "", false
	}
	return strings.TrimPrefix(l.Message, "Error: "), true
}
