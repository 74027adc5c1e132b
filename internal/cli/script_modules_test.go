package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/modules/modulestest"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// setupModuleRegistry serves the modules of a script's "registry"
// directory (registry/NS/NAME/SYSTEM/VERSION/FILES; a ".direct" file
// makes the version a registry-hosted archive, ".zip" a zip archive,
// ".location" holds an X-Terraform-Get answer as it is) from the script's
// fake, and rewrites the CLI configuration so that the default hosts'
// modules.v1 service points at it. Without that directory it does
// nothing.
func setupModuleRegistry(env *testscript.Env, sa *registrytest.Standalone) error {
	root := filepath.Join(env.WorkDir, "registry")
	if _, err := os.Stat(root); err != nil {
		return nil
	}
	mods, err := readFakeModules(root)
	if err != nil {
		return err
	}
	f, err := modulestest.Serve(sa.Server, mods, 0)
	if err != nil {
		return err
	}
	env.Values[fakeModulesKey] = f
	if err := servePages(f, filepath.Join(env.WorkDir, "pages"), sa.Host()); err != nil {
		return err
	}
	return os.WriteFile(sa.CLIConfigFile, []byte(f.CLIConfig(registrytest.DefaultHostnames()...)), 0o644)
}

const fakeModulesKey = "modulestest"

// servePages serves each file pages/NAME at /pages/NAME as a page whose
// X-Terraform-Get is the file's content, @HOST@ replaced by the fake's
// host:port.
func servePages(f *modulestest.Fake, dir, host string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		f.ServePage("/pages/"+e.Name(), strings.ReplaceAll(strings.TrimSpace(string(b)), "@HOST@", host))
	}
	return nil
}

func readFakeModules(root string) ([]modulestest.Module, error) {
	byDir := map[string]*modulestest.Module{}
	var order []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 5)
		if len(parts) < 5 {
			return nil
		}
		key := strings.Join(parts[:4], "/")
		m := byDir[key]
		if m == nil {
			m = &modulestest.Module{Namespace: parts[0], Name: parts[1], System: parts[2], Version: parts[3], Files: map[string]string{}}
			byDir[key] = m
			order = append(order, key)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch parts[4] {
		case ".direct":
			m.Direct = true
		case ".zip":
			m.Zip = true
		case ".location":
			m.Location = strings.TrimSpace(string(b))
		default:
			m.Files[parts[4]] = string(b)
		}
		return nil
	})
	out := make([]modulestest.Module, 0, len(order))
	for _, k := range order {
		out = append(out, *byDir[k])
	}
	return out, err
}

// cmdFakeArchives: "fakearchives N" checks that N module archives were
// downloaded from the fake since it started (or the last fakereq reset).
func cmdFakeArchives(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: fakearchives N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	f, _ := ts.Value(fakeModulesKey).(*modulestest.Fake)
	if f == nil {
		ts.Fatalf("fakearchives: the script has no registry directory")
	}
	if got := f.ArchiveRequests(); (got == want) == neg {
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
