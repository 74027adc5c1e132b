package fleet

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"
)

// Func does one root's work: it writes what it prints to t.Stdout and
// t.Stderr (held back until the root's turn), reports progress with
// t.Progress, stops when ctx is cancelled, and says how it went.
type Func func(ctx context.Context, t *Task) Outcome

// Outcome is what a root's function reports.
type Outcome struct {
	// Err is the root's first error; nil when the root succeeded.
	Err error
	// Providers and Modules count what the root installed or found
	// installed (for the final table).
	Providers, Modules int
}

// Task is one root as its function sees it.
type Task struct {
	// Root is the root as given to Run; Index its position there.
	Root  string
	Index int
	// Stdout and Stderr buffer the root's output; they may be written from
	// several goroutines.
	Stdout, Stderr io.Writer

	run *runState
}

// Progress adds packages finished and bytes received to the fleet's
// totals, sending a Progress event.
func (t *Task) Progress(packages int, bytes int64) {
	r := t.run
	r.mu.Lock()
	defer r.mu.Unlock()
	r.packages += packages
	r.bytes += bytes
	r.emit(Progress{Packages: r.packages, Bytes: r.bytes})
}

// Status is how a root ended.
type Status int

const (
	// Succeeded: the root's function returned no error.
	Succeeded Status = iota
	// Failed: it returned an error (or panicked).
	Failed
	// NotRun: the run was cancelled before the root's turn.
	NotRun
)

func (s Status) String() string {
	switch s {
	case Succeeded:
		return "ok"
	case Failed:
		return "failed"
	default:
		return "not run"
	}
}

// RootResult is how one root went.
type RootResult struct {
	Root   string
	Index  int
	Status Status
	// Err is the root's first error (Failed only).
	Err                error
	Providers, Modules int
	// Duration is how long the root's function ran.
	Duration time.Duration
	// Output is what the root printed (empty when not run).
	Output *Output
}

// Options are a run's settings.
type Options struct {
	// Parallelism bounds the roots worked on at once; 0 or less means
	// runtime.NumCPU().
	Parallelism int
	// Release, when set, is handed each root's result in root order, as
	// soon as that root and every root before it are finished: print its
	// output there. It is never called concurrently, nor concurrently
	// with Events.
	Release func(RootResult)
	// Events, when set, hears the run's events.
	Events func(Event)
	// Now is the clock durations are measured with (nil: time.Now).
	Now func() time.Time
}

// Summary is how a whole run went.
type Summary struct {
	// Results has one entry per root, in root order.
	Results []RootResult
	// Packages and Bytes are the totals the roots reported.
	Packages int
	Bytes    int64
	Elapsed  time.Duration
}

// Failed returns the roots that failed, in root order.
func (s *Summary) Failed() []RootResult { return s.with(Failed) }

// NotRun returns the roots not run because the run was cancelled.
func (s *Summary) NotRun() []RootResult { return s.with(NotRun) }

// OK reports whether every root succeeded.
func (s *Summary) OK() bool { return len(s.Failed()) == 0 && len(s.NotRun()) == 0 }

func (s *Summary) with(st Status) []RootResult {
	var out []RootResult
	for _, r := range s.Results {
		if r.Status == st {
			out = append(out, r)
		}
	}
	return out
}

// Run calls fn for every root, at most opts.Parallelism at once, starting
// them in root order. A root that fails does not stop the others; once
// ctx is cancelled no further root is started (running ones see the
// cancelled ctx) and the roots left are reported as NotRun. Run returns
// when every started root has returned and every result was released.
func Run(ctx context.Context, roots []string, fn Func, opts Options) *Summary {
	r := newRunState(roots, opts)
	start := r.now()
	n := opts.Parallelism
	if n <= 0 {
		n = runtime.NumCPU()
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	started := 0
	for i := range roots {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		started++
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r.runRoot(ctx, i, fn)
		}()
	}
	wg.Wait()
	for i := started; i < len(roots); i++ {
		r.finish(RootResult{Root: roots[i], Index: i, Status: NotRun})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return &Summary{Results: r.results, Packages: r.packages, Bytes: r.bytes, Elapsed: r.now().Sub(start)}
}

// runState is one run's bookkeeping, guarded by mu.
type runState struct {
	opts  Options
	roots []string
	mu    sync.Mutex
	// results[i] is valid once done[i]; next is the first root not yet
	// released.
	results  []RootResult
	done     []bool
	finished int
	next     int
	packages int
	bytes    int64
}

func newRunState(roots []string, opts Options) *runState {
	return &runState{opts: opts, roots: roots, results: make([]RootResult, len(roots)), done: make([]bool, len(roots))}
}

func (r *runState) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

// runRoot runs one root's function; a panic in it fails that root only.
func (r *runState) runRoot(ctx context.Context, i int, fn Func) {
	root := r.roots[i]
	out := &Output{}
	t := &Task{Root: root, Index: i, Stdout: stream{out: out}, Stderr: stream{out: out, stderr: true}, run: r}
	r.mu.Lock()
	r.emit(RootStarted{Root: root, Index: i})
	r.mu.Unlock()
	start := r.now()
	o := call(ctx, fn, t)
	res := RootResult{Root: root, Index: i, Status: Succeeded, Providers: o.Providers, Modules: o.Modules, Duration: r.now().Sub(start), Output: out}
	if o.Err != nil {
		res.Status, res.Err = Failed, o.Err
	}
	r.finish(res)
}

func call(ctx context.Context, fn Func, t *Task) (o Outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = Outcome{Err: fmt.Errorf("internal error: %v", p)}
		}
	}()
	return fn(ctx, t)
}

// finish records a root's result and releases every result whose turn
// has come.
func (r *runState) finish(res RootResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results[res.Index] = res
	r.done[res.Index] = true
	r.finished++
	r.emit(RootFinished{Result: res, Done: r.finished, Total: len(r.results)})
	for r.next < len(r.done) && r.done[r.next] {
		if r.opts.Release != nil {
			r.opts.Release(r.results[r.next])
		}
		r.next++
	}
}

// emit sends an event; r.mu is held.
func (r *runState) emit(e Event) {
	if r.opts.Events != nil {
		r.opts.Events(e)
	}
}
