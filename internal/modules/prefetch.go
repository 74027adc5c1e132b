package modules

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	getter "github.com/hashicorp/go-getter"
	version "github.com/hashicorp/go-version"

	"github.com/tfdeps/tfdeps/config"
)

// prefetcher fetches the packages of the whole tree ahead of the walk and
// in parallel: it follows module calls as OpenTofu's walk would (reusing
// what the manifest says is installed), fetches each distinct package
// once into a per-run staging directory or the shared cache, and reads
// the fetched modules to find their calls. The walk takes packages from
// it (staged); anything it could not fetch the walk fetches itself, so
// errors keep OpenTofu's texts.
type prefetcher struct {
	ctx    context.Context
	cancel context.CancelFunc
	w      *walk
	snap   Manifest
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
	p := &prefetcher{ctx: ctx, cancel: cancel, w: w, snap: Manifest{}, sem: make(chan struct{}, n), stage: stage, jobs: map[string]*stageJob{}}
	for k, v := range w.manifest {
		p.snap[k] = v
	}
	p.explore(nil, ".", root, false)
	for _, name := range root.TestFileNames() {
		for _, run := range root.Tests[name].Runs {
			if run.ModuleSource != "" {
				path := append(append([]string{"test"}, testKeyParts(name)...), run.Name)
				p.call(path, ".", request{name: run.Name, path: path, raw: run.ModuleSource}, false)
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
	for _, c := range mod.ModuleCalls {
		req := callRequest(path, c)
		p.call(req.path, dir, req, replaced)
	}
}

func (p *prefetcher) call(path []string, parentDir string, req request, replaced bool) {
	src, err := ParseSource(req.raw, req.hasVersion)
	if err != nil || req.name == "" {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if p.ctx.Err() != nil {
			return
		}
		if dir, ok := p.reused(req, src, replaced); ok {
			p.exploreDir(path, dir, false)
			return
		}
		switch src.Kind {
		case KindLocal:
			p.exploreDir(path, filepath.Join(parentDir, src.Local), true)
		case KindRemote:
			if !stageable(src.Package) {
				return
			}
			st, err := p.fetch(src.Package, "", func(dst string) error { return p.w.fetch.get(p.ctx, src.Package, dst) })
			if err == nil {
				if dir, err := getter.SubdirGlob(st.dir, src.Subdir); err == nil {
					p.exploreDir(path, dir, true)
				}
			}
		case KindRegistry:
			p.registry(path, req, src)
		}
	}()
}

// reused predicts the walk's reuse decision (modules.md §5.2).
func (p *prefetcher) reused(req request, src Source, replaced bool) (string, bool) {
	rec, ok := p.snap[req.key()]
	if replaced || p.w.o.Upgrade || !ok || rec.Source != src.String() || !isDir(rec.Dir) {
		return "", false
	}
	if rec.Version != "" {
		v, err := version.NewVersion(rec.Version)
		cons, cerr := version.NewConstraint(req.constraint)
		if err != nil || (cerr == nil && !cons.Check(v)) {
			return "", false
		}
	}
	return rec.Dir, true
}

func (p *prefetcher) exploreDir(path []string, dir string, replaced bool) {
	if !isDir(dir) {
		return
	}
	mod, _ := config.LoadDir(dir, p.w.o.Config...)
	p.explore(path, dir, mod, replaced)
}

func (p *prefetcher) registry(path []string, req request, src Source) {
	if p.w.res == nil {
		return
	}
	listed, err := p.w.res.Versions(p.ctx, src.Registry.Package)
	if err != nil {
		return
	}
	sel := selectVersion(listed, req.constraint)
	if sel.match == nil {
		return
	}
	v := sel.match.String()
	loc, err := p.w.res.Location(p.ctx, src.Registry.Package, v)
	if err != nil {
		return
	}
	key, cacheKey, fill := p.w.registryPackage(p.ctx, src, v, loc)
	st, err := p.fetch(key, cacheKey, fill)
	if err != nil {
		return
	}
	p.exploreDir(path, filepath.Join(st.dir, filepath.FromSlash(loc.Subdir), filepath.FromSlash(src.Subdir)), true)
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
