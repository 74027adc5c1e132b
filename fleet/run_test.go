package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var testRoots = []string{"a", "b", "c", "d", "e", "f"}

// recorder keeps what a run released and the events it sent, as text.
type recorder struct {
	mu  sync.Mutex
	log []string
	out bytes.Buffer
}

func (r *recorder) options(n int) Options {
	return Options{
		Parallelism: n,
		Release: func(res RootResult) {
			r.add("release " + res.Root)
			fmt.Fprintf(&r.out, "== %s\n", res.Root)
			res.Output.WriteTo(&r.out, &r.out)
		},
		Events: func(e Event) {
			switch e := e.(type) {
			case RootStarted:
				r.add("start " + e.Root)
			case RootFinished:
				r.add(fmt.Sprintf("finish %s %s %d/%d", e.Result.Root, e.Result.Status, e.Done, e.Total))
			case Progress:
				r.add(fmt.Sprintf("progress %d %d", e.Packages, e.Bytes))
			}
		},
	}
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, s)
}

func (r *recorder) lines(prefix string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.log {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestRun(t *testing.T) {
	tests := []struct {
		name        string
		parallelism int
		fn          func(ctx context.Context, cancel func(), t *Task) Outcome
		wantLog     []string // the whole log, when the order is deterministic
		wantRelease []string
		wantOut     string
		wantStatus  []Status
		wantErrs    []string // Err of each root, "" for none
	}{
		{
			name:        "one at a time: each root released before the next starts",
			parallelism: 1,
			fn: func(_ context.Context, _ func(), t *Task) Outcome {
				fmt.Fprintf(t.Stdout, "out %s\n", t.Root)
				t.Progress(1, 10)
				return Outcome{Providers: 1}
			},
			wantLog: []string{
				"start a", "progress 1 10", "finish a ok 1/3", "release a",
				"start b", "progress 2 20", "finish b ok 2/3", "release b",
				"start c", "progress 3 30", "finish c ok 3/3", "release c",
			},
			wantOut:    "== a\nout a\n== b\nout b\n== c\nout c\n",
			wantStatus: []Status{Succeeded, Succeeded, Succeeded},
			wantErrs:   []string{"", "", ""},
		},
		{
			name:        "later roots finish first: released in root order, never interleaved",
			parallelism: 6,
			fn: func() func(context.Context, func(), *Task) Outcome {
				// Each root waits for the one after it to finish.
				done := make([]chan struct{}, len(testRoots))
				for i := range done {
					done[i] = make(chan struct{})
				}
				return func(ctx context.Context, _ func(), t *Task) Outcome {
					defer close(done[t.Index])
					fmt.Fprintf(t.Stdout, "%s 1\n", t.Root)
					fmt.Fprintf(t.Stderr, "%s 2\n", t.Root)
					if t.Index+1 < len(done) {
						select {
						case <-done[t.Index+1]:
						case <-ctx.Done():
						}
					}
					fmt.Fprintf(t.Stdout, "%s 3\n", t.Root)
					return Outcome{}
				}
			}(),
			wantRelease: []string{"release a", "release b", "release c", "release d", "release e", "release f"},
			wantOut:     "== a\na 1\na 2\na 3\n== b\nb 1\nb 2\nb 3\n== c\nc 1\nc 2\nc 3\n== d\nd 1\nd 2\nd 3\n== e\ne 1\ne 2\ne 3\n== f\nf 1\nf 2\nf 3\n",
			wantStatus:  []Status{Succeeded, Succeeded, Succeeded, Succeeded, Succeeded, Succeeded},
			wantErrs:    []string{"", "", "", "", "", ""},
		},
		{
			name:        "a failing root does not stop the others",
			parallelism: 2,
			fn: func(_ context.Context, _ func(), t *Task) Outcome {
				switch t.Root {
				case "b":
					return Outcome{Err: errors.New("b is broken")}
				case "e":
					panic("e panicked")
				}
				return Outcome{Modules: 2}
			},
			wantRelease: []string{"release a", "release b", "release c", "release d", "release e", "release f"},
			wantStatus:  []Status{Succeeded, Failed, Succeeded, Succeeded, Failed, Succeeded},
			wantErrs:    []string{"", "b is broken", "", "", "internal error: e panicked", ""},
		},
		{
			name:        "cancelled: roots not started are not run, and still released in order",
			parallelism: 1,
			fn: func(ctx context.Context, cancel func(), t *Task) Outcome {
				if t.Root == "b" {
					cancel()
					return Outcome{Err: ctx.Err()}
				}
				return Outcome{}
			},
			wantLog: []string{
				"start a", "finish a ok 1/6", "release a",
				"start b", "finish b failed 2/6", "release b",
				"finish c not run 3/6", "release c",
				"finish d not run 4/6", "release d",
				"finish e not run 5/6", "release e",
				"finish f not run 6/6", "release f",
			},
			wantStatus: []Status{Succeeded, Failed, NotRun, NotRun, NotRun, NotRun},
			wantErrs:   []string{"", "context canceled", "", "", "", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &recorder{}
			roots := testRoots
			if tt.wantStatus != nil {
				roots = testRoots[:len(tt.wantStatus)]
			}
			sum := Run(ctx, roots, func(ctx context.Context, task *Task) Outcome { return tt.fn(ctx, cancel, task) }, rec.options(tt.parallelism))
			if tt.wantLog != nil {
				if diff := cmp.Diff(tt.wantLog, rec.lines("")); diff != "" {
					t.Errorf("log (-want +got):\n%s", diff)
				}
			}
			if tt.wantRelease != nil {
				if diff := cmp.Diff(tt.wantRelease, rec.lines("release")); diff != "" {
					t.Errorf("releases (-want +got):\n%s", diff)
				}
			}
			if tt.wantOut != "" {
				if diff := cmp.Diff(tt.wantOut, rec.out.String()); diff != "" {
					t.Errorf("output (-want +got):\n%s", diff)
				}
			}
			var gotStatus []Status
			var gotErrs []string
			for i, r := range sum.Results {
				if r.Root != roots[i] || r.Index != i {
					t.Errorf("result %d is %s (index %d)", i, r.Root, r.Index)
				}
				gotStatus = append(gotStatus, r.Status)
				e := ""
				if r.Err != nil {
					e = r.Err.Error()
				}
				gotErrs = append(gotErrs, e)
			}
			if diff := cmp.Diff(tt.wantStatus, gotStatus); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErrs, gotErrs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunParallelismBound: never more than Parallelism roots at once, and
// that many do run together (the first n wait for each other: with fewer
// at once the run would stop at the context's deadline).
func TestRunParallelismBound(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var running, most atomic.Int32
			var arrived sync.WaitGroup
			arrived.Add(n)
			gate := make(chan struct{})
			go func() { arrived.Wait(); close(gate) }()
			roots := make([]string, 4*n)
			for i := range roots {
				roots[i] = fmt.Sprint(i)
			}
			sum := Run(ctx, roots, func(ctx context.Context, task *Task) Outcome {
				cur := running.Add(1)
				defer running.Add(-1)
				for {
					m := most.Load()
					if cur <= m || most.CompareAndSwap(m, cur) {
						break
					}
				}
				if task.Index < n {
					arrived.Done()
					select {
					case <-gate:
					case <-ctx.Done():
						return Outcome{Err: errors.New("the first roots did not run together")}
					}
				}
				return Outcome{}
			}, Options{Parallelism: n})
			if !sum.OK() {
				t.Fatalf("failed: %v", sum.Failed())
			}
			if got := int(most.Load()); got != n {
				t.Errorf("at most %d roots ran at once, want %d", got, n)
			}
		})
	}
}

// TestRunCancelRunning: a cancellation reaches the roots running, and the
// rest are not started.
func TestRunCancelRunning(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started sync.WaitGroup
	started.Add(2)
	go func() { started.Wait(); cancel() }()
	sum := Run(ctx, testRoots, func(ctx context.Context, task *Task) Outcome {
		started.Done()
		<-ctx.Done()
		return Outcome{Err: fmt.Errorf("%s interrupted: %w", task.Root, ctx.Err())}
	}, Options{Parallelism: 2})
	var got []string
	for _, r := range sum.Failed() {
		got = append(got, r.Err.Error())
	}
	if diff := cmp.Diff([]string{"a interrupted: context canceled", "b interrupted: context canceled"}, got); diff != "" {
		t.Errorf("failed roots (-want +got):\n%s", diff)
	}
	if n := len(sum.NotRun()); n != 4 {
		t.Errorf("%d roots not run, want 4", n)
	}
	if sum.OK() {
		t.Error("OK after a cancellation")
	}
}

// TestOutputConcurrentWrites: writes from several goroutines of one root
// are all kept, each whole.
func TestOutputConcurrentWrites(t *testing.T) {
	sum := Run(context.Background(), []string{"x"}, func(_ context.Context, task *Task) Outcome {
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 100; i++ {
					w := task.Stdout
					if i%2 == 1 {
						w = task.Stderr
					}
					fmt.Fprintf(w, "line %d %d\n", g, i)
				}
			}()
		}
		wg.Wait()
		return Outcome{}
	}, Options{})
	out := sum.Results[0].Output
	if n := strings.Count(string(out.Bytes(false)), "\n"); n != 400 {
		t.Errorf("%d stdout lines, want 400", n)
	}
	if n := strings.Count(string(out.Bytes(true)), "\n"); n != 400 {
		t.Errorf("%d stderr lines, want 400", n)
	}
}
