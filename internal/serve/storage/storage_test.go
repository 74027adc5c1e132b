package storage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type failingReader struct {
	data string
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func stores(t *testing.T) map[string]*Store {
	t.Helper()
	dir, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mem, err := Open(context.Background(), "mem://")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Store{"dir": dir, "mem": mem}
}

func TestPutIsAtomic(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			_, err := st.Put(ctx, "a/b.zip", &failingReader{data: strings.Repeat("x", 1<<20), err: errors.New("connection reset")}, PutOptions{})
			if err == nil {
				t.Fatal("Put succeeded with a failing source")
			}
			if _, err := st.Stat(ctx, "a/b.zip"); !errors.Is(err, ErrNotFound) {
				t.Errorf("after a failed Put: %v, want not found", err)
			}
			_, err = st.Put(ctx, "a/c.zip", strings.NewReader(strings.Repeat("y", 100)), PutOptions{MaxSize: 10})
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("oversized Put: %v, want ErrTooLarge", err)
			}
			if keys, _ := st.List(ctx, "", 100); len(keys) != 0 {
				t.Errorf("objects visible after failed writes: %v", keys)
			}
			if err := st.PutBytes(ctx, "a/d", []byte("ok"), PutOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := st.PutBytes(ctx, "a/d", []byte("again"), PutOptions{IfNotExist: true}); !errors.Is(err, ErrExists) {
				t.Errorf("conditional create over an object: %v, want ErrExists", err)
			}
			b, err := st.ReadAll(ctx, "a/d", 10)
			if err != nil || string(b) != "ok" {
				t.Errorf("ReadAll = %q, %v", b, err)
			}
		})
	}
}

func TestCheckKey(t *testing.T) {
	for _, tt := range []struct {
		key string
		ok  bool
	}{
		{"mirror/registry.opentofu.org/hashicorp/null/3.2.1/linux_amd64.zip", true},
		{"", false},
		{"a/../b", false},
		{"a//b", false},
		{"./a", false},
		{"a/b/", false},
		{"a\\b", false},
		{"a\x00b", false},
		{strings.Repeat("a", 1025), false},
	} {
		if err := CheckKey(tt.key); (err == nil) != tt.ok {
			t.Errorf("CheckKey(%q) = %v, want ok=%v", tt.key, err, tt.ok)
		}
	}
	st := stores(t)["dir"]
	if _, err := st.Put(context.Background(), "../escape", strings.NewReader("x"), PutOptions{}); err == nil {
		t.Error("Put accepted a key leaving the bucket")
	}
}

func TestLease(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			l, err := st.AcquireLease(ctx, "leases/x", holder("one"), time.Minute, clock)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.AcquireLease(ctx, "leases/x", holder("two"), time.Minute, clock); !errors.Is(err, ErrLeaseHeld) {
				t.Errorf("second acquire: %v, want ErrLeaseHeld", err)
			}
			later := func() time.Time { return now.Add(2 * time.Minute) }
			l2, err := st.AcquireLease(ctx, "leases/x", holder("two"), time.Minute, later)
			if err != nil {
				t.Fatalf("acquire after expiry: %v", err)
			}
			if err := l2.Release(ctx); err != nil {
				t.Fatal(err)
			}
			_ = l
			l3, err := st.AcquireLease(ctx, "leases/x", holder("three"), time.Minute, clock)
			if err != nil {
				t.Fatalf("acquire after release: %v", err)
			}
			l3.Release(ctx)
		})
	}
}

func TestSweepTemp(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st.PutBytes(ctx, "a/keep.zip", []byte("x"), PutOptions{})
	os.WriteFile(filepath.Join(dir, "a", "b.zip.18eb2dd5235f66d5.tmp"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, "a", "notes.tmp"), []byte("not ours"), 0o644)
	n, err := st.SweepTemp(time.Hour, time.Now().Add(2*time.Hour))
	if err != nil || n != 1 {
		t.Errorf("SweepTemp = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "keep.zip")); err != nil {
		t.Errorf("swept an object: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "notes.tmp")); err != nil {
		t.Errorf("swept a file that is not a temporary object: %v", err)
	}
}
