package modules

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	getter "github.com/hashicorp/go-getter"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/modules/manifest"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// prefetcher fetches the packages of the whole tree ahead of the walk and
// in parallel: it follows module calls as the walk will (reusing what the
// manifest says is installed), fetches each distinct package once into a
// per-run staging directory or the shared cache, and reads the fetched
// modules to find their calls. The walk takes packages from it (obtain);
// what it could not fetch the walk fetches itself, so errors keep
// OpenTofu's texts.
type prefetcher struct {
	ctx    context.Context
	cancel context.CancelFunc
	w      *walk
	snap   manifest.Manifest
	sem    chan struct{}
	stage  string

	mu   sync.Mutex
	jobs map[string]*stageJob
	seq  int
	wg   sync.WaitGroup
}

type stageJob struct {
	done chan struct{}
	res  stagedPackage
	err  error
}

// stagedPackage is a fetched package, copied into place by the walk.
type stagedPackage struct {
	dir string
}

func startPrefetch(ctx context.Context, w *walk, root *config.Module) *prefetcher {
	n := w.o.Parallelism
	if n == 0 {
		n = 8
	}
	stage, err := os.MkdirTemp("", "tfdeps-modules-")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &prefetcher{ctx: ctx, cancel: cancel, w: w, snap: w.manifest.Clone(), sem: make(chan struct{}, n), stage: stage, jobs: map[string]*stageJob{}}
	p.explore(nil, ".", root, false)
	for _, name := range root.TestFileNames() {
		for _, run := range root.Tests[name].Runs {
			if src, err := moduleaddr.Parse(run.ModuleSource); err == nil && run.ModuleSource != "" {
				path := config.TestRunModulePath(name, run.Name)
				p.call(path, ".", &config.ModuleCall{Name: run.Name, Source: src}, false)
			}
		}
	}
	return p
}

// close stops what the walk no longer needs and removes the staging area.
func (p *prefetcher) close() {
	if p == nil {
		return
	}
	p.cancel()
	p.wg.Wait()
	os.RemoveAll(p.stage)
}

// explore follows the calls of mod, found in dir.
func (p *prefetcher) explore(path []string, dir string, mod *config.Module, replaced bool) {
	if len(path) >= config.MaxTreeDepth {
		return
	}
	for name, c := range mod.ModuleCalls {
		p.call(append(append([]string{}, path...), name), dir, c, replaced)
	}
}

func (p *prefetcher) call(path []string, parentDir string, c *config.ModuleCall, replaced bool) {
	if c.Source == nil {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if p.ctx.Err() != nil {
			return
		}
		key := joinKey(path)
		if dir, ok := p.reused(key, c, replaced); ok {
			p.exploreDir(path, dir, false)
			return
		}
		switch src := c.Source.(type) {
		case moduleaddr.Local:
			p.exploreDir(path, filepath.Join(parentDir, src.String()), true)
		case moduleaddr.Remote:
			if !stageable(src.Package) {
				return
			}
			st, err := p.fetch(src.Package, "", func(dst string) error { return p.w.fetch.get(p.ctx, src.Package, dst) })
			if err == nil {
				if dir, err := getter.SubdirGlob(st.dir, src.Subdir); err == nil {
					p.exploreDir(path, dir, true)
				}
			}
		case moduleaddr.Registry:
			p.registry(path, c, src)
		}
	}()
}

// reused predicts the walk's reuse decision (modules.md §5.2): a call
// below a replaced one is replaced too.
func (p *prefetcher) reused(key string, c *config.ModuleCall, replaced bool) (string, bool) {
	rec, ok := p.snap[key]
	if replaced || p.w.o.Upgrade || !ok || rec.Source != c.Source.String() || !isDir(rec.Dir) {
		return "", false
	}
	if rec.Version != "" && !versionAccepted(rec.Version, c) {
		return "", false
	}
	return rec.Dir, true
}

func (p *prefetcher) exploreDir(path []string, dir string, replaced bool) {
	if !isDir(dir) {
		return
	}
	// Only to find the calls to fetch ahead: without the parent's call, a
	// source built from the child's variables may name another package
	// (fetched for nothing); the walk loads the child as called.
	mod, _ := config.LoadDir(dir, p.w.baseOptions()...)
	p.explore(path, dir, mod, replaced)
}

func (p *prefetcher) registry(path []string, c *config.ModuleCall, src moduleaddr.Registry) {
	if p.w.res == nil {
		return
	}
	listed, err := p.w.res.Versions(p.ctx, src)
	if err != nil {
		return
	}
	constraint := ""
	if c.HasVersion {
		constraint = c.Version
	}
	v, _, _, err := moduleaddr.SelectVersion(listed, constraint)
	if err != nil {
		return
	}
	loc, err := p.w.res.Location(p.ctx, src, v)
	if err != nil {
		return
	}
	key, cacheKey, fill := p.w.registryPackage(p.ctx, src, v, loc)
	if !stageable(key) {
		return
	}
	st, err := p.fetch(key, cacheKey, fill)
	if err != nil {
		return
	}
	p.exploreDir(path, filepath.Join(st.dir, filepath.FromSlash(locationSubdir(loc))), true)
}

// fetch runs fill once per package key, bounded by the semaphore, into
// the shared cache (cacheKey set and a cache configured) or the staging
// area.
func (p *prefetcher) fetch(key, cacheKey string, fill func(dst string) error) (stagedPackage, error) {
	p.mu.Lock()
	j, started := p.jobs[key]
	if !started {
		j = &stageJob{done: make(chan struct{})}
		p.jobs[key] = j
		p.seq++
	}
	seq := p.seq
	p.mu.Unlock()
	if started {
		select {
		case <-j.done:
		case <-p.ctx.Done():
			return stagedPackage{}, p.ctx.Err()
		}
		return j.res, j.err
	}
	defer close(j.done)
	select {
	case p.sem <- struct{}{}:
	case <-p.ctx.Done():
		j.err = p.ctx.Err()
		return j.res, j.err
	}
	defer func() { <-p.sem }()
	if cacheKey != "" && p.w.o.Cache != nil {
		dir, err := p.w.o.Cache.Get(p.ctx, cacheKey, fill)
		j.res, j.err = stagedPackage{dir: dir}, err
		return j.res, j.err
	}
	dst := filepath.Join(p.stage, strconv.Itoa(seq))
	j.res, j.err = stagedPackage{dir: dst}, fill(dst)
	return j.res, j.err
}

func joinKey(path []string) string {
	key := ""
	for i, p := range path {
		if i > 0 {
			key += "."
		}
		key += p
	}
	return key
}
