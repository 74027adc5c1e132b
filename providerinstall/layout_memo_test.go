package providerinstall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/hashes"
)

// countingHasher is a dirHasher whose content hashing is counted, and
// whose clock runs an hour ahead so that files just written count as old
// (skew 0: files just written are racy).
type countingHasher struct {
	mu      sync.Mutex
	calls   int
	memoDir string
}

// newCountingHasher keeps its memos in a new temporary directory.
func newCountingHasher(t *testing.T) *countingHasher {
	return &countingHasher{memoDir: t.TempDir()}
}

// memoPath is the memo path of the package directory dir.
func (c *countingHasher) memoPath(dir string) string {
	return (&dirHasher{memoDir: c.memoDir}).memoPath(dir)
}

func (c *countingHasher) hasher(skew time.Duration) *dirHasher {
	return &dirHasher{
		memoDir: c.memoDir,
		hashDir: func(dir string) (hashes.Hash, error) {
			c.mu.Lock()
			c.calls++
			c.mu.Unlock()
			return hashes.HashDir(dir)
		},
		now: func() time.Time { return time.Now().Add(skew) },
	}
}

func (c *countingHasher) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// memoPackage writes a package directory with an executable and a
// sub-directory file under base/1.0.0/linux_amd64 and returns its path.
func memoPackage(t *testing.T, base string) string {
	t.Helper()
	dir := filepath.Join(base, "1.0.0", "linux_amd64")
	writeFiles(t, dir, map[string]string{"terraform-provider-foo_v1.0.0": "hello\n", "sub/README.md": "doc\n"})
	if err := os.Chmod(filepath.Join(dir, "terraform-provider-foo_v1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func requireMemo(t *testing.T) {
	t.Helper()
	if !memoSupported {
		t.Skip("the h1 memo is used on Linux only")
	}
}

func TestMemoChanges(t *testing.T) {
	requireMemo(t)
	tests := []struct {
		name   string
		change func(t *testing.T, dir, memo string)
		// rehash: the second H1 reads the content again.
		rehash bool
		// stuck: the memo cannot be rewritten, so a third H1 reads again.
		stuck bool
	}{
		{name: "unchanged", change: func(*testing.T, string, string) {}},
		{name: "same size content with times restored", rehash: true, change: func(t *testing.T, dir, _ string) {
			path := filepath.Join(dir, "sub", "README.md")
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, dir, map[string]string{"sub/README.md": "DOC\n"})
			if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "file added", rehash: true, change: func(t *testing.T, dir, _ string) {
			writeFiles(t, dir, map[string]string{"extra": ""})
		}},
		{name: "empty directory added", change: func(t *testing.T, dir, _ string) {
			if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "file removed", rehash: true, change: func(t *testing.T, dir, _ string) {
			if err := os.Remove(filepath.Join(dir, "sub", "README.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "chmod", rehash: true, change: func(t *testing.T, dir, _ string) {
			if err := os.Chmod(filepath.Join(dir, "sub", "README.md"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "file replaced by an identical copy", rehash: true, change: func(t *testing.T, dir, _ string) {
			writeFiles(t, dir, map[string]string{"sub/README.new": "doc\n"})
			if err := os.Rename(filepath.Join(dir, "sub", "README.new"), filepath.Join(dir, "sub", "README.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "corrupt memo", rehash: true, change: func(t *testing.T, _, memo string) {
			if err := os.WriteFile(memo, []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "memo of another format", rehash: true, change: func(t *testing.T, _, memo string) {
			m, err := readMemo(memo)
			if err != nil {
				t.Fatal(err)
			}
			m.Format = "tfdeps-h1-memo/0"
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(memo, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "memo unreadable (a directory)", rehash: true, stuck: true, change: func(t *testing.T, _, memo string) {
			if err := os.Remove(memo); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(memo, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := memoPackage(t, t.TempDir())
			c := newCountingHasher(t)
			memo := c.memoPath(dir)
			h := c.hasher(time.Hour)
			if _, err := h.H1(dir, memo); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(memo); err != nil {
				t.Fatalf("no memo written: %v", err)
			}
			tt.change(t, dir, memo)
			got, err := h.H1(dir, memo)
			if err != nil {
				t.Fatal(err)
			}
			want, err := hashes.HashDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("H1 = %s, want %s", got, want)
			}
			wantCalls := 1
			if tt.rehash {
				wantCalls = 2
			}
			if got := c.count(); got != wantCalls {
				t.Errorf("content hashed %d times, want %d", got, wantCalls)
			}
			if tt.stuck {
				wantCalls++
			}
			if again, err := h.H1(dir, memo); err != nil || again != want {
				t.Errorf("third H1 = %s, %v; want %s", again, err, want)
			}
			if got := c.count(); got != wantCalls {
				t.Errorf("after a third H1: content hashed %d times, want %d", got, wantCalls)
			}
			checkNoTemporaries(t, c, dir)
		})
	}
}

func TestMemoRacyNotTrusted(t *testing.T) {
	requireMemo(t)
	dir := memoPackage(t, t.TempDir())
	c := newCountingHasher(t)
	h := c.hasher(0) // the files were written just now
	for range 2 {
		if _, err := h.H1(dir, c.memoPath(dir)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(c.memoPath(dir)); err == nil {
		t.Error("a memo was written for files younger than the racy margin")
	}
	if got := c.count(); got != 2 {
		t.Errorf("content hashed %d times, want 2", got)
	}
	// The same with the system's clocks.
	if _, err := (&dirHasher{memoDir: c.memoDir}).H1(dir, c.memoPath(dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.memoPath(dir)); err == nil {
		t.Error("a memo was written for files younger than the racy margin (system clock)")
	}
	checkNoTemporaries(t, c, dir)
}

// checkNoTemporaries fails if a memo's temporary file is left beside the
// package directory dir (none are left in the memo directory).
func checkNoTemporaries(t *testing.T, c *countingHasher, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(c.memoDir, "*.tmp*"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary memo files left: %v %v", left, err)
	}
}

func TestMemoNoPath(t *testing.T) {
	dir := memoPackage(t, t.TempDir())
	c := newCountingHasher(t)
	h := c.hasher(time.Hour)
	for range 2 {
		if _, err := h.H1(dir, ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.count(); got != 2 {
		t.Errorf("content hashed %d times, want 2", got)
	}
	if _, err := os.Stat(c.memoPath(dir)); err == nil {
		t.Error("a memo was written although none was asked for")
	}
}

// TestMemoSymlinkedPackage: a target package directory that links to the
// plugin cache shares the cache directory's memo (keyed by the real path)
// and fingerprints the cache's files.
func TestMemoSymlinkedPackage(t *testing.T) {
	requireMemo(t)
	cached := memoPackage(t, t.TempDir())
	target := filepath.Join(t.TempDir(), "1.0.0", "linux_amd64")
	if err := Link(cached, target); err != nil {
		t.Fatal(err)
	}
	c := newCountingHasher(t)
	h := c.hasher(time.Hour)
	want, err := h.H1(target, c.memoPath(target))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := h.H1(target, c.memoPath(target)); err != nil || got != want || c.count() != 1 {
		t.Errorf("second H1 = %s, %v after %d hashings; want %s after 1", got, err, c.count(), want)
	}
	if c.memoPath(cached) != c.memoPath(target) {
		t.Errorf("the link's memo %s is not the cache directory's %s", c.memoPath(target), c.memoPath(cached))
	}

	path := filepath.Join(cached, "terraform-provider-foo_v1.0.0")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, cached, map[string]string{"terraform-provider-foo_v1.0.0": "HELLO\n"})
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	changed, err := h.H1(target, c.memoPath(target))
	if err != nil || changed == want || c.count() != 2 {
		t.Errorf("after changing the cache: H1 = %s, %v after %d hashings; want a new hash after 2", changed, err, c.count())
	}
}

// TestMemoErrors: what cannot be hashed fails as hashes.HashDir does and
// leaves no memo.
func TestMemoErrors(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	writeFiles(t, base, map[string]string{"file": "x"})
	pointsToDir := memoPackage(t, t.TempDir())
	if err := os.Symlink(filepath.Join(pointsToDir, "sub"), filepath.Join(pointsToDir, "dirlink")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dir string }{
		{"missing", filepath.Join(base, "absent")},
		{"not a directory", file},
		{"symlink to a directory inside", pointsToDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, wantErr := hashes.HashDir(tt.dir)
			c := newCountingHasher(t)
			_, err := c.hasher(time.Hour).H1(tt.dir, c.memoPath(tt.dir))
			if wantErr == nil || err == nil {
				t.Fatalf("H1 error = %v, HashDir error = %v; want both to fail", err, wantErr)
			}
			if diff := cmp.Diff(wantErr.Error(), err.Error()); diff != "" {
				t.Errorf("error (-HashDir +H1):\n%s", diff)
			}
			if _, err := os.Stat(c.memoPath(tt.dir)); err == nil {
				t.Error("a memo was written")
			}
			checkNoTemporaries(t, c, tt.dir)
		})
	}
}
