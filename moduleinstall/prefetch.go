package moduleinstall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	getter "github.com/hashicorp/go-getter"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/registry"
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
	sem    chan struct{} // bounds fetches ahead (urgent ones do not wait)
	stage  string

	mu       sync.Mutex
	jobs     map[string]*stageJob
	explored map[string]bool
	seq      int
	wg       sync.WaitGroup
}

// stageJob is one package fetched ahead: into the staging area (dir
// then moves into place when the walk claims it) or the shared cache.
type stageJob struct {
	done   chan struct{}
	urgent chan struct{} // closed when the walk waits for this package
	hurry  sync.Once
	err    error

	// Guarded by prefetcher.mu: dir is where the package is now; staged
	// says dir is the staging area's (the walk may move it); once claimed,
	// readers wait for placed and read dir again.
	dir     string
	cached  Entry
	staged  bool
	claimed bool
	readers sync.WaitGroup
	placed  chan struct{}
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
	p := &prefetcher{ctx: ctx, cancel: cancel, w: w, snap: w.manifest.Clone(), sem: make(chan struct{}, n), stage: stage, jobs: map[string]*stageJob{}, explored: map[string]bool{}}
	p.explore(nil, ".", root, false)
	for _, name := range root.TestFileNames() {
		for _, run := range root.Tests[name].Runs {
			if call, err := config.TestRunCall(run, w.o.Flavour); err == nil && run.ModuleSource != "" {
				p.call(config.TestRunModulePath(name, run.Name), ".", call, false)
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
			if !p.w.fetch.stageable(src.Package) {
				return
			}
			var pf packageFetch
			if !p.slot(func() { pf = p.w.fetch.remotePackage(p.ctx, src.Package) }) {
				return
			}
			j, err := p.run(pf, false)
			if err == nil {
				p.read(j, func(pkgDir string) {
					if dir, err := getter.SubdirGlob(pkgDir, src.Subdir); err == nil {
						p.exploreDir(path, dir, true)
					}
				})
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
	if replaced || p.w.o.Upgrade || !ok || rec.Source != c.Source.String() || !p.w.isDir(rec.Dir) {
		return "", false
	}
	if rec.Version != "" && !versionAccepted(rec.Version, c) {
		return "", false
	}
	return rec.Dir, true
}

// exploreDir reads the calls of the module in dir, once per directory
// (and reuse state): the same directory has the same calls, and a module
// tree that calls itself (stopped by the walk's cycle check) must not
// make the prefetcher load its directories without end.
func (p *prefetcher) exploreDir(path []string, dir string, replaced bool) {
	if !p.w.isDir(dir) || !p.firstVisit(dir, replaced) {
		return
	}
	// Only to find the calls to fetch ahead: without the parent's call, a
	// source built from the child's variables may name another package
	// (fetched for nothing); the walk loads the child as called.
	mod, _ := config.LoadDir(dir, p.w.baseOptions()...)
	p.explore(path, dir, mod, replaced)
}

func (p *prefetcher) firstVisit(dir string, replaced bool) bool {
	real, err := filepath.EvalSymlinks(p.w.o.inDir(dir))
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return false
	}
	key := fmt.Sprintf("%t %s", replaced, real)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.explored[key] {
		return false
	}
	p.explored[key] = true
	return true
}

func (p *prefetcher) registry(path []string, c *config.ModuleCall, src moduleaddr.Registry) {
	if p.w.res == nil {
		return
	}
	loc, v, ok := p.locate(c, src)
	if !ok {
		return
	}
	pf := p.w.registryPackage(p.ctx, src, v, loc)
	if !p.w.fetch.stageable(pf.key) {
		return
	}
	j, err := p.run(pf, false)
	if err != nil {
		return
	}
	p.read(j, func(pkgDir string) {
		p.exploreDir(path, filepath.Join(pkgDir, filepath.FromSlash(locationSubdir(loc))), true)
	})
}

// acquire takes one of the semaphore's slots (false: canceled).
func (p *prefetcher) acquire() bool {
	select {
	case p.sem <- struct{}{}:
		return true
	case <-p.ctx.Done():
		return false
	}
}

func (p *prefetcher) release() { <-p.sem }

// slot runs fn holding a slot (a git package's ls-remote).
func (p *prefetcher) slot(fn func()) bool {
	if !p.acquire() {
		return false
	}
	defer p.release()
	fn()
	return true
}

// locate asks the registry for the call's version and location, holding
// one of the semaphore's slots (the walk's own requests do not wait for
// one: the resolver shares whichever request starts first).
func (p *prefetcher) locate(c *config.ModuleCall, src moduleaddr.Registry) (registry.ModulePackageLocation, string, bool) {
	var none registry.ModulePackageLocation
	if !p.acquire() {
		return none, "", false
	}
	defer p.release()
	listed, err := p.w.res.Versions(p.ctx, src)
	if err != nil {
		return none, "", false
	}
	constraint := ""
	if c.HasVersion {
		constraint = c.Version
	}
	v, _, _, err := moduleaddr.SelectVersion(listed, constraint)
	if err != nil {
		return none, "", false
	}
	loc, err := p.w.res.Location(p.ctx, src, v)
	return loc, v, err == nil
}

// run fetches pf once per package key, into the shared cache (a cache
// key and a cache) or the staging area, and returns its job when done.
// Fetches ahead wait for one of the semaphore's slots; an urgent one (the
// walk needs the package now) starts at once, also when it was queued
// ahead, so the walk never waits behind packages it needs later.
func (p *prefetcher) run(pf packageFetch, urgent bool) (*stageJob, error) {
	p.mu.Lock()
	j, started := p.jobs[pf.key]
	if !started {
		j = &stageJob{done: make(chan struct{}), urgent: make(chan struct{}), placed: make(chan struct{})}
		p.jobs[pf.key] = j
		p.seq++
	}
	seq := p.seq
	p.mu.Unlock()
	if urgent {
		j.hurry.Do(func() { close(j.urgent) })
	}
	if started {
		select {
		case <-j.done:
		case <-p.ctx.Done():
			return nil, p.ctx.Err()
		}
		return j, j.err
	}
	defer close(j.done)
	select {
	case p.sem <- struct{}{}:
		defer func() { <-p.sem }()
	case <-j.urgent:
	case <-p.ctx.Done():
		j.err = p.ctx.Err()
		return j, j.err
	}
	if pf.cacheKey != "" && p.w.o.Cache != nil {
		e, err := p.w.o.Cache.Get(p.ctx, pf.cacheKey, pf.refresh, pf.fillCache())
		p.mu.Lock()
		j.dir, j.cached, j.err = e.Dir, e, err
		p.mu.Unlock()
		return j, err
	}
	dst := filepath.Join(p.stage, strconv.Itoa(seq))
	err := pf.fill(dst)
	p.mu.Lock()
	j.dir, j.staged, j.err = dst, true, err
	p.mu.Unlock()
	return j, err
}

// read runs fn on the job's directory, where the walk will not move it
// meanwhile.
func (p *prefetcher) read(j *stageJob, fn func(dir string)) {
	p.mu.Lock()
	if j.claimed {
		p.mu.Unlock()
		select {
		case <-j.placed:
		case <-p.ctx.Done():
			return
		}
		p.mu.Lock()
		dir := j.dir
		p.mu.Unlock()
		fn(dir)
		return
	}
	j.readers.Add(1)
	dir := j.dir
	p.mu.Unlock()
	defer j.readers.Done()
	fn(dir)
}

// place puts package pf into instPath for the walk: fetched now if not
// yet, then a staged package is moved there (copied when it cannot be
// moved), a cached one copied. Later readers of the job read instPath.
func (p *prefetcher) place(pf packageFetch, instPath string) error {
	j, err := p.run(pf, true)
	if err != nil {
		return err
	}
	p.mu.Lock()
	if !j.staged {
		e := j.cached
		p.mu.Unlock()
		return e.CopyTo(instPath)
	}
	if j.claimed {
		claimed := j.claimed
		p.mu.Unlock()
		if claimed {
			<-j.placed
		}
		p.mu.Lock()
		dir := j.dir
		p.mu.Unlock()
		return copyInto(instPath, dir)
	}
	j.claimed = true
	p.mu.Unlock()
	defer close(j.placed)
	j.readers.Wait()
	if err := os.Rename(j.dir, instPath); err != nil {
		return copyInto(instPath, j.dir)
	}
	p.mu.Lock()
	j.dir = instPath
	p.mu.Unlock()
	return nil
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
