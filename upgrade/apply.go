package upgrade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/workdir"
)

// ErrOtherFlavour reports a lock file written by the product that is not
// emulated: upgrading would rewrite it in the other product's format.
var ErrOtherFlavour = errors.New("the lock file was written by the other product")

// Apply carries the plan out: it writes the rewritten configuration
// files (each atomically), then installs as "init" does (workdir.Init,
// with the report's Options.Workdir): with everything selected, as
// "init -upgrade" does; otherwise the selected providers' lock entries
// and the selected modules' records are dropped first, so that init
// chooses their newest allowed versions and keeps the rest. The
// backend is left as it is. On any error the configuration files and the
// lock file are put back as they were (the modules directory is as init
// left it) and the diagnostics say why. Afterwards each change's To is
// the version installed.
func (pl *Plan) Apply(ctx context.Context) (hcl.Diagnostics, error) {
	o := pl.report.opts
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	if other := OtherFlavourLockFile(dir, o.Flavour); other != "" {
		return hcl.Diagnostics{errorDiag("Lock file of the other product", other+".")}, ErrOtherFlavour
	}
	if len(pl.Changes) == 0 {
		return nil, nil
	}
	lockPath := filepath.Join(dir, lockFileName)
	saved := map[string][]byte{}
	for _, path := range append(append([]string{}, pl.order...), lockPath) {
		if b, err := regfile.ReadFileMax(path, maxConfigFile); err == nil {
			saved[path] = b
		} else if !errors.Is(err, os.ErrNotExist) {
			return hcl.Diagnostics{errorDiag("Failed to read "+path, err.Error())}, err
		}
	}
	modsDir := filepath.Dir(pl.report.manifestPath(dir))
	backup, err := snapshot(modsDir)
	if err != nil {
		return hcl.Diagnostics{errorDiag("Failed to copy the modules directory aside", err.Error())}, err
	}
	diags, err := pl.install(ctx, dir, lockPath)
	if err != nil {
		if rerr := backup.restore(); rerr != nil {
			diags = append(diags, errorDiag("Failed to restore "+modsDir, rerr.Error()))
		}
		for _, path := range append(append([]string{}, pl.order...), lockPath) {
			if b, ok := saved[path]; ok {
				if werr := writeAtomic(path, b); werr != nil {
					diags = append(diags, errorDiag("Failed to restore "+path, werr.Error()))
				}
			}
		}
		return diags, err
	}
	backup.discard()
	pl.installed(dir)
	return diags, nil
}

func (pl *Plan) install(ctx context.Context, dir, lockPath string) (hcl.Diagnostics, error) {
	o := pl.report.opts
	for _, path := range pl.order {
		if err := writeAtomic(path, pl.files[path]); err != nil {
			return hcl.Diagnostics{errorDiag("Failed to write "+path, err.Error())}, err
		}
	}
	if !pl.every {
		if diags, err := pl.forget(dir, lockPath); err != nil {
			return diags, err
		}
	}
	w := o.Workdir
	w.Dir, w.Flavour, w.Version, w.Upgrade = o.Dir, o.Flavour, o.Version, pl.every
	w.Variables = append(append([]config.Option{}, w.Variables...), o.Config...)
	if w.DataDir == "" {
		w.DataDir = o.DataDir
	}
	_, diags, err := workdir.Init(ctx, w, workdir.Events{})
	return diags, err
}

// forget drops the lock entries of the providers that change and the
// module records of the modules that change (and below them), so that
// init chooses them anew.
func (pl *Plan) forget(dir, lockPath string) (hcl.Diagnostics, error) {
	o := pl.report.opts
	locks := pl.report.locks
	dropped := false
	for _, c := range pl.Changes {
		// A provider whose version stays (only its constraint changes)
		// keeps its entry and so its other platforms' hashes.
		if !c.Provider.IsZero() && c.From != c.To && locks.Provider(c.Provider) != nil {
			locks.RemoveProvider(c.Provider)
			dropped = true
		}
	}
	if dropped {
		if diags := lockfile.WriteFileIn(o.Dir, lockFileName, locks, o.Flavour); diags.HasErrors() {
			return diags, errors.New(diags.Error())
		}
	}
	manPath := pl.report.manifestPath(dir)
	man, err := manifest.Read(manPath)
	if err != nil {
		return hcl.Diagnostics{errorDiag("Failed to read module manifest", err.Error())}, err
	}
	n := len(man)
	for _, c := range pl.Changes {
		if c.Module == "" || c.From == c.To {
			continue
		}
		key := moduleKey(c.Module)
		for k := range man {
			if k == key || strings.HasPrefix(k, key+".") {
				delete(man, k)
			}
		}
	}
	if len(man) != n {
		if err := man.Write(manPath); err != nil {
			return hcl.Diagnostics{errorDiag("Failed to write module manifest", err.Error())}, err
		}
	}
	return nil, nil
}

// installed sets each change's To to what the lock file and the module
// manifest record after installing.
func (pl *Plan) installed(dir string) {
	o := pl.report.opts
	locks, _, _ := lockfile.ReadFile(lockFileName, lockfile.ReadOptions{Flavour: o.Flavour, TofuVersion: o.Version, Dir: o.Dir})
	man, _ := manifest.Read(pl.report.manifestPath(dir))
	for _, c := range pl.Changes {
		switch {
		case c.Module != "":
			if rec, ok := man[moduleKey(c.Module)]; ok && rec.Version != "" {
				c.To = rec.Version
			}
		case locks != nil && locks.Provider(c.Provider) != nil:
			c.To = locks.Provider(c.Provider).Version().String()
		}
	}
}

// moduleKey is the manifest key of a module path: module.a.module.b is a.b.
func moduleKey(path string) string {
	return strings.ReplaceAll(strings.TrimPrefix(path, "module."), ".module.", ".")
}

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// writeAtomic replaces path with data through a temporary file in the
// same directory, keeping the file's mode.
func writeAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tfdeps-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// modulesBackup is a copy of the modules directory taken before an
// install ("" when there was none to copy).
type modulesBackup struct{ dir, copy string }

// snapshot copies dir (the modules directory) to a temporary directory
// outside the data directory, which holds nothing of tfdeps' own.
func snapshot(dir string) (*modulesBackup, error) {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return &modulesBackup{dir: dir}, nil
	}
	tmp, err := os.MkdirTemp("", "tfdeps-modules-*")
	if err != nil {
		return nil, err
	}
	if err := copyTree(dir, tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &modulesBackup{dir: dir, copy: tmp}, nil
}

// restore puts the copy back in place of whatever the install left.
func (b *modulesBackup) restore() error {
	if err := os.RemoveAll(b.dir); err != nil {
		return err
	}
	if b.copy == "" {
		return nil
	}
	if os.Rename(b.copy, b.dir) == nil {
		return nil
	}
	// Another file system: copy back.
	if err := os.Mkdir(b.dir, 0o755); err != nil {
		return err
	}
	if err := copyTree(b.copy, b.dir); err != nil {
		return err
	}
	return os.RemoveAll(b.copy)
}

func (b *modulesBackup) discard() {
	if b.copy != "" {
		os.RemoveAll(b.copy)
	}
}

// copyTree copies the directory src to dst (which exists): directories,
// regular files and symbolic links, with their permissions.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Mkdir(target, info.Mode().Perm()|0o700)
		case info.Mode()&os.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case info.Mode().IsRegular():
			return copyFile(path, target, info.Mode().Perm())
		}
		return nil // sockets and the like are not module content
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
