//go:build linux

package providerinstall

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/hashes"
)

// TestRememberLinked: a package directory whose files were linked into
// another directory after its fingerprints were taken (their change time
// moved) gets its memo written again by rememberLinked, not by
// rememberWritten; one whose content changed gets none.
func TestRememberLinked(t *testing.T) {
	for _, tt := range []struct {
		name     string
		linked   bool // rememberLinked, not rememberWritten
		modify   bool // the file's content changes after the stamps
		wantMemo bool
	}{
		{name: "linked", linked: true, wantMemo: true},
		{name: "written", linked: false, wantMemo: false},
		{name: "linked and modified", linked: true, modify: true, wantMemo: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "pkg")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			exe := filepath.Join(dir, "terraform-provider-x")
			if err := os.WriteFile(exe, []byte("binary"), 0o755); err != nil {
				t.Fatal(err)
			}
			h1, err := hashes.HashDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, stamps, ok := stampPackage(dir)
			if !ok {
				t.Fatal("no stamps")
			}
			time.Sleep(20 * time.Millisecond) // a change time the stamps do not have
			if err := os.Link(exe, filepath.Join(base, "other")); err != nil {
				t.Fatal(err)
			}
			if tt.modify {
				if err := os.WriteFile(exe, []byte("changed binary"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			h := &dirHasher{memoDir: filepath.Join(base, "memo")}
			if tt.linked {
				h.rememberLinked(dir, h1, stamps)
			} else {
				h.rememberWritten(dir, h1, stamps)
			}
			_, err = os.Stat(h.memoPath(dir))
			if got := err == nil; got != tt.wantMemo {
				t.Fatalf("memo written: %v, want %v", got, tt.wantMemo)
			}
			if !tt.wantMemo {
				return
			}
			// The memo answers without hashing.
			h.hashDir = func(string) (hashes.Hash, error) { t.Fatal("hashed despite the memo"); return "", nil }
			got, err := h.H1(dir, h.memoPath(dir))
			if err != nil || got != h1 {
				t.Fatalf("H1 = %s, %v; want %s", got, err, h1)
			}
		})
	}
}

// TestSharedPackagesAfterInterrupt: an extraction ended by one
// installation's interrupt is not the next installation's failure; a
// package extracted is shared.
func TestSharedPackagesAfterInterrupt(t *testing.T) {
	p := writeZip(t, zipEntry{name: "terraform-provider-x", content: "binary", mode: 0o755})
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	a := &Archive{Path: p, Size: int64(len(b)), SHA256: sha256.Sum256(b)}
	s := NewSharedPackages(t.TempDir())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.extracted(cancelled, a, ExtractOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted extraction: %v, want context.Canceled", err)
	}
	dir, h1, err := s.extracted(context.Background(), a, ExtractOptions{})
	if err != nil || h1 == "" {
		t.Fatalf("extraction after an interrupted one: %q, %v", h1, err)
	}
	again, h1again, err := s.extracted(context.Background(), a, ExtractOptions{})
	if err != nil || again != dir || h1again != h1 || s.Extractions() != 1 {
		t.Fatalf("second installation: %s %s %v, %d extractions; want %s %s, 1", again, h1again, err, s.Extractions(), dir, h1)
	}
}
